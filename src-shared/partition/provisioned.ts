/**
 * A provisioned target's own limit in a step (docs/dynamodb-rules.md §4.6, §4.5, §10.5): its
 * capacity shared evenly over the partitions; a partition over its share first takes what others
 * leave unused (adaptive capacity, at once), then spends its own burst bucket of 300 seconds of its
 * share; the rest throttles. Capacity nobody used, and nobody borrowed, refills the buckets.
 *
 * In a step served for a plan's active partitions only (stretch.ts), the quiet partitions are all
 * under their shares: the unused capacity they add is summed as a full step sums it wherever a
 * result depends on its last bits, and the share of it lent this step is kept for refilling their
 * buckets when the stretch is folded.
 */
import * as limits from './limits.ts';
import { EPSILON, type QuietPlan, type SimulationState, type TargetState } from './state.ts';

const BURST_SECONDS = limits.BURST_SECONDS;

type ProvisionedCapacity = Extract<TargetState['model']['capacity'], { mode: 'provisioned' }>;

/**
 * Serves the provisioned capacity over what the partitions `list[0 … n)` served under their own
 * limits this step (every partition when `full`), from the step's balance against their shares
 * (`scratch.balance`); moves what is refused to the provisioned throttles.
 */
export function limitProvisioned(state: SimulationState, target: TargetState, capacity: ProvisionedCapacity, full: boolean, list: Int32Array, n: number): void {
  const dt = state.stepSeconds;
  const p = target.starts.length;
  const last = target.last;
  const srvR = last.servedRead;
  const srvW = last.servedWrite;
  const pvR = last.throttledRead.provisioned;
  const pvW = last.throttledWrite.provisioned;
  const shareR = capacity.readUnitsPerSecond / p;
  const shareW = capacity.writeUnitsPerSecond / p;
  const balance = target.scratch.balance;
  const excessR = balance.excessRead;
  const excessW = balance.excessWrite;
  let unusedR = balance.unusedRead;
  let unusedW = balance.unusedWrite;
  if (full) {
    const burstR = shareProvisioned(list, n, srvR, pvR, target.burstRead, shareR, dt, excessR, unusedR);
    const burstW = shareProvisioned(list, n, srvW, pvW, target.burstWrite, shareW, dt, excessW, unusedW);
    last.limit = { mode: 'provisioned', readUnits: capacity.readUnitsPerSecond, writeUnits: capacity.writeUnitsPerSecond, burstRead: burstR, burstWrite: burstW };
    return;
  }
  const plan = target.plan;
  const groups = state.groupEvents.length;
  const m = state.multipliers;
  // With a partition over its share, the unused capacity of all, quiet ones included (they are all under theirs).
  if (excessR > EPSILON) unusedR = unusedOfAll(plan, list, n, srvR, target.burstRead, plan.quietRead, plan.hasQuietRefillRead, target.loadRead, groups, m, shareR, excessR, unusedR);
  if (excessW > EPSILON) unusedW = unusedOfAll(plan, list, n, srvW, target.burstWrite, plan.quietWrite, plan.hasQuietRefillWrite, target.loadWrite, groups, m, shareW, excessW, unusedW);
  shareProvisioned(list, n, srvR, pvR, target.burstRead, shareR, dt, excessR, unusedR);
  shareProvisioned(list, n, srvW, pvW, target.burstWrite, shareW, dt, excessW, unusedW);
  // What of their unused capacity was lent this step decides how far their buckets refill (when the stretch is folded).
  plan.pendingLentRead[plan.pendingCount - 1] = lentShareOf(excessR, unusedR);
  plan.pendingLentWrite[plan.pendingCount - 1] = lentShareOf(excessW, unusedW);
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
