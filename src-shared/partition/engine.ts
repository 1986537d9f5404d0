/**
 * The time-step simulation over a `SimulationModel`: per step, each pattern's load (its rate × the
 * workload's spikes and ramps × seeded arrival noise) lands on partitions by its key shares; each
 * partition serves up to 3,000 RCU and 1,000 WCU a second (independent limits by default, or a
 * linear combination when asked); provisioned
 * targets share their capacity evenly over partitions, lend unused capacity to hot ones (adaptive
 * capacity) and keep a 300-second burst bucket per partition; on-demand targets serve up to twice
 * their previous peak; a partition running hot for five minutes splits; a throttled GSI write
 * throttles the base-table write. The rules, in that order: docs/dynamodb-rules.md §4.1, §4.6,
 * §4.5, §10.5, §4.3, §10.3, §4.8.
 *
 * `createSimulation` → `step` (repeatedly; the host reports progress and can stop between steps) →
 * `finishSimulation`. The state is owned by the run: `step` advances it in place and returns it.
 */
import type { Workload, WorkloadEvent } from '../model/schema.ts';
import { partitionAt, equalRangeStarts } from './hash.ts';
import * as limits from './limits.ts';
import { KEY_SPAN, KEY_TOP_OFFSET, type LoadSource, type SimulationModel, type TargetModel } from './model.ts';
import { createRandom, normal, type Random } from './random.ts';
import { DEFAULT_SHARD_HEADROOM } from './shards.ts';

// Module-local copies: the limits are read in the per-partition loops, and an imported binding can
// compile to a property getter (tsx, vitest), which costs more than the arithmetic around it.
const BURST_SECONDS = limits.BURST_SECONDS;
const MAX_PARTITIONS = limits.MAX_PARTITIONS;
const ON_DEMAND_ACCOUNT_READ_UNITS = limits.ON_DEMAND_ACCOUNT_READ_UNITS;
const ON_DEMAND_ACCOUNT_WRITE_UNITS = limits.ON_DEMAND_ACCOUNT_WRITE_UNITS;
const ON_DEMAND_PEAK_AGE_SECONDS = limits.ON_DEMAND_PEAK_AGE_SECONDS;
const PARTITION_READS = limits.PARTITION_READ_UNITS_PER_SECOND;
const PARTITION_WRITES = limits.PARTITION_WRITE_UNITS_PER_SECOND;
const SPLIT_AFTER_SECONDS = limits.SPLIT_AFTER_SECONDS;
const SPLIT_UTILIZATION = limits.SPLIT_UTILIZATION;
const USELESS_SPLIT_SHARE = limits.USELESS_SPLIT_SHARE;
const MIN_SPLIT_RELIEF_SHARE = limits.MIN_SPLIT_RELIEF_SHARE;
const onDemandInstantCapacity = limits.onDemandInstantCapacity;

/** At most this many splits for heat before the run (a warm start), per target. */
export const MAX_SETTLE_SPLITS = 512;
/** The heat map has at most this many time buckets. */
export const MAX_HEAT_BUCKETS = 120;
/** Throttled load below this many units is float noise, not throttling. */
const EPSILON = 1e-9;
const TOP_OFFSET = KEY_TOP_OFFSET;

/** Why a partition's load was not all served, as bits. */
export const CAUSE_KEY_RANGE = 1;
export const CAUSE_PROVISIONED = 2;
export const CAUSE_ACCOUNT = 4;
/** Over the on-demand maximum the design sets on the table or GSI (docs/dynamodb-rules.md §4.3, §4.7). */
export const CAUSE_MAX_ON_DEMAND = 8;

export type SplitRefusal = 'monotonic' | 'oneKey' | 'collection' | 'streams';

/** A split for heat that happened, or one that would give no relief. */
export interface SplitEvent {
  second: number;
  /** The partition's index at the time. */
  partition: number;
  /** Where the range was cut, as a fraction of the hash space; absent when the split was refused. */
  at?: number;
  /**
   * Why a split was refused: `monotonic` the writes follow an increasing sort key; `oneKey` the hot
   * load is one item, already alone on its partition; `collection` one item collection that may not
   * be cut by sort key (a table with an LSI); `streams` a hot item that is not isolated (a
   * provisioned table with Streams enabled).
   */
  refused?: SplitRefusal;
  /** The key carrying most of the partition's load. */
  key?: string;
}

/** Partitions on-demand scaling added as its instant capacity doubled (docs/dynamodb-rules.md §4.3). */
export interface ScaleOutEvent {
  second: number;
  /** Partitions added. */
  added: number;
  /** Where the ranges were cut, as fractions of the hash space. */
  cuts: number[];
}

/** What one target did in the last step: offered, served and throttled units, for checks and tests. */
export interface StepAccount {
  offeredRead: Float64Array;
  offeredWrite: Float64Array;
  servedRead: Float64Array;
  servedWrite: Float64Array;
  /** Throttled units per partition by cause: key range (partition limit or on-demand scaling), provisioned, account quota, on-demand maximum. */
  throttledRead: { keyRange: Float64Array; provisioned: Float64Array; account: Float64Array; maxOnDemand: Float64Array };
  throttledWrite: { keyRange: Float64Array; provisioned: Float64Array; account: Float64Array; maxOnDemand: Float64Array };
  /** Write units a GSI's back-pressure kept from the table this step (table only). */
  backPressureWrite: number;
  /** The target-level limit this step: provisioned RCU/WCU plus burst spent, or on-demand's instant capacity. */
  limit: { mode: 'provisioned'; readUnits: number; writeUnits: number; burstRead: number; burstWrite: number } | { mode: 'onDemand'; writeEquivalents: number };
}

interface SourceState {
  source: LoadSource;
  group: number;
  /** Units per second at the base rate. */
  baseUnits: number;
  /** Calls per second at the base rate. */
  baseCalls: number;
  /** Share of the source's load per partition (sums to 1). */
  vector: Float64Array;
  /** This step's offered units and the throttled share of them. */
  offered: number;
  throttledShare: number;
  causes: number;
}

export interface TargetState {
  model: TargetModel;
  index: number;
  starts: number[];
  sources: SourceState[];
  /** Per group: base read/write units and calls per partition. */
  groupRead: Float64Array[];
  groupWrite: Float64Array[];
  groupReadCalls: Float64Array[];
  groupWriteCalls: Float64Array[];
  /** Per key, per group: units at the base rate, by kind, spread over its sort range or at its top (monotonic). */
  keyLoad: { spreadRead: Float64Array; spreadWrite: Float64Array; topRead: Float64Array; topWrite: Float64Array }[];
  backgroundLoad: { read: number; write: number }[];
  burstRead: Float64Array;
  burstWrite: Float64Array;
  hotSeconds: Float64Array;
  retryAfter: Float64Array;
  // Accumulators, per partition.
  sumRead: Float64Array;
  sumWrite: Float64Array;
  peakRead: Float64Array;
  peakWrite: Float64Array;
  throttledCalls: Float64Array;
  heat: Float64Array[];
  throttledHeat: Float64Array[];
  /** Steps in which some request throttled: any, reads, writes, and base-table writes held back by a GSI. */
  throttledSteps: number;
  throttledReadSteps: number;
  throttledWriteSteps: number;
  backPressureSteps: number;
  /** The GSIs whose back-pressure throttled this table's writes. */
  backPressureFrom: Set<string>;
  reasonCalls: Map<string, number>;
  /** On-demand: served write-equivalents per step, and the peak that counts as "previous". */
  servedHistory: Float64Array;
  previousPeak: number;
  splits: SplitEvent[];
  /** On-demand scale-outs during the run, in order. */
  scaleOuts: ScaleOutEvent[];
  /** When the partition cap (`MAX_PARTITIONS`) stopped a split or scale-out, and how many partitions were wanted. */
  capped?: { second: number; wanted: number };
  /** Per explicit key: where its load lands, its busiest step and what of it throttled. */
  keyStats: KeyStats;
  last: StepAccount;
  /** Per-step working arrays, sized to the partition count. */
  scratch: { callsRead: Float64Array; callsWrite: Float64Array; shareRead: Float64Array; shareWrite: Float64Array; causes: Uint8Array; causesRead: Uint8Array; causesWrite: Uint8Array };
}

/** Per explicit key of a target (indexed like `model.keys`). */
export interface KeyStats {
  /** Keys that carry load in some group. */
  loaded: Int32Array;
  /** The partitions its sort-key range spans, first..last; `last` holds its top (the newest sort keys). */
  first: Int32Array;
  last: Int32Array;
  /** Highest offered units per second in any step (before throttling: the demand). */
  peakRead: Float64Array;
  peakWrite: Float64Array;
  /** Throttled units over the run (units/s × seconds). */
  throttledRead: Float64Array;
  throttledWrite: Float64Array;
  /** `CAUSE_*` bits of its throttled reads and writes. */
  causesRead: Uint8Array;
  causesWrite: Uint8Array;
  /** The hash range [start, end) of the partition where it first throttled (NaN until then), to name the keys it shared it with. */
  firstThrottledFrom: Float64Array;
  firstThrottledTo: Float64Array;
}

export interface PatternState {
  calls: number;
  throttled: number;
  reasons: Set<string>;
  callsByBucket: Float64Array;
  throttledByBucket: Float64Array;
}

export interface SimulationState {
  model: SimulationModel;
  seed: number;
  durationSeconds: number;
  stepSeconds: number;
  totalSteps: number;
  /** Steps done so far. */
  step: number;
  bucketSteps: number;
  bucketCount: number;
  random: Random;
  /** Whether per-step arrival noise is drawn (off: every step carries exactly the mean load). */
  arrivalNoise: boolean;
  /** How a partition's read and write limits combine. */
  limits: limits.PartitionLimitModel;
  /** Whether the run started cold (a new table) or warm (the base load has run before). */
  start: limits.SimulationStart;
  /** The headroom of recommended shard counts. */
  headroom: number;
  /** Traffic groups: patterns with the same workload events share a multiplier. */
  groupEvents: WorkloadEvent[][];
  groupOfPattern: number[];
  groupCallsPerSecond: number[];
  multipliers: Float64Array;
  multiplierSums: Float64Array;
  targets: TargetState[];
  patterns: PatternState[];
}

/** A workload of one hour at one-second steps without events: what a design without one gets. */
export const DEFAULT_WORKLOAD: Workload = { durationSeconds: 3600, stepSeconds: 1, seed: 1, events: [] };

/** The multiplier of a group's events at second `t`: spikes apply at once, ramps grow linearly, then stay. */
export function multiplierAt(events: readonly WorkloadEvent[], t: number): number {
  let m = 1;
  for (const e of events) {
    const end = e.startSecond + e.durationSeconds;
    if (e.kind === 'spike') {
      if (t >= e.startSecond && t < end) m *= e.multiplier;
    } else if (t >= end) m *= e.multiplier;
    else if (t >= e.startSecond) m *= 1 + ((e.multiplier - 1) * (t - e.startSecond)) / e.durationSeconds;
  }
  return m;
}

const capacityUnits = (read: number, write: number) => read / PARTITION_READS + write / PARTITION_WRITES;
/** Offered ÷ the partition's limit under the run's limit model (docs/dynamodb-rules.md §4.1). */
const utilization = (state: SimulationState, read: number, write: number) =>
  state.limits === 'linear' ? read / PARTITION_READS + write / PARTITION_WRITES : Math.max(read / PARTITION_READS, write / PARTITION_WRITES);

export interface CreateOptions {
  /** Per-step Poisson noise in the number of requests (default on). */
  arrivalNoise?: boolean;
  /**
   * `cold` (default): a new table, from the model's partitions with empty burst buckets and no
   * previous on-demand peak. `warm`: the table has run at the design's base load before: split for
   * heat has already cut the partitions that load keeps hot (as far as it can), burst buckets are
   * full and the base load is on-demand's previous peak.
   */
  start?: limits.SimulationStart;
  /** How a partition's read and write limits combine (default `independent`). */
  limits?: limits.PartitionLimitModel;
  /** The headroom of the shards recommended for throttled keys (default 1.25, docs/dynamodb-rules.md §5). */
  headroom?: number;
}

/** Starts a run of `model` over `workload`, seeded. */
export function createSimulation(model: SimulationModel, workload: Workload, seed: number, options: CreateOptions = {}): SimulationState {
  const stepSeconds = Number.isFinite(workload.stepSeconds) && workload.stepSeconds > 0 ? workload.stepSeconds : 1;
  const durationSeconds = Number.isFinite(workload.durationSeconds) && workload.durationSeconds > 0 ? workload.durationSeconds : stepSeconds;
  const totalSteps = Math.max(1, Math.ceil(durationSeconds / stepSeconds - 1e-9));
  const bucketSteps = Math.max(1, Math.ceil(totalSteps / MAX_HEAT_BUCKETS));
  const bucketCount = Math.ceil(totalSteps / bucketSteps);

  // Patterns touched by the same events move together: one multiplier per distinct set.
  const signatures = new Map<string, number>();
  const groupEvents: WorkloadEvent[][] = [];
  const groupOfPattern = model.patterns.map((p) => {
    const events = workload.events.filter((e) => e.patternIds === undefined || e.patternIds.includes(p.id));
    const signature = events.map((e) => workload.events.indexOf(e)).join(',');
    let group = signatures.get(signature);
    if (group === undefined) {
      group = groupEvents.length;
      signatures.set(signature, group);
      groupEvents.push(events);
    }
    return group;
  });
  const groupCallsPerSecond = groupEvents.map(() => 0);
  model.patterns.forEach((p, i) => {
    const g = groupOfPattern[i] as number;
    groupCallsPerSecond[g] = (groupCallsPerSecond[g] ?? 0) + p.ratePerSecond;
  });

  const state: SimulationState = {
    model,
    seed,
    durationSeconds,
    stepSeconds,
    totalSteps,
    step: 0,
    bucketSteps,
    bucketCount,
    random: createRandom(seed),
    arrivalNoise: options.arrivalNoise ?? true,
    limits: options.limits ?? limits.DEFAULT_PARTITION_LIMITS,
    start: options.start ?? limits.DEFAULT_START,
    headroom: options.headroom ?? DEFAULT_SHARD_HEADROOM,
    groupEvents,
    groupOfPattern,
    groupCallsPerSecond,
    multipliers: new Float64Array(groupEvents.length),
    multiplierSums: new Float64Array(groupEvents.length),
    targets: [],
    patterns: model.patterns.map(() => ({
      calls: 0,
      throttled: 0,
      reasons: new Set<string>(),
      callsByBucket: new Float64Array(bucketCount),
      throttledByBucket: new Float64Array(bucketCount),
    })),
  };
  state.targets = model.targets.map((t, index) => createTargetState(state, t, index));
  if (state.start === 'warm') for (const target of state.targets) settle(state, target);
  return state;
}

/**
 * Split for heat as it has already acted on a table running at its base load: every partition the
 * base load keeps above 80% is split (where a split helps), again until none is. Splits are listed
 * at second 0.
 */
function settle(state: SimulationState, target: TargetState): void {
  state.multipliers.fill(1);
  const limit = Math.min(MAX_PARTITIONS, target.starts.length + MAX_SETTLE_SPLITS);
  for (let round = 0; round < MAX_SETTLE_SPLITS; round += 1) {
    let didSplit = false;
    for (let i = 0; i < target.starts.length && target.starts.length < limit; i += 1) {
      let read = 0;
      let write = 0;
      for (let g = 0; g < state.groupEvents.length; g += 1) {
        read += target.groupRead[g]?.[i] ?? 0;
        write += target.groupWrite[g]?.[i] ?? 0;
      }
      if (utilization(state, read, write) <= SPLIT_UTILIZATION || (target.retryAfter[i] as number) > 0) continue;
      if (splitForHeat(state, target, i, 0)) {
        didSplit = true;
        i += 1;
      } else target.retryAfter[i] = SPLIT_AFTER_SECONDS;
    }
    if (!didSplit) break;
  }
  target.retryAfter.fill(0);
  target.hotSeconds.fill(0);
  state.multipliers.fill(0);
}

function zeros(n: number): Float64Array {
  return new Float64Array(n);
}

function emptyScratch(n: number): TargetState['scratch'] {
  return { callsRead: zeros(n), callsWrite: zeros(n), shareRead: zeros(n), shareWrite: zeros(n), causes: new Uint8Array(n), causesRead: new Uint8Array(n), causesWrite: new Uint8Array(n) };
}

function emptyAccount(n: number): StepAccount {
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

function createTargetState(state: SimulationState, model: TargetModel, index: number): TargetState {
  const groups = state.groupEvents.length;
  const p = Math.min(MAX_PARTITIONS, model.partitions.partitionCount);
  const keyCount = model.keys.length;
  const target: TargetState = {
    model,
    index,
    starts: equalRangeStarts(p),
    sources: model.sources.map((source) => {
      const rate = state.model.patterns[source.patternIndex]?.ratePerSecond ?? 0;
      return {
        source,
        group: state.groupOfPattern[source.patternIndex] ?? 0,
        baseUnits: rate * source.unitsPerCall,
        baseCalls: rate,
        vector: zeros(p),
        offered: 0,
        throttledShare: 0,
        causes: 0,
      };
    }),
    groupRead: [],
    groupWrite: [],
    groupReadCalls: [],
    groupWriteCalls: [],
    keyLoad: Array.from({ length: groups }, () => ({ spreadRead: zeros(keyCount), spreadWrite: zeros(keyCount), topRead: zeros(keyCount), topWrite: zeros(keyCount) })),
    backgroundLoad: Array.from({ length: groups }, () => ({ read: 0, write: 0 })),
    burstRead: zeros(p),
    burstWrite: zeros(p),
    hotSeconds: zeros(p),
    retryAfter: zeros(p),
    sumRead: zeros(p),
    sumWrite: zeros(p),
    peakRead: zeros(p),
    peakWrite: zeros(p),
    throttledCalls: zeros(p),
    heat: Array.from({ length: p }, () => zeros(state.bucketCount)),
    throttledHeat: Array.from({ length: p }, () => zeros(state.bucketCount)),
    throttledSteps: 0,
    throttledReadSteps: 0,
    throttledWriteSteps: 0,
    backPressureSteps: 0,
    backPressureFrom: new Set(),
    reasonCalls: new Map(),
    servedHistory: zeros(state.totalSteps),
    previousPeak: 0,
    splits: [],
    scaleOuts: [],
    ...(model.partitions.partitionCount > MAX_PARTITIONS ? { capped: { second: 0, wanted: model.partitions.partitionCount } } : {}),
    keyStats: emptyKeyStats(keyCount),
    last: emptyAccount(p),
    scratch: emptyScratch(p),
  };
  for (const s of target.sources) {
    const load = target.keyLoad[s.group];
    const bg = target.backgroundLoad[s.group];
    if (!load || !bg) continue;
    const isRead = s.source.kind === 'read';
    for (const k of s.source.keys) {
      const units = s.baseUnits * k.share;
      const arr = s.source.isMonotonic ? (isRead ? load.topRead : load.topWrite) : isRead ? load.spreadRead : load.spreadWrite;
      arr[k.key] = (arr[k.key] as number) + units;
    }
    if (isRead) bg.read += s.baseUnits * s.source.background;
    else bg.write += s.baseUnits * s.source.background;
  }
  const loaded: number[] = [];
  for (let k = 0; k < keyCount; k += 1) {
    if (target.keyLoad.some((l) => (l.spreadRead[k] as number) + (l.spreadWrite[k] as number) + (l.topRead[k] as number) + (l.topWrite[k] as number) > 0)) loaded.push(k);
  }
  target.keyStats.loaded = Int32Array.from(loaded);
  // Warm: burst buckets start full (the table has been idle or steady before the run). Cold: a new
  // table has saved no unused capacity yet.
  if (model.capacity.mode === 'provisioned' && state.start === 'warm') {
    target.burstRead.fill((BURST_SECONDS * model.capacity.readUnitsPerSecond) / p);
    target.burstWrite.fill((BURST_SECONDS * model.capacity.writeUnitsPerSecond) / p);
  }
  rebuildVectors(state, target);
  // On-demand, warm: the steady load before the run is the previous peak. Cold: there is none yet,
  // so the table serves the new-table level (docs/dynamodb-rules.md §4.3).
  let base = 0;
  for (let g = 0; g < groups; g += 1) {
    for (let i = 0; i < p; i += 1) base += (target.groupRead[g]?.[i] ?? 0) / 3 + (target.groupWrite[g]?.[i] ?? 0);
  }
  target.previousPeak = state.start === 'warm' ? base : 0;
  return target;
}

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

/** Recomputes where each source's load lands after the partition layout changed. */
function rebuildVectors(state: SimulationState, target: TargetState): void {
  const p = target.starts.length;
  const starts = target.starts;
  const keys = target.model.keys;
  const widthOf = (i: number) => (i + 1 < p ? (starts[i + 1] as number) : 1) - (starts[i] as number);
  const groups = state.groupEvents.length;
  target.groupRead = Array.from({ length: groups }, () => zeros(p));
  target.groupWrite = Array.from({ length: groups }, () => zeros(p));
  target.groupReadCalls = Array.from({ length: groups }, () => zeros(p));
  target.groupWriteCalls = Array.from({ length: groups }, () => zeros(p));
  for (const s of target.sources) {
    const v = zeros(p);
    if (s.source.background > 0) for (let i = 0; i < p; i += 1) v[i] = s.source.background * widthOf(i);
    for (const k of s.source.keys) {
      const key = keys[k.key];
      if (!key) continue;
      spreadKey(starts, key.position, s.source.isMonotonic, k.share, v);
    }
    s.vector = v;
    const units = s.source.kind === 'read' ? target.groupRead[s.group] : target.groupWrite[s.group];
    const calls = s.source.kind === 'read' ? target.groupReadCalls[s.group] : target.groupWriteCalls[s.group];
    if (!units || !calls) continue;
    for (let i = 0; i < p; i += 1) {
      const share = v[i] as number;
      if (share === 0) continue;
      units[i] = (units[i] as number) + share * s.baseUnits;
      calls[i] = (calls[i] as number) + share * s.baseCalls;
    }
  }
  const ks = target.keyStats;
  for (const k of ks.loaded) {
    const key = keys[k] as { position: number };
    ks.first[k] = partitionAt(starts, key.position);
    ks.last[k] = partitionAt(starts, key.position + KEY_SPAN - TOP_OFFSET);
  }
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

/** Advances the run by one step; returns the same state. A finished run is left as it is. */
export function step(state: SimulationState): SimulationState {
  if (state.step >= state.totalSteps) return state;
  const dt = state.stepSeconds;
  const t = state.step * dt;
  const bucket = Math.floor(state.step / state.bucketSteps);
  for (let g = 0; g < state.groupEvents.length; g += 1) {
    const mean = multiplierAt(state.groupEvents[g] ?? [], t);
    // Requests arrive as a Poisson process: the step's count varies around its mean by √n.
    const calls = (state.groupCallsPerSecond[g] ?? 0) * mean * dt;
    const noise = state.arrivalNoise && calls > 0 ? 1 + normal(state.random) / Math.sqrt(Math.max(1, calls)) : 1;
    const m = Math.max(0, mean * noise);
    state.multipliers[g] = m;
    state.multiplierSums[g] = (state.multiplierSums[g] as number) + m;
  }

  // GSIs first: their throttled writes hold back the base-table writes (back-pressure, docs/dynamodb-rules.md §4.8).
  const backPressure = new Float64Array(state.model.patterns.length);
  const backPressureCauses = new Map<number, Set<string>>();
  const backPressureFrom = new Set<string>();
  for (const target of state.targets) {
    if (target.model.kind !== 'gsi') continue;
    runTarget(state, target, undefined, bucket);
    for (const s of target.sources) {
      if (s.source.kind !== 'write' || s.throttledShare <= 0) continue;
      const p = s.source.patternIndex;
      backPressure[p] = 1 - (1 - (backPressure[p] as number)) * (1 - s.throttledShare);
      const set = backPressureCauses.get(p) ?? new Set<string>();
      for (const r of reasonsOf(s.causes, 'Index', 'Write')) set.add(r);
      backPressureCauses.set(p, set);
      backPressureFrom.add(target.model.name);
    }
  }
  const table = state.targets.find((x) => x.model.kind === 'table');
  if (table) {
    runTarget(state, table, { shares: backPressure, causes: backPressureCauses }, bucket);
    if (table.last.backPressureWrite > EPSILON) {
      table.backPressureSteps += 1;
      for (const name of backPressureFrom) table.backPressureFrom.add(name);
    }
  }

  // Per pattern: calls, and the calls that throttled on any target.
  state.model.patterns.forEach((pattern, p) => {
    const ps = state.patterns[p] as PatternState;
    const m = state.multipliers[state.groupOfPattern[p] as number] as number;
    const calls = pattern.ratePerSecond * m * dt;
    if (calls <= 0) return;
    let share = 0;
    if (pattern.kind === 'read') {
      for (const target of state.targets) {
        for (const s of target.sources) {
          if (s.source.patternIndex !== p || s.throttledShare <= 0) continue;
          share = 1 - (1 - share) * (1 - s.throttledShare);
          for (const r of reasonsOf(s.causes, target.model.kind === 'table' ? 'Table' : 'Index', 'Read')) ps.reasons.add(r);
        }
      }
    } else {
      const bp = backPressure[p] as number;
      const own = table?.sources.find((s) => s.source.patternIndex === p);
      const tableShare = own?.throttledShare ?? 0;
      share = bp + (1 - bp) * tableShare;
      if (own && tableShare > 0) for (const r of reasonsOf(own.causes, 'Table', 'Write')) ps.reasons.add(r);
      if (bp > 0) for (const r of backPressureCauses.get(p) ?? []) ps.reasons.add(r);
    }
    ps.calls += calls;
    ps.throttled += calls * share;
    ps.callsByBucket[bucket] = (ps.callsByBucket[bucket] as number) + calls;
    ps.throttledByBucket[bucket] = (ps.throttledByBucket[bucket] as number) + calls * share;
  });

  state.step += 1;
  return state;
}

/** `TableWriteKeyRangeThroughputExceeded` … for the cause bits of one step. */
function reasonsOf(causes: number, resource: 'Table' | 'Index', operation: 'Read' | 'Write'): string[] {
  const out: string[] = [];
  if (causes & CAUSE_KEY_RANGE) out.push(`${resource}${operation}KeyRangeThroughputExceeded`);
  if (causes & CAUSE_PROVISIONED) out.push(`${resource}${operation}ProvisionedThroughputExceeded`);
  if (causes & CAUSE_ACCOUNT) out.push(`${resource}${operation}AccountLimitExceeded`);
  if (causes & CAUSE_MAX_ON_DEMAND) out.push(`${resource}${operation}MaxOnDemandThroughputExceeded`);
  return out;
}

interface BackPressure {
  shares: Float64Array;
  causes: Map<number, Set<string>>;
}

/** One step of one target: offered load per partition, the limits, what is served and why the rest is not. */
function runTarget(state: SimulationState, target: TargetState, backPressure: BackPressure | undefined, bucket: number): void {
  const dt = state.stepSeconds;
  let instant = 0;
  if (target.model.capacity.mode === 'onDemand') {
    // A peak served 30 minutes ago counts as previous; twice it is served at once, on partitions enough for it.
    const lag = Math.max(1, Math.round(ON_DEMAND_PEAK_AGE_SECONDS / dt));
    if (state.step >= lag) target.previousPeak = Math.max(target.previousPeak, target.servedHistory[state.step - lag] as number);
    instant = onDemandInstantCapacity(target.previousPeak);
    scaleOut(state, target, Math.ceil(instant / PARTITION_WRITES - 1e-9));
  }
  const p = target.starts.length;
  const m = state.multipliers;
  const last = target.last;
  const offR = last.offeredRead;
  const offW = last.offeredWrite;
  const srvR = last.servedRead;
  const srvW = last.servedWrite;
  offR.fill(0);
  offW.fill(0);
  const callsR = target.scratch.callsRead.fill(0);
  const callsW = target.scratch.callsWrite.fill(0);
  for (let g = 0; g < m.length; g += 1) {
    const mg = m[g] as number;
    if (mg === 0) continue;
    const gr = target.groupRead[g] as Float64Array;
    const gw = target.groupWrite[g] as Float64Array;
    const gcr = target.groupReadCalls[g] as Float64Array;
    const gcw = target.groupWriteCalls[g] as Float64Array;
    for (let i = 0; i < p; i += 1) {
      offR[i] = (offR[i] as number) + mg * (gr[i] as number);
      offW[i] = (offW[i] as number) + mg * (gw[i] as number);
      callsR[i] = (callsR[i] as number) + mg * (gcr[i] as number);
      callsW[i] = (callsW[i] as number) + mg * (gcw[i] as number);
    }
  }
  // Writes a GSI refused never reach the table.
  last.backPressureWrite = 0;
  for (const s of target.sources) {
    const mg = m[s.group] as number;
    const bp = backPressure && s.source.kind === 'write' ? (backPressure.shares[s.source.patternIndex] as number) : 0;
    s.offered = s.baseUnits * mg * (1 - bp);
    s.throttledShare = 0;
    s.causes = 0;
    if (bp <= 0 || mg === 0) continue;
    const units = s.baseUnits * mg * bp;
    const calls = s.baseCalls * mg * bp;
    last.backPressureWrite += units;
    for (let i = 0; i < p; i += 1) {
      const v = s.vector[i] as number;
      if (v === 0) continue;
      offW[i] = Math.max(0, (offW[i] as number) - units * v);
      callsW[i] = Math.max(0, (callsW[i] as number) - calls * v);
    }
    const reasons = backPressure?.causes.get(s.source.patternIndex);
    const reason = reasons ? [...reasons][0] : undefined;
    if (reason) target.reasonCalls.set(reason, (target.reasonCalls.get(reason) ?? 0) + calls * dt);
  }

  // 1. Each partition's own limit: 3,000 RCU and 1,000 WCU, independent or as R/3,000 + W/1,000 ≤ 1.
  const krR = last.throttledRead.keyRange;
  const krW = last.throttledWrite.keyRange;
  const pvR = last.throttledRead.provisioned;
  const pvW = last.throttledWrite.provisioned;
  const acR = last.throttledRead.account;
  const acW = last.throttledWrite.account;
  const mxR = last.throttledRead.maxOnDemand;
  const mxW = last.throttledWrite.maxOnDemand;
  pvR.fill(0);
  pvW.fill(0);
  acR.fill(0);
  acW.fill(0);
  mxR.fill(0);
  mxW.fill(0);
  const heatColumn = target.heat;
  const isLinear = state.limits === 'linear';
  for (let i = 0; i < p; i += 1) {
    const r = offR[i] as number;
    const w = offW[i] as number;
    let u: number;
    if (isLinear) {
      u = capacityUnits(r, w);
      const scale = u > 1 ? 1 / u : 1;
      srvR[i] = r * scale;
      srvW[i] = w * scale;
    } else {
      // Reads and writes are limited separately: heavy reads never throttle a write.
      const ur = r / PARTITION_READS;
      const uw = w / PARTITION_WRITES;
      u = ur > uw ? ur : uw;
      srvR[i] = r > PARTITION_READS ? PARTITION_READS : r;
      srvW[i] = w > PARTITION_WRITES ? PARTITION_WRITES : w;
    }
    krR[i] = r - (srvR[i] as number);
    krW[i] = w - (srvW[i] as number);
    // The heat map keeps each bucket's worst step, so a short spike over the limit stays visible.
    const h = heatColumn[i] as Float64Array;
    if (u > (h[bucket] as number)) h[bucket] = u;
    target.hotSeconds[i] = u > SPLIT_UTILIZATION ? (target.hotSeconds[i] as number) + dt : 0;
  }

  // 2. The target's own limit.
  const capacity = target.model.capacity;
  if (capacity.mode === 'provisioned') {
    const burstR = shareProvisioned(srvR, pvR, target.burstRead, capacity.readUnitsPerSecond / p, dt);
    const burstW = shareProvisioned(srvW, pvW, target.burstWrite, capacity.writeUnitsPerSecond / p, dt);
    last.limit = { mode: 'provisioned', readUnits: capacity.readUnitsPerSecond, writeUnits: capacity.writeUnitsPerSecond, burstRead: burstR, burstWrite: burstW };
  } else {
    // Past twice the previous peak the partitions have not split yet: a key-range throttle.
    const served = totals(srvR, srvW);
    if (served.writeEquivalents > instant) scaleAll(srvR, srvW, krR, krW, instant / served.writeEquivalents);
    // The design's on-demand maximum, then the account's per-table quota: whatever is over either throttles.
    const toMax = totals(srvR, srvW);
    const maxR = capacity.maxReadUnitsPerSecond;
    const maxW = capacity.maxWriteUnitsPerSecond;
    if (maxR !== undefined && toMax.reads > maxR) scaleAll(srvR, undefined, mxR, undefined, maxR / toMax.reads);
    if (maxW !== undefined && toMax.writes > maxW) scaleAll(undefined, srvW, undefined, mxW, maxW / toMax.writes);
    const capped = totals(srvR, srvW);
    if (capped.reads > ON_DEMAND_ACCOUNT_READ_UNITS) scaleAll(srvR, undefined, acR, undefined, ON_DEMAND_ACCOUNT_READ_UNITS / capped.reads);
    if (capped.writes > ON_DEMAND_ACCOUNT_WRITE_UNITS) scaleAll(undefined, srvW, undefined, acW, ON_DEMAND_ACCOUNT_WRITE_UNITS / capped.writes);
    target.servedHistory[state.step] = totals(srvR, srvW).writeEquivalents;
    last.limit = { mode: 'onDemand', writeEquivalents: instant };
  }

  // 3. Accounting: per partition, per reason, per source.
  let anyThrottled = last.backPressureWrite > EPSILON;
  const throttledList: number[] = [];
  const tfR = target.scratch.shareRead.fill(0);
  const tfW = target.scratch.shareWrite.fill(0);
  const causes = target.scratch.causes.fill(0);
  const causesRead = target.scratch.causesRead.fill(0);
  const causesWrite = target.scratch.causesWrite.fill(0);
  const resource = target.model.kind === 'table' ? 'Table' : 'Index';
  let anyRead = false;
  let anyWrite = last.backPressureWrite > EPSILON;
  for (let i = 0; i < p; i += 1) {
    const r = offR[i] as number;
    const w = offW[i] as number;
    target.sumRead[i] = (target.sumRead[i] as number) + r;
    target.sumWrite[i] = (target.sumWrite[i] as number) + w;
    if (r > (target.peakRead[i] as number)) target.peakRead[i] = r;
    if (w > (target.peakWrite[i] as number)) target.peakWrite[i] = w;
    const thR = r - (srvR[i] as number);
    const thW = w - (srvW[i] as number);
    if (thR <= EPSILON && thW <= EPSILON) continue;
    anyThrottled = true;
    if (thR > EPSILON) anyRead = true;
    if (thW > EPSILON) anyWrite = true;
    throttledList.push(i);
    tfR[i] = r > 0 ? thR / r : 0;
    tfW[i] = w > 0 ? thW / w : 0;
    const calls = ((callsR[i] as number) * (tfR[i] as number) + (callsW[i] as number) * (tfW[i] as number)) * dt;
    target.throttledCalls[i] = (target.throttledCalls[i] as number) + calls;
    const th = target.throttledHeat[i] as Float64Array;
    th[bucket] = (th[bucket] as number) + calls;
    let c = 0;
    let cr = 0;
    let cw = 0;
    const add = (units: number, total: number, callsOf: number, op: 'Read' | 'Write', cause: number, name: string) => {
      if (units <= EPSILON || total <= 0) return;
      c |= cause;
      if (op === 'Read') cr |= cause;
      else cw |= cause;
      const reason = `${resource}${op}${name}`;
      target.reasonCalls.set(reason, (target.reasonCalls.get(reason) ?? 0) + (callsOf * units * dt) / total);
    };
    add(krR[i] as number, r, callsR[i] as number, 'Read', CAUSE_KEY_RANGE, 'KeyRangeThroughputExceeded');
    add(krW[i] as number, w, callsW[i] as number, 'Write', CAUSE_KEY_RANGE, 'KeyRangeThroughputExceeded');
    add(pvR[i] as number, r, callsR[i] as number, 'Read', CAUSE_PROVISIONED, 'ProvisionedThroughputExceeded');
    add(pvW[i] as number, w, callsW[i] as number, 'Write', CAUSE_PROVISIONED, 'ProvisionedThroughputExceeded');
    add(acR[i] as number, r, callsR[i] as number, 'Read', CAUSE_ACCOUNT, 'AccountLimitExceeded');
    add(acW[i] as number, w, callsW[i] as number, 'Write', CAUSE_ACCOUNT, 'AccountLimitExceeded');
    add(mxR[i] as number, r, callsR[i] as number, 'Read', CAUSE_MAX_ON_DEMAND, 'MaxOnDemandThroughputExceeded');
    add(mxW[i] as number, w, callsW[i] as number, 'Write', CAUSE_MAX_ON_DEMAND, 'MaxOnDemandThroughputExceeded');
    causes[i] = c;
    causesRead[i] = cr;
    causesWrite[i] = cw;
  }
  if (anyThrottled) target.throttledSteps += 1;
  if (anyRead) target.throttledReadSteps += 1;
  if (anyWrite) target.throttledWriteSteps += 1;
  if (throttledList.length > 0) {
    for (const s of target.sources) {
      const tf = s.source.kind === 'read' ? tfR : tfW;
      let share = 0;
      let c = 0;
      for (const i of throttledList) {
        const v = s.vector[i] as number;
        if (v === 0) continue;
        share += v * (tf[i] as number);
        if ((tf[i] as number) > 0) c |= causes[i] as number;
      }
      s.throttledShare = Math.min(1, share);
      s.causes = c;
    }
  }

  accountKeys(state, target, throttledList.length > 0, tfR, tfW, causesRead, causesWrite);

  // 4. Split for heat: five minutes above 80% of the limit.
  const now = (state.step + 1) * dt;
  for (let i = 0; i < target.starts.length; i += 1) {
    if ((target.hotSeconds[i] as number) < SPLIT_AFTER_SECONDS || now < (target.retryAfter[i] as number)) continue;
    if (target.starts.length >= MAX_PARTITIONS) {
      target.capped ??= { second: now, wanted: MAX_PARTITIONS + 1 };
      break;
    }
    if (splitForHeat(state, target, i, now)) i += 1;
  }
}

/**
 * Per explicit key with load: this step's offered units (its busiest step so far) and the share
 * of them its partitions throttled, with the causes. A key whose sort-key range spans partitions
 * (split for heat cut it) takes each partition's throttled share in proportion to its range there.
 */
function accountKeys(
  state: SimulationState,
  target: TargetState,
  anyThrottled: boolean,
  tfR: Float64Array,
  tfW: Float64Array,
  causesRead: Uint8Array,
  causesWrite: Uint8Array,
): void {
  const m = state.multipliers;
  const dt = state.stepSeconds;
  const ks = target.keyStats;
  const groups = target.keyLoad;
  const starts = target.starts;
  const keys = target.model.keys;
  for (let n = 0; n < ks.loaded.length; n += 1) {
    const k = ks.loaded[n] as number;
    let sr = 0;
    let sw = 0;
    let tr = 0;
    let tw = 0;
    for (let g = 0; g < groups.length; g += 1) {
      const mg = m[g] as number;
      if (mg === 0) continue;
      const l = groups[g] as TargetState['keyLoad'][number];
      sr += mg * (l.spreadRead[k] as number);
      sw += mg * (l.spreadWrite[k] as number);
      tr += mg * (l.topRead[k] as number);
      tw += mg * (l.topWrite[k] as number);
    }
    if (sr + tr > (ks.peakRead[k] as number)) ks.peakRead[k] = sr + tr;
    if (sw + tw > (ks.peakWrite[k] as number)) ks.peakWrite[k] = sw + tw;
    if (!anyThrottled) continue;
    const first = ks.first[k] as number;
    const last = ks.last[k] as number;
    let thR = tr * (tfR[last] as number);
    let thW = tw * (tfW[last] as number);
    let cR = tr > 0 && (tfR[last] as number) > 0 ? (causesRead[last] as number) : 0;
    let cW = tw > 0 && (tfW[last] as number) > 0 ? (causesWrite[last] as number) : 0;
    if (sr + sw > 0) {
      const position = (keys[k] as { position: number }).position;
      for (let i = first; i <= last; i += 1) {
        const fR = tfR[i] as number;
        const fW = tfW[i] as number;
        if (fR === 0 && fW === 0) continue;
        const from = Math.max(position, starts[i] as number);
        const to = Math.min(position + KEY_SPAN, i + 1 < starts.length ? (starts[i + 1] as number) : 1);
        const part = first === last ? 1 : Math.max(0, to - from) / KEY_SPAN;
        thR += sr * part * fR;
        thW += sw * part * fW;
        if (sr > 0 && fR > 0) cR |= causesRead[i] as number;
        if (sw > 0 && fW > 0) cW |= causesWrite[i] as number;
      }
    }
    if (thR > EPSILON) {
      ks.throttledRead[k] = (ks.throttledRead[k] as number) + thR * dt;
      ks.causesRead[k] = (ks.causesRead[k] as number) | cR;
    }
    if (thW > EPSILON) {
      ks.throttledWrite[k] = (ks.throttledWrite[k] as number) + thW * dt;
      ks.causesWrite[k] = (ks.causesWrite[k] as number) | cW;
    }
    if ((thR > EPSILON || thW > EPSILON) && Number.isNaN(ks.firstThrottledFrom[k] as number)) {
      ks.firstThrottledFrom[k] = starts[last] as number;
      ks.firstThrottledTo[k] = last + 1 < starts.length ? (starts[last + 1] as number) : 1;
    }
  }
}

/**
 * On-demand scaling adds partitions as its instant capacity grows: the widest range is cut in half
 * until there are `needed` partitions (at most `MAX_PARTITIONS`).
 */
function scaleOut(state: SimulationState, target: TargetState, needed: number): void {
  const goal = Math.min(needed, MAX_PARTITIONS);
  if (needed > MAX_PARTITIONS) target.capped ??= { second: state.step * state.stepSeconds, wanted: needed };
  if (target.starts.length >= goal) return;
  const event: ScaleOutEvent = { second: state.step * state.stepSeconds, added: goal - target.starts.length, cuts: [] };
  while (target.starts.length < goal) {
    // Each round halves the widest ranges (each at most once), so the count at most doubles a round.
    const widths = target.starts.map((start, i) => ({ i, start, width: (i + 1 < target.starts.length ? (target.starts[i + 1] as number) : 1) - start }));
    widths.sort((a, b) => b.width - a.width || a.i - b.i);
    const cuts = widths.slice(0, goal - target.starts.length).map((w) => ({ index: w.i, at: w.start + w.width / 2, leftShare: 0.5 }));
    cutPartitions(state, target, cuts, false);
    for (const c of cuts) event.cuts.push(c.at);
  }
  target.scaleOuts.push(event);
  rebuildVectors(state, target);
}

/**
 * Provisioned capacity over partitions: each gets capacity ÷ partitions; a partition over its share
 * first takes what others leave unused (adaptive capacity, instantly), then spends its burst bucket;
 * the rest throttles. Unused capacity that was not lent refills the buckets. Returns the burst spent
 * (units/s).
 */
function shareProvisioned(served: Float64Array, throttled: Float64Array, bucket: Float64Array, share: number, dt: number): number {
  const p = served.length;
  let excess = 0;
  let unused = 0;
  for (let i = 0; i < p; i += 1) {
    const s = served[i] as number;
    if (s > share) excess += s - share;
    else unused += share - s;
  }
  if (excess <= EPSILON) {
    for (let i = 0; i < p; i += 1) bucket[i] = Math.min(BURST_SECONDS * share, (bucket[i] as number) + (share - (served[i] as number)) * dt);
    return 0;
  }
  const lent = Math.min(1, unused / excess);
  const lentShare = unused > 0 ? Math.min(1, excess / unused) : 0;
  let burst = 0;
  for (let i = 0; i < p; i += 1) {
    const s = served[i] as number;
    if (s <= share) {
      bucket[i] = Math.min(BURST_SECONDS * share, (bucket[i] as number) + (share - s) * (1 - lentShare) * dt);
      continue;
    }
    const left = (s - share) * (1 - lent);
    if (left <= 0) continue;
    const fromBucket = Math.min(left, (bucket[i] as number) / dt);
    bucket[i] = (bucket[i] as number) - fromBucket * dt;
    burst += fromBucket;
    const refused = left - fromBucket;
    if (refused > 0) {
      served[i] = s - refused;
      throttled[i] = (throttled[i] as number) + refused;
    }
  }
  return burst;
}

function totals(read: Float64Array, write: Float64Array): { reads: number; writes: number; writeEquivalents: number } {
  let reads = 0;
  let writes = 0;
  for (let i = 0; i < read.length; i += 1) {
    reads += read[i] as number;
    writes += write[i] as number;
  }
  return { reads, writes, writeEquivalents: reads / 3 + writes };
}

/** Scales every partition's served load by `factor`, moving the rest to `throttled`. */
function scaleAll(read: Float64Array | undefined, write: Float64Array | undefined, throttledRead: Float64Array | undefined, throttledWrite: Float64Array | undefined, factor: number): void {
  if (!(factor < 1)) return;
  const f = Math.max(0, factor);
  const n = (read ?? write)?.length ?? 0;
  for (let i = 0; i < n; i += 1) {
    if (read && throttledRead) {
      const cut = (read[i] as number) * (1 - f);
      read[i] = (read[i] as number) - cut;
      throttledRead[i] = (throttledRead[i] as number) + cut;
    }
    if (write && throttledWrite) {
      const cut = (write[i] as number) * (1 - f);
      write[i] = (write[i] as number) - cut;
      throttledWrite[i] = (throttledWrite[i] as number) + cut;
    }
  }
}

/** The load (capacity units: R/3,000 + W/1,000) at this step's multipliers, as pieces along a partition's range. */
interface LoadPiece {
  from: number;
  to: number;
  /** Load spread evenly over [from, to), or all at `to` when `from === to`. */
  load: number;
  key?: number;
  isTop?: boolean;
}

function piecesOf(state: SimulationState, target: TargetState, a: number, b: number): { pieces: LoadPiece[]; background: number } {
  const m = state.multipliers;
  let density = 0;
  target.backgroundLoad.forEach((bg, g) => (density += (m[g] as number) * capacityUnits(bg.read, bg.write)));
  const pieces: LoadPiece[] = [];
  const keys = target.model.keys;
  for (let k = 0; k < keys.length; k += 1) {
    const pos = (keys[k] as { position: number }).position;
    const top = pos + KEY_SPAN;
    if (top <= a || pos >= b) continue;
    let spread = 0;
    let atTop = 0;
    target.keyLoad.forEach((load, g) => {
      const mg = m[g] as number;
      spread += mg * capacityUnits(load.spreadRead[k] as number, load.spreadWrite[k] as number);
      atTop += mg * capacityUnits(load.topRead[k] as number, load.topWrite[k] as number);
    });
    const from = Math.max(a, pos);
    const to = Math.min(b, top);
    if (spread > 0 && to > from) pieces.push({ from, to, load: (spread * (to - from)) / KEY_SPAN, key: k });
    const point = top - TOP_OFFSET;
    if (atTop > 0 && point >= a && point < b) pieces.push({ from: point, to: point, load: atTop, key: k, isTop: true });
  }
  return { pieces, background: density };
}

/**
 * Splits partition `i` at the middle of its observed load (docs/dynamodb-rules.md §10.3), unless the split
 * would give no relief. A cut that falls inside one partition key's item collection is moved to
 * the key's edge (isolating the key from its neighbours) when the collection may not be cut: one
 * item, an LSI, or writes at the top of an ever-increasing sort key (docs/dynamodb-rules.md §4.6). On a
 * provisioned table with Streams, hot items are not isolated. Returns whether it split.
 */
function splitForHeat(state: SimulationState, target: TargetState, i: number, now: number): boolean {
  const a = target.starts[i] as number;
  const b = i + 1 < target.starts.length ? (target.starts[i + 1] as number) : 1;
  const { pieces, background } = piecesOf(state, target, a, b);
  const loadBelow = (x: number) => {
    let sum = background * (x - a);
    for (const piece of pieces) {
      if (piece.isTop) sum += piece.to < x ? piece.load : 0;
      else if (x > piece.from) sum += (piece.load * (Math.min(x, piece.to) - piece.from)) / (piece.to - piece.from);
    }
    return sum;
  };
  const total = loadBelow(b);
  const keyLoads = new Map<number, { all: number; top: number }>();
  for (const p of pieces) {
    if (p.key === undefined) continue;
    const kl = keyLoads.get(p.key) ?? { all: 0, top: 0 };
    kl.all += p.load;
    if (p.isTop) kl.top += p.load;
    keyLoads.set(p.key, kl);
  }
  let heaviest: number | undefined;
  for (const [k, kl] of keyLoads) if (heaviest === undefined || kl.all > (keyLoads.get(heaviest)?.all ?? 0)) heaviest = k;
  const keyName = heaviest !== undefined ? target.model.keys[heaviest]?.key : undefined;
  const refuse = (reason: SplitRefusal): boolean => {
    target.retryAfter[i] = now + SPLIT_AFTER_SECONDS;
    target.hotSeconds[i] = 0;
    const already = target.splits.some((s) => s.refused === reason && s.key === keyName);
    if (!already) target.splits.push({ second: now, partition: i, refused: reason, ...(keyName ? { key: keyName } : {}) });
    return false;
  };
  if (!(total > 0)) return refuse('oneKey');

  // The median by bisection over the range (the load function is monotone in x).
  let low = a;
  let high = b;
  for (let n = 0; n < 80 && high - low > 1e-18; n += 1) {
    const mid = (low + high) / 2;
    if (loadBelow(mid) < total / 2) low = mid;
    else high = mid;
  }
  // The load can jump at a key's top (monotonic writes): of the cuts around the median, take the most even.
  const half = total / 2;
  const mostEven = (xs: number[], fallback: number) => xs.reduce((best, x) => (Math.abs(loadBelow(x) - half) < Math.abs(loadBelow(best) - half) ? x : best), fallback);
  let at = mostEven([low, (low + high) / 2, high].filter((x) => x > a && x < b), (low + high) / 2);
  let why: SplitRefusal = heaviest !== undefined && (keyLoads.get(heaviest)?.top ?? 0) >= USELESS_SPLIT_SHARE * (keyLoads.get(heaviest)?.all ?? 0) ? 'monotonic' : 'oneKey';
  // A cut inside an item collection: allowed only where DynamoDB can cut by sort key and it helps.
  const inside = keyContaining(target, at, a, b);
  if (inside !== undefined) {
    const key = target.model.keys[inside] as { position: number; items: number };
    const kl = keyLoads.get(inside) ?? { all: 0, top: 0 };
    const items = Math.floor(key.items);
    const minWidth = KEY_SPAN / Math.max(1, items);
    const isMonotonic = kl.all > 0 && kl.top >= USELESS_SPLIT_SHARE * kl.all;
    const reason: SplitRefusal | undefined = isMonotonic ? 'monotonic' : items < 2 ? 'oneKey' : !target.model.canSplitCollections ? 'collection' : undefined;
    if (reason === undefined && at - a >= minWidth && b - at >= minWidth) {
      // Cutting the collection by sort-key range.
    } else {
      why = reason ?? 'oneKey';
      // Isolate the key instead: cut at the edge of its range that divides the load most evenly.
      if (!target.model.canIsolateItems) return refuse('streams');
      const edges = [key.position, key.position + KEY_SPAN].filter((x) => x > a && x < b);
      at = edges.length === 0 ? NaN : mostEven(edges, edges[0] as number);
    }
  }
  if (!(at > a && at < b)) return refuse(why);
  const left = loadBelow(at);
  const right = total - left;
  if (Math.min(left, right) <= MIN_SPLIT_RELIEF_SHARE * total) return refuse(why);

  insertPartition(state, target, i, at, left / total);
  target.splits.push({ second: now, partition: i, at, ...(keyName ? { key: keyName } : {}) });
  return true;
}

/** The explicit key whose sort-key range holds `x` strictly inside, among those overlapping [a, b). */
function keyContaining(target: TargetState, x: number, a: number, b: number): number | undefined {
  const keys = target.model.keys;
  for (let k = 0; k < keys.length; k += 1) {
    const pos = (keys[k] as { position: number }).position;
    if (pos < x && x < pos + KEY_SPAN && pos + KEY_SPAN > a && pos < b) return k;
  }
  return undefined;
}

/** One cut of a partition: where, and the share of its load (and history) the left half keeps. */
interface Cut {
  index: number;
  at: number;
  leftShare: number;
}

/** Cuts partition `i` at `at`; the halves inherit its history (sums split by `leftShare`, the heat map copied). */
function insertPartition(state: SimulationState, target: TargetState, i: number, at: number, leftShare: number): void {
  cutPartitions(state, target, [{ index: i, at, leftShare }]);
}

/**
 * Cuts several partitions at once (each at most once), then lays the loads out again. Every
 * per-partition array is rebuilt in one pass, so scaling out to thousands of partitions stays linear.
 */
function cutPartitions(state: SimulationState, target: TargetState, cuts: Cut[], rebuild = true): void {
  if (cuts.length === 0) return;
  const byIndex = new Map(cuts.map((c) => [c.index, c]));
  const oldCount = target.starts.length;
  const starts: number[] = [];
  /** For each new partition: its parent and the parent's share it takes (1 when not cut). */
  const parent: number[] = [];
  const share: number[] = [];
  const isCut: boolean[] = [];
  for (let i = 0; i < oldCount; i += 1) {
    const cut = byIndex.get(i);
    starts.push(target.starts[i] as number);
    parent.push(i);
    if (!cut) {
      share.push(1);
      isCut.push(false);
      continue;
    }
    share.push(cut.leftShare);
    isCut.push(true);
    starts.push(cut.at);
    parent.push(i);
    share.push(1 - cut.leftShare);
    isCut.push(true);
  }
  const count = starts.length;
  type Mode = 'share' | 'half' | 'zero';
  const remap = (arr: Float64Array, mode: Mode): Float64Array => {
    const out = zeros(count);
    for (let j = 0; j < count; j += 1) {
      const v = arr[parent[j] as number] as number;
      out[j] = !isCut[j] ? v : mode === 'share' ? v * (share[j] as number) : mode === 'half' ? v / 2 : 0;
    }
    return out;
  };
  target.starts = starts;
  target.burstRead = remap(target.burstRead, 'half');
  target.burstWrite = remap(target.burstWrite, 'half');
  target.hotSeconds = remap(target.hotSeconds, 'zero');
  target.retryAfter = remap(target.retryAfter, 'zero');
  target.sumRead = remap(target.sumRead, 'share');
  target.sumWrite = remap(target.sumWrite, 'share');
  target.peakRead = remap(target.peakRead, 'share');
  target.peakWrite = remap(target.peakWrite, 'share');
  target.throttledCalls = remap(target.throttledCalls, 'share');
  const heat = target.heat;
  const throttledHeat = target.throttledHeat;
  target.heat = parent.map((i, j) => (isCut[j] ? Float64Array.from(heat[i] as Float64Array) : (heat[i] as Float64Array)));
  target.throttledHeat = parent.map((i, j) => (isCut[j] ? (throttledHeat[i] as Float64Array).map((v) => v * (share[j] as number)) : (throttledHeat[i] as Float64Array)));
  // The provisioned share per partition changes with the count; buckets are capped at the new share.
  const capacity = target.model.capacity;
  if (capacity.mode === 'provisioned') {
    const capR = (BURST_SECONDS * capacity.readUnitsPerSecond) / count;
    const capW = (BURST_SECONDS * capacity.writeUnitsPerSecond) / count;
    for (let k = 0; k < count; k += 1) {
      target.burstRead[k] = Math.min(capR, target.burstRead[k] as number);
      target.burstWrite[k] = Math.min(capW, target.burstWrite[k] as number);
    }
  }
  const last = target.last;
  const grown = emptyAccount(count);
  grown.offeredRead = remap(last.offeredRead, 'share');
  grown.offeredWrite = remap(last.offeredWrite, 'share');
  grown.servedRead = remap(last.servedRead, 'share');
  grown.servedWrite = remap(last.servedWrite, 'share');
  for (const [from, to] of [
    [last.throttledRead, grown.throttledRead],
    [last.throttledWrite, grown.throttledWrite],
  ] as const) {
    to.keyRange = remap(from.keyRange, 'share');
    to.provisioned = remap(from.provisioned, 'share');
    to.account = remap(from.account, 'share');
    to.maxOnDemand = remap(from.maxOnDemand, 'share');
  }
  grown.backPressureWrite = last.backPressureWrite;
  grown.limit = last.limit;
  target.last = grown;
  target.scratch = emptyScratch(count);
  if (rebuild) rebuildVectors(state, target);
}

/** Whether the run has done all its steps. */
export function isFinished(state: SimulationState): boolean {
  return state.step >= state.totalSteps;
}

/** Runs every remaining step. */
export function runToEnd(state: SimulationState): SimulationState {
  while (state.step < state.totalSteps) step(state);
  return state;
}
