/**
 * DynamoDB allows at most 20 GSIs and 5 LSIs on a table (docs/dynamodb-rules.md §7). A table with more
 * is refused by validation (`model.tooManyIndexes`); planning and costing read only the indexes
 * DynamoDB could create, so a hostile design with thousands of indexes costs linear time, not
 * quadratic (every pattern weighed against every index, each against the others).
 */
import type { Table } from './schema.ts';
import { MAX_GSIS_PER_TABLE, MAX_LSIS_PER_TABLE } from './validate/names-and-limits.ts';

/** The table with its first 20 GSIs and 5 LSIs; the same object when it has no more than that. */
export function withinIndexQuota(table: Table): Table {
  const gsis = table.globalSecondaryIndexes;
  const lsis = table.localSecondaryIndexes;
  if (gsis.length <= MAX_GSIS_PER_TABLE && lsis.length <= MAX_LSIS_PER_TABLE) return table;
  return { ...table, globalSecondaryIndexes: gsis.slice(0, MAX_GSIS_PER_TABLE), localSecondaryIndexes: lsis.slice(0, MAX_LSIS_PER_TABLE) };
}

/** Says which indexes planning and costing leave out, or undefined when none. */
export function indexesLeftOut(table: Table): string | undefined {
  const extraGsis = Math.max(0, table.globalSecondaryIndexes.length - MAX_GSIS_PER_TABLE);
  const extraLsis = Math.max(0, table.localSecondaryIndexes.length - MAX_LSIS_PER_TABLE);
  if (extraGsis === 0 && extraLsis === 0) return undefined;
  const parts = [
    ...(extraGsis > 0 ? [`${table.globalSecondaryIndexes.length} GSIs (DynamoDB allows ${MAX_GSIS_PER_TABLE})`] : []),
    ...(extraLsis > 0 ? [`${table.localSecondaryIndexes.length} LSIs (DynamoDB allows ${MAX_LSIS_PER_TABLE})`] : []),
  ];
  return `Table ${table.name.slice(0, 80)} has ${parts.join(' and ')}: plans and costs use only the first ${MAX_GSIS_PER_TABLE} GSIs and ${MAX_LSIS_PER_TABLE} LSIs until the others are removed.`;
}
