/**
 * The sample store's data, as generation leaves it (`generate.ts`) and the views (`views.ts`) and
 * reading (`reading.ts`) use it: per entity its columns and compiled keys, per view its members,
 * their entry sizes and their item collections, in typed arrays. Internal to `sample`.
 */
import type { Entity, KeyAttribute } from '../model/index.ts';
import type { Column } from './column.ts';
import type { CompiledKey } from './keys.ts';
import type { SampleSummary, SampleView } from './types.ts';

/** One entity's generated items. */
export interface EntityData {
  entity: Entity;
  index: number;
  /** Global number of its first item. */
  offset: number;
  rows: number;
  requested: number;
  /** Attributes stored as such (not shadowed by a key of the same name). */
  columns: Column[];
  columnNameBytes: number[];
  keys: CompiledKey[];
  /** Per key: 1 where the item carries it; null when every item does. */
  carried: (Uint8Array | null)[];
  /** Items that carry the table's keys (the others cannot be stored). */
  stored: number;
}

/** What an entity puts in a view. */
export interface ViewPlan {
  /** The view's partition-key attributes (one, or 2–4 for a multi-attribute GSI key) by index into `keys`. */
  pk: number[];
  /** The view's sort-key attributes (none, one, or 2–4) by index into `keys`. */
  sk: number[];
  /** For KEYS_ONLY / INCLUDE: the entry's attributes (keys by index into `keys`, or columns); null for ALL. */
  parts: Array<{ key: number } | { column: Column; nameBytes: number }> | null;
}

/** A view in its order: collections by partition key, each collection's items by sort key. */
export interface Sorted {
  /** Sorted position → group. */
  groupOrder: Uint32Array;
  /** Sorted position → first item position; one extra entry at the end. */
  groupStart: Uint32Array;
  /** Item position → member. */
  order: Uint32Array;
}

/** One view of the items (the table, or an index): its members and item collections. */
export interface ViewData {
  info: SampleView;
  /** The partition-key attributes, in key order (several for a multi-attribute GSI key). */
  pk: KeyAttribute[];
  /** The sort-key attributes, in key order (none, one or several). */
  sk: KeyAttribute[];
  plans: (ViewPlan | null)[];
  /** Member m's item number; null when member m is item m (the table, when every item is stored). */
  members: Uint32Array | null;
  entryBytes: Uint32Array;
  groupOf: Uint32Array;
  /** Per group: its first member, whose key is rendered as the group's key. */
  firstMember: Uint32Array;
  /** The groups' partition-key values, rendered on first need. */
  keys?: string[];
  /** The groups' partition keys' hash fractions, computed on first need. */
  hashes?: Float64Array;
  /** Per group g: its item count at 2g and its bytes at 2g + 1. */
  totals: Float64Array;
  /** The same, each in its own array (as `keysOf` hands them out), made on first need. */
  split?: { groupItems: Uint32Array; groupBytes: Float64Array };
  sorted?: Sorted;
}

/** Everything a store holds: its entities' items (in order, each from its `offset`) and their views. */
export interface StoreData {
  entities: EntityData[];
  views: ViewData[];
  summary: SampleSummary;
}

/** The item number of member m of a view. */
export const itemOf = (v: ViewData, m: number): number => (v.members === null ? m : v.members[m]!);

/** The entity item number `item` belongs to (entities hold consecutive item numbers, in order). */
export function entityOf(entities: readonly EntityData[], item: number): EntityData {
  let lo = 0;
  let hi = entities.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (entities[mid]!.offset <= item) lo = mid;
    else hi = mid - 1;
  }
  return entities[lo]!;
}
