/**
 * What a target serves in one step and why the rest is not served: each partition's own limit of
 * 3,000 RCU and 1,000 WCU a second (independent, or as R/3,000 + W/1,000 ≤ 1 when asked;
 * docs/dynamodb-rules.md §4.1), then the target's: provisioned capacity (provisioned.ts) or
 * on-demand's instant capacity, maximum and quota (on-demand.ts). Throttled units are booked per
 * partition, per reason and per source.
 *
 * A step is served either for every partition (`full`) or for the plan's active partitions only.
 * The quiet ones serve what they are offered; what couples them to the others is summed as a full
 * step sums it where a result depends on it (the unused provisioned capacity), or when the
 * stretch is folded (on-demand's served total, their burst buckets filling; stretch.ts).
 */
import * as limits from './limits.ts';
import { limitOnDemand, onDemandInstant } from './on-demand.ts';
import { limitProvisioned } from './provisioned.ts';
import { CAUSES } from './reasons.ts';
import { EPSILON, type SimulationState, type TargetState } from './state.ts';

const PARTITION_READS = limits.PARTITION_READ_UNITS_PER_SECOND;
const PARTITION_WRITES = limits.PARTITION_WRITE_UNITS_PER_SECOND;
const SPLIT_UTILIZATION = limits.SPLIT_UTILIZATION;

/** What the GSIs' throttled writes keep from the table this step, per pattern, and why. */
export interface BackPressure {
  shares: Float64Array;
  causes: Map<number, Set<string>>;
}

/**
 * Serves one step of `target`: every partition when `full`, else the plan's active ones. Leaves the
 * throttled partitions in `scratch.throttled` (their count returned), with their throttled shares
 * and causes in the scratch arrays, and each source's throttled share.
 */
export function serveTarget(state: SimulationState, target: TargetState, full: boolean, backPressure: BackPressure | undefined, bucket: number): number {
  const capacity = target.model.capacity;
  // On-demand scales out first (its instant capacity), so the partitions are read after it.
  const instant = capacity.mode === 'onDemand' ? onDemandInstant(state, target) : 0;
  const plan = target.plan;
  const list = full ? target.scratch.all : plan.active;
  const n = full ? target.starts.length : plan.activeCount;
  const heatRow = bucket * target.heatStride;
  offerLoad(state, target, list, n);
  const hasCalls = holdBackPressure(state, target, backPressure);
  limitPartitions(state, target, list, n, heatRow);
  if (capacity.mode === 'provisioned') limitProvisioned(state, target, capacity, full, list, n);
  else if (full) limitOnDemand(state, target, capacity, instant);
  else keepActiveServed(target, list, n);
  return bookThrottled(state, target, list, n, hasCalls, heatRow);
}

/** Offered load per partition of `list[0 … n)`: the groups' base loads at this step's multipliers. */
function offerLoad(state: SimulationState, target: TargetState, list: Int32Array, n: number): void {
  const groups = state.groupEvents.length;
  const m = state.multipliers;
  const offR = target.last.offeredRead;
  const offW = target.last.offeredWrite;
  const loadRead = target.loadRead;
  const loadWrite = target.loadWrite;
  if (groups === 1) {
    const m0 = m[0] as number;
    for (let j = 0; j < n; j += 1) {
      const i = list[j] as number;
      offR[i] = m0 * (loadRead[i] as number);
      offW[i] = m0 * (loadWrite[i] as number);
    }
  } else {
    for (let j = 0; j < n; j += 1) {
      const i = list[j] as number;
      const base = i * groups;
      let r = 0;
      let w = 0;
      for (let g = 0; g < groups; g += 1) {
        const mg = m[g] as number;
        r += mg * (loadRead[base + g] as number);
        w += mg * (loadWrite[base + g] as number);
      }
      offR[i] = r;
      offW[i] = w;
    }
  }
}

/**
 * Writes a GSI refused never reach the table: they come off each partition's offered writes and
 * calls (only in full steps: a plan serves none with back-pressure). Also resets each source's
 * throttled share (already 0, unless the last step throttled). Returns whether the step's calls per
 * partition were filled in (`scratch.callsRead`, `scratch.callsWrite`), every partition's.
 */
function holdBackPressure(state: SimulationState, target: TargetState, backPressure: BackPressure | undefined): boolean {
  const dt = state.stepSeconds;
  const p = target.starts.length;
  const groups = state.groupEvents.length;
  const m = state.multipliers;
  const last = target.last;
  const offW = last.offeredWrite;
  const callsR = target.scratch.callsRead;
  const callsW = target.scratch.callsWrite;
  const sources = target.sources;
  last.backPressureWrite = 0;
  let hasCalls = false;
  for (let k = 0; k < sources.length && (target.hasThrottledSources || backPressure); k += 1) {
    const s = sources[k] as (typeof sources)[number];
    s.throttledShare = 0;
    s.causes = 0;
    const mg = m[s.group] as number;
    const bp = backPressure && s.source.kind === 'write' ? (backPressure.shares[s.source.patternIndex] as number) : 0;
    if (bp <= 0 || mg === 0) continue;
    if (!hasCalls) {
      for (let i = 0; i < p; i += 1) {
        callsR[i] = callsOf(target.callsRead, i, groups, m);
        callsW[i] = callsOf(target.callsWrite, i, groups, m);
      }
      hasCalls = true;
    }
    const units = s.baseUnits * mg * bp;
    const calls = s.baseCalls * mg * bp;
    last.backPressureWrite += units;
    // What the writes lose here comes off their sums (the base loads' share counts them whole).
    const sumWrite = target.sumWrite;
    for (let i = 0; i < p; i += 1) {
      const v = s.vector[i] as number;
      if (v === 0) continue;
      const before = offW[i] as number;
      const after = Math.max(0, before - units * v);
      offW[i] = after;
      sumWrite[i] = (sumWrite[i] as number) + (after - before);
      callsW[i] = Math.max(0, (callsW[i] as number) - calls * v);
    }
    const reasons = backPressure?.causes.get(s.source.patternIndex);
    const reason = reasons ? [...reasons][0] : undefined;
    if (reason) target.reasonCalls.set(reason, (target.reasonCalls.get(reason) ?? 0) + calls * dt);
  }
  return hasCalls;
}

/**
 * Each partition's own limit, for `list[0 … n)`: what it serves, its key-range throttle (the other
 * throttles cleared), the heat map, the hot time that leads to a split, the peaks, and (provisioned)
 * the step's balance against the partitions' shares (`scratch.balance`).
 */
function limitPartitions(state: SimulationState, target: TargetState, list: Int32Array, n: number, heatRow: number): void {
  const dt = state.stepSeconds;
  const p = target.starts.length;
  const last = target.last;
  const offR = last.offeredRead;
  const offW = last.offeredWrite;
  const srvR = last.servedRead;
  const srvW = last.servedWrite;
  const krR = last.throttledRead.keyRange;
  const krW = last.throttledWrite.keyRange;
  const pvR = last.throttledRead.provisioned;
  const pvW = last.throttledWrite.provisioned;
  const acR = last.throttledRead.account;
  const acW = last.throttledWrite.account;
  const mxR = last.throttledRead.maxOnDemand;
  const mxW = last.throttledWrite.maxOnDemand;
  const heat = target.heat;
  const hot = target.hotSeconds;
  const peakRead = target.peakRead;
  const peakWrite = target.peakWrite;
  const isLinear = state.limits === 'linear';
  const capacity = target.model.capacity;
  const isProvisioned = capacity.mode === 'provisioned';
  const shareR = isProvisioned ? capacity.readUnitsPerSecond / p : 0;
  const shareW = isProvisioned ? capacity.writeUnitsPerSecond / p : 0;
  let excessR = 0;
  let unusedR = 0;
  let excessW = 0;
  let unusedW = 0;
  for (let j = 0; j < n; j += 1) {
    const i = list[j] as number;
    const r = offR[i] as number;
    const w = offW[i] as number;
    let u: number;
    let sr: number;
    let sw: number;
    if (isLinear) {
      u = r / PARTITION_READS + w / PARTITION_WRITES;
      const scale = u > 1 ? 1 / u : 1;
      sr = r * scale;
      sw = w * scale;
    } else {
      // Reads and writes are limited separately: heavy reads never throttle a write.
      const ur = r / PARTITION_READS;
      const uw = w / PARTITION_WRITES;
      u = ur > uw ? ur : uw;
      sr = r > PARTITION_READS ? PARTITION_READS : r;
      sw = w > PARTITION_WRITES ? PARTITION_WRITES : w;
    }
    srvR[i] = sr;
    srvW[i] = sw;
    krR[i] = r - sr;
    krW[i] = w - sw;
    pvR[i] = 0;
    pvW[i] = 0;
    acR[i] = 0;
    acW[i] = 0;
    mxR[i] = 0;
    mxW[i] = 0;
    // The heat map keeps each bucket's worst step, so a short spike over the limit stays visible.
    if (u > (heat[heatRow + i] as number)) heat[heatRow + i] = u;
    hot[i] = u > SPLIT_UTILIZATION ? (hot[i] as number) + dt : 0;
    if (r > (peakRead[i] as number)) peakRead[i] = r;
    if (w > (peakWrite[i] as number)) peakWrite[i] = w;
    if (isProvisioned) {
      if (sr > shareR) excessR += sr - shareR;
      else unusedR += shareR - sr;
      if (sw > shareW) excessW += sw - shareW;
      else unusedW += shareW - sw;
    }
  }
  const balance = target.scratch.balance;
  balance.excessRead = excessR;
  balance.unusedRead = unusedR;
  balance.excessWrite = excessW;
  balance.unusedWrite = unusedW;
}

/**
 * On-demand, a step of the plan's active partitions: no target-level limit binds (the plan checked
 * the offered total). What they served is kept, and the served total summed in partition order when
 * the stretch is folded, the quiet partitions serving what they are offered.
 */
function keepActiveServed(target: TargetState, list: Int32Array, n: number): void {
  const plan = target.plan;
  const srvR = target.last.servedRead;
  const srvW = target.last.servedWrite;
  const at = (plan.pendingCount - 1) * n;
  for (let j = 0; j < n; j += 1) {
    const i = list[j] as number;
    plan.servedActiveRead[at + j] = srvR[i] as number;
    plan.servedActiveWrite[at + j] = srvW[i] as number;
  }
}

/**
 * Books what `list[0 … n)` did not serve: per partition (throttled calls, the heat map's throttled
 * requests, its throttled shares and causes in the scratch arrays), per reason, per source
 * (`throttleSources`), and the target's throttled steps. Returns how many partitions throttled, listed
 * in `scratch.throttled`.
 */
function bookThrottled(state: SimulationState, target: TargetState, list: Int32Array, n: number, hasCalls: boolean, heatRow: number): number {
  const dt = state.stepSeconds;
  const groups = state.groupEvents.length;
  const m = state.multipliers;
  const last = target.last;
  const scratch = target.scratch;
  const offR = last.offeredRead;
  const offW = last.offeredWrite;
  const srvR = last.servedRead;
  const srvW = last.servedWrite;
  const callsR = scratch.callsRead;
  const callsW = scratch.callsWrite;
  let anyThrottled = last.backPressureWrite > EPSILON;
  let anyRead = false;
  let anyWrite = last.backPressureWrite > EPSILON;
  const throttled = scratch.throttled;
  let count = 0;
  const tfR = scratch.shareRead;
  const tfW = scratch.shareWrite;
  for (let j = 0; j < n; j += 1) {
    const i = list[j] as number;
    const r = offR[i] as number;
    const w = offW[i] as number;
    const thR = r - (srvR[i] as number);
    const thW = w - (srvW[i] as number);
    if (thR <= EPSILON && thW <= EPSILON) continue;
    anyThrottled = true;
    if (thR > EPSILON) anyRead = true;
    if (thW > EPSILON) anyWrite = true;
    throttled[count] = i;
    count += 1;
    const fR = r > 0 ? thR / r : 0;
    const fW = w > 0 ? thW / w : 0;
    tfR[i] = fR;
    tfW[i] = fW;
    const cR = hasCalls ? (callsR[i] as number) : callsOf(target.callsRead, i, groups, m);
    const cW = hasCalls ? (callsW[i] as number) : callsOf(target.callsWrite, i, groups, m);
    const calls = (cR * fR + cW * fW) * dt;
    target.throttledCalls[i] = (target.throttledCalls[i] as number) + calls;
    target.throttledHeat[heatRow + i] = (target.throttledHeat[heatRow + i] as number) + calls;
    bookReasons(target, i, r, w, cR, cW, dt);
  }
  if (anyThrottled) target.throttledSteps += 1;
  if (anyRead) target.throttledReadSteps += 1;
  if (anyWrite) target.throttledWriteSteps += 1;
  target.hasThrottledSources = count > 0;
  if (count > 0) throttleSources(target, count);
  return count;
}

/**
 * Each source's throttled share this step, from the `count` throttled partitions: its share of load
 * on each times the share of that partition's load that throttled, with their causes.
 */
function throttleSources(target: TargetState, count: number): void {
  const scratch = target.scratch;
  const throttled = scratch.throttled;
  const causes = scratch.causes;
  const sources = target.sources;
  for (let k = 0; k < sources.length; k += 1) {
    const s = sources[k] as (typeof sources)[number];
    const tf = s.source.kind === 'read' ? scratch.shareRead : scratch.shareWrite;
    const vector = s.vector;
    let share = 0;
    let c = 0;
    for (let q = 0; q < count; q += 1) {
      const i = throttled[q] as number;
      const v = vector[i] as number;
      if (v === 0) continue;
      share += v * (tf[i] as number);
      if ((tf[i] as number) > 0) c |= causes[i] as number;
    }
    s.throttledShare = Math.min(1, share);
    s.causes = c;
  }
}

/** Reason bits by `reasonNames` index (reads 0–3, writes 4–7). */
const CAUSE_OF_REASON: readonly number[] = [...CAUSES, ...CAUSES];

/**
 * Books partition `i`'s throttled calls to their reasons (`r` and `w` offered, `cR` and `cW` calls
 * per second) and leaves its cause bits in the scratch arrays.
 */
function bookReasons(target: TargetState, i: number, r: number, w: number, cR: number, cW: number, dt: number): void {
  const read = target.last.throttledRead;
  const write = target.last.throttledWrite;
  // Reasons in the order they are listed: key range, provisioned, account, on-demand maximum; reads before writes.
  const kr = bookReason(target, 0, read.keyRange[i] as number, r, cR, dt);
  const kw = bookReason(target, 4, write.keyRange[i] as number, w, cW, dt);
  const pr = bookReason(target, 1, read.provisioned[i] as number, r, cR, dt);
  const pw = bookReason(target, 5, write.provisioned[i] as number, w, cW, dt);
  const ar = bookReason(target, 2, read.account[i] as number, r, cR, dt);
  const aw = bookReason(target, 6, write.account[i] as number, w, cW, dt);
  const xr = bookReason(target, 3, read.maxOnDemand[i] as number, r, cR, dt);
  const xw = bookReason(target, 7, write.maxOnDemand[i] as number, w, cW, dt);
  const cr = kr | pr | ar | xr;
  const cw = kw | pw | aw | xw;
  const scratch = target.scratch;
  scratch.causes[i] = cr | cw;
  scratch.causesRead[i] = cr;
  scratch.causesWrite[i] = cw;
}

/** Books the calls behind `units` throttled (of `total` offered) to reason `name`; returns its cause bit, or 0 when there are none. */
function bookReason(target: TargetState, name: number, units: number, total: number, calls: number, dt: number): number {
  if (units <= EPSILON || total <= 0) return 0;
  const reason = target.reasonNames[name] as string;
  target.reasonCalls.set(reason, (target.reasonCalls.get(reason) ?? 0) + (calls * units * dt) / total);
  return CAUSE_OF_REASON[name] as number;
}

/** Clears the throttled shares and causes of the step's throttled partitions, so the scratch arrays are zero again. */
export function clearThrottled(target: TargetState, count: number): void {
  const s = target.scratch;
  for (let q = 0; q < count; q += 1) {
    const i = s.throttled[q] as number;
    s.shareRead[i] = 0;
    s.shareWrite[i] = 0;
    s.causes[i] = 0;
    s.causesRead[i] = 0;
    s.causesWrite[i] = 0;
  }
}

/** Calls per second on partition `i` at the multipliers `m`. */
function callsOf(calls: Float64Array, i: number, groups: number, m: Float64Array): number {
  let c = 0;
  for (let g = 0; g < groups; g += 1) c += (m[g] as number) * (calls[i * groups + g] as number);
  return c;
}
