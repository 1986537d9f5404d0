/**
 * Model-aware size estimates: item, index-entry and storage sizes of a design's entities, where no
 * real items exist yet. Sizes come from each attribute's `averageSizeBytes` (or a default per type)
 * and from each key template rendered at those sizes (docs/dynamodb-rules.md §1, §1.4, §3.3).
 *
 * More on its rules: docs/modules.md, "src-shared/capacity/size-estimate.ts".
 */
import {
  evaluateCondition,
  formatCondition,
  parseCondition,
  type ConditionClause,
  type ConditionValue,
  estimateRenderedBytes,
  parseKeyTemplate,
  utf8ByteLength,
  gsiKeySourceOf,
  keySlotsOf,
  conditionValuesOf,
  enumShares,
  idDigits,
  valueModelBasis,
  withValueModel,
  idInitialsOf,
  kindFromName,
  DEFAULT_RENDERED_BYTES,
} from '../model/index.ts';
import type { Attribute, AttributeType, Entity, KeyAttributeType, Projection, Table } from '../model/index.ts';
import { figure, formatNumber, type Figure, type Step } from './figure.ts';
import { AWS_DOCS } from './sources.ts';
import { numberValueBytes, parseDecimal } from './item-size.ts';
import type { IndexRef } from './units.ts';
import { findIndex, type IndexShape } from './index-shape.ts';
import { indexFraction, presenceOf } from './index-fraction.ts';

/**
 * Value bytes assumed for an attribute without `averageSizeBytes`, by type: S 16 (a short id or a
 * date), N 5 (about 8 significant digits: 1 + 8 / 2), B 16, BOOL and NULL 1 (always), a set of two
 * small elements (SS 32, NS 10, BS 32), a small list or map 32. Estimates: set `averageSizeBytes` for
 * real numbers.
 */
export const DEFAULT_VALUE_BYTES: Readonly<Record<AttributeType, number>> = {
  S: 16,
  N: 5,
  B: 16,
  BOOL: 1,
  NULL: 1,
  SS: 32,
  NS: 10,
  BS: 32,
  L: 32,
  M: 32,
};

/**
 * Storage overhead DynamoDB bills per item, and per index entry, for indexing.
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html
 */
export const STORAGE_OVERHEAD_BYTES_PER_ITEM = 100;

const ITEM_SOURCE = AWS_DOCS.itemSizes;
const STORAGE_SOURCE = AWS_DOCS.itemSizes;

export { ESTIMATE_ASSUMPTIONS } from './estimate-assumptions.ts';
import { ESTIMATE_ASSUMPTIONS } from './estimate-assumptions.ts';

const bytesText = (n: number): string => `${formatNumber(n)} B`;
const count = (n: number, one: string, many = `${one}s`): string => `${formatNumber(n)} ${n === 1 ? one : many}`;
const quote = (s: string): string => JSON.stringify(s);

/** One top-level attribute of an estimated item. */
interface Part {
  name: string;
  nameBytes: number;
  valueBytes: number;
  label: string;
  expression: string;
  isKey: boolean;
  usesDefault: boolean;
  /** The `when` of a sparse key. */
  when?: string;
}

function attributeBytes(a: Attribute, entity?: Entity): { bytes: number; usesDefault: boolean; note: string } {
  if (a.type === 'BOOL' || a.type === 'NULL') return { bytes: 1, usesDefault: false, note: `${a.type} is always 1 B` };
  if (a.averageSizeBytes !== undefined) return { bytes: a.averageSizeBytes, usesDefault: false, note: 'average size' };
  // An id or UUID without a stated size is as long as the value model writes it (u-0000001, 36-character UUIDs).
  if (a.type === 'S' && entity) {
    const kind = a.generator?.kind ?? kindFromName(a.name);
    if (kind === 'id') {
      const bytes = utf8ByteLength(a.generator?.prefix ?? `${idInitialsOf(a.name, entity.name)}-`) + idDigits(a, entity.itemCount);
      return { bytes, usesDefault: false, note: 'an id as the sample data writes it' };
    }
    if (kind === 'uuid') return { bytes: 36, usesDefault: false, note: 'a UUID' };
  }
  return { bytes: DEFAULT_VALUE_BYTES[a.type], usesDefault: true, note: `default for ${a.type}` };
}

/**
 * Characters a number takes when rendered into a string key: its digits, sign and point, not its
 * stored size (docs/dynamodb-rules.md §1.2 is the stored size). From the generator's range when it has
 * one (the wider end), else from the stored size (1 + ceil(d / 2) bytes hold about 2 × (bytes − 1)
 * digits), else 8.
 */
export function renderedNumberChars(a: Attribute): number {
  const g = a.generator;
  if (g?.kind === 'number' && g.min !== undefined && g.max !== undefined && Number.isFinite(g.min) && Number.isFinite(g.max)) {
    return Math.max(String(g.min).length, String(g.max).length);
  }
  if (a.averageSizeBytes !== undefined && a.averageSizeBytes > 1) return Math.max(1, 2 * (a.averageSizeBytes - 1));
  return DEFAULT_RENDERED_BYTES.N;
}

/** Rendered sizes, in UTF-8 bytes, of the attributes a string key template can name. */
function renderedSizes(entity: Entity): Record<string, number> {
  const sizes: Record<string, number> = Object.create(null) as Record<string, number>;
  for (const a of entity.attributes) {
    if (a.type === 'N') sizes[a.name] = renderedNumberChars(a);
    else if (a.type === 'S') sizes[a.name] = attributeBytes(a, entity).bytes;
    else if (a.type === 'B' || a.type === 'BOOL') sizes[a.name] = a.averageSizeBytes ?? DEFAULT_RENDERED_BYTES[a.type];
  }
  return sizes;
}

/** Average characters of a shard suffix `.1` … `.N`: the point plus the mean digit count of 1..N. */
export function shardSuffixChars(count: number): number {
  let digits = 0;
  for (let power = 1; power <= count; power *= 10) digits += count - power + 1;
  return 1 + digits / count;
}

function keyValueBytes(type: KeyAttributeType, template: string, entity: Entity, rendered: Record<string, number>): { bytes: number; note: string; usesDefault: boolean } {
  const parsed = parseKeyTemplate(template);
  if (!parsed.ok) return { bytes: utf8ByteLength(template), note: 'the template text (it does not parse)', usesDefault: false };
  const parts = parsed.value.parts;
  const [only] = parts;
  if (type !== 'S' && parts.length === 1 && only) {
    if (only.kind === 'attribute') {
      const a = entity.attributes.find((x) => x.name === only.name);
      if (a) {
        const v = attributeBytes(a, entity);
        return { bytes: v.bytes, note: `the value of ${only.name}`, usesDefault: v.usesDefault };
      }
      return { bytes: DEFAULT_VALUE_BYTES[type], note: `default for ${type}`, usesDefault: true };
    }
    if (type === 'N' && parseDecimal(only.text)) return { bytes: numberValueBytes(only.text), note: `the number ${only.text}`, usesDefault: false };
  }
  const missing = parts.filter((p) => p.kind === 'attribute' && !Object.hasOwn(rendered, p.name)).length;
  return {
    bytes: estimateRenderedBytes(parsed.value, rendered, DEFAULT_RENDERED_BYTES.S),
    note: parts.every((p) => p.kind === 'literal') ? 'constant' : 'rendered at the attributes\u2019 average sizes',
    usesDefault: missing > 0,
  };
}

/** The top-level attributes of an entity's item: its keys (table and index keys it has templates for) and its other attributes. */
function itemParts(table: Table, entity: Entity): Map<string, Part> {
  const parts = new Map<string, Part>();
  const rendered = renderedSizes(entity);
  for (const slot of keySlotsOf(table)) {
    const name = slot.attribute.name;
    if (name === '' || !Object.hasOwn(entity.keys, name)) continue;
    const binding = entity.keys[name];
    if (!binding) continue;
    const nameBytes = utf8ByteLength(name);
    const rawValue = keyValueBytes(slot.attribute.type, binding.template, entity, rendered);
    const shards = binding.shards && binding.shards.count >= 2 ? binding.shards.count : undefined;
    const v =
      shards === undefined
        ? rawValue
        : { ...rawValue, bytes: rawValue.bytes + shardSuffixChars(shards), note: `${rawValue.note}, plus the shard suffix .1…${shards} (${formatNumber(shardSuffixChars(shards), 2)} characters on average)` };
    const sparse = binding.when !== undefined && binding.when.trim() !== '' ? binding.when : undefined;
    parts.set(name, {
      name,
      nameBytes,
      valueBytes: v.bytes,
      label: `Key ${quote(name)} (${slot.attribute.type}) = ${binding.template}` + (sparse ? ` (only when ${sparse})` : ''),
      expression: `name ${bytesText(nameBytes)} + value ${bytesText(v.bytes)} (${v.note})`,
      isKey: true,
      usesDefault: v.usesDefault,
      ...(sparse ? { when: sparse } : {}),
    });
  }
  for (const a of entity.attributes) {
    if (parts.has(a.name)) continue;
    const p = presenceOf(a);
    // An optional attribute adds its bytes to the share of items that carry it: on average, that share of them.
    const nameBytes = utf8ByteLength(a.name) * p;
    const v = attributeBytes(a, entity);
    parts.set(a.name, {
      name: a.name,
      nameBytes,
      valueBytes: v.bytes * p,
      label: `Attribute ${quote(a.name)} (${a.type})${p < 1 ? `, on ${formatNumber(p * 100, 2)} % of items` : ''}`,
      expression:
        p < 1
          ? `${formatNumber(p, 4)} × (name ${bytesText(utf8ByteLength(a.name))} + value ${bytesText(v.bytes)} (${v.note}))`
          : `name ${bytesText(nameBytes)} + value ${bytesText(v.bytes)} (${v.note})`,
      isKey: false,
      usesDefault: v.usesDefault,
    });
  }
  return parts;
}

function partStep(p: Part): Step {
  return { label: p.label, expression: p.expression, value: p.nameBytes + p.valueBytes, unit: 'B', source: ITEM_SOURCE };
}

function partsAssumptions(parts: readonly Part[], entity: Entity): string[] {
  const assumptions: string[] = [ESTIMATE_ASSUMPTIONS.everyAttribute];
  const defaults = parts.filter((p) => p.usesDefault).map((p) => p.name);
  if (defaults.length > 0) {
    const table = Object.entries(DEFAULT_VALUE_BYTES).map(([t, b]) => `${t} ${b} B`).join(', ');
    assumptions.push(`${entity.name}: no average size for ${defaults.join(', ')}; defaults used (${table}).`);
  }
  const shadowed = entity.attributes.filter((a) => parts.some((p) => p.isKey && p.name === a.name)).map((a) => a.name);
  if (shadowed.length > 0) assumptions.push(`${entity.name}: ${shadowed.join(', ')} is both an attribute and a key; counted once, as the key.`);
  for (const p of parts) {
    if (p.when) {
      assumptions.push(
        `${entity.name}: key ${p.name} is counted in full, though only items where ${p.when} carry it; the others are ${bytesText(p.nameBytes + p.valueBytes)} smaller.`,
      );
    }
  }
  return assumptions;
}

/**
 * Estimated size of one of the entity's items, in bytes (docs/dynamodb-rules.md §1.1): Σ over its attributes (name UTF-8
 * bytes + `averageSizeBytes`, or `DEFAULT_VALUE_BYTES` by type) plus each key attribute it carries
 * (name + its template rendered at the attributes' average sizes; an N key: the number's size).
 * Sparse-by-predicate keys are counted in full (module comment).
 */
export function estimateItemBytes(table: Table, entity: Entity): Figure {
  const parts = [...itemParts(table, entity).values()];
  const total = parts.reduce((sum, p) => sum + p.nameBytes + p.valueBytes, 0);
  const steps = parts.map(partStep);
  steps.push({
    label: `Item size of ${entity.name} (estimate)`,
    expression: parts.length === 0 ? 'no attributes' : `Σ over ${count(parts.length, 'attribute')}`,
    value: total,
    unit: 'B',
    source: ITEM_SOURCE,
  });
  return figure(steps, partsAssumptions(parts, entity));
}

function requireIndex(table: Table, index: IndexRef): IndexShape {
  const found = findIndex(table, index.name, index.kind);
  if (!found) throw new Error(`Table ${quote(table.name)} has no ${index.kind.toUpperCase()} named ${quote(index.name)}.`);
  return found;
}

const projectionText = (p: Projection): string => (p.type === 'INCLUDE' ? `INCLUDE ${p.nonKeyAttributes.join(', ')}` : p.type);

/**
 * Estimated size of the entity's entry in an index, in bytes, by projection (docs/dynamodb-rules.md §3.3, docs/dynamodb-rules.md §10.9): KEYS_ONLY
 * = the table's partition and sort key + the index keys; INCLUDE = those + the listed attributes the
 * entity has; ALL = the whole item. Without the 100-byte storage overhead (what reads and writes are
 * charged on; `estimateStorage` adds it). Throws when the table has no such index.
 */
export function estimateIndexEntryBytes(table: Table, entity: Entity, index: IndexRef): Figure {
  const shape = requireIndex(table, index);
  const label = `${shape.kind === 'gsi' ? 'GSI' : 'LSI'} ${quote(shape.name)}`;
  const indexSource = shape.kind === 'gsi' ? AWS_DOCS.gsi : AWS_DOCS.lsi;
  if (shape.projection.type === 'ALL') {
    const item = estimateItemBytes(table, entity);
    return figure(
      [...item.steps, { label: `${label} entry (ALL: the whole item)`, expression: bytesText(item.value), value: item.value, unit: 'B', source: indexSource }],
      item.assumptions,
    );
  }
  const parts = itemParts(table, entity);
  const names = [table.partitionKey.name, ...(table.sortKey ? [table.sortKey.name] : []), ...shape.keyNames];
  if (shape.projection.type === 'INCLUDE') names.push(...shape.projection.nonKeyAttributes);
  const chosen: Part[] = [];
  const absent: string[] = [];
  for (const n of new Set(names)) {
    const p = parts.get(n);
    if (p) chosen.push(p);
    else if (n !== '') absent.push(n);
  }
  const total = chosen.reduce((sum, p) => sum + p.nameBytes + p.valueBytes, 0);
  const steps = chosen.map(partStep);
  steps.push({
    label: `${label} entry (${projectionText(shape.projection)})`,
    expression: `Σ over ${count(chosen.length, 'attribute')}` + (absent.length > 0 ? `; ${entity.name} has no ${absent.join(', ')}` : ''),
    value: total,
    unit: 'B',
    source: indexSource,
  });
  return figure(steps, partsAssumptions(chosen, entity));
}

/**
 * Whether the entity's items can appear in the index: the entity has a template for every key
 * attribute of the index (an LSI: the table's partition key and the LSI sort key), or for a GSI
 * carries the attribute under the key's own name (a natural key). An item without
 * all of them is not in the index (sparse). Unknown index names give false.
 */
export function isInIndex(table: Table, entity: Entity, indexName: string): boolean {
  const shape = findIndex(table, indexName);
  return shape !== undefined && shape.keyNames.every((k) => k !== '' && (Object.hasOwn(entity.keys, k) || (shape.kind === 'gsi' && gsiKeySourceOf(entity, k) !== undefined)));
}

// ---------------------------------------------------------------------------------------------
// Storage

/** Estimated storage of a table: the table's items and each index's entries, 100 B overhead each. */
export interface StorageEstimate {
  /** The table's items: Σ item count × (item size + 100 B). */
  table: Figure;
  /** Each index by name: Σ items in it × (entry size + 100 B). LSIs are billed with the table, at the same rate. */
  indexes: Record<string, Figure>;
  /** Table + indexes, in bytes. */
  total: Figure;
  /** `total.value`. */
  totalBytes: number;
}

/**
 * Estimated storage of a table (docs/dynamodb-rules.md §1.4): each item is billed its size + 100 B, each index entry its
 * projected size + 100 B, for the share of items the index holds (`indexFraction`). C-5. Bytes; turn
 * them into GB with the pricing's `bytesPerGb`.
 */
export function estimateStorage(table: Table): StorageEstimate {
  const assumptions = new Set<string>();
  const tableSteps: Step[] = [];
  let tableBytes = 0;
  for (const e of table.entities) {
    const item = estimateItemBytes(table, e);
    item.assumptions.forEach((a) => assumptions.add(a));
    const bytes = e.itemCount * (item.value + STORAGE_OVERHEAD_BYTES_PER_ITEM);
    tableBytes += bytes;
    tableSteps.push({
      label: `${e.name} items`,
      expression: `${count(e.itemCount, 'item')} × (${bytesText(item.value)} + 100 B)`,
      value: bytes,
      unit: 'B',
      source: STORAGE_SOURCE,
    });
  }
  tableSteps.push({ label: `Table ${quote(table.name)}`, expression: table.entities.length === 0 ? 'no entities' : `Σ over ${count(table.entities.length, 'entity', 'entities')}`, value: tableBytes, unit: 'B', source: STORAGE_SOURCE });
  const tableFigure = figure(tableSteps, [...assumptions]);

  const indexes: Record<string, Figure> = {};
  const refs: IndexRef[] = [
    ...table.globalSecondaryIndexes.map((g) => ({ kind: 'gsi' as const, name: g.name })),
    ...table.localSecondaryIndexes.map((l) => ({ kind: 'lsi' as const, name: l.name })),
  ];
  let indexBytes = 0;
  for (const ref of refs) {
    const steps: Step[] = [];
    const indexAssumptions = new Set<string>();
    let bytes = 0;
    for (const e of table.entities) {
      const fraction = indexFraction(table, e, ref.name);
      if (fraction.value === 0) continue;
      const entry = estimateIndexEntryBytes(table, e, ref);
      [...fraction.assumptions, ...entry.assumptions].forEach((a) => indexAssumptions.add(a));
      const items = e.itemCount * fraction.value;
      const b = items * (entry.value + STORAGE_OVERHEAD_BYTES_PER_ITEM);
      bytes += b;
      steps.push({
        label: `${e.name} entries`,
        expression: `${count(e.itemCount, 'item')}${fraction.value === 1 ? '' : ` × ${formatNumber(fraction.value, 4)} in the index`} × (${bytesText(entry.value)} + 100 B)`,
        value: b,
        unit: 'B',
        source: STORAGE_SOURCE,
      });
    }
    steps.push({ label: `${ref.kind === 'gsi' ? 'GSI' : 'LSI'} ${quote(ref.name)}`, expression: steps.length === 0 ? 'no entity is in this index' : `Σ over ${count(steps.length, 'entity', 'entities')}`, value: bytes, unit: 'B', source: STORAGE_SOURCE });
    indexes[ref.name] = figure(steps, [...indexAssumptions]);
    indexBytes += bytes;
  }
  const totalSteps: Step[] = [
    { label: 'Table', expression: bytesText(tableBytes), value: tableBytes, unit: 'B' },
    ...refs.map((r): Step => ({ label: `${r.kind === 'gsi' ? 'GSI' : 'LSI'} ${quote(r.name)}`, expression: bytesText(indexes[r.name]?.value ?? 0), value: indexes[r.name]?.value ?? 0, unit: 'B' })),
  ];
  if (refs.length > 0) totalSteps.push({ label: 'Storage in all', expression: 'table + indexes', value: tableBytes + indexBytes, unit: 'B', source: STORAGE_SOURCE });
  const total = figure(totalSteps, [...assumptions]);
  return { table: tableFigure, indexes, total, totalBytes: total.value };
}
