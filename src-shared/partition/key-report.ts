/**
 * The report's keys: each explicit key with traffic, its average and peak load over the run, what
 * of it throttled and why, and the partition carrying most of it; the hottest of them, and the
 * throttled ones with the limit each ran into, in words, and their shard advice.
 */
import * as hash from './hash.ts';
import * as limits from './limits.ts';
import * as model from './model.ts';
import type { ModelKey, HotKey, ThrottledKey, ThrottlingReason } from './types.ts';
import { reasonsOf } from './reasons.ts';
import { shardAdvice } from './shards.ts';
import { formatKeyLoad, formatSecond, maximumText, round } from './findings.ts';
import { keyPeaks, type SimulationState, type TargetState } from './state.ts';
import { statedKeyPeaks } from './stated-peaks.ts';
import { formatCount } from '../numbers/index.ts';

// Module-local copies of what the per-key loops read: an imported binding can compile to a
// property getter (tsx, vitest), which costs more than the arithmetic around it.
const partitionAt = hash.partitionAt;
const capacityUnits = limits.capacityUnits;
const PARTITION_READ_UNITS_PER_SECOND = limits.PARTITION_READ_UNITS_PER_SECOND;
const PARTITION_WRITE_UNITS_PER_SECOND = limits.PARTITION_WRITE_UNITS_PER_SECOND;
const ON_DEMAND_ACCOUNT_READ_UNITS = limits.ON_DEMAND_ACCOUNT_READ_UNITS;
const ON_DEMAND_ACCOUNT_WRITE_UNITS = limits.ON_DEMAND_ACCOUNT_WRITE_UNITS;
const KEY_SPAN = model.KEY_SPAN;
const KEY_TOP_OFFSET = model.KEY_TOP_OFFSET;

/** The hottest (and the throttled) keys a result carries per target; the CLI and the UI each say how many of them they show. */
export const HOTTEST_KEYS = 10;

/** One key's load over the run: average, peak, throttled, and where it sits. */
export interface KeyReport {
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
  /** The key's load in the busiest second of the stated workload, without arrival noise. */
  statedRead: number;
  statedWrite: number;
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
export function keyReports(state: SimulationState, target: TargetState, steps: number): KeyReport[] {
  const average = Array.from(state.multiplierSums, (sum) => sum / steps);
  const groups = average.length;
  const ks = target.keyStats;
  const peaks = keyPeaks(state, target);
  const stated = statedKeyPeaks(state, target, steps);
  const load = target.keyLoad;
  const resource = target.model.kind === 'table' ? 'Table' : 'Index';
  const seconds = steps * state.stepSeconds;
  const out: KeyReport[] = [];
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
      statedRead: stated.read[k] as number,
      statedWrite: stated.write[k] as number,
    });
  }
  return out;
}

/** A key as the report carries it, its share of the target's `totalUnits`. */
function hotKeyOf(l: KeyReport, totalUnits: number): HotKey {
  return {
    key: l.key.key,
    partition: l.partition,
    share: totalUnits > 0 ? round(l.units / totalUnits, 6) : 0,
    readUnitsPerSecond: round(l.read),
    writeUnitsPerSecond: round(l.write),
    peakReadUnitsPerSecond: round(l.peakRead),
    peakWriteUnitsPerSecond: round(l.peakWrite),
    statedPeakReadUnitsPerSecond: round(l.statedRead),
    statedPeakWriteUnitsPerSecond: round(l.statedWrite),
    throttledFraction: round(l.throttledFraction, 4),
    reasons: l.reasons,
    ...(l.key.entityId !== undefined ? { entityId: l.key.entityId } : {}),
  };
}

/** The `HOTTEST_KEYS` keys carrying the most load (capacity units), as the report lists them. */
export function hottestKeys(loads: KeyReport[], totalUnits: number): HotKey[] {
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
function limitOf(target: TargetState, l: KeyReport, loads: KeyReport[]): string {
  const parts: string[] = [];
  const keyRange = l.reasons.some((r) => r.endsWith('KeyRangeThroughputExceeded'));
  if (keyRange) {
    const overW = l.peakWrite > PARTITION_WRITE_UNITS_PER_SECOND;
    const overR = l.peakRead > PARTITION_READ_UNITS_PER_SECOND;
    if (overW || overR) {
      if (overW) parts.push(`peak ${formatCount(l.peakWrite)} WCU/s against one partition's ${formatCount(PARTITION_WRITE_UNITS_PER_SECOND)} WCU/s`);
      if (overR) parts.push(`peak ${formatCount(l.peakRead)} RCU/s against one partition's ${formatCount(PARTITION_READ_UNITS_PER_SECOND)} RCU/s`);
    } else {
      // The partition where it first throttled, and the keys that shared it then.
      const from = target.keyStats.firstThrottledFrom[l.k] as number;
      const to = target.keyStats.firstThrottledTo[l.k] as number;
      const shared = (x: KeyReport) => x !== l && x.key.position < to && x.key.position + KEY_SPAN > from;
      // The key that put that partition over: the nearest one in hash order whose own peak is over a limit.
      const culprit = Number.isNaN(from)
        ? undefined
        : loads
            .filter((x) => shared(x) && (x.peakWrite > PARTITION_WRITE_UNITS_PER_SECOND || x.peakRead > PARTITION_READ_UNITS_PER_SECOND))
            .sort((a, b) => Math.abs(a.key.position - l.key.position) - Math.abs(b.key.position - l.key.position))[0];
      // Otherwise: the keys that shared the partition where it first throttled.
      const peers = Number.isNaN(from) ? [] : loads.filter(shared).sort((a, b) => b.units - a.units);
      // The direction that takes the larger share of a partition's limit.
      const peak = (x: KeyReport) => (x.peakWrite * 3 >= x.peakRead ? `${formatKeyLoad(x.peakWrite)} WCU/s` : `${formatKeyLoad(x.peakRead)} RCU/s`);
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
    parts.push(`${target.model.label === 'Table' ? 'the table' : target.model.label} is provisioned for ${formatCount(capacity.readUnitsPerSecond)} RCU / ${formatCount(capacity.writeUnitsPerSecond)} WCU`);
  }
  if (l.reasons.some((r) => r.endsWith('MaxOnDemandThroughputExceeded')) && capacity.mode === 'onDemand') {
    parts.push(`${target.model.label === 'Table' ? 'the table' : target.model.label}'s on-demand maximum of ${maximumText(capacity)}`);
  }
  if (l.reasons.some((r) => r.endsWith('AccountLimitExceeded'))) parts.push(`the per-table on-demand quota of ${formatCount(ON_DEMAND_ACCOUNT_READ_UNITS)} RCU/s and ${formatCount(ON_DEMAND_ACCOUNT_WRITE_UNITS)} WCU/s`);
  return parts.join('; ');
}

/** The `HOTTEST_KEYS` keys that throttled most, with the limit each ran into and its shard advice at `headroom`. */
export function throttledKeys(target: TargetState, loads: KeyReport[], totalUnits: number, headroom: number): ThrottledKey[] {
  return loads
    .filter((l) => l.throttledFraction > 1e-6)
    .sort((a, b) => b.throttledUnits - a.throttledUnits || (a.key.key < b.key.key ? -1 : 1))
    .slice(0, HOTTEST_KEYS)
    .map((l) => ({ ...hotKeyOf(l, totalUnits), limit: limitOf(target, l, loads), shards: shardAdvice(l.statedWrite, l.statedRead, headroom, { read: l.peakRead, write: l.peakWrite }) }));
}
