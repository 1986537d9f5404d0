/**
 * Advancing a run: per step, each group's multiplier (the workload's spikes and ramps × seeded
 * arrival noise); the GSIs served first, their throttled writes holding back the table's
 * (back-pressure, docs/dynamodb-rules.md §4.8); then the keys that throttled, the splits for heat,
 * and each pattern's calls and throttled calls.
 *
 * `step` serves every partition of every target. `advance` goes a stretch at a time (at most one
 * heat-map bucket): partitions that cannot reach 80% of their limit or their provisioned share in
 * the stretch (judged from each group's highest multiplier in it) are quiet, and only the others
 * are served step by step: no limit, burst, throttle or split work for the quiet ones, whose
 * peaks, heat and burst buckets are brought up to date at the end of the stretch, one partition at
 * a time over the few steps that can hold its peak (all of them where a burst bucket refills or
 * on-demand needs the totals); their offered sums need no work at all (`offeredSums`, state.ts).
 * That pass does the same arithmetic in the same order as serving each step, and the target totals
 * that couple partitions (unused provisioned capacity, on-demand's served total) are summed in
 * partition order where a result depends on them, so `advance` leaves exactly the state `step`
 * leaves. A stretch ends early when partitions change.
 */
import * as limits from './limits.ts';
import * as model from './model.ts';
import { clearThrottled, onDemandInstant, onDemandPeakLag, serveTarget, type BackPressure } from './serve.ts';
import { splitForHeat } from './splits.ts';
import { CAUSE_ACCOUNT, CAUSE_KEY_RANGE, CAUSE_MAX_ON_DEMAND, CAUSE_PROVISIONED, drawMultipliers, EPSILON, notePeakMultipliers, type SimulationState, type TargetState } from './state.ts';

const MAX_PARTITIONS = limits.MAX_PARTITIONS;
const ON_DEMAND_ACCOUNT_READ_UNITS = limits.ON_DEMAND_ACCOUNT_READ_UNITS;
const ON_DEMAND_ACCOUNT_WRITE_UNITS = limits.ON_DEMAND_ACCOUNT_WRITE_UNITS;
const PARTITION_READS = limits.PARTITION_READ_UNITS_PER_SECOND;
const PARTITION_WRITES = limits.PARTITION_WRITE_UNITS_PER_SECOND;
const SPLIT_AFTER_SECONDS = limits.SPLIT_AFTER_SECONDS;
const SPLIT_UTILIZATION = limits.SPLIT_UTILIZATION;
const BURST_SECONDS = limits.BURST_SECONDS;
const onDemandInstantCapacity = limits.onDemandInstantCapacity;
const KEY_SPAN = model.KEY_SPAN;

/** A stretch of `advance` is at most this many steps (and never crosses a heat-map bucket). */
const MAX_STRETCH_STEPS = 64;
/** A target whose active partitions are more than this share of all is served whole in the stretch. */
const MAX_ACTIVE_SHARE = 0.5;
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
    isBelow(reads / 3 + writes, instant) &&
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

/** `TableWriteKeyRangeThroughputExceeded` … for the cause bits of one step. */
function reasonsOf(causes: number, resource: 'Table' | 'Index', operation: 'Read' | 'Write'): string[] {
  const out: string[] = [];
  if (causes & CAUSE_KEY_RANGE) out.push(`${resource}${operation}KeyRangeThroughputExceeded`);
  if (causes & CAUSE_PROVISIONED) out.push(`${resource}${operation}ProvisionedThroughputExceeded`);
  if (causes & CAUSE_ACCOUNT) out.push(`${resource}${operation}AccountLimitExceeded`);
  if (causes & CAUSE_MAX_ON_DEMAND) out.push(`${resource}${operation}MaxOnDemandThroughputExceeded`);
  return out;
}

/**
 * One stretch of `advance`, from the current step to at most `limit` (exclusive): draws its
 * multipliers, makes each target's on-demand scale-out of its first step, ends it before a later
 * scale-out, plans each target's quiet partitions, runs the steps, and brings the quiet partitions
 * up to date.
 */
function runStretch(state: SimulationState, limit: number): void {
  const t0 = state.step;
  const bucket = Math.floor(t0 / state.bucketSteps);
  let t1 = Math.min(limit, (bucket + 1) * state.bucketSteps, t0 + MAX_STRETCH_STEPS);
  const lag = onDemandPeakLag(state);
  for (const target of state.targets) {
    if (target.model.capacity.mode !== 'onDemand') continue;
    // Within the lag, every previous peak a step of the stretch reads is known now.
    t1 = Math.min(t1, t0 + lag);
    onDemandInstant(state, target);
    let peak = target.previousPeak;
    for (let t = t0 + 1; t < t1; t += 1) {
      if (t >= lag) peak = Math.max(peak, target.servedHistory[t - lag] as number);
      const needed = Math.ceil(onDemandInstantCapacity(peak) / PARTITION_WRITES - 1e-9);
      if (Math.min(needed, MAX_PARTITIONS) > target.starts.length) {
        t1 = t;
        break;
      }
    }
  }
  drawMultipliers(state, t1);
  for (const target of state.targets) planTarget(state, target, t0, t1);
  state.layoutChanged = false;
  while (state.step < t1) {
    runStep(state, true);
    if (state.layoutChanged) break;
  }
  for (const target of state.targets) foldQuiet(state, target);
}

/**
 * Which partitions of `target` are quiet over steps [t0, t1): at each group's highest multiplier
 * in the stretch (an upper bound on every step's load), below 80% of a partition's limit (so they
 * neither throttle nor grow hot) and, when provisioned, within their share of the capacity.
 */
function planTarget(state: SimulationState, target: TargetState, t0: number, t1: number): void {
  const plan = target.plan;
  const p = target.starts.length;
  const groups = state.groupEvents.length;
  const highest = new Float64Array(groups);
  for (let t = t0; t < t1; t += 1) {
    for (let g = 0; g < groups; g += 1) {
      const m = state.drawn[t * groups + g] as number;
      if (m > (highest[g] as number)) highest[g] = m;
    }
  }
  const capacity = target.model.capacity;
  const isProvisioned = capacity.mode === 'provisioned';
  const shareR = isProvisioned ? capacity.readUnitsPerSecond / p : Infinity;
  const shareW = isProvisioned ? capacity.writeUnitsPerSecond / p : Infinity;
  const isLinear = state.limits === 'linear';
  const loadRead = target.loadRead;
  const loadWrite = target.loadWrite;
  let active = 0;
  let quiet = 0;
  for (let i = 0; i < p; i += 1) {
    let r = 0;
    let w = 0;
    for (let g = 0; g < groups; g += 1) {
      r += (highest[g] as number) * (loadRead[i * groups + g] as number);
      w += (highest[g] as number) * (loadWrite[i * groups + g] as number);
    }
    const u = isLinear ? r / PARTITION_READS + w / PARTITION_WRITES : Math.max(r / PARTITION_READS, w / PARTITION_WRITES);
    if (u <= SPLIT_UTILIZATION && r <= shareR && w <= shareW) {
      plan.quiet[quiet] = i;
      quiet += 1;
    } else {
      plan.active[active] = i;
      active += 1;
    }
  }
  plan.activeCount = active;
  plan.quietCount = quiet;
  plan.pendingCount = 0;
  plan.isFull = quiet === 0 || active > MAX_ACTIVE_SHARE * p;
  if (plan.isFull) return;
  if (plan.pendingSteps.length < t1 - t0) {
    plan.pendingSteps = new Int32Array(MAX_STRETCH_STEPS);
    plan.pendingLentRead = new Float64Array(MAX_STRETCH_STEPS);
    plan.pendingLentWrite = new Float64Array(MAX_STRETCH_STEPS);
  }
  if (!isProvisioned && plan.servedActiveRead.length < MAX_STRETCH_STEPS * active) {
    plan.servedActiveRead = new Float64Array(MAX_STRETCH_STEPS * active);
    plan.servedActiveWrite = new Float64Array(MAX_STRETCH_STEPS * active);
  }
  plan.quietRead.fill(0);
  plan.quietWrite.fill(0);
  plan.hasQuietRefillRead = false;
  plan.hasQuietRefillWrite = false;
  const capR = BURST_SECONDS * shareR;
  const capW = BURST_SECONDS * shareW;
  for (let q = 0; q < quiet; q += 1) {
    const i = plan.quiet[q] as number;
    for (let g = 0; g < groups; g += 1) {
      plan.quietRead[g] = (plan.quietRead[g] as number) + (loadRead[i * groups + g] as number);
      plan.quietWrite[g] = (plan.quietWrite[g] as number) + (loadWrite[i * groups + g] as number);
    }
    if (isProvisioned && (target.burstRead[i] as number) < capR) plan.hasQuietRefillRead = true;
    if (isProvisioned && (target.burstWrite[i] as number) < capW) plan.hasQuietRefillWrite = true;
    // Below 80% in every step of the stretch: a quiet partition's hot time ends with the stretch's first step.
    target.hotSeconds[i] = 0;
  }
}

/** Every step of a stretch, in order: what a fold visits when it needs each step's load. */
const EVERY_STEP = Int32Array.from({ length: MAX_STRETCH_STEPS }, (_, n) => n);

/**
 * Folds the steps the plan served for the active partitions only into the quiet partitions, one
 * partition at a time: peaks, the bucket's worst utilization, and (provisioned) the burst bucket
 * refilled by the unused share nobody borrowed; on-demand, each step's served total, summed in
 * partition order. (Their offered sums need nothing: the base loads' share is added when asked,
 * `offeredSums`.) A partition's peak is found among the stretch's steps that no other step matches
 * or exceeds in every group (see `frontOf`), its every step visited only when the bucket refills or
 * the totals need them. The same arithmetic as serving each step, so every figure is the same.
 */
function foldQuiet(state: SimulationState, target: TargetState): void {
  const plan = target.plan;
  const count = plan.pendingCount;
  plan.pendingCount = 0;
  if (plan.isFull || count === 0) return;
  const groups = state.groupEvents.length;
  const steps = plan.pendingSteps;
  const p = target.starts.length;
  const heatRow = Math.floor((steps[0] as number) / state.bucketSteps) * target.heatStride;
  const heat = target.heat;
  const isLinear = state.limits === 'linear';
  const capacity = target.model.capacity;
  const isProvisioned = capacity.mode === 'provisioned';
  const shareR = isProvisioned ? capacity.readUnitsPerSecond / p : 0;
  const shareW = isProvisioned ? capacity.writeUnitsPerSecond / p : 0;
  const capR = BURST_SECONDS * shareR;
  const capW = BURST_SECONDS * shareW;
  const dt = state.stepSeconds;
  const lentR = plan.pendingLentRead;
  const lentW = plan.pendingLentWrite;
  // The stretch's multipliers by group, each group's in a row.
  const multipliers = new Float64Array(groups * count);
  for (let n = 0; n < count; n += 1) {
    const at = (steps[n] as number) * groups;
    for (let g = 0; g < groups; g += 1) multipliers[g * count + n] = state.drawn[at + g] as number;
  }
  const front = frontOf(multipliers, groups, count);
  const fold: Fold = { highRead: 0, highWrite: 0, reads: new Float64Array(count), writes: new Float64Array(count) };
  // On-demand: each step's served total over every partition, in partition order.
  const totalR = isProvisioned ? undefined : new Float64Array(count);
  const totalW = isProvisioned ? undefined : new Float64Array(count);
  const activeCount = plan.activeCount;
  let a = 0;
  for (let q = 0; q < plan.quietCount; q += 1) {
    const i = plan.quiet[q] as number;
    if (totalR && totalW) for (; a < activeCount && (plan.active[a] as number) < i; a += 1) addActive(plan, a, count, totalR, totalW);
    let bucketR = target.burstRead[i] as number;
    let bucketW = target.burstWrite[i] as number;
    // A full bucket stays full while its partition is under its share.
    const refillR = isProvisioned && bucketR < capR;
    const refillW = isProvisioned && bucketW < capW;
    const everyStep = refillR || refillW || totalR !== undefined;
    const visits = everyStep ? count : front.count;
    foldPartition(target, i, groups, multipliers, count, everyStep ? EVERY_STEP : front.steps, visits, fold);
    const reads = fold.reads;
    const writes = fold.writes;
    let highU: number;
    if (isLinear) {
      highU = 0;
      for (let n = 0; n < visits; n += 1) {
        const u = (reads[n] as number) / PARTITION_READS + (writes[n] as number) / PARTITION_WRITES;
        if (u > highU) highU = u;
      }
    } else {
      const ur = fold.highRead / PARTITION_READS;
      const uw = fold.highWrite / PARTITION_WRITES;
      highU = ur > uw ? ur : uw;
    }
    if (refillR) {
      for (let n = 0; n < count; n += 1) bucketR = Math.min(capR, bucketR + (shareR - (reads[n] as number)) * (1 - (lentR[n] as number)) * dt);
      target.burstRead[i] = bucketR;
    }
    if (refillW) {
      for (let n = 0; n < count; n += 1) bucketW = Math.min(capW, bucketW + (shareW - (writes[n] as number)) * (1 - (lentW[n] as number)) * dt);
      target.burstWrite[i] = bucketW;
    }
    if (totalR && totalW) {
      for (let n = 0; n < count; n += 1) {
        totalR[n] = (totalR[n] as number) + (reads[n] as number);
        totalW[n] = (totalW[n] as number) + (writes[n] as number);
      }
    }
    if (highU > (heat[heatRow + i] as number)) heat[heatRow + i] = highU;
    if (fold.highRead > (target.peakRead[i] as number)) target.peakRead[i] = fold.highRead;
    if (fold.highWrite > (target.peakWrite[i] as number)) target.peakWrite[i] = fold.highWrite;
  }
  if (totalR && totalW) {
    for (; a < activeCount; a += 1) addActive(plan, a, count, totalR, totalW);
    for (let n = 0; n < count; n += 1) target.servedHistory[steps[n] as number] = (totalR[n] as number) / 3 + (totalW[n] as number);
  }
}

/**
 * The steps of a stretch (multipliers by group in rows of `count`) that no other step matches or
 * exceeds in every group, the first of equal ones kept. A partition's load in a step is Σ_g m_g ×
 * base_g with every base_g ≥ 0, and rounding keeps order (a ≤ b gives fl(a × c) ≤ fl(b × c) and
 * fl(a + c) ≤ fl(b + c)), so a step left out never carries more load, read or write, than one
 * kept: the highest load over these steps is the highest over all, to the last bit.
 */
function frontOf(m: Float64Array, groups: number, count: number): { steps: Int32Array; count: number } {
  const steps = new Int32Array(count);
  let kept = 0;
  for (let n = 0; n < count; n += 1) {
    let isCovered = false;
    for (let k = 0; k < count && !isCovered; k += 1) {
      if (k === n) continue;
      let covers = true;
      let exceeds = false;
      for (let g = 0; g < groups && covers; g += 1) {
        const other = m[g * count + k] as number;
        const own = m[g * count + n] as number;
        if (other < own) covers = false;
        else if (other > own) exceeds = true;
      }
      // Another step at least as high everywhere: left out, unless it is an equal one that comes later.
      if (covers && (exceeds || k < n)) isCovered = true;
    }
    if (!isCovered) {
      steps[kept] = n;
      kept += 1;
    }
  }
  return { steps, count: kept };
}

interface Fold {
  highRead: number;
  highWrite: number;
  /** The offered reads and writes of each step visited, in visiting order. */
  reads: Float64Array;
  writes: Float64Array;
}

/**
 * Partition `i`'s offered load in the steps `visit[0 … visits)` of a stretch of `count` steps
 * (multipliers by group in rows of `count`), each kept in `out`, with the highest. The load is
 * Σ_g m_g × base_g, added from 0 in group order, as a step computes it (one and two groups written
 * out: most runs have one or two).
 */
function foldPartition(target: TargetState, i: number, groups: number, m: Float64Array, count: number, visit: Int32Array, visits: number, out: Fold): void {
  const loadRead = target.loadRead;
  const loadWrite = target.loadWrite;
  const reads = out.reads;
  const writes = out.writes;
  let highR = 0;
  let highW = 0;
  if (groups === 1) {
    const a = loadRead[i] as number;
    const b = loadWrite[i] as number;
    for (let j = 0; j < visits; j += 1) {
      const x = m[visit[j] as number] as number;
      const r = x * a;
      const w = x * b;
      reads[j] = r;
      writes[j] = w;
      if (r > highR) highR = r;
      if (w > highW) highW = w;
    }
  } else if (groups === 2) {
    const a0 = loadRead[2 * i] as number;
    const a1 = loadRead[2 * i + 1] as number;
    const b0 = loadWrite[2 * i] as number;
    const b1 = loadWrite[2 * i + 1] as number;
    for (let j = 0; j < visits; j += 1) {
      const n = visit[j] as number;
      const x = m[n] as number;
      const y = m[count + n] as number;
      const r = x * a0 + y * a1;
      const w = x * b0 + y * b1;
      reads[j] = r;
      writes[j] = w;
      if (r > highR) highR = r;
      if (w > highW) highW = w;
    }
  } else {
    const base = i * groups;
    for (let j = 0; j < visits; j += 1) {
      const n = visit[j] as number;
      let r = 0;
      let w = 0;
      for (let g = 0; g < groups; g += 1) {
        const mg = m[g * count + n] as number;
        r += mg * (loadRead[base + g] as number);
        w += mg * (loadWrite[base + g] as number);
      }
      reads[j] = r;
      writes[j] = w;
      if (r > highR) highR = r;
      if (w > highW) highW = w;
    }
  }
  out.highRead = highR;
  out.highWrite = highW;
}

/** Adds what the plan's `a`-th active partition served in each pending step to the steps' totals. */
function addActive(plan: TargetState['plan'], a: number, count: number, totalR: Float64Array, totalW: Float64Array): void {
  for (let n = 0; n < count; n += 1) {
    totalR[n] = (totalR[n] as number) + (plan.servedActiveRead[n * plan.activeCount + a] as number);
    totalW[n] = (totalW[n] as number) + (plan.servedActiveWrite[n * plan.activeCount + a] as number);
  }
}
