/**
 * How a pattern's traffic divides over the keys of one key space, by its distribution (uniform,
 * Zipf, one hot key, "today", or following the items): shares on keys tracked by name, the rest
 * spread as background.
 */
import type { Distribution } from '../model/index.ts';
import type { KeySpace } from './key-space.ts';
import { allCombos, EXPLICIT_ALL_KEYS, EXPLICIT_TOP_KEYS, rankedKeys, type RankedKey } from './population.ts';

/** Under Zipf, this many top ranks are explicit: they carry most of the skew. */
export const EXPLICIT_ZIPF_KEYS = 1000;

/** Harmonic numbers already computed, by `n s` (a design is modelled again on every edit). */
const harmonics = new Map<string, number>();
/** At most this many remembered; then the memory starts over. */
const MAX_HARMONICS = 256;

/** Σ 1/k^s for k = 1..n: exact up to 100,000 terms, then the integral of the tail. Remembered per (n, s). */
function harmonic(n: number, s: number): number {
  const id = `${n} ${s}`;
  const known = harmonics.get(id);
  if (known !== undefined) return known;
  const exact = Math.min(n, 100_000);
  let sum = 0;
  for (let k = 1; k <= exact; k += 1) sum += 1 / k ** s;
  if (n > exact) sum += s === 1 ? Math.log(n / exact) : (n ** (1 - s) - exact ** (1 - s)) / (1 - s);
  if (harmonics.size >= MAX_HARMONICS) harmonics.clear();
  harmonics.set(id, sum);
  return sum;
}

/** Traffic shares over the keys of one space for one distribution; the rest is background. */
export function trafficShares(
  space: KeySpace,
  traffic: Distribution | undefined,
  add: (text: string, itemShare: number) => number,
): { keys: { key: number; share: number }[]; background: number; note?: string } {
  const shards = space.shards;
  const total = space.logicalKeys;
  const out: { key: number; share: number }[] = [];
  const push = (r: RankedKey, logicalShare: number) => {
    for (let shard = 0; shard < shards; shard += 1) out.push({ key: add(space.render(r.combo, r.member, shard), r.itemShare), share: logicalShare / shards });
  };
  const listed = (n: number) => (n * shards <= EXPLICIT_ALL_KEYS ? Infinity : EXPLICIT_TOP_KEYS);
  const finish = (note?: string) => {
    const placed = out.reduce((s, k) => s + k.share, 0);
    return { keys: out, background: Math.max(0, 1 - placed), ...(note ? { note } : {}) };
  };
  const byItems = (r: RankedKey) => r.itemShare * shards;

  switch (traffic?.kind) {
    case 'uniform': {
      for (const r of rankedKeys(space, undefined, space.membersPerCombo, listed(total))) push(r, 1 / total);
      return finish();
    }
    case 'zipf': {
      const h = harmonic(total, traffic.exponent);
      rankedKeys(space, undefined, space.membersPerCombo, Math.min(total, EXPLICIT_ZIPF_KEYS)).forEach((r, i) => push(r, 1 / (i + 1) ** traffic.exponent / h));
      return finish();
    }
    case 'hotKey': {
      const ranked = rankedKeys(space, undefined, space.membersPerCombo, listed(total));
      const first = ranked[0];
      if (!first) return finish();
      const firstItems = byItems(first);
      ranked.forEach((r, i) => {
        if (i === 0) push(r, total === 1 ? 1 : traffic.share);
        else push(r, firstItems < 1 ? ((1 - traffic.share) * byItems(r)) / (1 - firstItems) : 0);
      });
      if (total === 1) return finish();
      // The rest of the keys share what is left in proportion to their items, as background.
      const placed = out.reduce((s, k) => s + k.share, 0);
      return { keys: out, background: Math.max(0, 1 - placed) };
    }
    case 'today': {
      const time = space.timeAttribute;
      if (time) {
        const combos = allCombos(space).filter((c) => space.combos[c]?.values[time.name] === time.newest);
        const weight = combos.reduce((s, c) => s + (space.combos[c]?.weight ?? 0), 0);
        for (const r of rankedKeys(space, combos, space.membersPerCombo, listed(combos.length * space.membersPerCombo))) {
          push(r, weight > 0 ? (space.combos[r.combo]?.weight ?? 0) / weight / space.membersPerCombo : 0);
        }
        return finish();
      }
      const large = space.large.find((d) => d.isTimeLike);
      if (large) {
        // Today's keys: every combination with the time attribute fixed at its newest value.
        const perCombo = Math.max(1, Math.floor(space.membersPerCombo / Math.max(1, Math.min(large.count, space.membersPerCombo))));
        for (const r of rankedKeys(space, undefined, perCombo, listed(space.combos.length * perCombo))) {
          const share = (space.combos[r.combo]?.weight ?? 0) / perCombo;
          for (let shard = 0; shard < shards; shard += 1) out.push({ key: add(space.render(r.combo, r.member, shard, 0), r.itemShare), share: share / shards });
        }
        return finish();
      }
      const note = `"${space.template}" has no date or timestamp: "today" traffic follows the items, with new items at the top of each key's sort order.`;
      for (const r of rankedKeys(space, undefined, space.membersPerCombo, listed(total))) push(r, byItems(r));
      return finish(note);
    }
    default: {
      for (const r of rankedKeys(space, undefined, space.membersPerCombo, listed(total))) push(r, byItems(r));
      return finish();
    }
  }
}

/** Per registry key, the last `mergeShares` call that saw it (reused between calls, grown as needed). */
let seenBy = new Int32Array(1024);
let mergeCall = 0;

/** One entry per key, shares of a key listed twice added up (in order of first appearance), none of 0. */
export function mergeShares(keys: { key: number; share: number }[]): { key: number; share: number }[] {
  // Most lists name each key once: then there is nothing to merge.
  mergeCall += 1;
  let isDistinct = true;
  for (const k of keys) {
    if (k.key >= seenBy.length) {
      const grown = new Int32Array(Math.max(2 * seenBy.length, k.key + 1));
      grown.set(seenBy);
      seenBy = grown;
    }
    if (seenBy[k.key] === mergeCall) {
      isDistinct = false;
      break;
    }
    seenBy[k.key] = mergeCall;
  }
  if (isDistinct) return keys.every((k) => k.share > 0) ? keys : keys.filter((k) => k.share > 0);
  const merged = new Map<number, number>();
  for (const k of keys) merged.set(k.key, (merged.get(k.key) ?? 0) + k.share);
  return [...merged].map(([key, share]) => ({ key, share })).filter((k) => k.share > 0);
}
