/**
 * Key previews from the sample data itself: the first items of an entity exactly as the Data screen
 * generates them for a seed (same columns, same streams, references into the same generated items),
 * so a preview never shows a value the sample data does not hold, and the keys its templates render
 * for them (`USER#u-000001` beside `USER#{userId}`, while the user types). Cheap: only the entity's
 * first rows are generated; a referenced entity's column is built for its full generated count,
 * which for ids costs nothing (their values follow from the row number).
 */
import {
  conditionAttributes,
  evaluateCondition,
  parseCondition,
  type Condition,
  parseKeyTemplate,
  renderKeyTemplate,
  clipText,
  quoteClipped,
  withValueModel,
  withEntityValueModel,
} from '../model/index.ts';
import type { Problem, Attribute, Entity, KeyBinding, Table } from '../model/index.ts';
import { sampleContext } from './column.ts';
import { columnBuilder, DEFAULT_MAX_ITEMS, sampleCounts, type ColumnOwner } from './generate.ts';
import { createRankColumn } from './columns.ts';
import type { SampleItem } from './types.ts';

/** Rows searched for an item that satisfies a sparse key's condition, when the first ones do not. */
export const PREVIEW_SEARCH_ROWS = 500;

export interface PreviewItem {
  /** The item's row in the entity's sample (0-based): the Data screen's item of that entity. */
  row: number;
  values: SampleItem;
}

/** One sample's key: its rendered value, or why it has none. */
export type KeyPreview =
  | { kind: 'value'; value: string; deciding?: string }
  /** The `when` condition is false for this sample, so the item is not in the index (sparse). */
  | { kind: 'excluded'; deciding: string }
  | { kind: 'problem'; problem: Problem };

/** Sets an item's value as an own property, even for a name like `__proto__` (an imported model can hold one). */
function setValue(values: SampleItem, name: string, v: unknown): void {
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') Object.defineProperty(values, name, { value: v, enumerable: true, writable: true, configurable: true });
}

/** Item `row` of `owners[index]`'s entity as plain values, from its scalar attributes' columns. */
function rowReader(owners: readonly ColumnOwner[], index: number, seed: number): (row: number) => PreviewItem {
  const columnOf = columnBuilder(owners, sampleContext(seed));
  const owner = owners[index]!;
  const columns = owner.entity.attributes
    .filter((a) => a.name !== '' && (a.type === 'S' || a.type === 'N' || a.type === 'B' || a.type === 'BOOL'))
    .map((a) => columnOf(owner, a));
  return (row) => {
    const values: SampleItem = {};
    for (const c of columns) if (c.isPresent(row)) setValue(values, c.name, c.value(row));
    return { row, values };
  };
}

/**
 * The first `count` items of `entityId` in the table's sample for `seed`, plus, for each sparse key's
 * `when` condition none of them meets, the first item (within `PREVIEW_SEARCH_ROWS`) that meets it, so
 * the preview shows the index with an item in it (unless `findInIndexes` is false: exactly the first
 * items). Attributes an item does not carry are left out. When the sample holds fewer than `count`
 * items of the entity (it has none, or a large design's sample scales it down), the rest are
 * generated past them the same way: row r is the same item however many rows are generated.
 */
export function previewItems(designTable: Table, entityId: string, count = 3, seed = 1, findInIndexes = true): PreviewItem[] {
  const table = withValueModel(designTable);
  const index = table.entities.findIndex((e) => e.id === entityId);
  const entity = table.entities[index];
  if (!entity || !(count >= 1)) return [];
  const { counts } = sampleCounts(table, DEFAULT_MAX_ITEMS);
  const rows = Math.max(count, Math.min(counts[index] ?? 0, findInIndexes ? PREVIEW_SEARCH_ROWS : count));
  const itemAt = rowReader(
    table.entities.map((e, i) => ({ entity: e, rows: i === index ? rows : (counts[i] ?? 0) })),
    index,
    seed,
  );
  const picked = Array.from({ length: count }, (_, r) => itemAt(r));
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

function conditionOf(binding: KeyBinding | undefined): Condition | undefined {
  if (typeof binding?.when !== 'string' || binding.when.trim() === '') return undefined;
  const parsed = parseCondition(binding.when);
  return parsed.ok ? parsed.value : undefined;
}

function conditionsOf(entity: Entity): Condition[] {
  return Object.values(entity.keys ?? {})
    .map(conditionOf)
    .filter((c): c is Condition => c !== undefined);
}

/** A value that makes one clause true, where there is an obvious one. */
function satisfyingValue(condition: Condition, attribute: string): unknown {
  for (const clause of condition.clauses) {
    if (clause.attribute !== attribute) continue;
    if (clause.kind === 'in') return clause.values[0];
    if (clause.kind === 'compare' && clause.operator === '=') return clause.value;
  }
  return undefined;
}

/**
 * Every other item (the 1st, 3rd, …) made to satisfy the entity's `when` conditions, so that a
 * sparse index shows items both in and out of it.
 */
function satisfyingEveryOther(entity: Entity, items: SampleItem[]): SampleItem[] {
  const conditions = conditionsOf(entity);
  return items.map((item, i) => {
    if (i % 2 !== 0 || conditions.length === 0) return item;
    const forced: Record<string, unknown> = { ...item };
    for (const condition of conditions) {
      for (const attribute of conditionAttributes(condition)) {
        const value = satisfyingValue(condition, attribute);
        if (value !== undefined) forced[attribute] = value;
      }
    }
    return forced as SampleItem;
  });
}

/**
 * Whether sample `i` carries an optional attribute: a low-discrepancy sequence, so that the first
 * samples already follow its presence share (sample 0 always carries it).
 */
function isPresentInSample(attribute: Attribute, i: number): boolean {
  const p = attribute.presence;
  if (p === undefined || !(p < 1)) return true;
  return (i * 0.6180339887498949) % 1 < p;
}

/**
 * `count` items of an entity on its own (no table, so no references resolved): item i holds rank i
 * of every scalar attribute it carries, as the sample data draws it (`createRankColumn`).
 */
function rankItems(entity: Entity, count: number): SampleItem[] {
  const modeled = withEntityValueModel(entity);
  const ctx = sampleContext(1);
  const columns = modeled.attributes
    .filter((a) => a.name !== '' && (a.type === 'S' || a.type === 'N' || a.type === 'B' || a.type === 'BOOL'))
    .map((a) => ({ attribute: a, column: createRankColumn(modeled, a, count, ctx, () => undefined) }));
  const items: SampleItem[] = [];
  for (let i = 0; i < count; i += 1) {
    const item: SampleItem = {};
    for (const { attribute, column } of columns) if (isPresentInSample(attribute, i)) setValue(item, attribute.name, column.value(i));
    items.push(item);
  }
  return items;
}

/**
 * Sample items of an entity on its own, for a preview without its table (the OneTable export's saved
 * queries; the entities screen when the table's sample has none): its first `count` samples, every
 * other one (the 1st, 3rd, …) made to satisfy the entity's `when` conditions, so that a sparse index
 * shows items both in and out of it and the partition key and sort key of one row describe the same
 * item.
 */
export function previewSamples(entity: Entity, count = 3): SampleItem[] {
  return satisfyingEveryOther(entity, rankItems(entity, Math.max(0, Math.floor(count))));
}

/** `status = "OPEN", priority = 2`: the values a condition decided on, each name and value at most 80 characters. */
function describeDeciding(condition: Condition, item: Readonly<Record<string, unknown>>): string {
  return conditionAttributes(condition)
    .map((a) => {
      const v = item[a];
      return `${clipText(a)} = ${v === undefined ? '(absent)' : typeof v === 'string' ? quoteClipped(v) : JSON.stringify(v)}`;
    })
    .join(', ');
}

/**
 * Renders `binding` for each sample item. Returns an empty list when there is no binding, or when
 * the template or condition does not parse (validation reports those). A sample without one of the
 * `optional` attributes the template names has no key: excluded, like a false condition.
 */
export function previewKey(binding: KeyBinding | undefined, samples: readonly SampleItem[], optional: ReadonlySet<string> = new Set()): KeyPreview[] {
  if (!binding) return [];
  const template = parseKeyTemplate(binding.template);
  if (!template.ok) return [];
  const condition = conditionOf(binding);
  if (binding.when?.trim() && !condition) return [];
  return samples.map((item): KeyPreview => {
    const deciding = condition ? describeDeciding(condition, item) : undefined;
    if (condition && !evaluateCondition(condition, item)) return { kind: 'excluded', deciding: deciding! };
    const absent = template.value.parts.find((p) => p.kind === 'attribute' && optional.has(p.name) && !Object.hasOwn(item, p.name));
    // An optional attribute the item does not carry: no key, so the item is not in that index (sparse).
    if (absent?.kind === 'attribute') return { kind: 'excluded', deciding: `${absent.name} (absent)` };
    const rendered = renderKeyTemplate(template.value, item);
    if (!rendered.ok) return { kind: 'problem', problem: rendered.errors[0]! };
    return deciding === undefined ? { kind: 'value', value: rendered.value } : { kind: 'value', value: rendered.value, deciding };
  });
}
