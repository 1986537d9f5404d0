/**
 * Designs of a given size for the transport's size tests: the shipped e-commerce example's table
 * copied under new ids and names until the design's compact JSON is at least `bytes` long.
 */
import { readFileSync } from 'node:fs';
import type { Design, Table } from '../../src-shared/model/index.ts';

const example = JSON.parse(readFileSync(new URL('../../examples/ecommerce.keyplan.json', import.meta.url), 'utf8')) as Design;

/** A valid design whose compact JSON is `bytes` long or a table's length (about 7 KB) longer. */
export function designOfAtLeast(bytes: number, name = 'Big'): Design {
  const table = example.tables[0] as Table;
  // Each copy's JSON is about as long as the original's: one more covers the difference in ids.
  const count = Math.ceil(bytes / JSON.stringify(table).length) + 1;
  const tables = Array.from({ length: count }, (_, i) => ({ ...structuredClone(table), id: `tbl-${i}`, name: `Shop${i}` }));
  return { ...example, id: `design-${name.toLowerCase()}`, name, tables };
}
