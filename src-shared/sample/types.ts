/**
 * Generated sample items as the data screen and the host exchange them. Items are plain values
 * (strings, numbers, booleans), keyed by attribute name; key attributes are rendered from templates.
 */
import type { KeyAttributeType } from '../model/index.ts';

/** A scalar value: string for S and B (base64 text, as in DynamoDB JSON), number for N, boolean for BOOL. */
export type SampleValue = string | number | boolean;

/** One item as plain values: attribute name → value (attributes it does not carry left out). */
export type SampleItem = Record<string, SampleValue>;

/**
 * Between the values of a multi-attribute key's attributes in its rendered text (`USER#u-1 + 2026`):
 * in the sample views and the partition simulator's hot-key lists alike.
 */
export const KEY_PART_SEPARATOR = ' + ';

/** One item of a view (the table, or an index's own view of the same items). */
export interface SampleRow {
  entityId: string;
  entity: string;
  /**
   * The partition-key value in this view. For a multi-attribute partition key, its attributes' values
   * joined by " + " in key order (DynamoDB hashes them together as one value).
   */
  partitionKey: string;
  /** The sort-key value in this view, when the view has a sort key (a multi-attribute one joined by " + "). */
  sortKey?: string;
  /**
   * Only in a view whose partition or sort key has several attributes (a multi-attribute GSI key): the
   * value of each key attribute as rendered, in key order, the partition key's attributes then the sort
   * key's (the names are the view's `partitionKeys` and `sortKeys`).
   */
  keyValues?: string[];
  /** The item's size in this view (the whole item for the table; the projected entry for an index). */
  bytes: number;
  /** The attributes this view holds (the projection, for an index). */
  attributes: Record<string, SampleValue>;
  /**
   * Set only on the header line of an item collection (the store's `page` puts one before each
   * collection's items): the collection's item count and bytes. `partitionKey` is the collection's
   * key, `bytes` equals `collection.bytes`, and the entity fields are empty.
   */
  collection?: { items: number; bytes: number };
}

/** One view of the generated items: the table, or a GSI/LSI by name. */
export interface SampleView {
  name: string;
  kind: 'table' | 'gsi' | 'lsi';
  /** The view's partition-key attributes in key order: one, or 2–4 for a multi-attribute GSI key. */
  partitionKeys: string[];
  /** The view's sort-key attributes in key order: none, one, or 2–4 for a multi-attribute GSI key. */
  sortKeys: string[];
  itemCount: number;
  bytes: number;
  /** Distinct partition-key values (item collections). */
  collections: number;
}

export interface SampleSummary {
  runId: string;
  seed: number;
  itemCount: number;
  /** Items per entity, by entity id. */
  itemsPerEntity: Record<string, number>;
  views: SampleView[];
  /** When an entity's item count was cut to keep the sample in memory. */
  capped?: string;
  /** Per entity, in the design's order: items generated (stored) and items the design asks for. */
  entities?: Array<{ id: string; name: string; itemCount: number; requested: number }>;
  /** What could not be generated as designed (a key template that names a missing attribute …). */
  notes?: string[];
}

/** A page of a view. */
export interface SamplePage {
  /** Lines (`page`: collection headers + items) or items (`items`) in the whole view. */
  total: number;
  rows: SampleRow[];
}

/**
 * A view's items as the partition simulator needs them, columnar and in generation order (no sort
 * needed): `keys` are the distinct partition-key values (as rendered: text for S, the number's text
 * for N, base64 for B; a multi-attribute key's values joined by " + ", the one value the simulator
 * hashes, with `keyType` S); item i has partition key `keys[keyOfItem[i]]` and takes `bytesOfItem[i]`
 * bytes (the item's size for the table, the projected entry's size for an index, without the
 * 100-byte storage overhead). `itemsPerKey` / `bytesPerKey` are the item collections' totals.
 * The arrays are the store's own: read them, do not change them.
 */
export interface SampleViewKeys {
  keyType: KeyAttributeType;
  keys: readonly string[];
  keyOfItem: Uint32Array;
  bytesOfItem: Uint32Array;
  itemsPerKey: Uint32Array;
  bytesPerKey: Float64Array;
}

/**
 * A view's item collections on `partitionCount` equal ranges of the simulator's hash space, as the
 * partition simulator's `placeKeyColumns` gives them (structurally its `Placement`): per partition,
 * items, bytes and distinct partition keys; `partitionOfKey[k]` is the partition of key k.
 */
export interface SamplePlacement {
  partitionCount: number;
  items: Float64Array;
  bytes: Float64Array;
  keys: Float64Array;
  partitionOfKey: Uint32Array;
}

/** One item collection: a partition-key value, its item count and bytes (structurally a partition `PlacedKey`). */
export interface SampleCollection {
  partitionKey: string;
  items: number;
  bytes: number;
}
