/**
 * What a target serves in one step and why the rest is not served: each partition's own limit of
 * 3,000 RCU and 1,000 WCU a second (independent, or as R/3,000 + W/1,000 ≤ 1 when asked;
 * docs/dynamodb-rules.md §4.1), then the target's: provisioned capacity shared evenly over the
 * partitions, lent from partitions that leave theirs unused (adaptive capacity) and drawn from each
 * partition's 300-second burst bucket (docs/dynamodb-rules.md §4.6, §4.5, §10.5); on-demand's
 * instant capacity of twice the previous peak, the design's on-demand maximum and the account's
 * per-table quota (docs/dynamodb-rules.md §4.3, §4.7). Throttled units are booked per partition,
 * per reason and per source.
 *
 * A step is served either for every partition (`full`) or for the plan's active partitions only.
 * The quiet ones serve what they are offered; what couples them to the others is summed as a full
 * step sums it where a result depends on it (the unused provisioned capacity, here), or when the
 * stretch is folded (on-demand's served total, their burst buckets filling; step.ts).
 */
import * as limits from './limits.ts';
import { scaleOut } from './splits.ts';
import { CAUSE_ACCOUNT, CAUSE_KEY_RANGE, CAUSE_MAX_ON_DEMAND, CAUSE_PROVISIONED, EPSILON, type QuietPlan, type SimulationState, type TargetState } from './state.ts';

const BURST_SECONDS = limits.BURST_SECONDS;
const ON_DEMAND_ACCOUNT_READ_UNITS = limits.ON_DEMAND_ACCOUNT_READ_UNITS;
const ON_DEMAND_ACCOUNT_WRITE_UNITS = limits.ON_DEMAND_ACCOUNT_WRITE_UNITS;
const ON_DEMAND_PEAK_AGE_SECONDS = limits.ON_DEMAND_PEAK_AGE_SECONDS;
const PARTITION_READS = limits.PARTITION_READ_UNITS_PER_SECOND;
const PARTITION_WRITES = limits.PARTITION_WRITE_UNITS_PER_SECOND;
const SPLIT_UTILIZATION = limits.SPLIT_UTILIZATION;
const onDemandInstantCapacity = limits.onDemandInstantCapacity;
const writeEquivalents = limits.writeEquivalents;

/** What the GSIs' throttled writes keep from the table this step, per pattern, and why. */
export interface BackPressure {
  shares: Float64Array;
  causes: Map<number, Set<string>>;
}

/** Steps after which a served on-demand peak counts as previous (30 minutes). */
export const onDemandPeakLag = (state: SimulationState): number => Math.max(1, Math.round(ON_DEMAND_PEAK_AGE_SECONDS / state.stepSeconds));

/**
 * On-demand at the start of a step: a peak served 30 minutes ago counts as previous; twice it is
 * served at once, on partitions enough for it (scaling out when there are fewer), or the warm
 * throughput set (its reads and writes together) when that is more. Returns the instant capacity
 * in write-equivalents per second.
 */
export function onDemandInstant(state: SimulationState, target: TargetState): number {
  const lag = onDemandPeakLag(state);
  if (state.step >= lag) target.previousPeak = Math.max(target.previousPeak, target.servedHistory[state.step - lag] as number);
  const scaled = onDemandInstantCapacity(target.previousPeak);
  scaleOut(state, target, Math.ceil(scaled / PARTITION_WRITES - 1e-9));
  // Pre-warmed: its warm read and write throughput are served at once, both together.
  const capacity = target.model.capacity;
  const warm = capacity.mode === 'onDemand' && capacity.warm ? writeEquivalents(capacity.warm.readUnitsPerSecond, capacity.warm.writeUnitsPerSecond) : 0;
  return warm > scaled ? warm : scaled;
}

/**
 * Serves one step of `target`: every partition when `full`, else the plan's active ones. Leaves the
 * throttled partitions in `scratch.throttled` (their count returned), with their throttled shares
 * and causes in the scratch arrays, and each source's throttled share.
 */
export function serveTarget(state: SimulationState, target: TargetState, full: boolean, backPressure: BackPressure | undefined, bucket: number): number {
  const dt = state.stepSeconds;
  const capacity = target.model.capacity;
  const instant = capacity.mode === 'onDemand' ? onDemandInstant(state, target) : 0;
  const p = target.starts.length;
  const groups = state.groupEvents.length;
  const m = state.multipliers;
  const plan = target.plan;
  const scratch = target.scratch;
  const list = full ? scratch.all : plan.active;
  const n = full ? p : plan.activeCount;
  const last = target.last;
  const offR = last.offeredRead;
  const offW = last.offeredWrite;
  const srvR = last.servedRead;
  const srvW = last.servedWrite;
  const loadRead = target.loadRead;
  const loadWrite = target.loadWrite;

  // Offered load per partition: the groups' base loads at this step's multipliers.
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

  // Writes a GSI refused never reach the table (only in full steps: a plan serves none with back-pressure).
  last.backPressureWrite = 0;
  let hasCalls = false;
  const callsR = scratch.callsRead;
  const callsW = scratch.callsWrite;
  const sources = target.sources;
  // Each source's throttled share starts at 0 (already, unless the last step throttled).
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

  // 1. Each partition's own limit, with the heat map, the hot time that leads to a split, the
  // peaks, and how far each partition is over or under its provisioned share.
  const krR = last.throttledRead.keyRange;
  const krW = last.throttledWrite.keyRange;
  const pvR = last.throttledRead.provisioned;
  const pvW = last.throttledWrite.provisioned;
  const acR = last.throttledRead.account;
  const acW = last.throttledWrite.account;
  const mxR = last.throttledRead.maxOnDemand;
  const mxW = last.throttledWrite.maxOnDemand;
  const heat = target.heat;
  const heatRow = bucket * target.heatStride;
  const hot = target.hotSeconds;
  const peakRead = target.peakRead;
  const peakWrite = target.peakWrite;
  const isLinear = state.limits === 'linear';
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

  // 2. The target's own limit.
  if (capacity.mode === 'provisioned') {
    let burstR: number;
    let burstW: number;
    if (full) {
      burstR = shareProvisioned(list, n, srvR, pvR, target.burstRead, shareR, dt, excessR, unusedR);
      burstW = shareProvisioned(list, n, srvW, pvW, target.burstWrite, shareW, dt, excessW, unusedW);
    } else {
      // With a partition over its share, the unused capacity of all, quiet ones included (they are all under theirs).
      if (excessR > EPSILON) unusedR = unusedOfAll(plan, list, n, srvR, target.burstRead, plan.quietRead, plan.hasQuietRefillRead, loadRead, groups, m, shareR, excessR, unusedR);
      if (excessW > EPSILON) unusedW = unusedOfAll(plan, list, n, srvW, target.burstWrite, plan.quietWrite, plan.hasQuietRefillWrite, loadWrite, groups, m, shareW, excessW, unusedW);
      burstR = shareProvisioned(list, n, srvR, pvR, target.burstRead, shareR, dt, excessR, unusedR);
      burstW = shareProvisioned(list, n, srvW, pvW, target.burstWrite, shareW, dt, excessW, unusedW);
      // What of their unused capacity was lent this step decides how far their buckets refill (when the stretch is folded).
      plan.pendingLentRead[plan.pendingCount - 1] = lentShareOf(excessR, unusedR);
      plan.pendingLentWrite[plan.pendingCount - 1] = lentShareOf(excessW, unusedW);
    }
    if (full) last.limit = { mode: 'provisioned', readUnits: capacity.readUnitsPerSecond, writeUnits: capacity.writeUnitsPerSecond, burstRead: burstR, burstWrite: burstW };
  } else if (full) {
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
  } else {
    // No target-level limit binds in this step (the plan checked the offered total). The served
    // total is summed in partition order when the stretch is folded, the quiet partitions serving
    // what they are offered.
    const at = (plan.pendingCount - 1) * n;
    for (let j = 0; j < n; j += 1) {
      const i = list[j] as number;
      plan.servedActiveRead[at + j] = srvR[i] as number;
      plan.servedActiveWrite[at + j] = srvW[i] as number;
    }
  }

  // 3. Accounting: per partition, per reason, per source.
  let anyThrottled = last.backPressureWrite > EPSILON;
  let anyRead = false;
  let anyWrite = last.backPressureWrite > EPSILON;
  const throttled = scratch.throttled;
  let count = 0;
  const tfR = scratch.shareRead;
  const tfW = scratch.shareWrite;
  const causes = scratch.causes;
  const causesRead = scratch.causesRead;
  const causesWrite = scratch.causesWrite;
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
    // Reasons in the order they are listed: key range, provisioned, account, on-demand maximum; reads before writes.
    const kr = bookReason(target, 0, krR[i] as number, r, cR, dt);
    const kw = bookReason(target, 4, krW[i] as number, w, cW, dt);
    const pr = bookReason(target, 1, pvR[i] as number, r, cR, dt);
    const pw = bookReason(target, 5, pvW[i] as number, w, cW, dt);
    const ar = bookReason(target, 2, acR[i] as number, r, cR, dt);
    const aw = bookReason(target, 6, acW[i] as number, w, cW, dt);
    const xr = bookReason(target, 3, mxR[i] as number, r, cR, dt);
    const xw = bookReason(target, 7, mxW[i] as number, w, cW, dt);
    const cr = kr | pr | ar | xr;
    const cw = kw | pw | aw | xw;
    causes[i] = cr | cw;
    causesRead[i] = cr;
    causesWrite[i] = cw;
  }
  if (anyThrottled) target.throttledSteps += 1;
  if (anyRead) target.throttledReadSteps += 1;
  if (anyWrite) target.throttledWriteSteps += 1;
  target.hasThrottledSources = count > 0;
  if (count > 0) {
    for (let k = 0; k < sources.length; k += 1) {
      const s = sources[k] as (typeof sources)[number];
      const tf = s.source.kind === 'read' ? tfR : tfW;
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
  return count;
}

/** Reason bits by `reasonNames` index (reads 0–3, writes 4–7). */
const CAUSE_OF_REASON = [CAUSE_KEY_RANGE, CAUSE_PROVISIONED, CAUSE_ACCOUNT, CAUSE_MAX_ON_DEMAND, CAUSE_KEY_RANGE, CAUSE_PROVISIONED, CAUSE_ACCOUNT, CAUSE_MAX_ON_DEMAND];

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

/**
 * The capacity left unused by the partitions under their share (`activeUnused` is the active
 * ones'), as a step over every partition sums it. It decides two things: the share of the excess
 * lent (1 whenever unused ≥ excess) and how much of the unused capacity refills buckets that are
 * not full (none is refilled past full). When the quiet partitions' unused total (from their base
 * loads) leaves unused clearly above the excess and every bucket under its share is full, neither
 * depends on the last bits of the sum, which is then taken as it is; otherwise it is summed in
 * partition order, over what active partitions serve and quiet ones are offered.
 */
function unusedOfAll(
  plan: QuietPlan,
  list: Int32Array,
  n: number,
  served: Float64Array,
  bucket: Float64Array,
  quietLoad: Float64Array,
  hasQuietRefill: boolean,
  loads: Float64Array,
  groups: number,
  m: Float64Array,
  share: number,
  excess: number,
  activeUnused: number,
): number {
  let quietOffered = 0;
  for (let g = 0; g < groups; g += 1) quietOffered += (m[g] as number) * (quietLoad[g] as number);
  const estimate = activeUnused + (plan.quietCount * share - quietOffered);
  if (!hasQuietRefill && estimate >= excess * (1 + 1e-9)) {
    const cap = BURST_SECONDS * share;
    let isFull = true;
    for (let j = 0; j < n && isFull; j += 1) {
      const i = list[j] as number;
      if ((served[i] as number) <= share && (bucket[i] as number) < cap) isFull = false;
    }
    if (isFull) return estimate;
  }
  let unused = 0;
  let a = 0;
  let q = 0;
  const active = plan.active;
  const quiet = plan.quiet;
  while (a < plan.activeCount || q < plan.quietCount) {
    const nextActive = a < plan.activeCount ? (active[a] as number) : Infinity;
    const nextQuiet = q < plan.quietCount ? (quiet[q] as number) : Infinity;
    let s: number;
    if (nextActive < nextQuiet) {
      s = served[nextActive] as number;
      a += 1;
    } else {
      s = 0;
      for (let g = 0; g < groups; g += 1) s += (m[g] as number) * (loads[nextQuiet * groups + g] as number);
      q += 1;
    }
    if (s <= share) unused += share - s;
  }
  return unused;
}

/** The share of the unused capacity lent to partitions over their share (0 when none is over). */
const lentShareOf = (excess: number, unused: number) => (excess <= EPSILON ? 0 : unused > 0 ? Math.min(1, excess / unused) : 0);

/**
 * Provisioned capacity over partitions: each gets capacity ÷ partitions; a partition over its share
 * first takes what others leave unused (adaptive capacity, instantly), then spends its burst bucket;
 * the rest throttles. Unused capacity that was not lent refills the buckets. Returns the burst spent
 * (units/s). `excess` and `unused` are the totals over and under the share.
 */
function shareProvisioned(list: Int32Array, n: number, served: Float64Array, throttled: Float64Array, bucket: Float64Array, share: number, dt: number, excess: number, unused: number): number {
  const cap = BURST_SECONDS * share;
  if (excess <= EPSILON) {
    for (let j = 0; j < n; j += 1) {
      const i = list[j] as number;
      bucket[i] = Math.min(cap, (bucket[i] as number) + (share - (served[i] as number)) * dt);
    }
    return 0;
  }
  const lent = Math.min(1, unused / excess);
  const lentShare = unused > 0 ? Math.min(1, excess / unused) : 0;
  let burst = 0;
  for (let j = 0; j < n; j += 1) {
    const i = list[j] as number;
    const s = served[i] as number;
    if (s <= share) {
      bucket[i] = Math.min(cap, (bucket[i] as number) + (share - s) * (1 - lentShare) * dt);
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
