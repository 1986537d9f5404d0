/**
 * Generated sample items as the data screen and the host exchange them. Items are plain values
 * (strings, numbers, booleans), keyed by attribute name; key attributes are rendered from templates.
 */

export type SampleValue = string | number | boolean;

/** One item of a view (the table, or an index's own view of the same items). */
export interface SampleRow {
  entityId: string;
  entity: string;
  /** The partition-key value in this view. */
  partitionKey: string;
  /** The sort-key value in this view, when the view has a sort key. */
  sortKey?: string;
  /** The item's size in this view (the whole item for the table; the projected entry for an index). */
  bytes: number;
  /** The attributes this view holds (the projection, for an index). */
  attributes: Record<string, SampleValue>;
}

/** One view of the generated items: the table, or a GSI/LSI by name. */
export interface SampleView {
  name: string;
  kind: 'table' | 'gsi' | 'lsi';
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
}
