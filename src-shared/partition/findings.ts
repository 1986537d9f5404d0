/**
 * The simulator's report in words: each target's findings (where its partitions came from, how it
 * started, its busiest partition, its throttled keys and splits), the run's assumptions, and how
 * the report writes its numbers, seconds and partition counts.
 */
import { formatShare, formatCount, formatNumber, formatSignificant } from '../numbers/index.ts';
import { MAX_PARTITIONS, ON_DEMAND_INITIAL_READ_UNITS, ON_DEMAND_INITIAL_WRITE_UNITS, PARTITION_READ_UNITS_PER_SECOND, PARTITION_WRITE_UNITS_PER_SECOND, partitionUtilization } from './limits.ts';
import { KEY_SPAN } from './model.ts';
import { AWS_GSI_BACK_PRESSURE, AWS_ON_DEMAND, AWS_ON_DEMAND_MAXIMUM, AWS_PARTITION_KEY_DESIGN, AWS_PARTITION_LIMITS, AWS_QUOTAS, AWS_WARM_THROUGHPUT } from './sources.ts';
import type { SimulationState, TargetState } from './state.ts';
import type { PartitionStat, TargetResult, ThrottledKey } from './types.ts';

type PartitionOrigins = NonNullable<TargetResult['partitionOrigins']>;

/** Powers of ten by digits, so rounding the many figures of a large report takes no exponentiation. */
const POWERS_OF_TEN = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000];

/** `n` rounded to `digits` decimals (default 3), as the report carries its figures. */
export const round = (n: number, digits = 3) => {
  const f = POWERS_OF_TEN[digits] ?? 10 ** digits;
  return Math.round(n * f) / f;
};

/** `0:05:00`. */
export function formatSecond(second: number): string {
  const s = Math.max(0, Math.round(second));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `${h}:${String(m).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/** A per-key load: whole units, or (for the many tiny keys of a large table) two significant digits, never "0". */
export const formatKeyLoad = (n: number): string => (n >= 10 || n === 0 ? formatCount(n) : formatSignificant(n, 2));

/** The key carrying most of one kind of load inside partition `i`. */
function topKeyIn(state: SimulationState, target: TargetState, i: number, kind: 'read' | 'write'): string | undefined {
  const a = target.starts[i] as number;
  const b = i + 1 < target.starts.length ? (target.starts[i + 1] as number) : 1;
  let best: { key: string; load: number } | undefined;
  const groups = state.groupEvents.length;
  const l = target.keyLoad;
  target.model.keys.forEach((key, k) => {
    if (key.position + KEY_SPAN <= a || key.position >= b) return;
    let load = 0;
    for (let g = 0; g < groups; g += 1) {
      const m = (state.multiplierSums[g] as number) / Math.max(1, state.step);
      const at = k * groups + g;
      load += m * (kind === 'read' ? (l.spreadRead[at] as number) + (l.topRead[at] as number) : (l.spreadWrite[at] as number) + (l.topWrite[at] as number));
    }
    if (load > 0 && (!best || load > best.load)) best = { key: key.key, load };
  });
  return best?.key;
}

/** Where a target's partitions came from: the start, on-demand scaling, splits for heat before and during the run. */
export function partitionOriginsOf(target: TargetState): PartitionOrigins {
  const cuts = target.splits.filter((s) => s.at !== undefined);
  const firstScaleOut = target.scaleOuts[0];
  return {
    atStart: Math.min(MAX_PARTITIONS, target.model.partitions.partitionCount),
    onDemandScaling: target.scaleOuts.reduce((n, s) => n + s.added, 0),
    splitsBeforeRun: cuts.filter((s) => s.second === 0).length,
    splitsDuringRun: cuts.filter((s) => s.second > 0).length,
    ...(firstScaleOut ? { firstScaleOutSecond: firstScaleOut.second } : {}),
  };
}

/** Partitions a load or size needs: `under 1` below one, else at most two decimals (`1.5`, `4`). */
export function formatPartitionsNeeded(n: number): string {
  return n < 1 ? 'under 1' : formatNumber(Math.round(n * 100) / 100, 3);
}

/**
 * A target's partition count and where each partition came from, the parts adding up to the count:
 * `6 partitions: 4 at the start (4 for throughput, under 1 needed for size) and 2 from splits for
 * heat during the run`. Without origins (a result from an older version), the start alone.
 */
export function describePartitionOrigins(t: Pick<TargetResult, 'partitionCount' | 'partitionsForSize' | 'partitionsForThroughput' | 'partitionOrigins'>): string {
  const p = t.partitionCount;
  const needs = `${formatPartitionsNeeded(t.partitionsForThroughput)} for throughput, ${formatPartitionsNeeded(t.partitionsForSize)} needed for size`;
  const o = t.partitionOrigins;
  const total = `${p} partition${p === 1 ? '' : 's'}`;
  const split = (n: number, when: string) => `${n} from ${n === 1 ? 'a split' : 'splits'} for heat ${when}`;
  const more = o
    ? [
        o.onDemandScaling > 0
          ? `${o.onDemandScaling} added by on-demand scaling as its previous peak doubled${o.firstScaleOutSecond !== undefined ? `, first at ${formatSecond(o.firstScaleOutSecond)}` : ''}`
          : '',
        o.splitsBeforeRun > 0 ? split(o.splitsBeforeRun, 'before the run') : '',
        o.splitsDuringRun > 0 ? split(o.splitsDuringRun, 'during the run') : '',
      ].filter((x) => x !== '')
    : [];
  if (!o || more.length === 0) return `${total} (${needs})`;
  const list = [`${o.atStart} at the start (${needs})`, ...more];
  return `${total}: ${list.slice(0, -1).join(', ')} and ${list.at(-1) as string}`;
}

/** An on-demand maximum in words: `1,000 read request units/s and 500 write request units/s`. */
export function maximumText(capacity: { maxReadUnitsPerSecond?: number; maxWriteUnitsPerSecond?: number }): string {
  const parts = [
    capacity.maxReadUnitsPerSecond !== undefined ? `${formatCount(capacity.maxReadUnitsPerSecond)} read request units/s` : '',
    capacity.maxWriteUnitsPerSecond !== undefined ? `${formatCount(capacity.maxWriteUnitsPerSecond)} write request units/s` : '',
  ].filter((x) => x !== '');
  return parts.join(' and ');
}

/** How the target started: cold (a new table at its initial capacity) or warm; and what auto scaling held. */
function startLines(state: SimulationState, target: TargetState): string[] {
  const label = target.model.label;
  const capacity = target.model.capacity;
  const lines: string[] = [];
  if (state.start === 'warm') {
    lines.push(
      `${label} starts warm: it has run the design's base load before, so split for heat has already cut what that load keeps hot${capacity.mode === 'provisioned' ? ' and burst buckets are full' : ', and that load is its previous on-demand peak'}.`,
    );
  } else if (capacity.mode === 'onDemand' && capacity.warm) {
    lines.push(
      `${label} starts cold but pre-warmed: its warm throughput serves ${formatCount(capacity.warm.readUnitsPerSecond)} read and ${formatCount(capacity.warm.writeUnitsPerSecond)} write units/s at once, together, on the ${formatCount(target.model.partitions.partitionCount)} partitions that implies, and it grows beyond by doubling its previous peak (once 30 minutes old) and by split for heat (${AWS_WARM_THROUGHPUT}).`,
    );
  } else if (capacity.mode === 'onDemand') {
    lines.push(
      `${label} starts cold, as a new on-demand table: it serves ${formatCount(ON_DEMAND_INITIAL_READ_UNITS)} reads/s or ${formatCount(ON_DEMAND_INITIAL_WRITE_UNITS)} writes/s at once and grows only by doubling its previous peak (once 30 minutes old) and by split for heat (${AWS_ON_DEMAND}).`,
    );
  } else {
    lines.push(
      `${label} starts cold, as a new provisioned table at ${formatCount(capacity.readUnitsPerSecond)} RCU / ${formatCount(capacity.writeUnitsPerSecond)} WCU with empty burst buckets, growing only by split for heat.`,
    );
  }
  if (capacity.mode === 'onDemand' && (capacity.maxReadUnitsPerSecond !== undefined || capacity.maxWriteUnitsPerSecond !== undefined)) {
    lines.push(
      `${label === 'Table' ? 'The table' : label} serves at most ${maximumText(capacity)} (its on-demand maximum): load over it throttles with ThrottlingException, reason …MaxOnDemandThroughputExceeded${target.model.kind === 'gsi' && capacity.maxWriteUnitsPerSecond !== undefined ? ", and writes over it hold back the table's writes (GSI back-pressure)" : ''} (${AWS_ON_DEMAND_MAXIMUM}).`,
    );
  }
  if (capacity.mode === 'provisioned' && capacity.autoScaled) {
    for (const [dir, unit, a] of [
      ['reads', 'RCU', capacity.autoScaled.read],
      ['writes', 'WCU', capacity.autoScaled.write],
    ] as const) {
      if (!a) continue;
      lines.push(
        `Auto scaling holds ${formatCount(a.units)} ${unit} for ${label === 'Table' ? 'the table' : label} ${dir} (${formatCount(a.loadUnitsPerSecond)} ${unit}/s of base load at its ${a.targetUtilizationPercent}% target, within ${formatCount(a.minCapacity)}–${formatCount(a.maxCapacity)}) instead of the initial ${formatCount(a.initial)}; it does not follow this run's spikes (a Keyplan simplification).`,
      );
    }
  }
  return lines;
}

export function summaryOf(state: SimulationState, target: TargetState, partitions: PartitionStat[], steps: number, throttled: ThrottledKey[]): string[] {
  const label = target.model.label;
  const p = partitions.length;
  const model = target.model;
  const lines: string[] = [];
  const splits = target.splits.filter((s) => s.at !== undefined);
  lines.push(
    `${label} has ${describePartitionOrigins({
      partitionCount: p,
      partitionsForSize: model.partitions.partitionsForSize,
      partitionsForThroughput: model.partitions.partitionsForThroughput,
      partitionOrigins: partitionOriginsOf(target),
    })}.`,
  );
  lines.push(...startLines(state, target));
  if (target.capped) {
    lines.push(
      `The simulator stops at ${formatCount(MAX_PARTITIONS)} partitions per table or GSI (a Keyplan limit, not DynamoDB's): from ${formatSecond(target.capped.second)} this run wanted ${formatCount(target.capped.wanted)}${target.capped.wanted > MAX_PARTITIONS + 1 ? '' : ' or more'}, so its throttling there is overstated.`,
    );
  }
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
  for (const k of throttled.slice(0, 3)) {
    const peak = k.statedPeakWriteUnitsPerSecond * 3 >= k.statedPeakReadUnitsPerSecond ? `${formatCount(k.statedPeakWriteUnitsPerSecond)} WCU/s` : `${formatCount(k.statedPeakReadUnitsPerSecond)} RCU/s`;
    const advice = k.shards.recommended > 1 ? ` Shards for its stated peak of ${peak}: at least ${k.shards.minimum}, ${k.shards.recommended} with ${k.shards.headroom} headroom.` : '';
    lines.push(`Key ${k.key} throttles ${formatShare(k.throttledFraction)} of its load: ${k.limit} (${k.reasons.join(', ')}).${advice}`);
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
    const why: Record<NonNullable<typeof refused.refused>, string> = {
      monotonic: `Split for heat cannot relieve ${key}: its writes follow an ever-increasing sort key, so every cut inside it leaves them on one partition; it stays capped at one partition's ${formatCount(PARTITION_WRITE_UNITS_PER_SECOND)} WCU/s (see ${AWS_PARTITION_KEY_DESIGN}).`,
      oneKey: `Split for heat cannot divide ${key} further: it is one item (or the only load) on its partition, so it stays capped at one partition's ${formatCount(PARTITION_READ_UNITS_PER_SECOND)} RCU/s and ${formatCount(PARTITION_WRITE_UNITS_PER_SECOND)} WCU/s (see ${AWS_PARTITION_KEY_DESIGN}).`,
      collection: `Split for heat cannot cut ${key} by sort key: DynamoDB never cuts one item collection of a table with an LSI (see ${AWS_PARTITION_KEY_DESIGN}).`,
      streams: `Split for heat does not isolate ${key}: hot items are not isolated on a provisioned table with Streams enabled (see ${AWS_PARTITION_KEY_DESIGN}).`,
    };
    lines.push(why[refused.refused ?? 'oneKey']);
  }
  if (target.throttledSteps === 0) {
    const peak = partitions.reduce((max, s) => Math.max(max, partitionUtilization(s.peakReadUnitsPerSecond, s.peakWriteUnitsPerSecond, state.limits)), 0);
    lines.push(`No throttling on ${label === 'Table' ? 'the table' : label}: the busiest partition peaks at ${formatShare(peak)} of its limit.`);
  }
  return lines;
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The run's settings and the engine's choices, in words, the settings first. */
export function engineAssumptions(state: SimulationState): string[] {
  const limits =
    state.limits === 'linear'
      ? `Each partition serves 3,000 read units or 1,000 write units a second, or a linear combination (R/3,000 + W/1,000 ≤ 1), so heavy reads leave less room for writes: the stricter reading of AWS Knowledge Center, https://repost.aws/knowledge-center/on-demand-table-throttling-dynamodb (switched on for this run; enforced per one-second step, a Keyplan assumption).`
      : `Each partition serves 3,000 read units and 1,000 write units a second as two separate limits, so reads never throttle writes (${AWS_PARTITION_LIMITS}); an AWS Knowledge Center article allows a linear combination of the two instead (https://repost.aws/knowledge-center/on-demand-table-throttling-dynamodb), which can be switched on. Enforced per one-second step (a Keyplan assumption).`;
  const start =
    state.start === 'warm'
      ? "Warm start: the table has run at the design's base load before the run: split for heat has already cut what that load keeps hot, burst buckets are full and the base load is on-demand's previous peak."
      : `Cold start: a new table at its documented initial capacity: on-demand serves 12,000 reads/s or 4,000 writes/s at once (${AWS_ON_DEMAND}), provisioned its provisioned capacity with empty burst buckets (a Keyplan assumption); it grows during the run only by split for heat and on-demand's doubling of its previous peak. A table or GSI with warm throughput set starts on the partitions it implies (the Costs screen's estimate) and, on-demand, serves it at once (${AWS_WARM_THROUGHPUT}).`;
  return [limits, start, ...ENGINE_ASSUMPTIONS];
}

/** The choices the time-step simulation rests on (docs/dynamodb-rules.md §4, §10), in words; each cites its AWS page or its assumption. */
export const ENGINE_ASSUMPTIONS: readonly string[] = [
  `Provisioned capacity is shared evenly over partitions; a partition over its share takes capacity other partitions leave unused at once (adaptive capacity), then spends its own burst bucket of 300 seconds of its share, refilled by capacity nobody used and full at the start (burst and adaptive capacity: ${AWS_PARTITION_KEY_DESIGN}; how they are modeled is a Keyplan assumption).`,
  `On-demand serves up to the new-table level (12,000 reads/s or 4,000 writes/s, a linear combination) or twice the previous peak, and a peak counts as previous once it is 30 minutes old (${AWS_ON_DEMAND}). Load past that throttles as a key-range throttle (partitions not yet split). The per-table quota is 40,000 read and 40,000 write units/s (${AWS_QUOTAS}).`,
  `A partition above 80% of its limit for 5 minutes splits at the middle of its load (a Keyplan assumption: AWS does not publish the trigger). Where the middle falls inside one partition key's item collection that may not be cut (one item; a table with an LSI; writes at the top of an ever-increasing sort key such as a timestamp or "today" traffic), the cut moves to the key's edge instead, isolating the hot key from its neighbours, down to one item per partition: the neighbours stop throttling, the key stays capped at 3,000 RCU/s and 1,000 WCU/s. Hot items are not isolated on a provisioned table with Streams enabled. A split that would move less than 0.1% of the load is not made (${AWS_PARTITION_KEY_DESIGN}).`,
  `A GSI write that throttles throttles the base-table write that caused it (back-pressure, ${AWS_GSI_BACK_PRESSURE}); the table is simulated after its GSIs in each step, and GSI read throttles never affect the table.`,
  'Requests arrive as a Poisson process: per step the number of requests of each group of patterns varies by about √n around its mean (seeded). Within a step, load divides over keys in its expected shares.',
];
