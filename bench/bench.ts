/**
 * `npm run bench`: the sample store and the partition simulator against their targets on this
 * machine, each the median of several runs. Human-readable lines first; the last line is one JSON
 * object `{"results": [{"name", "median", "unit", "target"}]}` for tools. Not part of `npm test`:
 * timings belong here, never in tests.
 *
 * 1. sample.generate-and-place-1m: 1,000,000 items generated (`createSampleStore`) and placed on
 *    the bench table's 1,000 partitions with the simulator's hash (`placeKeyColumns`). Target 2,000 ms.
 * 2. simulate.1h-1000-partitions-20-patterns: `simulate` of the bench design (model, 3,600 steps of
 *    one second, the report). Target 1,000 ms.
 * 3. per-request-loop: the same workload one request at a time (pick the key by the pattern's
 *    shares, hash it, find its partition, check the partition's limit for that second), and the
 *    simulator's speed as a ratio to it.
 */
import { buildSimulationModel, createRandom, hashFraction, multiplierAt, placeKeyColumns, simulate } from '../src-shared/partition/index.ts';
import type { SimulationModel } from '../src-shared/partition/index.ts';
import { createSampleStore } from '../src-shared/sample/index.ts';
import { benchDesign } from './designs.ts';

interface BenchResult {
  name: string;
  median: number;
  unit: string;
  target: number | null;
}

const RUNS = 5;
const design = benchDesign();
const table = design.tables[0]!;
const gc = (globalThis as { gc?: () => void }).gc;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Runs `fn` once to warm up, then `RUNS` times; returns the times in milliseconds. */
function time(label: string, fn: () => unknown): number[] {
  fn();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    gc?.();
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  console.log(`${label}: ${times.map((t) => t.toFixed(0)).join(', ')} ms (median ${median(times).toFixed(0)} ms)`);
  return times;
}

/** The simulator's workload, one request at a time: placed by its key's hash, checked against its partition's limit. */
function perRequestLoop(model: SimulationModel): { requests: number; throttled: number } {
  const workload = design.workload!;
  const target = model.targets[0]!;
  const partitions = target.partitions.partitionCount;
  const random = createRandom(workload.seed);
  const backgroundKeys = Array.from({ length: 65_536 }, (_, i) => `${table.name}#background-${i}`);
  // Per source: cumulative shares over its named keys, the rest drawn from the background keys.
  const sources = target.sources.map((s) => {
    const cumulative = new Float64Array(s.keys.length);
    let sum = 0;
    s.keys.forEach((k, i) => (cumulative[i] = sum += k.share));
    const pattern = model.patterns[s.patternIndex]!;
    const events = workload.events.filter((e) => e.patternIds === undefined || e.patternIds.includes(pattern.id));
    return { source: s, cumulative, keys: s.keys.map((k) => target.keys[k.key]!.key), rate: pattern.ratePerSecond, events, carry: 0 };
  });
  const reads = new Float64Array(partitions);
  const writes = new Float64Array(partitions);
  let requests = 0;
  let throttled = 0;
  for (let second = 0; second < workload.durationSeconds; second += 1) {
    reads.fill(0);
    writes.fill(0);
    for (const s of sources) {
      const exact = s.rate * multiplierAt(s.events, second) + s.carry;
      const count = Math.floor(exact);
      s.carry = exact - count;
      const units = s.source.unitsPerCall;
      const isRead = s.source.kind === 'read';
      for (let n = 0; n < count; n += 1) {
        const u = random();
        let key: string;
        if (u < (s.cumulative[s.cumulative.length - 1] ?? 0)) {
          let low = 0;
          let high = s.cumulative.length - 1;
          while (low < high) {
            const mid = (low + high) >> 1;
            if (s.cumulative[mid]! > u) high = mid;
            else low = mid + 1;
          }
          key = s.keys[low]!;
        } else key = backgroundKeys[Math.floor(random() * backgroundKeys.length)]!;
        const p = Math.min(partitions - 1, Math.floor(hashFraction(key) * partitions));
        requests += 1;
        const r = reads[p]! + (isRead ? units : 0);
        const w = writes[p]! + (isRead ? 0 : units);
        if (r / 3000 + w / 1000 > 1) throttled += 1;
        else {
          reads[p] = r;
          writes[p] = w;
        }
      }
    }
  }
  return { requests, throttled };
}

const results: BenchResult[] = [];
console.log(`Node ${process.version}, ${RUNS} runs each after one warm-up${gc ? ', GC between runs' : ''}.`);

// 1. A million items generated and placed on partitions.
const model = buildSimulationModel(design, table);
const partitionCount = model.targets[0]!.partitions.partitionCount;
let placed = 0;
const sampleTimes = time(`1,000,000 items generated and placed on ${partitionCount} partitions`, () => {
  const store = createSampleStore(design, table.id, { maxItems: 1_000_000, seed: 1 });
  const placement = placeKeyColumns(store.keysOf('table'), partitionCount);
  placed = placement.items.reduce((a, b) => a + b, 0);
});
console.log(`  placed ${placed.toLocaleString('en-US')} items`);
results.push({ name: 'sample.generate-and-place-1m-items', median: Math.round(median(sampleTimes)), unit: 'ms', target: 2000 });

// 2. One hour at one-second steps, 1,000 partitions, 20 patterns.
let summary: string[] = [];
const simulateTimes = time(`simulate: 1 hour at 1 s steps, ${partitionCount} partitions, ${table.accessPatterns.length} patterns`, () => {
  summary = simulate(design, table.id).targets[0]!.summary;
});
console.log(`  ${summary.join(' ')}`);
results.push({ name: 'simulate.1h-1s-steps-1000-partitions-20-patterns', median: Math.round(median(simulateTimes)), unit: 'ms', target: 1000 });

// 3. The same workload one request at a time.
let loop = { requests: 0, throttled: 0 };
const loopTimes = time('per-request loop over the same workload', () => {
  loop = perRequestLoop(buildSimulationModel(design, table));
});
console.log(`  ${loop.requests.toLocaleString('en-US')} requests placed and checked one by one, ${loop.throttled.toLocaleString('en-US')} over a partition's limit`);
results.push({ name: 'per-request-loop.1h-same-workload', median: Math.round(median(loopTimes)), unit: 'ms', target: null });
const ratio = median(loopTimes) / median(simulateTimes);
console.log(`simulator speed: ${ratio.toFixed(1)}× the per-request loop`);
results.push({ name: 'simulate.speed-vs-per-request-loop', median: Math.round(ratio * 10) / 10, unit: 'x', target: null });

console.log(JSON.stringify({ results }));
