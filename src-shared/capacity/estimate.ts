/**
 * Model-aware size estimates: item, index-entry and storage sizes of a design's entities, where no
 * real items exist yet. Sizes come from each attribute's `averageSizeBytes` (or a default per type)
 * and from each key template rendered at those sizes (docs/dynamodb-rules.md §1, §1.4, §3.3).
 *
 * Modeling choices, stated once here and as assumptions on the figures:
 * - every attribute of an entity is present on every item, at its average size;
 * - an attribute named like a key attribute the entity carries is counted once, as the key;
 * - a key bound with a `when` condition (sparse by predicate) is counted in full: the size is that of
 *   an item that carries it, which is what index reads and writes are charged on;
 * - the share of an entity's items in an index comes from the `when` condition and the attribute's
 *   value distribution (`indexFraction`).
 */
import { evaluateCondition, formatCondition, parseCondition, type ConditionClause, type ConditionValue } from '../model/condition.ts';
import { estimateRenderedBytes, parseKeyTemplate, utf8ByteLength } from '../model/key-template.ts';
import { keySlotsOf } from '../model/key-slots.ts';
import { conditionValuesOf, enumShares, idDigits, valueModelBasis, withValueModel } from '../model/value-model.ts';
import { idInitialsOf, kindFromName } from '../model/value-heuristics.ts';
import type { Attribute, AttributeType, Entity, KeyAttributeType, Projection, Table } from '../model/schema.ts';
import { DEFAULT_RENDERED_BYTES } from '../model/validate.ts';
import { figure, formatNumber, type Figure, type Step } from './figure.ts';
import { AWS_DOCS } from './sources.ts';
import { numberValueBytes, parseDecimal } from './item-size.ts';
import type { IndexRef } from './units.ts';

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

/** Assumption texts of the estimates. */
export const ESTIMATE_ASSUMPTIONS = {
  everyAttribute: 'Every attribute of the entity is present on every item, at its average size.',
  conditionIndependence: 'Clauses of a "when" condition are taken as independent: their shares multiply.',
  exists: 'attribute_exists holds for every item, since every attribute is taken to be present (attribute_not_exists for none).',
} as const;

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

/** An index of the table by kind and name, with its key attribute names (base keys included for an LSI). */
interface IndexShape {
  kind: 'gsi' | 'lsi';
  name: string;
  keyNames: string[];
  projection: Projection;
}

function findIndex(table: Table, name: string, kind?: 'gsi' | 'lsi'): IndexShape | undefined {
  if (kind !== 'lsi') {
    const g = table.globalSecondaryIndexes.find((x) => x.name === name);
    if (g) return { kind: 'gsi', name, keyNames: [g.partitionKey.name, ...(g.sortKey ? [g.sortKey.name] : [])], projection: g.projection };
  }
  if (kind !== 'gsi') {
    const l = table.localSecondaryIndexes.find((x) => x.name === name);
    if (l) return { kind: 'lsi', name, keyNames: [table.partitionKey.name, l.sortKey.name], projection: l.projection };
  }
  return undefined;
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
 * attribute of the index (an LSI: the table's partition key and the LSI sort key). An item without
 * all of them is not in the index (sparse). Unknown index names give false.
 */
export function isInIndex(table: Table, entity: Entity, indexName: string): boolean {
  const shape = findIndex(table, indexName);
  return shape !== undefined && shape.keyNames.every((k) => k !== '' && Object.hasOwn(entity.keys, k));
}

// ---------------------------------------------------------------------------------------------
// Index fraction

/** The share of items that carry an attribute: its `presence` (optional attributes), else every item. */
export function presenceOf(a: Attribute | undefined): number {
  const p = a?.presence;
  return p !== undefined && Number.isFinite(p) && p >= 0 && p < 1 ? p : 1;
}

/** The share of items holding each value, when the attribute's distribution is known. */
function valueShares(a: Attribute): Array<{ value: ConditionValue; share: number }> | undefined {
  const shares = enumShares(a);
  if (shares) return shares.values.map((value, i) => ({ value, share: shares.shares[i] ?? 0 }));
  if (a.type === 'BOOL') return [{ value: true, share: 0.5 }, { value: false, share: 0.5 }];
  return undefined;
}

interface ClauseShare {
  share: number;
  expression: string;
  assumption?: string;
}

function clauseShare(clause: ConditionClause, a: Attribute | undefined, entity: Entity): ClauseShare {
  const text = formatCondition([clause]);
  if (!a) {
    // A missing attribute fails every comparison except <> and attribute_not_exists.
    const holds = evaluateCondition({ source: text, clauses: [clause] }, {});
    return { share: holds ? 1 : 0, expression: `${entity.name} has no attribute ${clause.attribute}` };
  }
  if (clause.kind === 'exists' || clause.kind === 'notExists') {
    return { share: clause.kind === 'exists' ? 1 : 0, expression: 'every attribute is on every item', assumption: ESTIMATE_ASSUMPTIONS.exists };
  }
  const shares = valueShares(a);
  if (shares) {
    const share = Math.min(1, shares.filter((s) => evaluateCondition({ source: text, clauses: [clause] }, { [a.name]: s.value })).reduce((sum, s) => sum + s.share, 0));
    const source = a.generator?.kind === 'enum' ? `the value weights of ${a.name}` : `${a.name} is true or false`;
    return { share, expression: `Σ shares of the values that match (${source})` };
  }
  const distinct = (values: ConditionValue[]): number => new Set(values.map((v) => `${typeof v}:${String(v)}`)).size;
  if (a.cardinality !== undefined && (clause.kind === 'in' || (clause.kind === 'compare' && (clause.operator === '=' || clause.operator === '<>')))) {
    const c = a.cardinality;
    const matching = clause.kind === 'in' ? distinct(clause.values) : 1;
    const equal = Math.min(1, matching / c);
    if (clause.kind === 'compare' && clause.operator === '<>') return { share: 1 - equal, expression: `1 − 1 / ${formatNumber(c)} distinct values` };
    return { share: equal, expression: `${formatNumber(matching)} / ${formatNumber(c)} distinct values` };
  }
  if (clause.kind === 'compare' && clause.operator !== '=' && clause.operator !== '<>' && typeof clause.value === 'number' && a.generator?.kind === 'number') {
    const { min, max } = a.generator;
    if (min !== undefined && max !== undefined && max > min) {
      const below = Math.min(1, Math.max(0, (clause.value - min) / (max - min)));
      const share = clause.operator === '<' || clause.operator === '<=' ? below : 1 - below;
      return { share, expression: `values spread evenly over ${formatNumber(min)}..${formatNumber(max)}` };
    }
  }
  if (clause.kind === 'compare' && clause.operator !== '=' && clause.operator !== '<>') {
    return { share: 0.5, expression: 'half, for want of a distribution', assumption: `${entity.name}.${a.name}: no value distribution for ${quote(text)}; half the items are taken to match.` };
  }
  return {
    share: 1,
    expression: 'every item, for want of a cardinality',
    assumption: `${entity.name}.${a.name} has no cardinality or enum values, so ${quote(text)} is taken to hold for every item (an upper bound); set its cardinality for a better estimate.`,
  };
}

/**
 * The share of the entity's items that are in the index, from 0 to 1: 0 when the entity lacks a
 * key template of the index, 1 when its keys have no `when` condition, else estimated from the
 * conditions' clauses (taken as independent, multiplied): `=` takes the value's weight when the
 * attribute has enum values (weights, or equal shares), else 1 / cardinality; `IN` the sum over its
 * values (e.g. 2 of cardinality 5 → 2 / 5); `<>` the complement; `<`, `>` … the matching enum
 * values, or the part of a number generator's min..max range, else 1 / 2; `attribute_exists` 1. With
 * no cardinality an equality counts every item (an upper bound, flagged). Unit: ratio.
 */
export function indexFraction(designTable: Table, designEntity: Entity, indexName: string): Figure {
  const table = withValueModel(designTable);
  const entity = table.entities.find((e) => e.id === designEntity.id) ?? designEntity;
  const shape = findIndex(table, indexName);
  const label = shape ? `${shape.kind === 'gsi' ? 'GSI' : 'LSI'} ${quote(indexName)}` : `Index ${quote(indexName)}`;
  if (!shape) {
    return figure([{ label: `${label}: no such index on table ${quote(table.name)}`, expression: '0', value: 0, unit: 'ratio' }]);
  }
  const missing = shape.keyNames.filter((k) => !Object.hasOwn(entity.keys, k));
  if (missing.length > 0) {
    return figure([
      {
        label: `${entity.name} is not in ${label}`,
        expression: `no template for ${missing.join(', ')}: an item is in an index only with all of its key attributes`,
        value: 0,
        unit: 'ratio',
        source: AWS_DOCS.sparseIndexes,
      },
    ]);
  }
  const clauses: ConditionClause[] = [];
  const seen = new Set<string>();
  const assumptions: string[] = [];
  for (const k of new Set(shape.keyNames)) {
    const when = entity.keys[k]?.when;
    if (when === undefined || when.trim() === '') continue;
    const parsed = parseCondition(when);
    if (!parsed.ok) {
      assumptions.push(`${entity.name}: the condition of key ${k} does not parse (${quote(when)}); it is ignored.`);
      continue;
    }
    for (const c of parsed.value.clauses) {
      const text = formatCondition([c]);
      if (!seen.has(text)) {
        seen.add(text);
        clauses.push(c);
      }
    }
  }
  // Optional attributes the index's key templates are built from: an item without one has no key there.
  const optional = new Map<string, number>();
  for (const k of new Set(shape.keyNames)) {
    const parsed = parseKeyTemplate(entity.keys[k]?.template ?? '');
    if (!parsed.ok) continue;
    for (const part of parsed.value.parts) {
      if (part.kind !== 'attribute') continue;
      const p = presenceOf(entity.attributes.find((x) => x.name === part.name));
      if (p < 1) optional.set(part.name, p);
    }
  }
  if (clauses.length === 0 && optional.size === 0) {
    return figure(
      [{ label: `Every ${entity.name} item is in ${label}`, expression: 'its key templates have no "when" condition', value: 1, unit: 'ratio', source: AWS_DOCS.sparseIndexes }],
      assumptions,
    );
  }
  const steps: Step[] = [];
  let share = 1;
  for (const [name, p] of optional) {
    share *= p;
    steps.push({ label: `Items that carry ${name} (optional: the key needs it)`, expression: `${formatNumber(p * 100, 2)} % carry it`, value: p, unit: 'ratio', source: AWS_DOCS.sparseIndexes });
  }
  const conditionValues = conditionValuesOf(designTable, designEntity);
  for (const c of clauses) {
    const a = entity.attributes.find((x) => x.name === c.attribute);
    const declared = designEntity.attributes.find((x) => x.name === c.attribute);
    if (declared && !declared.generator && a?.generator) {
      const note = `${entity.name}.${declared.name} has ${valueModelBasis(declared, conditionValues.get(declared.name))}; set its values and weights in the Entities screen.`;
      if (!assumptions.includes(note)) assumptions.push(note);
    }
    const given = clauseShare(c, a, entity);
    // On an optional attribute not already counted through the key: the items without it decide too.
    const p = optional.has(c.attribute) ? 1 : presenceOf(a);
    const onMissing = evaluateCondition({ source: '', clauses: [c] }, {}) ? 1 : 0;
    const s = p < 1 ? { ...given, share: p * given.share + (1 - p) * onMissing, expression: `${formatNumber(p * 100, 2)} % carry ${c.attribute}, of which ${given.expression}` } : given;
    share *= s.share;
    steps.push({ label: `Items where ${formatCondition([c])}`, expression: s.expression, value: s.share, unit: 'ratio' });
    if (s.assumption && !assumptions.includes(s.assumption)) assumptions.push(s.assumption);
  }
  if (steps.length > 1) {
    assumptions.push(ESTIMATE_ASSUMPTIONS.conditionIndependence);
    steps.push({ label: `Share of ${entity.name} items in ${label}`, expression: steps.map((s) => formatNumber(s.value, 4)).join(' × '), value: share, unit: 'ratio' });
  } else {
    const only = steps[0] as Step;
    steps[0] = { ...only, label: `Share of ${entity.name} items in ${label}: ${only.label.toLowerCase()}` };
  }
  return figure(steps, assumptions);
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
