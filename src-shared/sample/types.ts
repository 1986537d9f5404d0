/**
 * Generated sample items as the data screen and the host exchange them. Items are plain values
 * (strings, numbers, booleans), keyed by attribute name; key attributes are rendered from templates.
 */

export type SampleValue = string | number | boolean;

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
