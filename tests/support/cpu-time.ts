/**
 * CPU time for the unit tests that bound how long something takes.
 *
 * Wall time counts every other process on the machine: with the suite's files running side by side
 * on two cores, a 20 ms computation can take 200 ms of wall time and fail a bound it meets. CPU time
 * (user + system, `process.cpuUsage`) counts only what this process spent, so the bounds hold under
 * load. Vitest runs each file in a forked process, so no other test's work is counted.
 */

/** The CPU milliseconds this process has used so far (user + system). */
export function cpuNowMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Runs `fn` and returns its result with the CPU milliseconds it took. */
export function cpuTimed<T>(fn: () => T): { value: T; ms: number } {
  const started = cpuNowMs();
  const value = fn();
  return { value, ms: cpuNowMs() - started };
}
