/**
 * How a target's partitions change during a run: split for heat (a partition above 80% of its
 * limit for five minutes splits at the middle of its load, unless the split gives no relief;
 * docs/dynamodb-rules.md §4.6, §10.3), the splits a warm start has already made, and on-demand
 * scaling's halving of the widest ranges as its instant capacity doubles (docs/dynamodb-rules.md
 * §4.3). Every cut re-lays the target's per-partition arrays in one pass and lays the load out again.
 */
import * as limits from './limits.ts';
import { KEY_SPAN, KEY_TOP_OFFSET } from './model.ts';
import { emptyAccount, emptyPlan, emptyScratch, heatStrideFor, layOutLoad, zeros } from './layout.ts';
import { settleSums, type ScaleOutEvent, type SimulationState, type SplitRefusal, type TargetState } from './state.ts';

const BURST_SECONDS = limits.BURST_SECONDS;
const MAX_PARTITIONS = limits.MAX_PARTITIONS;
const SPLIT_AFTER_SECONDS = limits.SPLIT_AFTER_SECONDS;
const SPLIT_UTILIZATION = limits.SPLIT_UTILIZATION;
const USELESS_SPLIT_SHARE = limits.USELESS_SPLIT_SHARE;
const MIN_SPLIT_RELIEF_SHARE = limits.MIN_SPLIT_RELIEF_SHARE;
const TOP_OFFSET = KEY_TOP_OFFSET;
const capacityUnits = limits.capacityUnits;
const partitionUtilization = limits.partitionUtilization;

/** At most this many splits for heat before the run (a warm start), per target. */
export const MAX_SETTLE_SPLITS = 512;

/**
 * Split for heat as it has already acted on a table running at its base load: every partition the
 * base load keeps above 80% is split (where a split helps), again until none is. Splits are listed
 * at second 0.
 */
export function settle(state: SimulationState, target: TargetState): void {
  state.multipliers.fill(1);
  const groups = state.groupEvents.length;
  const limit = Math.min(MAX_PARTITIONS, target.starts.length + MAX_SETTLE_SPLITS);
  for (let round = 0; round < MAX_SETTLE_SPLITS; round += 1) {
    let didSplit = false;
    for (let i = 0; i < target.starts.length && target.starts.length < limit; i += 1) {
      let read = 0;
      let write = 0;
      for (let g = 0; g < groups; g += 1) {
        read += target.loadRead[i * groups + g] as number;
        write += target.loadWrite[i * groups + g] as number;
      }
      if (partitionUtilization(read, write, state.limits) <= SPLIT_UTILIZATION || (target.retryAfter[i] as number) > 0) continue;
      if (splitForHeat(state, target, i, 0, 0)) {
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

/**
 * On-demand scaling adds partitions as its instant capacity grows: the widest range is cut in half
 * until there are `needed` partitions (at most `MAX_PARTITIONS`).
 */
export function scaleOut(state: SimulationState, target: TargetState, needed: number): void {
  const goal = Math.min(needed, MAX_PARTITIONS);
  if (needed > MAX_PARTITIONS) target.capped ??= { second: state.step * state.stepSeconds, wanted: needed };
  if (target.starts.length >= goal) return;
  const event: ScaleOutEvent = { second: state.step * state.stepSeconds, added: goal - target.starts.length, cuts: [] };
  while (target.starts.length < goal) {
    // Each round halves the widest ranges (each at most once), so the count at most doubles a round.
    const widths = target.starts.map((start, i) => ({ i, start, width: (i + 1 < target.starts.length ? (target.starts[i + 1] as number) : 1) - start }));
    widths.sort((a, b) => b.width - a.width || a.i - b.i);
    const cuts = widths.slice(0, goal - target.starts.length).map((w) => ({ index: w.i, at: w.start + w.width / 2, leftShare: 0.5 }));
    cutPartitions(state, target, state.step, cuts, false);
    for (const c of cuts) event.cuts.push(c.at);
  }
  target.scaleOuts.push(event);
  layOutLoad(state, target);
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
  const groups = state.groupEvents.length;
  let density = 0;
  for (let g = 0; g < groups; g += 1) density += (m[g] as number) * capacityUnits(target.backgroundRead[g] as number, target.backgroundWrite[g] as number);
  const pieces: LoadPiece[] = [];
  const keys = target.model.keys;
  const load = target.keyLoad;
  for (let k = 0; k < keys.length; k += 1) {
    const pos = (keys[k] as { position: number }).position;
    const top = pos + KEY_SPAN;
    if (top <= a || pos >= b) continue;
    let spread = 0;
    let atTop = 0;
    for (let g = 0; g < groups; g += 1) {
      const mg = m[g] as number;
      const at = k * groups + g;
      spread += mg * capacityUnits(load.spreadRead[at] as number, load.spreadWrite[at] as number);
      atTop += mg * capacityUnits(load.topRead[at] as number, load.topWrite[at] as number);
    }
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
 * provisioned table with Streams, hot items are not isolated. Returns whether it split. `now` is
 * the second it happens at; the steps before `served` are the ones the sums count so far.
 */
export function splitForHeat(state: SimulationState, target: TargetState, i: number, now: number, served: number): boolean {
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

  cutPartitions(state, target, served, [{ index: i, at, leftShare: left / total }]);
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

/**
 * Cuts several partitions at once (each at most once), then lays the loads out again. The halves
 * inherit their parent's history: sums (over the steps before `served`) split by `leftShare`, the
 * heat map copied. Every per-partition array is rebuilt in one pass, so scaling out to thousands of
 * partitions stays linear.
 */
function cutPartitions(state: SimulationState, target: TargetState, served: number, cuts: Cut[], layOut = true): void {
  if (cuts.length === 0) return;
  settleSums(state, target, served);
  const byIndex = new Map(cuts.map((c) => [c.index, c]));
  const oldCount = target.starts.length;
  const count = oldCount + byIndex.size;
  const starts: number[] = [];
  /** For each new partition: its parent, and the parent's share it takes (1 when its parent was not cut). */
  const parent = new Int32Array(count);
  const share = new Float64Array(count);
  const isCut = new Uint8Array(count);
  for (let i = 0, j = 0; i < oldCount; i += 1, j += 1) {
    const cut = byIndex.get(i);
    starts.push(target.starts[i] as number);
    parent[j] = i;
    if (!cut) {
      share[j] = 1;
      continue;
    }
    share[j] = cut.leftShare;
    isCut[j] = 1;
    j += 1;
    starts.push(cut.at);
    parent[j] = i;
    share[j] = 1 - cut.leftShare;
    isCut[j] = 1;
  }
  /** A cut partition's halves take their share of it (`share`), half of it (`half`), or nothing (`zero`). */
  const remap = (arr: Float64Array, mode: 'share' | 'half' | 'zero'): Float64Array => {
    const out = zeros(count);
    for (let j = 0; j < count; j += 1) {
      const v = arr[parent[j] as number] as number;
      out[j] = isCut[j] === 0 ? v : mode === 'share' ? v * (share[j] as number) : mode === 'half' ? v / 2 : 0;
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
  // The heat map by bucket: runs of partitions that were not cut move whole; the halves of a cut
  // one both show its heat, and its throttled requests split by their shares. Rows are rewritten in
  // place from their end (a partition only moves right), in new arrays only when they are too short.
  const runs: { to: number; from: number; length: number }[] = [];
  for (let j = 0; j < count; ) {
    let end = j + 1;
    if (isCut[j] === 0) while (end < count && isCut[end] === 0) end += 1;
    runs.push({ to: j, from: parent[j] as number, length: end - j });
    j = end;
  }
  const buckets = state.bucketCount;
  const oldStride = target.heatStride;
  const stride = count <= oldStride ? oldStride : heatStrideFor(count);
  const heat = stride === oldStride ? target.heat : zeros(buckets * stride);
  const throttledHeat = stride === oldStride ? target.throttledHeat : zeros(buckets * stride);
  for (let b = buckets - 1; b >= 0; b -= 1) {
    const from = b * oldStride;
    const to = b * stride;
    for (let r = runs.length - 1; r >= 0; r -= 1) {
      const run = runs[r] as (typeof runs)[number];
      const a = from + run.from;
      if (isCut[run.to] === 0 && heat === target.heat) {
        heat.copyWithin(to + run.to, a, a + run.length);
        throttledHeat.copyWithin(to + run.to, a, a + run.length);
      } else if (isCut[run.to] === 0) {
        heat.set(target.heat.subarray(a, a + run.length), to + run.to);
        throttledHeat.set(target.throttledHeat.subarray(a, a + run.length), to + run.to);
      } else {
        heat[to + run.to] = target.heat[a] as number;
        throttledHeat[to + run.to] = (target.throttledHeat[a] as number) * (share[run.to] as number);
      }
    }
  }
  target.heat = heat;
  target.throttledHeat = throttledHeat;
  target.heatStride = stride;
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
  target.scratch = emptyScratch(count, target.model.keys.length);
  target.plan = emptyPlan(count, state.groupEvents.length);
  state.layoutChanged = true;
  if (layOut) layOutLoad(state, target);
}
