/**
 * A finished (or stopped) run turned into its report: per target the partitions, the hottest keys,
 * the heat map, the throttling reasons and findings in words; per pattern the throttled requests.
 */
import { partitionAt } from './hash.ts';
import { PARTITION_READ_UNITS_PER_SECOND, PARTITION_WRITE_UNITS_PER_SECOND } from './limits.ts';
import { KEY_SPAN, KEY_TOP_OFFSET } from './model.ts';
import { AWS_GSI_BACK_PRESSURE, AWS_ON_DEMAND, AWS_PARTITION_KEY_DESIGN, AWS_QUOTAS } from './sources.ts';
import type { SimulationState, TargetState } from './engine.ts';
import type { HotKey, PartitionStat, PatternResult, SimulationResult, TargetResult, ThrottlingReason } from './types.ts';

/** The hottest keys listed per target. */
export const HOTTEST_KEYS = 10;

const capacityUnits = (read: number, write: number) => read / PARTITION_READ_UNITS_PER_SECOND + write / PARTITION_WRITE_UNITS_PER_SECOND;
const round = (n: number, digits = 3) => {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
};

/** `92%`, `0.4%`, `100%`; `<0.1%` for a share that is not zero but rounds to it. */
export function formatShare(fraction: number): string {
  const pct = fraction * 100;
  if (pct > 0 && pct < 0.05) return '<0.1%';
  const text = pct >= 10 || pct === 0 ? String(Math.round(pct)) : String(Math.round(pct * 10) / 10);
  return `${text}%`;
}

/** `0:05:00`. */
export function formatSecond(second: number): string {
  const s = Math.max(0, Math.round(second));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `${h}:${String(m).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

const count = (n: number) => Math.round(n).toLocaleString('en-US');

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

function hottestKeys(state: SimulationState, target: TargetState, steps: number, totalUnits: number): HotKey[] {
  const keys = target.model.keys;
  const average = Array.from(state.multiplierSums, (sum) => sum / steps);
  const loads = keys.map((key, k) => {
    let read = 0;
    let write = 0;
    let top = 0;
    target.keyLoad.forEach((load, g) => {
      const m = average[g] ?? 0;
      read += m * ((load.spreadRead[k] as number) + (load.topRead[k] as number));
      write += m * ((load.spreadWrite[k] as number) + (load.topWrite[k] as number));
      top += m * capacityUnits(load.topRead[k] as number, load.topWrite[k] as number);
    });
    return { key, read, write, units: capacityUnits(read, write), top };
  });
  return loads
    .filter((l) => l.units > 0)
    .sort((a, b) => b.units - a.units || (a.key.key < b.key.key ? -1 : 1))
    .slice(0, HOTTEST_KEYS)
    .map((l) => ({
      key: l.key.key,
      partition: partitionAt(target.starts, l.top > l.units / 2 ? l.key.position + KEY_SPAN - KEY_TOP_OFFSET : l.key.position),
      share: totalUnits > 0 ? round(l.units / totalUnits, 6) : 0,
      readUnitsPerSecond: round(l.read),
      writeUnitsPerSecond: round(l.write),
    }));
}

/** The key carrying most of one kind of load inside partition `i`. */
function topKeyIn(state: SimulationState, target: TargetState, i: number, kind: 'read' | 'write'): string | undefined {
  const a = target.starts[i] as number;
  const b = i + 1 < target.starts.length ? (target.starts[i + 1] as number) : 1;
  let best: { key: string; load: number } | undefined;
  target.model.keys.forEach((key, k) => {
    if (key.position + KEY_SPAN <= a || key.position >= b) return;
    let load = 0;
    target.keyLoad.forEach((l, g) => {
      const m = (state.multiplierSums[g] as number) / Math.max(1, state.step);
      load += m * (kind === 'read' ? (l.spreadRead[k] as number) + (l.topRead[k] as number) : (l.spreadWrite[k] as number) + (l.topWrite[k] as number));
    });
    if (load > 0 && (!best || load > best.load)) best = { key: key.key, load };
  });
  return best?.key;
}

function summaryOf(state: SimulationState, target: TargetState, partitions: PartitionStat[], steps: number): string[] {
  const label = target.model.label;
  const p = partitions.length;
  const model = target.model;
  const lines: string[] = [];
  const splits = target.splits.filter((s) => s.at !== undefined);
  const fmt = (n: number) => (Math.round(n * 100) / 100).toLocaleString('en-US');
  lines.push(
    `${label} has ${p} partition${p === 1 ? '' : 's'} (${fmt(model.partitions.partitionsForSize)} needed for size, ${fmt(model.partitions.partitionsForThroughput)} for throughput` +
      `${splits.length > 0 ? `; ${splits.length} more from splits for heat` : ''}).`,
  );
  for (const kind of ['write', 'read'] as const) {
    const loads = partitions.map((s) => (kind === 'write' ? s.writeUnitsPerSecond : s.readUnitsPerSecond));
    const total = loads.reduce((a, b) => a + b, 0);
    if (!(total > 0) || p < 2) continue;
    const busiest = loads.reduce((best, v, i) => (v > (loads[best] as number) ? i : best), 0);
    const share = (loads[busiest] as number) / total;
    if (share < Math.max(2 / p, 0.2)) continue;
    const key = topKeyIn(state, target, busiest, kind);
    lines.push(`${label} partition ${busiest} takes ${formatShare(share)} of ${kind}s${key ? `, key ${key}` : ''}.`);
  }
  const readShare = target.throttledReadSteps / steps;
  const writeShare = target.throttledWriteSteps / steps;
  const resource = model.kind === 'table' ? 'base-table' : `${label}`;
  if (writeShare > 0) {
    const from = target.backPressureSteps > 0 ? ` (back-pressure from ${[...target.backPressureFrom].join(', ')})` : '';
    lines.push(`${capitalize(resource)} writes throttled ${formatShare(writeShare)} of the time${from}.`);
  }
  if (readShare > 0) lines.push(`${capitalize(resource)} reads throttled ${formatShare(readShare)} of the time.`);
  const before = splits.filter((s) => s.second === 0);
  const during = splits.filter((s) => s.second > 0);
  if (before.length > 0) {
    lines.push(`${label}: ${before.length} split${before.length === 1 ? '' : 's'} for heat before the run, where the design's base load keeps partitions above 80% of their limit${before[0]?.key ? ` (key ${before[0].key})` : ''}.`);
  }
  const first = during[0];
  if (first) lines.push(`${label} split for heat ${during.length} time${during.length === 1 ? '' : 's'} during the run, first at ${formatSecond(first.second)}${first.key ? ` (key ${first.key})` : ''}.`);
  for (const refused of target.splits.filter((s) => s.refused !== undefined)) {
    const key = refused.key ? `key ${refused.key}` : `partition ${refused.partition}`;
    lines.push(
      refused.refused === 'monotonic'
        ? `Split for heat cannot relieve ${key}: its writes follow an ever-increasing sort key, so every split leaves them on one partition (see ${AWS_PARTITION_KEY_DESIGN}).`
        : `Split for heat cannot relieve ${key}: the load is one ${model.canSplitCollections ? 'item' : 'item collection, which is not cut by sort key here (an LSI, or a provisioned table with streams)'} (see ${AWS_PARTITION_KEY_DESIGN}).`,
    );
  }
  if (target.throttledSteps === 0) {
    const peak = partitions.reduce((max, s) => Math.max(max, capacityUnits(s.peakReadUnitsPerSecond, s.peakWriteUnitsPerSecond)), 0);
    lines.push(`No throttling on ${label === 'Table' ? 'the table' : label}: the busiest partition peaks at ${formatShare(peak)} of its limit.`);
  }
  return lines;
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function targetResult(state: SimulationState, target: TargetState): TargetResult {
  const steps = Math.max(1, state.step);
  const p = target.starts.length;
  const { items, bytes } = itemsPerPartition(target);
  const partitions: PartitionStat[] = [];
  let totalUnits = 0;
  let largest = 0;
  for (let i = 0; i < p; i += 1) {
    const read = (target.sumRead[i] as number) / steps;
    const write = (target.sumWrite[i] as number) / steps;
    const units = capacityUnits(read, write);
    totalUnits += units;
    largest = Math.max(largest, units);
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
  const stepsIn = (b: number) => Math.max(1, Math.min(state.bucketSteps, steps - b * state.bucketSteps));
  const values: number[][] = [];
  const throttled: number[][] = [];
  for (let b = 0; b < buckets; b += 1) {
    values.push(target.heat.map((h) => round((h[b] as number) / stepsIn(b))));
    throttled.push(target.throttledHeat.map((h) => Math.round(h[b] as number)));
  }
  const throttles = [...target.reasonCalls]
    .map(([reason, calls]) => ({ reason: reason as ThrottlingReason, requests: Math.round(calls) }))
    .filter((t) => t.requests > 0)
    .sort((a, b) => b.requests - a.requests);
  const capacity = target.model.capacity;
  return {
    name: target.model.name,
    kind: target.model.kind,
    label: target.model.label,
    capacity:
      capacity.mode === 'provisioned'
        ? { mode: 'provisioned', readUnitsPerSecond: capacity.readUnitsPerSecond, writeUnitsPerSecond: capacity.writeUnitsPerSecond }
        : { mode: 'onDemand' },
    partitionCount: p,
    partitionsForSize: round(target.model.partitions.partitionsForSize, 4),
    partitionsForThroughput: round(target.model.partitions.partitionsForThroughput, 4),
    partitions,
    hottestKeys: hottestKeys(state, target, steps, totalUnits),
    largestShare: totalUnits > 0 ? round(largest / totalUnits, 4) : 0,
    heat: { bucketSeconds: state.bucketSteps * state.stepSeconds, values, throttled },
    throttles,
    throttledTimeShare: round(target.throttledSteps / steps, 4),
    summary: summaryOf(state, target, partitions, steps),
    splits: target.splits.map((s) => ({ ...s })),
  };
}

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
    targets: state.targets.map((t) => targetResult(state, t)),
    patterns: patternResults(state),
    assumptions: [...state.model.assumptions, ...ENGINE_ASSUMPTIONS],
  };
}

/** The choices the time-step simulation rests on (docs/dynamodb-rules.md §4, §10), in words; each cites its AWS page or its assumption. */
export const ENGINE_ASSUMPTIONS: readonly string[] = [
  `Each partition serves 3,000 read units or 1,000 write units a second (${AWS_PARTITION_KEY_DESIGN}), or a linear combination (R/3,000 + W/1,000 ≤ 1), enforced per step (Keyplan assumptions: the linear combination, and one-second steps).`,
  `Provisioned capacity is shared evenly over partitions; a partition over its share takes capacity other partitions leave unused at once (adaptive capacity), then spends its own burst bucket of 300 seconds of its share, refilled by capacity nobody used and full at the start (burst and adaptive capacity: ${AWS_PARTITION_KEY_DESIGN}; how they are modeled is a Keyplan assumption).`,
  `On-demand serves up to the new-table level (12,000 reads/s or 4,000 writes/s, a linear combination) or twice the previous peak, and a peak counts as previous once it is 30 minutes old; the steady load before the run is the first peak (${AWS_ON_DEMAND}). Load past that throttles as a key-range throttle (partitions not yet split). The per-table quota is 40,000 read and 40,000 write units/s (${AWS_QUOTAS}).`,
  'The table has run at the design\'s base load before the run: split for heat has already cut what that load keeps hot, burst buckets are full and the base load is on-demand\'s previous peak.',
  `A partition above 80% of its limit for 5 minutes splits at the middle of its load (a Keyplan assumption: AWS does not publish the trigger), never below one item, never inside one item collection with an LSI (or on a provisioned table with streams), and not when the busier half would keep 90% of the load: writes under one partition key with an ever-increasing sort key (a timestamp, or "today" traffic) stay on one partition whatever the cut (${AWS_PARTITION_KEY_DESIGN}).`,
  `A GSI write that throttles throttles the base-table write that caused it (back-pressure, ${AWS_GSI_BACK_PRESSURE}); the table is simulated after its GSIs in each step, and GSI read throttles never affect the table.`,
  'Requests arrive as a Poisson process: per step the number of requests of each group of patterns varies by about √n around its mean (seeded). Within a step, load divides over keys in its expected shares.',
];
