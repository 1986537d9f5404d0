/**
 * Deterministic sample items of a design's entities, in DynamoDB JSON: what the NoSQL Workbench export
 * writes as TableData. Values are the sample data's own first items of each entity (`previewItems`:
 * the Data screen's items for seed 1, from the one value model), every other item made to satisfy the
 * entity's `when` conditions as well, so each sparse index has items; a reference holds a generated
 * item's id, which need not be among the exported ones. Internal to `formats`.
 */
import type { AttributeValue, Item } from '../../capacity/index.ts';
import {
  conditionAttributes,
  evaluateCondition,
  parseCondition,
  type Condition,
  bindingOf,
  gsiKeySourceOf,
  keySlotsOf,
  parseKeyTemplate,
  renderKeyTemplate,
  withValueModel,
} from '../../model/index.ts';
import { previewItems } from '../../sample/index.ts';
import type { SampleItem, SampleValue } from '../../sample/index.ts';
import type { Attribute, Entity, Table } from '../../model/index.ts';
import { base64Encode, encodeValue, setOwn } from '../common/values.ts';

/** A key part that reads back as literal text when it is the same in every item (the import, `infer-entities.ts`, reads by the same rule). */
export const WORD = /^[A-Za-z][A-Za-z_]*$/;

/** A value that makes one clause of a condition true, where there is an obvious one (as the key previews force it). */
function satisfyingValue(condition: Condition, attribute: string): unknown {
  for (const clause of condition.clauses) {
    if (clause.attribute !== attribute) continue;
    if (clause.kind === 'in') return clause.values[0];
    if (clause.kind === 'compare' && clause.operator === '=') return clause.value;
  }
  return undefined;
}

/** A sample item of an entity: the sample data's own (`generated`); on even items, what the conditions test set to satisfy them. */
function sampleAt(entity: Entity, isEven: boolean, conditions: readonly Condition[], generated: SampleItem): Record<string, unknown> {
  const item: Record<string, unknown> = {};
  for (const a of entity.attributes) {
    // An optional attribute the item does not carry stays out.
    if (a.name !== '' && Object.hasOwn(generated, a.name)) setOwn(item, a.name, generated[a.name]);
  }
  if (!isEven) return item;
  for (const condition of conditions) {
    for (const attribute of conditionAttributes(condition)) {
      const value = satisfyingValue(condition, attribute);
      if (value !== undefined) setOwn(item, attribute, value);
    }
  }
  return item;
}

/** A placeholder value for the types a key preview has no sample of. */
function containerSample(attribute: Attribute, i: number): AttributeValue {
  switch (attribute.type) {
    case 'M':
      return { M: {} };
    case 'L':
      return { L: [] };
    case 'SS':
      return { SS: [`${attribute.name}-${i + 1}`] };
    case 'NS':
      return { NS: [String(i + 1)] };
    case 'BS':
      return { BS: [base64Encode(new Uint8Array([i & 0xff]))] };
    default:
      return { NULL: true };
  }
}

/**
 * Sample item `i` of an entity as plain values: `base` (the key previews' samples, which satisfy the
 * entity's `when` conditions every other item), BOOL values alternating per attribute. With
 * `placeholders` (the attributes the key templates name), those are adjusted so that the key values
 * read back into the same templates: they hold no `#`, are never a bare word (which would read as
 * literal text), and no other attribute of the item has the same value (which would make the
 * placeholder ambiguous); attributes a `when` condition tests (`tested`) keep their value, so that
 * sparse indexes still get items.
 */
function sampleRowValues(
  entity: Entity,
  i: number,
  base: Readonly<Record<string, unknown>>,
  placeholders: ReadonlySet<string> | undefined,
  tested: ReadonlySet<string>,
): Map<string, SampleValue> {
  const values = new Map<string, SampleValue>();
  entity.attributes.forEach((a, k) => {
    const raw = Object.hasOwn(base, a.name) ? base[a.name] : undefined;
    if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean') return;
    values.set(a.name, a.type === 'BOOL' && !tested.has(a.name) ? (i + k) % 2 === 0 : raw);
  });
  if (!placeholders) return values;
  const others = (name: string): Set<string> => new Set([...values].filter(([n]) => n !== name).map(([, v]) => String(v)));
  for (const a of entity.attributes) {
    const v = values.get(a.name);
    if (v === undefined || !placeholders.has(a.name) || tested.has(a.name)) continue;
    const taken = others(a.name);
    if (a.type === 'S') {
      const clean = String(v).replace(/#/g, '-');
      let s = clean === '' || WORD.test(clean) ? `${clean || a.name}-${i + 1}` : clean;
      for (let n = 2; taken.has(s); n += 1) s = `${clean}-${i + 1}-${n}`;
      values.set(a.name, s);
    } else if (a.type === 'N' && typeof v === 'number') {
      let n = v;
      for (let step = 1; taken.has(String(n)); step += 1) n = v + 1000 * step;
      values.set(a.name, n);
    }
  }
  return values;
}

/**
 * `count` sample items of an entity in DynamoDB JSON: its key values rendered from its templates (a
 * GSI's keys only where the key's `when` condition holds), then its other attributes, typed as the
 * design declares them. With `isReadBack`, the values of the attributes the templates name are made
 * unambiguous (see `sampleRowValues`), for a format whose key templates are inferred again from the
 * items (NoSQL Workbench). Deterministic: item i of an entity is always the same.
 */
export function sampleItemsOf(designTable: Table, designEntity: Entity, count: number, isReadBack = false): Item[] {
  const table = withValueModel(designTable);
  const entity = table.entities.find((e) => e.id === designEntity.id) ?? designEntity;
  const keyNames = new Set(keySlotsOf(table).map((s) => s.attribute.name));
  const slots = keySlotsOf(table);
  const templates = new Map<string, { parts: ReturnType<typeof parseKeyTemplate>; when?: ReturnType<typeof parseCondition> }>();
  const naturalOnly = new Set<string>();
  for (const slot of slots) {
    // A GSI key attribute the entity carries without a template is a natural key (`{region}`): its
    // items hold the attribute itself, as a multi-attribute key reads it.
    const binding = bindingOf(entity, slot.attribute.name);
    const natural = !binding && slot.uses.some((u) => u.kind === 'gsi') ? gsiKeySourceOf(entity, slot.attribute.name) : undefined;
    if (binding) templates.set(slot.attribute.name, { parts: parseKeyTemplate(binding.template), ...(binding.when?.trim() ? { when: parseCondition(binding.when) } : {}) });
    else if (natural) {
      templates.set(slot.attribute.name, { parts: parseKeyTemplate(natural.template) });
      // Only a one-attribute GSI key is in a Workbench model (and read back); a multi-attribute one's values stay as generated.
      if (!slot.uses.some((u) => u.kind === 'gsi' && u.position === undefined)) naturalOnly.add(slot.attribute.name);
    }
  }
  const types = new Map(entity.attributes.map((a) => [a.name, a]));
  const tested = new Set<string>();
  for (const t of templates.values()) if (t.when?.ok) for (const name of conditionAttributes(t.when.value)) tested.add(name);
  const placeholders = new Set<string>();
  for (const [name, t] of templates) if (t.parts.ok && !naturalOnly.has(name)) for (const p of t.parts.value.parts) if (p.kind === 'attribute') placeholders.add(p.name);
  const conditions = [...templates.values()].flatMap((t) => (t.when?.ok ? [t.when.value] : []));
  const generated = previewItems(table, entity.id, count, 1, false);
  const rows: Item[] = [];
  for (let i = 0; i < count; i += 1) {
    const values = sampleRowValues(entity, i, sampleAt(entity, i % 2 === 0, conditions, generated[i]?.values ?? {}), isReadBack ? placeholders : undefined, tested);
    const plain = Object.fromEntries(values) as Record<string, SampleValue>;
    const item: Item = {};
    for (const slot of slots) {
      const t = templates.get(slot.attribute.name);
      if (!t || !t.parts.ok) continue;
      if (t.when && (!t.when.ok || !evaluateCondition(t.when.value, plain))) continue;
      const rendered = renderKeyTemplate(t.parts.value, plain);
      if (!rendered.ok) continue;
      const encoded = encodeValue(rendered.value, slot.attribute.type);
      if (encoded) setOwn(item, slot.attribute.name, encoded);
    }
    for (const a of entity.attributes) {
      if (keyNames.has(a.name)) continue;
      const v = values.get(a.name);
      const encoded = v === undefined ? containerSample(types.get(a.name)!, i) : encodeValue(v, a.type);
      if (encoded) setOwn(item, a.name, encoded);
    }
    rows.push(item);
  }
  return rows;
}

