/**
 * Display helpers of the data screen: counts, entity colours, values as text, the key columns of a
 * view. Presentation only; no domain rules. Sizes are src-shared/numbers' `formatBytesBrief`.
 */
import type { SampleRow, SampleValue, SampleView } from '../../../src-shared/sample/index.ts';
import { formatNumber } from '../../../src-shared/numbers/index.ts';

/** `1,000,000`. */
export const formatCount = (n: number): string => formatNumber(n, 3);

/** Distinguishable hues, in the order entities get them. */
const PALETTE = ['#2f5bd3', '#d9480f', '#2b8a3e', '#9c36b5', '#c2255c', '#0b7285', '#e67700', '#5c940d', '#364fc7', '#862e9c', '#495057', '#a61e4d'];

/** A colour per entity id, in the design's order of entities: the same entity keeps its colour. */
export function entityColours(entityIds: readonly string[]): Map<string, string> {
  return new Map(entityIds.map((id, i) => [id, PALETTE[i % PALETTE.length]!]));
}

/** A value as the list shows it: strings as they are, numbers and booleans as text. */
export const formatValue = (v: SampleValue): string => (typeof v === 'string' ? v : String(v));

/** One key column of the list: an attribute of the view's partition or sort key. */
export interface KeyColumn {
  name: string;
  /** `partition key`, `sort key`, or `partition key 1 of 2` … for a multi-attribute key. */
  role: string;
  isPartition: boolean;
}

/**
 * The list's key columns for a view: one per key attribute, in key order (the partition key's
 * attributes, then the sort key's); a multi-attribute key's columns say their place in it.
 */
export function keyColumnsOf(view: Pick<SampleView, 'partitionKeys' | 'sortKeys'>): KeyColumn[] {
  const part = (names: readonly string[], key: string, isPartition: boolean): KeyColumn[] =>
    names.map((name, i) => ({ name, role: names.length > 1 ? `${key} ${i + 1} of ${names.length}` : key, isPartition }));
  return [...part(view.partitionKeys, 'partition key', true), ...part(view.sortKeys, 'sort key', false)];
}

/** Whether a view's rows carry one value per key attribute (`keyValues`): a multi-attribute key. */
export const hasMultiAttributeKey = (view: Pick<SampleView, 'partitionKeys' | 'sortKeys'>): boolean => view.partitionKeys.length > 1 || view.sortKeys.length > 1;

/**
 * An item row's values for `columns`, in order: its key values one per attribute (`keyValues`) for a
 * multi-attribute key, else its partition key and sort key.
 */
export function keyCellsOf(row: Pick<SampleRow, 'partitionKey' | 'sortKey' | 'keyValues'>, columns: readonly KeyColumn[]): string[] {
  const values = row.keyValues ?? [row.partitionKey, ...(row.sortKey === undefined ? [] : [row.sortKey])];
  return columns.map((_, i) => values[i] ?? '');
}
