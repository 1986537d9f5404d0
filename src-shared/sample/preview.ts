/**
 * Key previews from the sample data itself: the first items of an entity exactly as the Data screen
 * generates them for a seed (same columns, same streams, references into the same generated items),
 * so a preview never shows a value the sample data does not hold. Cheap: only the entity's first rows
 * are generated; a referenced entity's column is built for its full generated count, which for ids
 * costs nothing (their values follow from the row number).
 */
import { parseCondition, evaluateCondition, type Condition } from '../model/condition.ts';
import type { SampleItem } from '../model/sample-values.ts';
import type { Entity, Table } from '../model/schema.ts';
import { withValueModel } from '../model/value-model.ts';
import { columnBuilder, DEFAULT_MAX_ITEMS, sampleContext, sampleCounts } from './store.ts';

/** Rows searched for an item that satisfies a sparse key's condition, when the first ones do not. */
export const PREVIEW_SEARCH_ROWS = 500;

export interface PreviewItem {
  /** The item's row in the entity's sample (0-based): the Data screen's item of that entity. */
  row: number;
  values: SampleItem;
}

/**
 * The first `count` items of `entityId` in the table's sample for `seed`, plus, for each sparse key's
 * `when` condition none of them meets, the first item (within `PREVIEW_SEARCH_ROWS`) that meets it, so
 * the preview shows the index with an item in it (unless `findInIndexes` is false: exactly the first
 * items). Attributes an item does not carry are left out.
 */
export function previewItems(designTable: Table, entityId: string, count = 3, seed = 1, findInIndexes = true): PreviewItem[] {
  const table = withValueModel(designTable);
  const index = table.entities.findIndex((e) => e.id === entityId);
  const entity = table.entities[index];
  if (!entity) return [];
  const { counts } = sampleCounts(table, DEFAULT_MAX_ITEMS);
  const generated = counts[index] ?? 0;
  const rows = Math.min(generated, findInIndexes ? Math.max(count, PREVIEW_SEARCH_ROWS) : count);
  if (rows === 0) return [];
  const owners = table.entities.map((e, i) => ({ entity: e, rows: i === index ? rows : (counts[i] ?? 0) }));
  const columnOf = columnBuilder(owners, sampleContext(seed));
  const owner = owners[index]!;
  const columns = entity.attributes
    .filter((a) => a.name !== '' && (a.type === 'S' || a.type === 'N' || a.type === 'B' || a.type === 'BOOL'))
    .map((a) => columnOf(owner, a));
  const itemAt = (row: number): PreviewItem => {
    const values: SampleItem = {};
    for (const c of columns) {
      if (!c.isPresent(row)) continue;
      const v = c.value(row);
      // An own property even for a name like `__proto__` (an imported model can hold one).
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') Object.defineProperty(values, c.name, { value: v, enumerable: true, writable: true, configurable: true });
    }
    return { row, values };
  };
  const picked = Array.from({ length: Math.min(count, rows) }, (_, r) => itemAt(r));
  for (const condition of findInIndexes ? conditionsOf(entity) : []) {
    if (picked.some((p) => evaluateCondition(condition, p.values))) continue;
    for (let r = picked.length; r < rows; r += 1) {
      const item = itemAt(r);
      if (!evaluateCondition(condition, item.values)) continue;
      if (!picked.some((p) => p.row === r)) picked.push(item);
      break;
    }
  }
  return picked;
}

function conditionsOf(entity: Entity): Condition[] {
  const out: Condition[] = [];
  for (const binding of Object.values(entity.keys ?? {})) {
    if (typeof binding?.when !== 'string' || binding.when.trim() === '') continue;
    const parsed = parseCondition(binding.when);
    if (parsed.ok) out.push(parsed.value);
  }
  return out;
}
