/**
 * Stretches of `advance` (step.ts): a stretch is at most one heat-map bucket of steps, in which the
 * partitions that cannot reach 80% of their limit or their provisioned share (judged from each
 * group's highest multiplier in it) are quiet and only the others are served step by step. Here: where
 * a stretch ends, which partitions are quiet (`planTarget`), and how the quiet ones are brought up
 * to date at its end (`foldQuiet`): their peaks, heat and burst buckets, one partition at a time
 * over the few steps that can hold its peak (all of them where a burst bucket refills or on-demand
 * needs the totals); their offered sums need no work at all (`offeredSums`, state.ts). The fold
 * does the same arithmetic in the same order as serving each step, and the target totals that
 * couple partitions (unused provisioned capacity, on-demand's served total) are summed in partition
 * order where a result depends on them, so `advance` leaves exactly the state `step` leaves.
 */
import * as limits from './limits.ts';
import { onDemandInstant, onDemandPeakLag } from './on-demand.ts';
import type { SimulationState, TargetState } from './state.ts';

const MAX_PARTITIONS = limits.MAX_PARTITIONS;
const PARTITION_READS = limits.PARTITION_READ_UNITS_PER_SECOND;
const PARTITION_WRITES = limits.PARTITION_WRITE_UNITS_PER_SECOND;
const SPLIT_UTILIZATION = limits.SPLIT_UTILIZATION;
const BURST_SECONDS = limits.BURST_SECONDS;
const onDemandInstantCapacity = limits.onDemandInstantCapacity;
const writeEquivalents = limits.writeEquivalents;

/** A stretch of `advance` is at most this many steps (and never crosses a heat-map bucket). */
const MAX_STRETCH_STEPS = 64;
/** A target whose active partitions are more than this share of all is served whole in the stretch. */
const MAX_ACTIVE_SHARE = 0.5;

/**
 * Where the stretch from the current step ends (exclusive): at most `limit`, `MAX_STRETCH_STEPS`
 * steps and the end of the heat-map bucket. On-demand, each target's scale-out of the first step is
 * made now and the stretch ends before a later one.
 */
export function stretchEnd(state: SimulationState, limit: number): number {
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
  return t1;
}

/**
 * Which partitions of `target` are quiet over steps [t0, t1): at each group's highest multiplier
 * in the stretch (an upper bound on every step's load), below 80% of a partition's limit (so they
 * neither throttle nor grow hot) and, when provisioned, within their share of the capacity.
 */
export function planTarget(state: SimulationState, target: TargetState, t0: number, t1: number): void {
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
export function foldQuiet(state: SimulationState, target: TargetState): void {
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
    for (let n = 0; n < count; n += 1) target.servedHistory[steps[n] as number] = writeEquivalents(totalR[n] as number, totalW[n] as number);
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
