/**
 * `npm run bench`: every speed target of Keyplan measured on this machine, each the median of
 * several runs and, where there is one, beside a fair baseline run in the same process. Human-readable
 * lines first; the last line is one JSON object
 * `{"machine", "results": [{"name", "median", "unit", "target", "baseline"?, "ratio"?}]}` for tools.
 * Not part of `npm test`: timings belong here, never in tests.
 *
 * - bench/costing.ts: costing per edit (200 patterns × 20 GSIs, and the example) against a full
 *   re-costing; the browser's keystroke-to-figure latency when an e2e run recorded it.
 * - bench/simulator.ts: the simulator's hour (1,000 partitions, 20 patterns; 40× the rates; 200
 *   patterns), its growth with partitions and patterns, and its speed against a per-request loop.
 * - bench/sample.ts: 1,000,000 items generated and placed.
 * - bench/cli.ts: `keyplan check` and `keyplan cost` as whole processes against `node -e 0`.
 * - bench/solver.ts: the key-design solver on four designs with their keys removed: total time,
 *   time to the first complete design, and the best proposal's cost against the hand-made design.
 *
 * `npm run bench -- costing simulator` runs only those parts. Each part runs in a process of its own
 * (this script again, with the part's results written to a file): a part's heap and compiled code
 * never weigh on the next one's timings.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { benchCli } from './cli.ts';
import { benchCosting } from './costing.ts';
import { benchSample } from './sample.ts';
import { benchSimulator } from './simulator.ts';
import { benchSolver } from './solver.ts';
import { type BenchResult } from './result.ts';

const PARTS: Record<string, () => Promise<BenchResult[]>> = {
  costing: benchCosting,
  simulator: benchSimulator,
  sample: benchSample,
  cli: benchCli,
  solver: benchSolver,
};

const asked = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const unknown = asked.filter((a) => !(a in PARTS));
if (unknown.length > 0) {
  console.error(`bench: unknown part ${unknown.join(', ')}; expected ${Object.keys(PARTS).join(', ')}`);
  process.exit(2);
}
/** Set in a part's own process: the file its results go to. */
const RESULTS_FILE = process.env.KEYPLAN_BENCH_RESULTS;
if (RESULTS_FILE !== undefined) {
  const results: BenchResult[] = [];
  for (const name of asked) results.push(...(await PARTS[name]!()));
  writeFileSync(RESULTS_FILE, JSON.stringify(results));
  process.exit(0);
}

const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.version}, ${process.platform}`;
console.log(`Machine: ${machine}`);

const results: BenchResult[] = [];
const dir = mkdtempSync(join(tmpdir(), 'keyplan-bench-'));
try {
  for (const name of Object.keys(PARTS)) {
    if (asked.length > 0 && !asked.includes(name)) continue;
    console.log(`\n# ${name}`);
    const file = join(dir, `${name}.json`);
    // The same entry point and Node flags (--expose-gc), one part, its output shown as it runs.
    const child = spawnSync(process.execPath, [...process.execArgv, process.argv[1]!, name], { stdio: 'inherit', env: { ...process.env, KEYPLAN_BENCH_RESULTS: file } });
    if (child.status !== 0) {
      console.error(`bench: part ${name} failed (exit ${child.status ?? child.signal})`);
      process.exit(1);
    }
    results.push(...(JSON.parse(readFileSync(file, 'utf8')) as BenchResult[]));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

// A target is a ceiling (times, growth ratios), except a speed-up against a baseline, which is a floor.
const isFloor = (r: BenchResult): boolean => r.name.includes('speed-vs');
const missed = results.filter((r) => r.target !== null && (isFloor(r) ? r.median < r.target : r.median > r.target));
console.log(`\n${results.filter((r) => r.target !== null).length - missed.length} of ${results.filter((r) => r.target !== null).length} targets met${missed.length > 0 ? `; missed: ${missed.map((r) => `${r.name} ${r.median} ${r.unit} (target ${r.target})`).join(', ')}` : ''}.`);
console.log(JSON.stringify({ machine, results }));
