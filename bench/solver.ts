/**
 * The key-design solver's benchmark (issue 17, "Quality bar, measured"): each design of the solver's
 * reference set (bench designs: the bundled e-commerce example and three published single-table
 * designs, src-shared/solver/__fixtures__/references.ts) solved from its entities and access
 * patterns alone, key templates and indexes removed, with "no Scan". Per design, medians of 3 runs:
 *
 * - solver.<design>.total: the whole search, finalists' simulations included. Target 10 s.
 * - solver.<design>.first-design: when the first complete design was there. Target 1 s.
 * - solver.<design>.cost-vs-reference: the best proposal's monthly cost ÷ the hand-made design's
 *   (the cost engine prices both). Target 1 (no more than the reference).
 *
 * Run alone: `node --expose-gc --import tsx bench/solver.ts`.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { costDesign } from '../src-shared/costing/index.ts';
import type { Design } from '../src-shared/model/index.ts';
import { forum, gameScores, telemetry } from '../src-shared/solver/__fixtures__/references.ts';
import { solve, stripKeyDesign } from '../src-shared/solver/index.ts';
import { type BenchResult, median } from './result.ts';

const RUNS = 3;
const gc = (globalThis as { gc?: () => void }).gc;

const DESIGNS: [string, () => Design][] = [
  ['ecommerce', () => JSON.parse(readFileSync(resolve(import.meta.dirname, '../examples/ecommerce.keyplan.json'), 'utf8')) as Design],
  ['forum', forum],
  ['game-scores', gameScores],
  ['telemetry', telemetry],
];

export async function benchSolver(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  console.log(`Solver: each design from its entities and patterns alone (no Scan), ${RUNS} runs, medians.`);
  for (const [name, make] of DESIGNS) {
    const reference = make();
    const stripped = stripKeyDesign(reference);
    const table = reference.tables[0]!;
    const hand = costDesign(reference);
    const handUsd = table.billing.mode === 'ON_DEMAND' ? hand.onDemandMonthly.value : hand.provisionedMonthly.value;
    const totals: number[] = [];
    const firsts: number[] = [];
    let best = Number.NaN;
    let evaluated = 0;
    for (let i = 0; i < RUNS; i += 1) {
      gc?.();
      const started = performance.now();
      const result = solve(stripped, table.id, { noScan: true });
      totals.push(performance.now() - started);
      firsts.push(result.firstDesignMs);
      const [top] = result.proposals;
      best = top && top.feasible ? top.monthlyUsd : Number.NaN;
      evaluated = result.evaluated;
    }
    const ratio = best / handUsd;
    console.log(
      `${name}: ${evaluated} candidates in ${totals.map((t) => t.toFixed(0)).join(', ')} ms (median ${median(totals).toFixed(0)} ms); first complete design at ${median(firsts).toFixed(0)} ms; best $${best.toFixed(2)}/month against the hand-made $${handUsd.toFixed(2)}: ${ratio.toFixed(3)}×`,
    );
    results.push(
      { name: `solver.${name}.total`, median: Math.round(median(totals)), unit: 'ms', target: 10_000 },
      { name: `solver.${name}.first-design`, median: Math.round(median(firsts)), unit: 'ms', target: 1_000 },
      { name: `solver.${name}.cost-vs-reference`, median: Number(ratio.toFixed(4)), unit: 'x', target: 1, baseline: { name: `${name} as designed by hand ($/month)`, median: Number(handUsd.toFixed(2)) }, ratio: Number(ratio.toFixed(4)) },
    );
  }
  return results;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const results = await benchSolver();
  console.log(JSON.stringify(results));
}
