/**
 * Two hard limits of DynamoDB a design can break before a single request is made, checked on the
 * estimated item sizes: an item (with its LSI entries, when the table has LSIs) may hold at most
 * 400 KB, and on a table with an LSI everything stored under one partition-key value (an item
 * collection: items and LSI entries) at most 10 GB. Past either, writes fail outright rather than
 * throttle (docs/dynamodb-rules.md §1.1, §1.4).
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/LSI.html#LSI.ItemCollections.SizeLimit
 */
import { isInIndex, formatNumber, BYTES_PER_GB } from '../capacity/index.ts';
import type { Entity, Table } from '../model/index.ts';
import { createSizeEstimates, type SizeEstimates } from './size-estimates.ts';
import { entityCountsOf } from '../planner/index.ts';
import { distinctKeyValues } from './warnings.ts';
import type { CostWarning } from './types.ts';
import { formatBytesIn } from '../numbers/index.ts';

/** The largest item DynamoDB stores: 400 KB, attribute names included, the bound inclusive. */
export const MAX_ITEM_BYTES = 409_600;
/** The largest item collection on a table with an LSI: 10 GB (binary, as DynamoDB measures sizes). */
export const MAX_ITEM_COLLECTION_BYTES = 10 * BYTES_PER_GB;

const ITEM_SIZE_SOURCE = 'https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html';
const COLLECTION_SOURCE = 'https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/LSI.html#LSI.ItemCollections.SizeLimit';

const kb = (bytes: number) => formatBytesIn(bytes, 'KB', 1);
const gb = (bytes: number) => formatBytesIn(bytes, 'GB', 1, BYTES_PER_GB);

/** An entity's estimated item size and the size of its entries in the table's LSIs (those it is in). */
function sizesOf(table: Table, entity: Entity, estimates: SizeEstimates): { item: number; lsiEntries: number } {
  const item = estimates.item(table, entity).value;
  let lsiEntries = 0;
  for (const lsi of table.localSecondaryIndexes) {
    if (isInIndex(table, entity, lsi.name)) lsiEntries += estimates.entry(table, entity, { kind: 'lsi', name: lsi.name }).value;
  }
  return { item, lsiEntries };
}

/**
 * `cost.itemTooLarge` for each entity whose item (with its LSI entries) is over 400 KB, and on a
 * table with an LSI `cost.itemCollectionTooLarge` for each partition-key template whose busiest
 * value holds over 10 GB: the entities keyed on the same template share its collections (a user's
 * profile and orders under USER#{userId}), so their busiest collections are added up. On the size
 * estimates the patterns were costed with (kept between edits by the cost cache).
 */
export function itemLimitWarnings(table: Table, estimates: SizeEstimates = createSizeEstimates()): CostWarning[] {
  const warnings: CostWarning[] = [];
  const hasLsi = table.localSecondaryIndexes.length > 0;
  const refs = entityCountsOf(table);
  const collections = new Map<string, { template: string; parts: { entity: Entity; items: number; stored: number }[] }>();
  for (const entity of table.entities) {
    const { item, lsiEntries } = sizesOf(table, entity, estimates);
    const stored = item + lsiEntries;
    if (stored > MAX_ITEM_BYTES) {
      const what = lsiEntries > 0 ? `${kb(item)} with ${kb(lsiEntries)} of LSI entries, ${kb(stored)} together (the limit counts both)` : kb(item);
      warnings.push({
        code: 'cost.itemTooLarge',
        severity: 'error',
        entityId: entity.id,
        message: `${entity.name} items are estimated at ${what}: over DynamoDB's 400 KB item limit (409,600 bytes, attribute names included), so every write of one fails with a ValidationException. Move large values to S3 and keep a pointer, compress them, or split the item (${ITEM_SIZE_SOURCE}).`,
      });
    }
    if (!hasLsi) continue;
    const keys = distinctKeyValues(entity, [table.partitionKey.name], refs);
    if (!keys) continue;
    const group = collections.get(keys.template) ?? { template: keys.template, parts: [] };
    group.parts.push({ entity, items: Math.max(0, entity.itemCount) * keys.largestItemShare, stored });
    collections.set(keys.template, group);
  }
  for (const { template, parts } of collections.values()) {
    const bytes = parts.reduce((sum, p) => sum + p.items * p.stored, 0);
    if (bytes <= MAX_ITEM_COLLECTION_BYTES) continue;
    const who = parts.length === 1 ? `${parts[0]!.entity.name} alone puts` : `${parts.map((p) => p.entity.name).join(' and ')} together put`;
    const how = parts.map((p) => `${p.entity.name} ${formatNumber(p.items)} item${p.items === 1 ? '' : 's'} × ${formatNumber(p.stored)} B`).join(' + ');
    warnings.push({
      code: 'cost.itemCollectionTooLarge',
      severity: 'error',
      entityId: parts[0]!.entity.id,
      message:
        `Table ${table.name} has an LSI, so everything under one partition-key value (an item collection) may hold at most 10 GB; ` +
        `${who} about ${gb(bytes)} under the busiest ${table.partitionKey.name} = ${template} value ` +
        `(${how}, LSI entries included). Writes past 10 GB fail with ItemCollectionSizeLimitExceededException. ` +
        `Spread the items over more partition-key values, or use a GSI, which has no such limit (${COLLECTION_SOURCE}).`,
    });
  }
  return warnings;
}
