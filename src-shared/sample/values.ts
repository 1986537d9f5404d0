/**
 * An attribute's values by rank, as the sample data draws them (`createRankColumn` in `columns.ts`),
 * for readers that need values rather than items: the partition simulator's key space lists a key's
 * distinct values heaviest first and names the hottest keys with them. The values are those of
 * seed 1 and the default today, the sample the key previews show.
 */
import type { Attribute, Entity } from '../model/index.ts';
import { sampleContext, type Column } from './column.ts';
import { createRankColumn } from './columns.ts';
import type { SampleValue } from './types.ts';

/** Ranks a reader generates at first; it doubles them when a higher rank is asked for. */
const FIRST_RANKS = 64;

/** An attribute's values by rank. */
export interface RankedValues {
  /** The value of rank `rank` (0-based, heaviest first: the hot value, the newest day, the first id). */
  at(rank: number): SampleValue;
}

class RankColumnReader implements RankedValues {
  #column: Column | undefined;
  #ranks = 0;
  constructor(
    readonly entity: Entity,
    readonly attribute: Attribute,
  ) {}
  at(rank: number): SampleValue {
    const r = Math.max(0, Math.floor(rank));
    if (!this.#column || r >= this.#ranks) {
      // Row r of a rank column is the same value however many ranks it holds.
      this.#ranks = Math.max(FIRST_RANKS, 2 * this.#ranks, r + 1);
      this.#column = createRankColumn(this.entity, this.attribute, this.#ranks, sampleContext(1), () => undefined);
    }
    return this.#column.value(r);
  }
}

/**
 * The values of `attribute` (one of `entity`'s) by rank, or undefined for a list, map, set or NULL,
 * which have no scalar value. A `ref` attribute is read by its name (`userId`: ids `u-000001`, …),
 * as when its entity has no items: the values a reader without the referenced entity can know.
 */
export function rankedValuesOf(entity: Entity, attribute: Attribute): RankedValues | undefined {
  const { type } = attribute;
  if (type !== 'S' && type !== 'N' && type !== 'B' && type !== 'BOOL') return undefined;
  return new RankColumnReader(entity, attribute);
}
