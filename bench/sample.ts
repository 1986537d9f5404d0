/**
 * The sample store's benchmark (issue 15, "Sample store"): 1,000,000 items of the bench design
 * (bench/designs.ts) generated with `createSampleStore` and placed on the bench table's 1,000
 * partitions with the simulator's hash, each partition key hashed from its structure, the FNV state
 * of its literal prefix plus its digits (`store.placement`). Target: 400 ms, median of five runs
 * after one warm-up, on the 2-core machine the README names.
 *
 * Baseline: the same store placed the way the bench placed it before, every partition key rendered
 * as text and hashed (`placeKeyColumns(store.keysOf('table'))`). Both place every item on the same
 * partition (checked below, and in src-shared/sample/golden.test.ts).
 *
 * Run alone: `node --expose-gc --import tsx bench/sample.ts`.
 */
import { pathToFileURL } from 'node:url';
import { buildSimulationModel, placeKeyColumns } from '../src-shared/partition/index.ts';
import { createSampleStore } from '../src-shared/sample/index.ts';
import { benchDesign } from './designs.ts';
import { type BenchResult, median } from './result.ts';

const RUNS = 5;
const ITEMS = 1_000_000;
const TARGET_MS = 400;
const gc = (globalThis as { gc?: () => void }).gc;

/** Runs `fn` once to warm up, then `RUNS` times; returns the times in milliseconds (the warm-up's is printed: a first run in a fresh process). */
function time(label: string, fn: () => unknown): number[] {
  const first = performance.now();
  fn();
  const warmUp = performance.now() - first;
  const times: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    gc?.();
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  console.log(`${label}: ${times.map((t) => t.toFixed(0)).join(', ')} ms (median ${median(times).toFixed(0)} ms; first run ${warmUp.toFixed(0)} ms)`);
  return times;
}

/** Generate-and-place of 1,000,000 items: keys hashed from their structure, against keys rendered and hashed as text. */
export async function benchSample(): Promise<BenchResult[]> {
  const design = benchDesign();
  const table = design.tables[0]!;
  const partitionCount = buildSimulationModel(design, table).targets[0]!.partitions.partitionCount;
  const generate = () => createSampleStore(design, table.id, { maxItems: ITEMS, seed: 1 });

  let structural: Float64Array = new Float64Array(0);
  const times = time(`${ITEMS.toLocaleString('en-US')} items generated and placed on ${partitionCount.toLocaleString('en-US')} partitions (keys hashed from their structure)`, () => {
    structural = generate().placement('table', partitionCount).items;
  });
  let rendered: Float64Array = new Float64Array(0);
  const baselineTimes = time('  the same, keys rendered and hashed as text (placeKeyColumns)', () => {
    rendered = placeKeyColumns(generate().keysOf('table'), partitionCount).items;
  });

  const placed = structural.reduce((a, b) => a + b, 0);
  const isSame = structural.length === rendered.length && structural.every((x, i) => x === rendered[i]);
  console.log(`  placed ${placed.toLocaleString('en-US')} items; ${isSame ? 'the same placement both ways' : 'THE PLACEMENTS DIFFER'}`);
  if (!isSame) throw new Error('benchSample: keys hashed from their structure were placed differently from their rendered text.');

  const result = median(times);
  const baseline = median(baselineTimes);
  console.log(`  ${(baseline / result).toFixed(1)}× the rendered-key path; target ${TARGET_MS} ms`);
  return [
    {
      name: 'sample.generate-and-place-1m-items',
      median: Math.round(result),
      unit: 'ms',
      target: TARGET_MS,
      baseline: { name: 'sample.generate-and-place-1m-items.rendered-keys', median: Math.round(baseline) },
      ratio: Math.round((baseline / result) * 10) / 10,
    },
  ];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify({ results: await benchSample() }));
}
