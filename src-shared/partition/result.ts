/**
 * A finished (or stopped) run turned into its report: per target the partitions, the hottest keys,
 * the heat map, the throttling reasons and findings in words; per pattern the throttled requests.
 */
import * as hash from './hash.ts';
import {
  MAX_PARTITIONS,
  ON_DEMAND_ACCOUNT_READ_UNITS,
  ON_DEMAND_ACCOUNT_WRITE_UNITS,
  ON_DEMAND_INITIAL_READ_UNITS,
  ON_DEMAND_INITIAL_WRITE_UNITS,
  partitionUtilization,
} from './limits.ts';
import * as limits from './limits.ts';
import * as model from './model.ts';
import type { ModelKey } from './model.ts';
import { shardAdvice } from './shards.ts';
import { AWS_GSI_BACK_PRESSURE, AWS_ON_DEMAND, AWS_ON_DEMAND_MAXIMUM, AWS_PARTITION_KEY_DESIGN, AWS_PARTITION_LIMITS, AWS_QUOTAS, AWS_WARM_THROUGHPUT } from './sources.ts';
import { CAUSE_ACCOUNT, CAUSE_KEY_RANGE, CAUSE_MAX_ON_DEMAND, CAUSE_PROVISIONED, keyPeaks, offeredSums, type SimulationState, type TargetState } from './state.ts';
import type { HotKey, PartitionStat, PatternResult, SimulationResult, TargetResult, ThrottledKey, ThrottlingReason } from './types.ts';
import { formatShare } from '../format/index.ts';

type PartitionOrigins = NonNullable<TargetResult['partitionOrigins']>;

// Module-local copies of what the per-partition and per-key loops read: an imported binding can
// compile to a property getter (tsx, vitest), which costs more than the arithmetic around it.
const partitionAt = hash.partitionAt;
const PARTITION_READ_UNITS_PER_SECOND = limits.PARTITION_READ_UNITS_PER_SECOND;
const PARTITION_WRITE_UNITS_PER_SECOND = limits.PARTITION_WRITE_UNITS_PER_SECOND;
const KEY_SPAN = model.KEY_SPAN;
const KEY_TOP_OFFSET = model.KEY_TOP_OFFSET;

/** The hottest (and the throttled) keys a result carries per target; the CLI and the UI each say how many of them they show. */
export const HOTTEST_KEYS = 10;

const capacityUnits = (read: number, write: number) => read / PARTITION_READ_UNITS_PER_SECOND + write / PARTITION_WRITE_UNITS_PER_SECOND;
/** Powers of ten by digits, so rounding the many figures of a large report takes no exponentiation. */
const POWERS_OF_TEN = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000];
const round = (n: number, digits = 3) => {
  const f = POWERS_OF_TEN[digits] ?? 10 ** digits;
  return Math.round(n * f) / f;
};

export { formatShare };

/** `0:05:00`. */
export function formatSecond(second: number): string {
  const s = Math.max(0, Math.round(second));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `${h}:${String(m).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

const count = (n: number) => Math.round(n).toLocaleString('en-US');
/** A per-key load: whole units, or (for the many tiny keys of a large table) two significant digits, never "0". */
const load = (n: number): string => (n >= 10 || n === 0 ? count(n) : n.toLocaleString('en-US', { maximumSignificantDigits: 2 }));

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

/** One key's load over the run: average, peak, throttled, and where it sits. */
interface KeyLoad {
  k: number;
  key: ModelKey;
  read: number;
  write: number;
  /** Average capacity units (R/3,000 + W/1,000). */
  units: number;
  partition: number;
  /** Throttled capacity units over the run ÷ offered capacity units over the run. */
  throttledFraction: number;
  /** Throttled capacity units over the run, for ranking. */
  throttledUnits: number;
  reasons: ThrottlingReason[];
  peakRead: number;
  peakWrite: number;
}

function reasonsOf(causes: number, resource: 'Table' | 'Index', operation: 'Read' | 'Write'): ThrottlingReason[] {
  const out: ThrottlingReason[] = [];
  if (causes & CAUSE_KEY_RANGE) out.push(`${resource}${operation}KeyRangeThroughputExceeded`);
  if (causes & CAUSE_PROVISIONED) out.push(`${resource}${operation}ProvisionedThroughputExceeded`);
  if (causes & CAUSE_ACCOUNT) out.push(`${resource}${operation}AccountLimitExceeded`);
  if (causes & CAUSE_MAX_ON_DEMAND) out.push(`${resource}${operation}MaxOnDemandThroughputExceeded`);
  return out;
}

/** The partition carrying most of key `k`'s load: its top for monotonic load, else the widest share of its range. */
function partitionOfKey(target: TargetState, key: ModelKey, topUnits: number, units: number): number {
  const first = partitionAt(target.starts, key.position);
  const last = partitionAt(target.starts, key.position + KEY_SPAN - KEY_TOP_OFFSET);
  if (first === last || topUnits > units / 2) return last;
  let best = first;
  let bestWidth = -1;
  for (let i = first; i <= last; i += 1) {
    const from = Math.max(key.position, target.starts[i] as number);
    const to = Math.min(key.position + KEY_SPAN, i + 1 < target.starts.length ? (target.starts[i + 1] as number) : 1);
    if (to - from > bestWidth) {
      best = i;
      bestWidth = to - from;
    }
  }
  return best;
}

/** Every explicit key with traffic, with its averages over the run, peak and throttling. */
function keyLoads(state: SimulationState, target: TargetState, steps: number): KeyLoad[] {
  const average = Array.from(state.multiplierSums, (sum) => sum / steps);
  const groups = average.length;
  const ks = target.keyStats;
  const peaks = keyPeaks(state, target);
  const load = target.keyLoad;
  const resource = target.model.kind === 'table' ? 'Table' : 'Index';
  const seconds = steps * state.stepSeconds;
  const out: KeyLoad[] = [];
  for (let n = 0; n < ks.loaded.length; n += 1) {
    const k = ks.loaded[n] as number;
    const key = target.model.keys[k] as ModelKey;
    let read = 0;
    let write = 0;
    let top = 0;
    for (let g = 0; g < groups; g += 1) {
      const m = average[g] ?? 0;
      const at = k * groups + g;
      read += m * ((load.spreadRead[at] as number) + (load.topRead[at] as number));
      write += m * ((load.spreadWrite[at] as number) + (load.topWrite[at] as number));
      top += m * capacityUnits(load.topRead[at] as number, load.topWrite[at] as number);
    }
    const units = capacityUnits(read, write);
    // Keys with no traffic in this run are left out (a key's share of zero says nothing).
    if (!(units > 1e-12)) continue;
    const throttledUnits = capacityUnits(ks.throttledRead[k] as number, ks.throttledWrite[k] as number);
    out.push({
      k,
      key,
      read,
      write,
      units,
      partition: partitionOfKey(target, key, top, units),
      throttledFraction: Math.min(1, throttledUnits / (units * seconds)),
      throttledUnits,
      reasons: (ks.causesRead[k] as number) | (ks.causesWrite[k] as number) ? [...reasonsOf(ks.causesRead[k] as number, resource, 'Read'), ...reasonsOf(ks.causesWrite[k] as number, resource, 'Write')] : [],
      peakRead: peaks.read[k] as number,
      peakWrite: peaks.write[k] as number,
    });
  }
  return out;
}

function hotKeyOf(l: KeyLoad, totalUnits: number): HotKey {
  return {
    key: l.key.key,
    partition: l.partition,
    share: totalUnits > 0 ? round(l.units / totalUnits, 6) : 0,
    readUnitsPerSecond: round(l.read),
    writeUnitsPerSecond: round(l.write),
    peakReadUnitsPerSecond: round(l.peakRead),
    peakWriteUnitsPerSecond: round(l.peakWrite),
    throttledFraction: round(l.throttledFraction, 4),
    reasons: l.reasons,
    ...(l.key.entityId !== undefined ? { entityId: l.key.entityId } : {}),
  };
}

function hottestKeys(loads: KeyLoad[], totalUnits: number): HotKey[] {
  return [...loads]
    .sort((a, b) => b.units - a.units || (a.key.key < b.key.key ? -1 : 1))
    .slice(0, HOTTEST_KEYS)
    .map((l) => hotKeyOf(l, totalUnits));
}

/**
 * When two keys first sat on different partitions: the first cut between them (split for heat, or
 * on-demand scaling's halving of the widest ranges), in the order they happened. A cut separates
 * them when it lies above the lower key's whole item collection and at or below the upper key.
 */
function separationOf(target: TargetState, a: ModelKey, b: ModelKey): { second: number; by: 'split' | 'scaling' } | undefined {
  const [lower, upper] = a.position <= b.position ? [a, b] : [b, a];
  const between = (x: number) => x >= lower.position + KEY_SPAN && x <= upper.position;
  const split = target.splits.find((s) => s.at !== undefined && between(s.at));
  const scaling = target.scaleOuts.find((s) => s.cuts.some(between));
  if (split && (!scaling || split.second <= scaling.second)) return { second: split.second, by: 'split' };
  return scaling ? { second: scaling.second, by: 'scaling' } : undefined;
}

const untilSeparated = (when: { second: number; by: 'split' | 'scaling' } | undefined, other: string) =>
  when ? `, until ${when.by === 'split' ? 'split for heat' : 'on-demand scaling'} put it and ${other} on different partitions at ${formatSecond(when.second)}` : '';

/** Which limit a throttled key ran into, in words. */
function limitOf(target: TargetState, l: KeyLoad, loads: KeyLoad[]): string {
  const parts: string[] = [];
  const keyRange = l.reasons.some((r) => r.endsWith('KeyRangeThroughputExceeded'));
  if (keyRange) {
    const overW = l.peakWrite > PARTITION_WRITE_UNITS_PER_SECOND;
    const overR = l.peakRead > PARTITION_READ_UNITS_PER_SECOND;
    if (overW || overR) {
      if (overW) parts.push(`peak ${count(l.peakWrite)} WCU/s against one partition's ${count(PARTITION_WRITE_UNITS_PER_SECOND)} WCU/s`);
      if (overR) parts.push(`peak ${count(l.peakRead)} RCU/s against one partition's ${count(PARTITION_READ_UNITS_PER_SECOND)} RCU/s`);
    } else {
      // The partition where it first throttled, and the keys that shared it then.
      const from = target.keyStats.firstThrottledFrom[l.k] as number;
      const to = target.keyStats.firstThrottledTo[l.k] as number;
      const shared = (x: KeyLoad) => x !== l && x.key.position < to && x.key.position + KEY_SPAN > from;
      // The key that put that partition over: the nearest one in hash order whose own peak is over a limit.
      const culprit = Number.isNaN(from)
        ? undefined
        : loads
            .filter((x) => shared(x) && (x.peakWrite > PARTITION_WRITE_UNITS_PER_SECOND || x.peakRead > PARTITION_READ_UNITS_PER_SECOND))
            .sort((a, b) => Math.abs(a.key.position - l.key.position) - Math.abs(b.key.position - l.key.position))[0];
      // Otherwise: the keys that shared the partition where it first throttled.
      const peers = Number.isNaN(from) ? [] : loads.filter(shared).sort((a, b) => b.units - a.units);
      // The direction that takes the larger share of a partition's limit.
      const peak = (x: KeyLoad) => (x.peakWrite * 3 >= x.peakRead ? `${load(x.peakWrite)} WCU/s` : `${load(x.peakRead)} RCU/s`);
      const heaviest = peers[0];
      parts.push(
        culprit
          ? `shared a partition with key ${culprit.key.key}, whose own load is over one partition's limits (3,000 RCU/s, 1,000 WCU/s)${untilSeparated(separationOf(target, l.key, culprit.key), culprit.key.key)}`
          : heaviest
            ? `at its peak of ${peak(l)} it shared a partition with ${peers
                .slice(0, 2)
                .map((x) => `${x.key.key} (${peak(x)})`)
                .join(', ')}${peers.length > 2 ? ` and ${peers.length - 2} more` : ''}, together over one partition's limits (3,000 RCU/s, 1,000 WCU/s)${untilSeparated(separationOf(target, l.key, heaviest.key), heaviest.key.key)}`
            : `peak ${peak(l)}: its partition was over its limits, or over what the table served before scaling out`,
      );
    }
  }
  const capacity = target.model.capacity;
  if (l.reasons.some((r) => r.endsWith('ProvisionedThroughputExceeded')) && capacity.mode === 'provisioned') {
    parts.push(`${target.model.label === 'Table' ? 'the table' : target.model.label} is provisioned for ${count(capacity.readUnitsPerSecond)} RCU / ${count(capacity.writeUnitsPerSecond)} WCU`);
  }
  if (l.reasons.some((r) => r.endsWith('MaxOnDemandThroughputExceeded')) && capacity.mode === 'onDemand') {
    parts.push(`${target.model.label === 'Table' ? 'the table' : target.model.label}'s on-demand maximum of ${maximumText(capacity)}`);
  }
  if (l.reasons.some((r) => r.endsWith('AccountLimitExceeded'))) parts.push(`the per-table on-demand quota of ${count(ON_DEMAND_ACCOUNT_READ_UNITS)} RCU/s and ${count(ON_DEMAND_ACCOUNT_WRITE_UNITS)} WCU/s`);
  return parts.join('; ');
}

function throttledKeys(target: TargetState, loads: KeyLoad[], totalUnits: number, headroom: number): ThrottledKey[] {
  return loads
    .filter((l) => l.throttledFraction > 1e-6)
    .sort((a, b) => b.throttledUnits - a.throttledUnits || (a.key.key < b.key.key ? -1 : 1))
    .slice(0, HOTTEST_KEYS)
    .map((l) => ({ ...hotKeyOf(l, totalUnits), limit: limitOf(target, l, loads), shards: shardAdvice(l.peakWrite, l.peakRead, headroom) }));
}

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
function partitionOriginsOf(target: TargetState): PartitionOrigins {
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
  return n < 1 ? 'under 1' : (Math.round(n * 100) / 100).toLocaleString('en-US');
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
function maximumText(capacity: { maxReadUnitsPerSecond?: number; maxWriteUnitsPerSecond?: number }): string {
  const parts = [
    capacity.maxReadUnitsPerSecond !== undefined ? `${count(capacity.maxReadUnitsPerSecond)} read request units/s` : '',
    capacity.maxWriteUnitsPerSecond !== undefined ? `${count(capacity.maxWriteUnitsPerSecond)} write request units/s` : '',
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
      `${label} starts cold but pre-warmed: its warm throughput serves ${count(capacity.warm.readUnitsPerSecond)} read and ${count(capacity.warm.writeUnitsPerSecond)} write units/s at once, together, on the ${count(target.model.partitions.partitionCount)} partitions that implies, and it grows beyond by doubling its previous peak (once 30 minutes old) and by split for heat (${AWS_WARM_THROUGHPUT}).`,
    );
  } else if (capacity.mode === 'onDemand') {
    lines.push(
      `${label} starts cold, as a new on-demand table: it serves ${count(ON_DEMAND_INITIAL_READ_UNITS)} reads/s or ${count(ON_DEMAND_INITIAL_WRITE_UNITS)} writes/s at once and grows only by doubling its previous peak (once 30 minutes old) and by split for heat (${AWS_ON_DEMAND}).`,
    );
  } else {
    lines.push(
      `${label} starts cold, as a new provisioned table at ${count(capacity.readUnitsPerSecond)} RCU / ${count(capacity.writeUnitsPerSecond)} WCU with empty burst buckets, growing only by split for heat.`,
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
        `Auto scaling holds ${count(a.units)} ${unit} for ${label === 'Table' ? 'the table' : label} ${dir} (${count(a.loadUnitsPerSecond)} ${unit}/s of base load at its ${a.targetUtilizationPercent}% target, within ${count(a.minCapacity)}–${count(a.maxCapacity)}) instead of the initial ${count(a.initial)}; it does not follow this run's spikes (a Keyplan simplification).`,
      );
    }
  }
  return lines;
}

function summaryOf(state: SimulationState, target: TargetState, partitions: PartitionStat[], steps: number, throttled: ThrottledKey[]): string[] {
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
      `The simulator stops at ${count(MAX_PARTITIONS)} partitions per table or GSI (a Keyplan limit, not DynamoDB's): from ${formatSecond(target.capped.second)} this run wanted ${count(target.capped.wanted)}${target.capped.wanted > MAX_PARTITIONS + 1 ? '' : ' or more'}, so its throttling there is overstated.`,
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
    const peak = k.peakWriteUnitsPerSecond * 3 >= k.peakReadUnitsPerSecond ? `${count(k.peakWriteUnitsPerSecond)} WCU/s` : `${count(k.peakReadUnitsPerSecond)} RCU/s`;
    const advice = k.shards.recommended > 1 ? ` Shards for its peak of ${peak}: at least ${k.shards.minimum}, ${k.shards.recommended} with ${k.shards.headroom} headroom.` : '';
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
      monotonic: `Split for heat cannot relieve ${key}: its writes follow an ever-increasing sort key, so every cut inside it leaves them on one partition; it stays capped at one partition's ${count(PARTITION_WRITE_UNITS_PER_SECOND)} WCU/s (see ${AWS_PARTITION_KEY_DESIGN}).`,
      oneKey: `Split for heat cannot divide ${key} further: it is one item (or the only load) on its partition, so it stays capped at one partition's ${count(PARTITION_READ_UNITS_PER_SECOND)} RCU/s and ${count(PARTITION_WRITE_UNITS_PER_SECOND)} WCU/s (see ${AWS_PARTITION_KEY_DESIGN}).`,
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
  const loads = keyLoads(state, target, steps);
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

/** The run's settings and the engine's choices, in words, the settings first. */
function engineAssumptions(state: SimulationState): string[] {
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
