/**
 * Items per key value: how many of an entity's items share one value of a set of attributes (a
 * partition key, a key condition), on average and on the heaviest value under the attributes'
 * spreads (enum weights, a Zipf or hot-value distribution of a reference or id), and that value's
 * share of the items. Attributes a reference ties together count once (`tiedAttributes`).
 */
import { enumShares, rankShare } from '../model/index.ts';
import type { Entity } from '../model/index.ts';
import { distinctCombinationsOf, distinctValuesOf, formatCount, formatPercent, sanitizeCount, tiedAttributes, type EntityCounts } from './counts.ts';

/** What one key value of a set of attributes holds. */
export interface KeyItems {
  /** Distinct values of the attributes together. */
  distinct: number;
  /** Items per value on average: items ÷ distinct. */
  mean: number;
  /** Items on the heaviest value: items × `hottestShare`, at least the mean. */
  largest: number;
  /** Share of the items on the heaviest value, 0–1. */
  hottestShare: number;
  assumptions: string[];
}

/** The heaviest value's share of one attribute's items: its enum's largest share, its distribution's rank 0, else 1 ÷ distinct. */
export function topShareOf(entity: Entity, name: string, refs?: EntityCounts, limit?: number): { share: number; basis: string } {
  const d = distinctValuesOf(entity, name, refs).count;
  if (limit !== undefined && limit >= 1 && limit < d) return { share: 1 / limit, basis: `${formatCount(limit)} values allowed by the condition, taken as equally common` };
  const a = entity.attributes.find((x) => x.name === name);
  const shares = a ? enumShares(a) : undefined;
  if (shares) return { share: Math.max(...shares.shares), basis: shares.basis };
  const spread = a?.generator?.distribution;
  if (spread && spread.kind !== 'uniform') return { share: rankShare(spread, Math.max(1, Math.round(d)), 0), basis: `its ${spread.kind === 'hotKey' ? 'hot value' : spread.kind === 'zipf' ? 'Zipf spread' : 'time skew'}` };
  return { share: 1 / Math.max(1, d), basis: 'values equally common' };
}

/**
 * Items per value of `names` among `items` of the entity's items (after a sparse target's share):
 * mean = items ÷ distinct combinations; the heaviest value's share = Π of each free attribute's top
 * share (attributes taken as independent, except those a reference ties together), at least
 * 1 ÷ distinct. `limits` caps attributes a sparse condition keeps to a few values.
 */
export function itemsPerKeyOf(entity: Entity, names: readonly string[], items: number, limits: ReadonlyMap<string, number> = new Map(), refs?: EntityCounts): KeyItems {
  const n = sanitizeCount(items);
  const combos = distinctCombinationsOf(entity, names, limits, refs);
  const distinct = Math.max(1, combos.count);
  const tied = tiedAttributes(entity, names);
  let hottest = 1;
  const assumptions = [...combos.assumptions];
  for (const name of new Set(names)) {
    if (tied.has(name)) continue;
    const top = topShareOf(entity, name, refs, limits.get(name));
    hottest *= top.share;
    if (top.share > 1 / distinctValuesOf(entity, name, refs).count + 1e-12) assumptions.push(`${entity.name}.${name}: its heaviest value holds ${formatPercent(top.share)} of items (${top.basis})`);
  }
  const hottestShare = Math.min(1, Math.max(hottest, 1 / distinct));
  const mean = n / distinct;
  return { distinct, mean, largest: Math.max(mean, n * hottestShare), hottestShare, assumptions };
}
