/**
 * The `keyplan` command's start-up, as a user meets it: whole processes `node bin/keyplan.mjs check`
 * and `node bin/keyplan.mjs cost` on examples/ecommerce.keyplan.json, against `node -e 0` (Node's
 * own start, which no CLI can beat) as the baseline. Targets: check 200 ms, cost 300 ms (medians).
 *
 * The three processes take turns, run after run, so a machine busy with other work slows them
 * alike. The bin runs the bundle `npm run build` writes when it is current and the TypeScript
 * sources through tsx otherwise; this says which one it timed.
 */
import { spawnSync } from 'node:child_process';
import { relative } from 'node:path';
import { currentBundle, DEFAULT_BUNDLE_DIR, ROOT } from '../bin/cli-bundle.mjs';
import { type BenchResult, median } from './result.ts';

const RUNS = 15;
const EXAMPLE = 'examples/ecommerce.keyplan.json';

/** One whole process, from spawn to exit, in milliseconds; throws when it does not exit 0. */
function timeProcess(args: string[]): number {
  const start = performance.now();
  const run = spawnSync(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const elapsed = performance.now() - start;
  if (run.status !== 0) throw new Error(`node ${args.join(' ')} exited ${run.status ?? run.signal}: ${run.stderr}`);
  return elapsed;
}

/** Start-up of `keyplan check` and `keyplan cost` against `node -e 0`. */
export async function benchCli(): Promise<BenchResult[]> {
  const processes = [
    { name: 'cli.node-e-0', label: 'node -e 0', args: ['-e', '0'], target: null },
    { name: 'cli.check-ecommerce', label: `keyplan check ${EXAMPLE}`, args: ['bin/keyplan.mjs', 'check', EXAMPLE], target: 200 },
    { name: 'cli.cost-ecommerce', label: `keyplan cost ${EXAMPLE}`, args: ['bin/keyplan.mjs', 'cost', EXAMPLE], target: 300 },
  ];
  const isBundled = () => currentBundle() !== undefined && process.env.KEYPLAN_CLI_SOURCE !== '1';
  const bundled = isBundled();
  const where = relative(ROOT, DEFAULT_BUNDLE_DIR);
  console.log(
    bundled
      ? `keyplan start-up: the bundle in ${where}, ${RUNS} runs of each process after one warm-up, in turns.`
      : `keyplan start-up: no current bundle in ${where} (run "npm run build"), so this times the TypeScript sources through tsx; ${RUNS} runs each after one warm-up, in turns.`,
  );
  const times = processes.map(() => [] as number[]);
  for (const p of processes) timeProcess(p.args);
  let switched = false;
  for (let run = 0; run < RUNS; run += 1) {
    switched ||= isBundled() !== bundled;
    processes.forEach((p, i) => times[i]!.push(timeProcess(p.args)));
  }
  if (switched || isBundled() !== bundled) console.log('  a source changed during the runs, so some ran the sources and some the bundle: run again.');

  const baseline = { name: processes[0]!.name, median: Math.round(median(times[0]!)) };
  return processes.map((p, i) => {
    const m = median(times[i]!);
    console.log(`${p.label}: ${times[i]!.map((t) => t.toFixed(0)).join(', ')} ms (median ${m.toFixed(0)} ms${i === 0 ? '' : `, ${(m / baseline.median).toFixed(1)}× node -e 0`})`);
    if (i === 0) return { name: p.name, median: baseline.median, unit: 'ms', target: null };
    return { name: p.name, median: Math.round(m), unit: 'ms', target: p.target, baseline, ratio: Math.round((m / baseline.median) * 10) / 10 };
  });
}
