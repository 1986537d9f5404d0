/**
 * Names for the tasks this window starts in the host (sample generation, simulations, solver and
 * Run runs): the host reports progress and takes a cancel by this name, so no two may share one.
 */
let counter = 0;

/** `sample-lz3k9a-12`: the kind of task, the time in base 36, and a counter of this window. */
export function newTaskId(kind: 'sample' | 'sim' | 'solve' | 'run'): string {
  counter += 1;
  return `${kind}-${Date.now().toString(36)}-${counter}`;
}
