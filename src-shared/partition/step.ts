/**
 * Advancing a run: per step, each group's multiplier (the workload's spikes and ramps × seeded
 * arrival noise); the GSIs served first, their throttled writes holding back the table's
 * (back-pressure, docs/dynamodb-rules.md §4.8); then the keys that throttled, the splits for heat,
 * and each pattern's calls and throttled calls.
 *
 * `step` serves every partition of every target. `advance` goes a stretch at a time (stretch.ts):
 * only the partitions that can reach a limit in the stretch are served step by step, the quiet
 * ones brought up to date at its end, so that `advance` leaves exactly the state `step` leaves. A
 * stretch ends early when partitions change.
 */
import * as limits from './limits.ts';
import * as model from './model.ts';
import { onDemandInstant } from './on-demand.ts';
import { reasonsOf } from './reasons.ts';
import { clearThrottled, serveTarget, type BackPressure } from './serve.ts';
import { splitForHeat } from './splits.ts';
import { EPSILON, notePeakMultipliers, type SimulationState, type TargetState } from './state.ts';
import { foldQuiet, planTarget, stretchEnd } from './stretch.ts';
import { drawMultipliers } from './workload.ts';

const MAX_PARTITIONS = limits.MAX_PARTITIONS;
const ON_DEMAND_ACCOUNT_READ_UNITS = limits.ON_DEMAND_ACCOUNT_READ_UNITS;
const ON_DEMAND_ACCOUNT_WRITE_UNITS = limits.ON_DEMAND_ACCOUNT_WRITE_UNITS;
const SPLIT_AFTER_SECONDS = limits.SPLIT_AFTER_SECONDS;
const writeEquivalents = limits.writeEquivalents;
const KEY_SPAN = model.KEY_SPAN;

/** Offered totals within this relative margin of an on-demand limit are served whole (float noise in the totals). */
const LIMIT_MARGIN = 1e-9;

/** Whether the run has done all its steps. */
export function isFinished(state: SimulationState): boolean {
  return state.step >= state.totalSteps;
}

/** Advances the run by one step, serving every partition; returns the same state. A finished run is left as it is. */
export function step(state: SimulationState): SimulationState {
  if (state.step >= state.totalSteps) return state;
  runStep(state, false);
  return state;
}

/**
 * Advances the run by up to `steps` steps, a stretch at a time (see the module comment): the same
 * state as `step` repeated, to the last bit, at a fraction of the cost when most partitions are
 * quiet. The last step serves every partition, so `target.last` describes it in full. Hosts that
 * report progress call it with the steps between two reports.
 */
export function advance(state: SimulationState, steps: number): SimulationState {
  const end = Math.min(state.totalSteps, state.step + Math.max(0, Math.floor(steps)));
  while (state.step < end - 1) runStretch(state, end - 1);
  if (state.step < end) step(state);
  return state;
}

/** Runs every remaining step. */
export function runToEnd(state: SimulationState): SimulationState {
  return advance(state, state.totalSteps - state.step);
}

/** One step of every target (each whole, or its plan's active partitions when `planned`), then the patterns. */
function runStep(state: SimulationState, planned: boolean): void {
  const t = state.step;
  const groups = state.groupEvents.length;
  const dt = state.stepSeconds;
  const bucket = Math.floor(t / state.bucketSteps);
  drawMultipliers(state, t + 1);
  for (let g = 0; g < groups; g += 1) {
    const m = state.drawn[t * groups + g] as number;
    state.multipliers[g] = m;
    state.multiplierSums[g] = (state.multiplierSums[g] as number) + m;
  }
  notePeakMultipliers(state);

  // GSIs first: their throttled writes hold back the base-table writes (back-pressure, docs/dynamodb-rules.md §4.8).
  let backPressure: BackPressure | undefined;
  let backPressureFrom: Set<string> | undefined;
  let table: TargetState | undefined;
  const targets = state.targets;
  for (let x = 0; x < targets.length; x += 1) {
    const target = targets[x] as TargetState;
    if (target.model.kind !== 'gsi') {
      table ??= target;
      continue;
    }
    serveAndAccount(state, target, planned && isPartial(state, target, undefined), undefined, bucket);
    for (let k = 0; k < target.sources.length; k += 1) {
      const s = target.sources[k] as TargetState['sources'][number];
      if (s.source.kind !== 'write' || s.throttledShare <= 0) continue;
      backPressure ??= { shares: new Float64Array(state.model.patterns.length), causes: new Map() };
      const p = s.source.patternIndex;
      backPressure.shares[p] = 1 - (1 - (backPressure.shares[p] as number)) * (1 - s.throttledShare);
      const set = backPressure.causes.get(p) ?? new Set<string>();
      for (const r of reasonsOf(s.causes, 'Index', 'Write')) set.add(r);
      backPressure.causes.set(p, set);
      (backPressureFrom ??= new Set()).add(target.model.name);
    }
  }
  if (table) {
    serveAndAccount(state, table, planned && isPartial(state, table, backPressure), backPressure, bucket);
    if (table.last.backPressureWrite > EPSILON) {
      table.backPressureSteps += 1;
      for (const name of backPressureFrom ?? []) table.backPressureFrom.add(name);
    }
  }

  // Per pattern: calls, and the calls that throttled on any target.
  let hasThrottled = backPressure !== undefined;
  for (let x = 0; x < targets.length; x += 1) if ((targets[x] as TargetState).hasThrottledSources) hasThrottled = true;
  const patterns = state.model.patterns;
  for (let p = 0; p < patterns.length; p += 1) {
    const pattern = patterns[p] as (typeof patterns)[number];
    const m = state.multipliers[state.groupOfPattern[p] as number] as number;
    const calls = pattern.ratePerSecond * m * dt;
    if (calls <= 0) continue;
    const ps = state.patterns[p] as SimulationState['patterns'][number];
    const sources = state.patternSources[p] as SimulationState['patternSources'][number];
    let share = 0;
    if (!hasThrottled) {
      // Nothing throttled this step: the share stays 0.
    } else if (pattern.kind === 'read') {
      for (let x = 0; x < sources.byTarget.length; x += 1) {
        const { target, sources: indexes } = sources.byTarget[x] as (typeof sources.byTarget)[number];
        for (let k = 0; k < indexes.length; k += 1) {
          const s = target.sources[indexes[k] as number] as TargetState['sources'][number];
          if (s.throttledShare <= 0) continue;
          share = 1 - (1 - share) * (1 - s.throttledShare);
          for (const r of reasonsOf(s.causes, target.model.kind === 'table' ? 'Table' : 'Index', 'Read')) ps.reasons.add(r);
        }
      }
    } else {
      const bp = backPressure ? (backPressure.shares[p] as number) : 0;
      const own = sources.onTable;
      const tableShare = own?.throttledShare ?? 0;
      share = bp + (1 - bp) * tableShare;
      if (own && tableShare > 0) for (const r of reasonsOf(own.causes, 'Table', 'Write')) ps.reasons.add(r);
      if (bp > 0) for (const r of backPressure?.causes.get(p) ?? []) ps.reasons.add(r);
    }
    ps.calls += calls;
    ps.throttled += calls * share;
    ps.callsByBucket[bucket] = (ps.callsByBucket[bucket] as number) + calls;
    ps.throttledByBucket[bucket] = (ps.throttledByBucket[bucket] as number) + calls * share;
  }
  state.step += 1;
}

/** Serves one target's step, books its throttled keys, and splits partitions that ran hot for five minutes. */
function serveAndAccount(state: SimulationState, target: TargetState, partial: boolean, backPressure: BackPressure | undefined, bucket: number): void {
  const plan = target.plan;
  if (partial) {
    plan.pendingSteps[plan.pendingCount] = state.step;
    plan.pendingCount += 1;
  } else if (plan.pendingCount > 0) {
    // The quiet partitions' sums and buckets take the steps in order: the stretch so far first.
    foldQuiet(state, target);
  }
  const throttled = serveTarget(state, target, !partial, backPressure, bucket);
  if (throttled > 0) {
    accountKeys(state, target, throttled);
    clearThrottled(target, throttled);
  }
  splitHotPartitions(state, target, partial);
}

/**
 * Whether this step of `target` can be served for the plan's active partitions only: the plan has
 * quiet partitions, no GSI holds back its writes, and no on-demand limit can bind (the offered
 * total is under each, so the served total is too).
 */
function isPartial(state: SimulationState, target: TargetState, backPressure: BackPressure | undefined): boolean {
  if (target.plan.isFull) return false;
  if (backPressure) {
    for (let k = 0; k < target.sources.length; k += 1) {
      const s = target.sources[k] as TargetState['sources'][number];
      if (s.source.kind === 'write' && (backPressure.shares[s.source.patternIndex] as number) > 0) return false;
    }
  }
  const capacity = target.model.capacity;
  if (capacity.mode === 'provisioned') return true;
  const groups = state.groupEvents.length;
  const m = state.multipliers;
  let reads = 0;
  let writes = 0;
  for (let g = 0; g < groups; g += 1) {
    reads += (m[g] as number) * (target.totalRead[g] as number);
    writes += (m[g] as number) * (target.totalWrite[g] as number);
  }
  const instant = onDemandInstant(state, target);
  return (
    isBelow(writeEquivalents(reads, writes), instant) &&
    isBelow(reads, capacity.maxReadUnitsPerSecond) &&
    isBelow(writes, capacity.maxWriteUnitsPerSecond) &&
    isBelow(reads, ON_DEMAND_ACCOUNT_READ_UNITS) &&
    isBelow(writes, ON_DEMAND_ACCOUNT_WRITE_UNITS)
  );
}

/** Whether `total` is clearly below `limit` (no limit: always). */
const isBelow = (total: number, limit: number | undefined) => limit === undefined || total <= limit * (1 - LIMIT_MARGIN);

/** Split for heat: five minutes above 80% of the limit (only active partitions can be hot). */
function splitHotPartitions(state: SimulationState, target: TargetState, partial: boolean): void {
  const now = (state.step + 1) * state.stepSeconds;
  if (!partial) {
    for (let i = 0; i < target.starts.length; i += 1) {
      if ((target.hotSeconds[i] as number) < SPLIT_AFTER_SECONDS || now < (target.retryAfter[i] as number)) continue;
      if (target.starts.length >= MAX_PARTITIONS) {
        target.capped ??= { second: now, wanted: MAX_PARTITIONS + 1 };
        break;
      }
      foldQuiet(state, target);
      if (splitForHeat(state, target, i, now, state.step + 1)) i += 1;
    }
    return;
  }
  const plan = target.plan;
  const active = plan.active;
  const count = plan.activeCount;
  let shift = 0;
  for (let q = 0; q < count; q += 1) {
    // A split re-lays the per-partition arrays: read them afresh, at the shifted index.
    const i = (active[q] as number) + shift;
    if ((target.hotSeconds[i] as number) < SPLIT_AFTER_SECONDS || now < (target.retryAfter[i] as number)) continue;
    if (target.starts.length >= MAX_PARTITIONS) {
      target.capped ??= { second: now, wanted: MAX_PARTITIONS + 1 };
      break;
    }
    foldQuiet(state, target);
    if (splitForHeat(state, target, i, now, state.step + 1)) shift += 1;
  }
}

/**
 * Per explicit key on a throttled partition: the share of its offered units those partitions
 * throttled, with the causes. A key whose sort-key range spans partitions (split for heat cut it)
 * takes each partition's throttled share in proportion to its range there.
 */
function accountKeys(state: SimulationState, target: TargetState, throttledCount: number): void {
  const m = state.multipliers;
  const dt = state.stepSeconds;
  const groups = state.groupEvents.length;
  const ks = target.keyStats;
  const load = target.keyLoad;
  const starts = target.starts;
  const keys = target.model.keys;
  const scratch = target.scratch;
  const tfR = scratch.shareRead;
  const tfW = scratch.shareWrite;
  const causesRead = scratch.causesRead;
  const causesWrite = scratch.causesWrite;
  const seen = scratch.keySeen;
  for (let q = 0; q < throttledCount; q += 1) {
    const partition = scratch.throttled[q] as number;
    for (let e = target.keyStart[partition] as number; e < (target.keyStart[partition + 1] as number); e += 1) {
      const k = target.keysByPartition[e] as number;
      if (seen[k] === state.step) continue;
      seen[k] = state.step;
      let sr = 0;
      let sw = 0;
      let tr = 0;
      let tw = 0;
      for (let g = 0; g < groups; g += 1) {
        const mg = m[g] as number;
        if (mg === 0) continue;
        const at = k * groups + g;
        sr += mg * (load.spreadRead[at] as number);
        sw += mg * (load.spreadWrite[at] as number);
        tr += mg * (load.topRead[at] as number);
        tw += mg * (load.topWrite[at] as number);
      }
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
}

/**
 * One stretch of `advance`, from the current step to at most `limit` (exclusive): where it ends
 * (making each on-demand target's scale-out of its first step), its multipliers, each target's
 * quiet partitions, the steps, and the quiet partitions brought up to date.
 */
function runStretch(state: SimulationState, limit: number): void {
  const t0 = state.step;
  const t1 = stretchEnd(state, limit);
  drawMultipliers(state, t1);
  for (const target of state.targets) planTarget(state, target, t0, t1);
  state.layoutChanged = false;
  while (state.step < t1) {
    runStep(state, true);
    if (state.layoutChanged) break;
  }
  for (const target of state.targets) foldQuiet(state, target);
}
