/**
 * A target's per-partition arrays: allocated at the start of a run and again whenever its
 * partitions change (splits.ts), and where each source's load lands on them (`layOutLoad`: each
 * source's share per partition, the base loads per partition and traffic group, the partitions each
 * key spans, the keys on each partition). The arrays' shapes and meanings are in state.ts.
 */
import * as hash from './hash.ts';
import * as limits from './limits.ts';
import * as model from './model.ts';
import type { TargetModel } from './model.ts';
import { reasonNamesOf } from './reasons.ts';
import type { KeyStats, QuietPlan, SimulationState, SourceState, StepAccount, TargetState } from './state.ts';

// Module-local copies: an imported binding can compile to a property getter (tsx, vitest), which
// costs more than the arithmetic around it in the per-partition loops.
const BURST_SECONDS = limits.BURST_SECONDS;
const MAX_PARTITIONS = limits.MAX_PARTITIONS;
const writeEquivalents = limits.writeEquivalents;
const KEY_SPAN = model.KEY_SPAN;
const TOP_OFFSET = model.KEY_TOP_OFFSET;
const partitionAt = hash.partitionAt;

/** A target at the start of the run: its partitions, where each source's load lands, empty accumulators. */
export function createTargetState(state: SimulationState, model: TargetModel, index: number, starts: number[]): TargetState {
  const groups = state.groupEvents.length;
  const p = starts.length;
  const keyCount = model.keys.length;
  const target: TargetState = {
    model,
    index,
    starts,
    hasThrottledSources: false,
    sources: model.sources.map((source) => {
      const rate = state.model.patterns[source.patternIndex]?.ratePerSecond ?? 0;
      return { source, group: state.groupOfPattern[source.patternIndex] ?? 0, baseUnits: rate * source.unitsPerCall, baseCalls: rate, vector: zeros(0), throttledShare: 0, causes: 0 };
    }),
    loadRead: zeros(p * groups),
    loadWrite: zeros(p * groups),
    callsRead: zeros(p * groups),
    callsWrite: zeros(p * groups),
    totalRead: zeros(groups),
    totalWrite: zeros(groups),
    keyLoad: { spreadRead: zeros(keyCount * groups), spreadWrite: zeros(keyCount * groups), topRead: zeros(keyCount * groups), topWrite: zeros(keyCount * groups) },
    backgroundRead: zeros(groups),
    backgroundWrite: zeros(groups),
    burstRead: zeros(p),
    burstWrite: zeros(p),
    hotSeconds: zeros(p),
    retryAfter: zeros(p),
    sumRead: zeros(p),
    sumWrite: zeros(p),
    sumsSince: 0,
    peakRead: zeros(p),
    peakWrite: zeros(p),
    throttledCalls: zeros(p),
    heat: zeros(state.bucketCount * heatStrideFor(p)),
    throttledHeat: zeros(state.bucketCount * heatStrideFor(p)),
    heatStride: heatStrideFor(p),
    throttledSteps: 0,
    throttledReadSteps: 0,
    throttledWriteSteps: 0,
    backPressureSteps: 0,
    backPressureFrom: new Set(),
    reasonCalls: new Map(),
    reasonNames: reasonNamesOf(model.kind),
    servedHistory: zeros(state.totalSteps),
    previousPeak: 0,
    splits: [],
    scaleOuts: [],
    ...(model.partitions.partitionCount > MAX_PARTITIONS ? { capped: { second: 0, wanted: model.partitions.partitionCount } } : {}),
    keyStats: emptyKeyStats(keyCount),
    keyStart: new Int32Array(p + 1),
    keysByPartition: new Int32Array(0),
    last: emptyAccount(p),
    scratch: emptyScratch(p, keyCount),
    plan: emptyPlan(p, groups),
  };
  const load = target.keyLoad;
  for (const s of target.sources) {
    const isRead = s.source.kind === 'read';
    const arr = s.source.isMonotonic ? (isRead ? load.topRead : load.topWrite) : isRead ? load.spreadRead : load.spreadWrite;
    for (const k of s.source.keys) {
      const at = k.key * groups + s.group;
      arr[at] = (arr[at] as number) + s.baseUnits * k.share;
    }
    const bg = isRead ? target.backgroundRead : target.backgroundWrite;
    bg[s.group] = (bg[s.group] as number) + s.baseUnits * s.source.background;
  }
  const loaded: number[] = [];
  for (let k = 0; k < keyCount; k += 1) {
    for (let g = 0; g < groups; g += 1) {
      const at = k * groups + g;
      if ((load.spreadRead[at] as number) + (load.spreadWrite[at] as number) + (load.topRead[at] as number) + (load.topWrite[at] as number) > 0) {
        loaded.push(k);
        break;
      }
    }
  }
  target.keyStats.loaded = Int32Array.from(loaded);
  // Warm: burst buckets start full (the table has been idle or steady before the run). Cold: a new
  // table has saved no unused capacity yet.
  if (model.capacity.mode === 'provisioned' && state.start === 'warm') {
    target.burstRead.fill((BURST_SECONDS * model.capacity.readUnitsPerSecond) / p);
    target.burstWrite.fill((BURST_SECONDS * model.capacity.writeUnitsPerSecond) / p);
  }
  layOutLoad(state, target);
  // On-demand, warm: the steady load before the run is the previous peak. Cold: there is none yet,
  // so the table serves the new-table level (docs/dynamodb-rules.md §4.3).
  let base = 0;
  for (let g = 0; g < groups; g += 1) {
    for (let i = 0; i < p; i += 1) base += writeEquivalents(target.loadRead[i * groups + g] as number, target.loadWrite[i * groups + g] as number);
  }
  target.previousPeak = state.start === 'warm' ? base : 0;
  return target;
}

/**
 * Recomputes where each source's load lands on the current partitions (after they changed): each
 * source's share per partition, the base loads per partition and group, the partitions each key
 * spans, and the keys on each partition.
 */
export function layOutLoad(state: SimulationState, target: TargetState): void {
  const p = target.starts.length;
  const starts = target.starts;
  const keys = target.model.keys;
  const groups = state.groupEvents.length;
  const loadRead = zeros(p * groups);
  const loadWrite = zeros(p * groups);
  const callsRead = zeros(p * groups);
  const callsWrite = zeros(p * groups);
  // Every source's share per partition, in one allocation.
  const vectors = zeros(target.sources.length * p);
  for (let n = 0; n < target.sources.length; n += 1) {
    const s = target.sources[n] as SourceState;
    const v = vectors.subarray(n * p, (n + 1) * p);
    const background = s.source.background;
    if (background > 0) for (let i = 0; i < p; i += 1) v[i] = background * ((i + 1 < p ? (starts[i + 1] as number) : 1) - (starts[i] as number));
    for (const k of s.source.keys) {
      const key = keys[k.key];
      if (!key) continue;
      spreadKey(starts, key.position, s.source.isMonotonic, k.share, v);
    }
    s.vector = v;
    const isRead = s.source.kind === 'read';
    const units = isRead ? loadRead : loadWrite;
    const calls = isRead ? callsRead : callsWrite;
    for (let i = 0; i < p; i += 1) {
      const share = v[i] as number;
      if (share === 0) continue;
      const at = i * groups + s.group;
      units[at] = (units[at] as number) + share * s.baseUnits;
      calls[at] = (calls[at] as number) + share * s.baseCalls;
    }
  }
  target.loadRead = loadRead;
  target.loadWrite = loadWrite;
  target.callsRead = callsRead;
  target.callsWrite = callsWrite;
  target.totalRead.fill(0);
  target.totalWrite.fill(0);
  for (let i = 0; i < p; i += 1) {
    for (let g = 0; g < groups; g += 1) {
      target.totalRead[g] = (target.totalRead[g] as number) + (loadRead[i * groups + g] as number);
      target.totalWrite[g] = (target.totalWrite[g] as number) + (loadWrite[i * groups + g] as number);
    }
  }
  const ks = target.keyStats;
  const counts = new Int32Array(p + 1);
  for (let n = 0; n < ks.loaded.length; n += 1) {
    const k = ks.loaded[n] as number;
    const key = keys[k] as { position: number };
    const first = partitionAt(starts, key.position);
    const last = partitionAt(starts, key.position + KEY_SPAN - TOP_OFFSET);
    ks.first[k] = first;
    ks.last[k] = last;
    for (let i = first; i <= last; i += 1) counts[i + 1] = (counts[i + 1] as number) + 1;
  }
  for (let i = 0; i < p; i += 1) counts[i + 1] = (counts[i + 1] as number) + (counts[i] as number);
  const byPartition = new Int32Array(counts[p] as number);
  const fill = counts.slice(0, p);
  for (let n = 0; n < ks.loaded.length; n += 1) {
    const k = ks.loaded[n] as number;
    for (let i = ks.first[k] as number; i <= (ks.last[k] as number); i += 1) {
      byPartition[fill[i] as number] = k;
      fill[i] = (fill[i] as number) + 1;
    }
  }
  target.keyStart = counts;
  target.keysByPartition = byPartition;
}

/** Adds `share` of a key's load to the partitions its sort range overlaps (or the one holding its top, when monotonic). */
function spreadKey(starts: number[], position: number, isMonotonic: boolean, share: number, into: Float64Array): void {
  const top = position + KEY_SPAN;
  const last = partitionAt(starts, top - TOP_OFFSET);
  if (isMonotonic) {
    into[last] = (into[last] as number) + share;
    return;
  }
  const first = partitionAt(starts, position);
  if (first === last) {
    into[first] = (into[first] as number) + share;
    return;
  }
  for (let i = first; i <= last; i += 1) {
    const from = Math.max(position, starts[i] as number);
    const to = Math.min(top, i + 1 < starts.length ? (starts[i + 1] as number) : 1);
    if (to > from) into[i] = (into[i] as number) + (share * (to - from)) / KEY_SPAN;
  }
}

/** A heat-map row's length for `partitions`: room for a quarter more (at least 64), so splits rarely reallocate it. */
export const heatStrideFor = (partitions: number) => partitions + Math.max(64, Math.ceil(partitions / 4));

/** `n` zeros. */
export function zeros(n: number): Float64Array {
  return new Float64Array(n);
}

/** A step account for `n` partitions, all zero. */
export function emptyAccount(n: number): StepAccount {
  return {
    offeredRead: zeros(n),
    offeredWrite: zeros(n),
    servedRead: zeros(n),
    servedWrite: zeros(n),
    throttledRead: { keyRange: zeros(n), provisioned: zeros(n), account: zeros(n), maxOnDemand: zeros(n) },
    throttledWrite: { keyRange: zeros(n), provisioned: zeros(n), account: zeros(n), maxOnDemand: zeros(n) },
    backPressureWrite: 0,
    limit: { mode: 'onDemand', writeEquivalents: 0 },
  };
}

/** Per-step working arrays for `n` partitions and `keyCount` keys, cleared. */
export function emptyScratch(n: number, keyCount: number): TargetState['scratch'] {
  return {
    callsRead: zeros(n),
    callsWrite: zeros(n),
    shareRead: zeros(n),
    shareWrite: zeros(n),
    causes: new Uint8Array(n),
    causesRead: new Uint8Array(n),
    causesWrite: new Uint8Array(n),
    throttled: new Int32Array(n),
    all: Int32Array.from({ length: n }, (_, i) => i),
    keySeen: new Int32Array(keyCount).fill(-1),
    balance: { excessRead: 0, unusedRead: 0, excessWrite: 0, unusedWrite: 0 },
  };
}

/** A plan for `n` partitions that serves every one (no stretch planned yet). */
export function emptyPlan(n: number, groups: number): QuietPlan {
  return {
    isFull: true,
    active: new Int32Array(n),
    activeCount: 0,
    quiet: new Int32Array(n),
    quietCount: 0,
    quietRead: zeros(groups),
    quietWrite: zeros(groups),
    hasQuietRefillRead: false,
    hasQuietRefillWrite: false,
    pendingSteps: new Int32Array(0),
    pendingLentRead: zeros(0),
    pendingLentWrite: zeros(0),
    pendingCount: 0,
    servedActiveRead: zeros(0),
    servedActiveWrite: zeros(0),
  };
}

/** Per-key statistics for `n` keys, none loaded, none throttled yet. */
function emptyKeyStats(n: number): KeyStats {
  return {
    loaded: new Int32Array(0),
    first: new Int32Array(n),
    last: new Int32Array(n),
    peakRead: zeros(n),
    peakWrite: zeros(n),
    throttledRead: zeros(n),
    throttledWrite: zeros(n),
    causesRead: new Uint8Array(n),
    causesWrite: new Uint8Array(n),
    firstThrottledFrom: new Float64Array(n).fill(Number.NaN),
    firstThrottledTo: new Float64Array(n).fill(Number.NaN),
  };
}
