/**
 * A finished (or stopped) run turned into its report: per target the partitions, the hottest keys
 * (key-report.ts), the heat map, the throttling reasons and findings in words (findings.ts); per
 * pattern the throttled requests.
 */
import * as hash from './hash.ts';
import * as limits from './limits.ts';
import * as model from './model.ts';
import { engineAssumptions, partitionOriginsOf, round, summaryOf } from './findings.ts';
import { hottestKeys, keyReports, throttledKeys } from './key-report.ts';
import { offeredSums, type SimulationState, type TargetState } from './state.ts';
import type { PartitionStat, PatternResult, SimulationResult, TargetResult, ThrottlingReason } from './types.ts';

// Module-local copies of what the per-partition and per-key loops read: an imported binding can
// compile to a property getter (tsx, vitest), which costs more than the arithmetic around it.
const partitionAt = hash.partitionAt;
const capacityUnits = limits.capacityUnits;
const MAX_PARTITIONS = limits.MAX_PARTITIONS;
const KEY_SPAN = model.KEY_SPAN;
const KEY_TOP_OFFSET = model.KEY_TOP_OFFSET;

/** Items and bytes per partition: the background's by each range's width, each key's by its share of the key's range. */
function itemsPerPartition(target: TargetState): { items: Float64Array; bytes: Float64Array } {
  const p = target.starts.length;
  const items = new Float64Array(p);
  const bytes = new Float64Array(p);
  const { background, keys } = target.model;
  for (let i = 0; i < p; i += 1) {
    const width = (i + 1 < p ? (target.starts[i + 1] as number) : 1) - (target.starts[i] as number);
    items[i] = background.items * width;
    bytes[i] = background.bytes * width;
  }
  for (const key of keys) {
    const first = partitionAt(target.starts, key.position);
    const last = partitionAt(target.starts, key.position + KEY_SPAN - KEY_TOP_OFFSET);
    for (let i = first; i <= last; i += 1) {
      const from = Math.max(key.position, target.starts[i] as number);
      const to = Math.min(key.position + KEY_SPAN, i + 1 < p ? (target.starts[i + 1] as number) : 1);
      const share = first === last ? 1 : Math.max(0, to - from) / KEY_SPAN;
      items[i] = (items[i] as number) + key.items * share;
      bytes[i] = (bytes[i] as number) + key.bytes * share;
    }
  }
  return { items, bytes };
}

/** One target's report over the steps done. */
function targetResult(state: SimulationState, target: TargetState): TargetResult {
  const steps = Math.max(1, state.step);
  const p = target.starts.length;
  const { items, bytes } = itemsPerPartition(target);
  const partitions: PartitionStat[] = [];
  let totalUnits = 0;
  let largest = 0;
  let largestPartition = 0;
  const sums = offeredSums(state, target);
  for (let i = 0; i < p; i += 1) {
    const read = (sums.read[i] as number) / steps;
    const write = (sums.write[i] as number) / steps;
    const units = capacityUnits(read, write);
    totalUnits += units;
    // Partitions that carry the same load (to rounding noise) name the first of them.
    if (units > largest * (1 + 1e-9)) {
      largest = units;
      largestPartition = i;
    }
    partitions.push({
      index: i,
      range: [target.starts[i] as number, i + 1 < p ? (target.starts[i + 1] as number) : 1],
      items: Math.round(items[i] as number),
      bytes: Math.round(bytes[i] as number),
      readUnitsPerSecond: round(read),
      writeUnitsPerSecond: round(write),
      peakReadUnitsPerSecond: round(target.peakRead[i] as number),
      peakWriteUnitsPerSecond: round(target.peakWrite[i] as number),
      throttledRequests: Math.round(target.throttledCalls[i] as number),
    });
  }
  const buckets = Math.ceil(steps / state.bucketSteps);
  const values: number[][] = [];
  const throttled: number[][] = [];
  for (let b = 0; b < buckets; b += 1) {
    // Arrays of their final length, filled once (no growing arrays to collect).
    const row = new Array<number>(p);
    const throttledRow = new Array<number>(p);
    const at = b * target.heatStride;
    for (let i = 0; i < p; i += 1) {
      row[i] = Math.round((target.heat[at + i] as number) * 1000) / 1000;
      throttledRow[i] = Math.round(target.throttledHeat[at + i] as number);
    }
    values.push(row);
    throttled.push(throttledRow);
  }
  const throttles = [...target.reasonCalls]
    .map(([reason, calls]) => ({ reason: reason as ThrottlingReason, requests: Math.round(calls) }))
    .filter((t) => t.requests > 0)
    .sort((a, b) => b.requests - a.requests);
  const capacity = target.model.capacity;
  const loads = keyReports(state, target, steps);
  const throttledList = throttledKeys(target, loads, totalUnits, state.headroom);
  const backgroundTraffic = target.sources.some((s) => s.source.background > 0 && s.baseUnits > 0);
  return {
    name: target.model.name,
    kind: target.model.kind,
    label: target.model.label,
    capacity:
      capacity.mode === 'provisioned'
        ? { mode: 'provisioned', readUnitsPerSecond: capacity.readUnitsPerSecond, writeUnitsPerSecond: capacity.writeUnitsPerSecond }
        : {
            mode: 'onDemand',
            ...(capacity.maxReadUnitsPerSecond !== undefined ? { maxReadUnitsPerSecond: capacity.maxReadUnitsPerSecond } : {}),
            ...(capacity.maxWriteUnitsPerSecond !== undefined ? { maxWriteUnitsPerSecond: capacity.maxWriteUnitsPerSecond } : {}),
          },
    partitionCount: p,
    partitionsForSize: round(target.model.partitions.partitionsForSize, 4),
    partitionsForThroughput: round(target.model.partitions.partitionsForThroughput, 4),
    partitionOrigins: partitionOriginsOf(target),
    partitions,
    hottestKeys: hottestKeys(loads, totalUnits),
    largestShare: totalUnits > 0 ? round(largest / totalUnits, 4) : 0,
    largestPartition,
    throttledKeys: throttledList,
    keysWithTraffic: { named: loads.length, background: backgroundTraffic ? Math.round(target.model.background.keys) : 0 },
    heat: { bucketSeconds: state.bucketSteps * state.stepSeconds, values, throttled },
    throttles,
    throttledTimeShare: round(target.throttledSteps / steps, 4),
    summary: summaryOf(state, target, partitions, steps, throttledList),
    splits: target.splits.map((s) => ({ ...s })),
    ...(target.capped ? { capped: { ...target.capped, cap: MAX_PARTITIONS } } : {}),
  };
}

/** Each pattern's requests and throttled requests, in total and per heat-map bucket. */
function patternResults(state: SimulationState): PatternResult[] {
  const buckets = Math.ceil(Math.max(1, state.step) / state.bucketSteps);
  return state.model.patterns.map((pattern, i) => {
    const ps = state.patterns[i];
    const requests = ps?.calls ?? 0;
    const throttled = ps?.throttled ?? 0;
    return {
      patternId: pattern.id,
      name: pattern.name,
      requests: Math.round(requests),
      throttled: Math.round(throttled),
      throttledFraction: requests > 0 ? round(throttled / requests, 4) : 0,
      reasons: [...(ps?.reasons ?? [])].sort() as ThrottlingReason[],
      timeline: {
        bucketSeconds: state.bucketSteps * state.stepSeconds,
        requests: Array.from(ps?.callsByBucket.subarray(0, buckets) ?? [], (v) => Math.round(v)),
        throttled: Array.from(ps?.throttledByBucket.subarray(0, buckets) ?? [], (v) => Math.round(v)),
      },
    };
  });
}

/** The report of a run, over the steps done so far (all of them, for a finished run). */
export function finishSimulation(state: SimulationState): SimulationResult {
  return {
    seed: state.seed,
    tableName: state.model.tableName,
    durationSeconds: state.durationSeconds,
    stepSeconds: state.stepSeconds,
    hash: state.model.hash,
    start: state.start,
    partitionLimits: state.limits,
    targets: state.targets.map((t) => targetResult(state, t)),
    patterns: patternResults(state),
    assumptions: [...engineAssumptions(state), ...state.model.assumptions],
  };
}
