/**
 * The state of a partition simulation run: what the run knows about each target (the table and each
 * GSI) and pattern, laid out in flat typed arrays so one step is a few passes over contiguous memory.
 * Per partition and traffic group, loads sit at `[partition × groups + group]`; per key and group at
 * `[key × groups + group]`; the heat map at `[bucket × partitions + partition]`.
 *
 * Also here: the run's totals that are kept in a compact form and read back as the report is
 * written: offered load per partition (`offeredSums`) and each key's busiest step (`keyPeaks`).
 * The arrays are allocated and the load laid out on them in layout.ts; the multipliers are drawn in
 * workload.ts.
 */
import type { WorkloadEvent } from '../model/index.ts';
import type * as limits from './limits.ts';
import type { SimulationModel, TargetModel } from './model.ts';
import type { LoadSource } from './types.ts';
import type { Random } from './random.ts';

/** The heat map has at most this many time buckets. */
export const MAX_HEAT_BUCKETS = 120;
/** Throttled load below this many units is float noise, not throttling. */
export const EPSILON = 1e-9;

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

/**
 * What one target did in the last step: offered, served and throttled units per partition, and
 * the target's limit, for checks and tests. `step` fills it in full; `advance` serves its last step
 * in full, so it describes that step.
 */
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

export interface SourceState {
  source: LoadSource;
  group: number;
  /** Units per second at the base rate. */
  baseUnits: number;
  /** Calls per second at the base rate. */
  baseCalls: number;
  /** Share of the source's load per partition (sums to 1). */
  vector: Float64Array;
  /** The share of this step's offered units that throttled, and why (`CAUSE_*` bits, reasons.ts). */
  throttledShare: number;
  causes: number;
}

/** Per explicit key of a target (indexed like `model.keys`). */
export interface KeyStats {
  /** Keys that carry load in some group. */
  loaded: Int32Array;
  /** The partitions its sort-key range spans, first..last; `last` holds its top (the newest sort keys). */
  first: Int32Array;
  last: Int32Array;
  /**
   * Highest offered units per second in any step (before throttling: the demand), over the steps
   * before the run's last `flushKeyPeaks`; `keyPeaks` adds the steps since.
   */
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

/** A key's base load per traffic group, flat at `[key × groups + group]`, by kind: spread over its sort range or at its top (monotonic). */
export interface KeyLoad {
  spreadRead: Float64Array;
  spreadWrite: Float64Array;
  topRead: Float64Array;
  topWrite: Float64Array;
}

/**
 * Which partitions of a target need a step-by-step look during a stretch of steps (`active`), and
 * which cannot reach a limit in it (`quiet`: below 80% of a partition's limit and, when
 * provisioned, within their share of the capacity): their sums, peaks, heat and burst buckets are kept
 * in one pass per partition over the stretch's steps. Rebuilt for each stretch.
 */
export interface QuietPlan {
  /** Whether the stretch is served partition by partition every step (no quiet partition worth the bookkeeping). */
  isFull: boolean;
  active: Int32Array;
  activeCount: number;
  quiet: Int32Array;
  quietCount: number;
  /** Per group: the quiet partitions' base read and write units together. */
  quietRead: Float64Array;
  quietWrite: Float64Array;
  /** Whether some quiet partition's read or write burst bucket was not full when the stretch began. */
  hasQuietRefillRead: boolean;
  hasQuietRefillWrite: boolean;
  /**
   * Steps of the stretch served for the active partitions only, not yet folded into the quiet
   * partitions' sums, peaks, heat and burst buckets; with each step's share of the unused
   * provisioned capacity lent to partitions over their share (reads, writes).
   */
  pendingSteps: Int32Array;
  pendingLentRead: Float64Array;
  pendingLentWrite: Float64Array;
  pendingCount: number;
  /** On-demand: what each active partition served in each pending step (`[n × activeCount + j]`), for the step's served total. */
  servedActiveRead: Float64Array;
  servedActiveWrite: Float64Array;
}

/**
 * A provisioned step's units against the partitions' shares of the capacity, served by the
 * partitions' own limits: over their shares (excess) and left under them (unused), reads and writes.
 */
export interface ShareBalance {
  excessRead: number;
  unusedRead: number;
  excessWrite: number;
  unusedWrite: number;
}

export interface TargetState {
  model: TargetModel;
  index: number;
  starts: number[];
  sources: SourceState[];
  /** Whether some source's `throttledShare` is not 0 (from the last step that throttled). */
  hasThrottledSources: boolean;
  /** Per partition and group (`[i × groups + g]`): base read/write units and calls. */
  loadRead: Float64Array;
  loadWrite: Float64Array;
  callsRead: Float64Array;
  callsWrite: Float64Array;
  /** Per group: base read and write units over all partitions. */
  totalRead: Float64Array;
  totalWrite: Float64Array;
  keyLoad: KeyLoad;
  /** Per group: base read and write units spread over the whole hash space (keys not tracked by name). */
  backgroundRead: Float64Array;
  backgroundWrite: Float64Array;
  burstRead: Float64Array;
  burstWrite: Float64Array;
  hotSeconds: Float64Array;
  retryAfter: Float64Array;
  /**
   * Offered units per partition summed over the steps done, kept in two parts (`offeredSums` adds
   * them): what the base loads offered since step `sumsSince` is Σ_g load_g × (the group's
   * multipliers summed over those steps), not stored; these hold the rest (the sums before
   * `sumsSince`, and the writes GSI back-pressure took off). A stretch of quiet steps so costs
   * nothing per partition, and one step at a time gives the very same sums.
   */
  sumRead: Float64Array;
  sumWrite: Float64Array;
  sumsSince: number;
  peakRead: Float64Array;
  peakWrite: Float64Array;
  throttledCalls: Float64Array;
  /**
   * Worst utilization per bucket and partition, at `[bucket × heatStride + i]`: a row per bucket
   * with room for more partitions, so a split shifts each row in place.
   */
  heat: Float64Array;
  /** Throttled requests per bucket and partition, laid out as `heat`. */
  throttledHeat: Float64Array;
  /** The length of a heat-map row: at least the partition count. */
  heatStride: number;
  /** Steps in which some request throttled: any, reads, writes, and base-table writes held back by a GSI. */
  throttledSteps: number;
  throttledReadSteps: number;
  throttledWriteSteps: number;
  backPressureSteps: number;
  /** The GSIs whose back-pressure throttled this table's writes. */
  backPressureFrom: Set<string>;
  reasonCalls: Map<string, number>;
  /** `Table…`/`Index…` reason names by cause bit (1, 2, 4, 8 → 0..3), reads then writes. */
  reasonNames: string[];
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
  /** The loaded keys whose sort-key range touches partition i: `keysByPartition[keyStart[i] .. keyStart[i + 1])`. */
  keyStart: Int32Array;
  keysByPartition: Int32Array;
  last: StepAccount;
  /** Per-step working arrays, sized to the partition count; the share and cause arrays are zero outside the step's throttled partitions. */
  scratch: {
    callsRead: Float64Array;
    callsWrite: Float64Array;
    shareRead: Float64Array;
    shareWrite: Float64Array;
    causes: Uint8Array;
    causesRead: Uint8Array;
    causesWrite: Uint8Array;
    throttled: Int32Array;
    all: Int32Array;
    keySeen: Int32Array;
    balance: ShareBalance;
  };
  plan: QuietPlan;
}

export interface PatternState {
  calls: number;
  throttled: number;
  reasons: Set<string>;
  callsByBucket: Float64Array;
  throttledByBucket: Float64Array;
}

/** Where a pattern's load lands: its sources on each target (reads), or its own on the table (writes). */
export interface PatternSources {
  /** Per target, the indexes of this pattern's sources. */
  byTarget: { target: TargetState; sources: number[] }[];
  /** The first source of this pattern on the table. */
  onTable?: SourceState;
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
  /**
   * Whether the workload holds the patterns' days (profiles and spikes, docs/traffic.md): a key's
   * stated peak then looks at every minute of a day, not only the run's steps.
   */
  hasPatternDays: boolean;
  /** Traffic groups: patterns with the same workload events share a multiplier. */
  groupEvents: WorkloadEvent[][];
  groupOfPattern: number[];
  groupCallsPerSecond: number[];
  /** This step's multiplier per group. */
  multipliers: Float64Array;
  multiplierSums: Float64Array;
  /** The multipliers of steps drawn so far (ahead of the run, for a stretch), flat at `[step × groups + g]`. */
  drawn: Float64Array;
  drawnSteps: number;
  /** Each group's multipliers summed over the steps before step t, at `[t × groups + g]` (t up to `drawnSteps`). */
  multiplierPrefix: Float64Array;
  /**
   * Multiplier vectors of the steps since the last `flushKeyPeaks` that no other such step exceeds
   * in every group, flat at `[n × groups + g]`: a key's load is the same non-negative combination of
   * the multipliers in every step, so its busiest step is one of them.
   */
  peakMultipliers: Float64Array;
  peakMultiplierCount: number;
  targets: TargetState[];
  patterns: PatternState[];
  patternSources: PatternSources[];
  /** Set when a target's partitions changed during a stretch of `advance`: the stretch ends with the step. */
  layoutChanged: boolean;
}

/**
 * Each partition's offered units summed over the steps before `through` (drawn already): the kept
 * part plus the base loads' share since `sumsSince`, into `read` and `write` (which may be the
 * kept arrays themselves).
 */
function addBaseSums(state: SimulationState, target: TargetState, through: number, read: Float64Array, write: Float64Array): void {
  const groups = state.groupEvents.length;
  const p = target.starts.length;
  const prefix = state.multiplierPrefix;
  const d = new Float64Array(groups);
  for (let g = 0; g < groups; g += 1) d[g] = (prefix[through * groups + g] as number) - (prefix[target.sumsSince * groups + g] as number);
  const loadRead = target.loadRead;
  const loadWrite = target.loadWrite;
  for (let i = 0; i < p; i += 1) {
    let r = target.sumRead[i] as number;
    let w = target.sumWrite[i] as number;
    for (let g = 0; g < groups; g += 1) {
      r += (loadRead[i * groups + g] as number) * (d[g] as number);
      w += (loadWrite[i * groups + g] as number) * (d[g] as number);
    }
    read[i] = r;
    write[i] = w;
  }
}

/** Each partition's offered read and write units summed over the steps done. */
export function offeredSums(state: SimulationState, target: TargetState): { read: Float64Array; write: Float64Array } {
  const p = target.starts.length;
  const read = new Float64Array(p);
  const write = new Float64Array(p);
  if (target.sumsSince === state.step) {
    read.set(target.sumRead.subarray(0, p));
    write.set(target.sumWrite.subarray(0, p));
  } else addBaseSums(state, target, state.step, read, write);
  return { read, write };
}

/**
 * Moves the base loads' share of the sums up to step `through` into the kept part, before the
 * partitions or their loads change (a split, a scale-out). Runs at the same steps one step at a
 * time as a stretch at a time, so both keep the same sums.
 */
export function settleSums(state: SimulationState, target: TargetState, through: number): void {
  if (target.sumsSince === through) return;
  addBaseSums(state, target, through, target.sumRead, target.sumWrite);
  target.sumsSince = through;
}

/** A key's offered read and write units at the multipliers `m` (from `offset`): spread plus top, as one step offers it. */
export function keyUnitsAt(load: KeyLoad, k: number, groups: number, m: Float64Array, offset: number, out: Float64Array): void {
  let sr = 0;
  let sw = 0;
  let tr = 0;
  let tw = 0;
  for (let g = 0; g < groups; g += 1) {
    const mg = m[offset + g] as number;
    if (mg === 0) continue;
    const at = k * groups + g;
    sr += mg * (load.spreadRead[at] as number);
    sw += mg * (load.spreadWrite[at] as number);
    tr += mg * (load.topRead[at] as number);
    tw += mg * (load.topWrite[at] as number);
  }
  out[0] = sr + tr;
  out[1] = sw + tw;
}

/** Each loaded key's busiest step so far: the peaks kept plus the steps since the last `flushKeyPeaks`. */
export function keyPeaks(state: SimulationState, target: TargetState): { read: Float64Array; write: Float64Array } {
  const ks = target.keyStats;
  const read = Float64Array.from(ks.peakRead);
  const write = Float64Array.from(ks.peakWrite);
  const groups = state.groupEvents.length;
  const units = new Float64Array(2);
  for (let j = 0; j < ks.loaded.length; j += 1) {
    const k = ks.loaded[j] as number;
    for (let n = 0; n < state.peakMultiplierCount; n += 1) {
      keyUnitsAt(target.keyLoad, k, groups, state.peakMultipliers, n * groups, units);
      if ((units[0] as number) > (read[k] as number)) read[k] = units[0] as number;
      if ((units[1] as number) > (write[k] as number)) write[k] = units[1] as number;
    }
  }
  return { read, write };
}

/** Folds the kept multiplier vectors into every key's peaks and forgets them. */
export function flushKeyPeaks(state: SimulationState): void {
  for (const target of state.targets) {
    const peaks = keyPeaks(state, target);
    target.keyStats.peakRead = peaks.read;
    target.keyStats.peakWrite = peaks.write;
  }
  state.peakMultiplierCount = 0;
}

/** At most this many kept multiplier vectors before they are folded into the keys' peaks. */
export const MAX_PEAK_MULTIPLIERS = 256;

/**
 * Keeps this step's multipliers for the keys' peaks unless an earlier kept step's are at least as
 * high in every group (then no key can peak here); drops the kept ones this step's exceed.
 */
export function notePeakMultipliers(state: SimulationState): void {
  const groups = state.groupEvents.length;
  const m = state.multipliers;
  let kept = state.peakMultiplierCount;
  const all = state.peakMultipliers;
  for (let n = 0; n < kept; n += 1) {
    let covers = true;
    for (let g = 0; g < groups && covers; g += 1) if ((all[n * groups + g] as number) < (m[g] as number)) covers = false;
    if (covers) return;
  }
  let out = 0;
  for (let n = 0; n < kept; n += 1) {
    let isCovered = true;
    for (let g = 0; g < groups && isCovered; g += 1) if ((m[g] as number) < (all[n * groups + g] as number)) isCovered = false;
    if (isCovered) continue;
    if (out !== n) for (let g = 0; g < groups; g += 1) all[out * groups + g] = all[n * groups + g] as number;
    out += 1;
  }
  kept = out;
  if (kept >= MAX_PEAK_MULTIPLIERS) {
    state.peakMultiplierCount = kept;
    flushKeyPeaks(state);
    kept = 0;
  }
  for (let g = 0; g < groups; g += 1) all[kept * groups + g] = m[g] as number;
  state.peakMultiplierCount = kept + 1;
}
