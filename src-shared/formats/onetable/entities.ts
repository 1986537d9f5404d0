/**
 * OneTable import, step two: each model as an entity. A key field's value template becomes the
 * entity's key template (`user#${email}` → `user#{email}`), every other field an attribute with its
 * type, generator and presence; the type field and the timestamps are added. See `import.ts` for the
 * mapping in full.
 */
import {
  formatProblemCount,
  MAX_PAD_DIGITS,
  PLACEHOLDER_NAME,
  formatKeyTemplate,
  type KeyTemplatePart,
  describeValue,
  joinPath,
} from '../../model/index.ts';
import type { Attribute, AttributeType, Entity, Generator, KeyAttributeType, KeyBinding } from '../../model/index.ts';
import { slug } from '../common/ids.ts';
import { uniqueName } from '../common/table-spec.ts';
import { setOwn } from '../common/values.ts';
import { ONETABLE_DEFAULT_ITEM_COUNT, ONETABLE_OPTIONAL_PRESENCE, ULID_LENGTH } from './defaults.ts';
import { lookup, own, quote, type Log } from './import-log.ts';
import type { FieldRead, IndexRead, ModelRead, Params } from './schema-shape.ts';

/** Field options `fromOneTable` reads. */
const READ_OPTIONS = new Set(['type', 'value', 'required', 'default', 'enum', 'generate', 'uuid', 'ttl', 'map', 'isoDates', 'name']);

/** Why each field option OneTable knows is not kept: what it does, and that Keyplan has no place for it. */
const DROPPED_OPTIONS: Record<string, string> = {
  hidden: 'hides the property from the results of OneTable calls; DynamoDB stores it all the same, and Keyplan has no such setting',
  validate: 'is a check OneTable runs on values before writing; Keyplan does not check values',
  unique: 'makes OneTable write an extra _unique item per unique property on every create and update, which Keyplan does not count',
  crypt: 'makes OneTable store the value encrypted, longer than the plain value Keyplan sizes',
  encode: 'packs the value into another attribute; Keyplan keeps the property as its own attribute',
  filter: 'is a OneTable query option; Keyplan has no such setting',
  nulls: 'decides whether OneTable stores nulls; Keyplan has no such setting',
  partial: 'is a OneTable update option; Keyplan has no such setting',
  reference: 'is documentation of a relation; Keyplan has no such setting',
  scope: 'is a OneTable option of unique properties; Keyplan has no such setting',
  timestamp: 'is a OneTable write option; Keyplan has no such setting',
  fixed: 'stops OneTable from updating the property; Keyplan has no such setting',
  drop: 'is a OneTable write option; Keyplan has no such setting',
  schema: 'describes the inner properties of the value; Keyplan keeps a map or list as one attribute, without inner attributes',
  items: 'describes the elements of the list; Keyplan keeps a list as one attribute, without inner attributes',
  description: 'is documentation; Keyplan attributes have no description',
};

/** The deepest chain of value templates naming each other that is expanded (`${sk}` in gs1sk …). */
const MAX_TEMPLATE_DEPTH = 8;

interface TemplateContext {
  model: ModelRead;
  typeField: string;
  log: Log;
  /** Placeholders naming properties the model does not declare. */
  undeclared: string[];
}

/**
 * A OneTable value template as Keyplan template parts: `${name}` → a placeholder, `${name:8:0}` → a
 * padded one (numbers only), the type field → the model's name, a value-templated field → its template.
 */
function templateParts(value: string, ctx: TemplateContext, path: string, seen: readonly string[]): KeyTemplatePart[] {
  const parts: KeyTemplatePart[] = [];
  const literal = (text: string): void => {
    if (text === '') return;
    const last = parts[parts.length - 1];
    if (last?.kind === 'literal') last.text += text;
    else parts.push({ kind: 'literal', text });
  };
  // OneTable's own pattern (src/Model.js runTemplate): the shortest text between "${" and "}".
  const placeholder = /\$\{(.*?)\}/g;
  let at = 0;
  for (const m of value.matchAll(placeholder)) {
    literal(value.slice(at, m.index));
    at = m.index + m[0].length;
    const [name = '', len, pad] = (m[1] ?? '').split(':');
    if (name === ctx.typeField) {
      // OneTable writes the model's name into the type field of every item it creates.
      ctx.log.infer(path, `${quote(m[0])} is the type field, which OneTable sets to the model's name, so the template has ${quote(ctx.model.name)} there.`);
      literal(ctx.model.name);
      continue;
    }
    const field = ctx.model.fields.find((f) => f.name === name);
    if (field?.value !== undefined && !seen.includes(name) && seen.length < MAX_TEMPLATE_DEPTH) {
      if (len !== undefined) ctx.log.warn(path, `${quote(m[0])} pads ${quote(name)}, whose value is itself a template; Keyplan pads only number attributes, so the padding is dropped.`);
      for (const p of templateParts(field.value, ctx, path, [...seen, name])) {
        if (p.kind === 'literal') literal(p.text);
        else parts.push(p);
      }
      continue;
    }
    if (!field && PLACEHOLDER_NAME.test(name) && !ctx.undeclared.includes(name)) ctx.undeclared.push(name);
    const part: KeyTemplatePart = { kind: 'attribute', name };
    if (len !== undefined) {
      const width = Number(len);
      const isNumber = field?.type === 'number';
      if (isNumber && (pad === undefined || pad === '0') && Number.isInteger(width) && width >= 1 && width <= MAX_PAD_DIGITS && /^\d+$/.test(len)) part.pad = width;
      else {
        const why = !isNumber ? `${quote(name)} is not a number property` : `only zero padding to 1–${MAX_PAD_DIGITS} digits is kept`;
        ctx.log.warn(path, `${quote(m[0])} pads ${quote(name)} to ${quote(len)} characters with ${quote(pad ?? '0')}; Keyplan pads only number attributes with zeros, and ${why}, so the padding is dropped.`);
      }
    }
    parts.push(part);
  }
  literal(value.slice(at));
  return parts;
}


function attributeTypeOf(f: FieldRead): AttributeType {
  switch (f.type) {
    case 'string':
      return 'S';
    case 'number':
      return 'N';
    case 'boolean':
      return 'BOOL';
    case 'date':
      return f.isTtl ? 'N' : f.isIsoDate ? 'S' : 'N';
    case 'object':
      return 'M';
    case 'array':
      return 'L';
    case 'binary':
    case 'buffer':
    case 'arraybuffer':
      return 'B';
    case 'set':
      return 'SS';
  }
}

/** The generator a field's `enum`, `generate` or date type gives, with notes for what cannot be kept. */
function generatorOf(f: FieldRead, log: Log): Generator | undefined {
  const values = own(f.def, 'enum');
  if (values !== undefined) {
    if (Array.isArray(values) && values.length > 0 && values.every((v) => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)))) {
      return { kind: 'enum', values: values.map(String) };
    }
    log.warn(joinPath(f.path, 'enum'), `${f.path}.enum is ${describeValue(values)}; expected a non-empty list of values, so the field's values are not limited to it.`);
  }
  const generate = own(f.def, 'generate') ?? own(f.def, 'uuid');
  if (own(f.def, 'uuid') !== undefined) log.warn(joinPath(f.path, 'uuid'), `"uuid" is deprecated in OneTable (use "generate"); it is read as generate ${describeValue(own(f.def, 'uuid'))}.`);
  if (generate === 'uuid') return { kind: 'uuid' };
  if (generate === 'ulid') return { kind: 'id', prefix: '', width: ULID_LENGTH };
  if (generate !== undefined && generate !== false) {
    log.warn(joinPath(f.path, 'generate'), `generate ${describeValue(generate)} is the table's own generator function; Keyplan cannot run it, so the field's values follow its name and type.`);
  }
  if (f.type === 'date') return { kind: 'timestamp' };
  return undefined;
}

/** Notes for each field option Keyplan does not keep, and for options OneTable does not know. */
function noteOptions(f: FieldRead, isKey: boolean, isNamedByAttribute: boolean, log: Log): void {
  for (const key of Object.keys(f.def)) {
    const path = joinPath(f.path, key);
    if (key === 'map' && typeof f.def.map === 'string' && f.def.map !== '') {
      if (f.isPacked) log.drop(path, `map ${quote(f.def.map)} packs the property into the attribute ${quote(f.attribute)}; Keyplan keeps ${quote(f.name)} as its own attribute, so item sizes count one more attribute name.`);
      else if (!isKey && !isNamedByAttribute) log.drop(path, `map ${quote(f.def.map)} stores the property as the attribute ${quote(f.attribute)}; Keyplan names the attribute ${quote(f.name)}, as value templates do, so item sizes count the longer name.`);
      continue;
    }
    if (key === 'default' && !isKey) {
      log.drop(path, `The default value (${describeValue(f.def.default)}) is not kept: Keyplan attributes have no default. OneTable writes it when none is given, so the attribute is counted on every item.`);
      continue;
    }
    if (key === 'ttl' && f.isTtl && f.type !== 'date' && f.type !== 'number') {
      log.warn(path, `ttl is set on a ${f.type} field; DynamoDB's time to live reads a number of epoch seconds, so it is not the table's TTL attribute.`);
      continue;
    }
    if (READ_OPTIONS.has(key)) {
      if (isKey && (key === 'required' || key === 'enum' || key === 'generate')) log.drop(path, `${key} on a key field is not kept: Keyplan builds the key from its template.`);
      continue;
    }
    const reason = lookup(DROPPED_OPTIONS, key);
    if (reason !== undefined) log.drop(path, `${key} ${reason}.`);
    else log.warn(path, `${key} is not a field option OneTable knows; it is ignored.`);
  }
  if (!isKey && f.value !== undefined) {
    log.drop(joinPath(f.path, 'value'), `The value template ${quote(f.value)} of a property that is not a key is not kept: Keyplan keeps ${quote(f.name)} as an attribute, without how OneTable computes it.`);
  }
}

/** An entity built from a model, with the schema paths its parts came from. */
export interface EntityBuild {
  entity: Entity;
  /** Design path (relative to the entity) → schema path, for problems the design's rules raise. */
  paths: Array<[string, string]>;
}

/** The entity of model `m`: key templates, attributes with their types, generators and presence, and the notes on each. */
export function buildEntity(m: ModelRead, indexes: readonly IndexRead[], keyTypes: ReadonlyMap<string, KeyAttributeType>, params: Params, ids: Set<string>, tableSlug: string, log: Log): EntityBuild {
  const primary = indexes[0] as IndexRead;
  const tableKeys = new Set([primary.hash, ...(primary.sort !== undefined ? [primary.sort] : [])]);
  const lsiKeys = new Set(indexes.filter((i) => i.kind === 'lsi').map((i) => i.sort as string));
  const ctx: TemplateContext = { model: m, typeField: params.typeField, log, undeclared: [] };
  const attributes: Attribute[] = [];
  const attributeFields: Array<FieldRead | undefined> = [];
  const keys: Record<string, KeyBinding> = {};
  const paths: Array<[string, string]> = [];
  const primarySources = new Set<string>();

  for (const f of m.fields) {
    const keyType = f.isPacked ? undefined : keyTypes.get(f.attribute);
    noteOptions(f, keyType !== undefined && f.value !== undefined, keyType !== undefined, log);
    if (keyType !== undefined && f.value !== undefined) {
      const keyPath = joinPath('keys', f.attribute);
      const parts = templateParts(f.value, ctx, joinPath(f.path, 'value'), [f.name]);
      setOwn(keys, f.attribute, { template: formatKeyTemplate(parts) });
      paths.push([keyPath, f.path], [joinPath(keyPath, 'template'), joinPath(f.path, 'value')]);
      if (tableKeys.has(f.attribute)) for (const p of parts) if (p.kind === 'attribute') primarySources.add(p.name);
      continue;
    }
    paths.push([joinPath('attributes', attributes.length), f.path]);
    const attribute: Attribute = { name: f.attribute === f.name || keyType === undefined ? f.name : f.attribute, type: keyType ?? attributeTypeOf(f) };
    if (keyType !== undefined) {
      // No template: the field is the key attribute itself (a natural key).
      if (f.name !== f.attribute) log.infer(f.path, `The field is stored in the key attribute ${quote(f.attribute)} without a value template, so the attribute is named ${quote(f.attribute)}.`);
      if (tableKeys.has(f.attribute)) primarySources.add(f.attribute);
    }
    const generator = generatorOf(f, log);
    if (generator) attribute.generator = generator;
    if (f.type === 'set') log.infer(joinPath(f.path, 'type'), 'A Set is read as a string set (SS): the schema does not say what its elements are.');
    attributes.push(attribute);
    attributeFields.push(f);
  }

  const has = (name: string): boolean => attributes.some((a) => a.name === name);
  if (!keyTypes.has(params.typeField)) {
    const declared = attributes.find((a) => a.name === params.typeField);
    const constant: Generator = { kind: 'constant', value: m.name };
    if (declared) {
      declared.type = 'S';
      declared.generator = constant;
    } else {
      paths.push([joinPath('attributes', attributes.length), m.path]);
      attributes.push({ name: params.typeField, type: 'S', generator: constant });
      attributeFields.push(undefined);
    }
  }
  for (const name of params.timestampFields) {
    if (has(name)) continue;
    paths.push([joinPath('attributes', attributes.length), 'params.timestamps']);
    attributes.push({ name, type: keyTypes.get(name) ?? (params.isoDates ? 'S' : 'N'), generator: { kind: 'timestamp' } });
    attributeFields.push(undefined);
  }
  for (const name of ctx.undeclared) {
    if (has(name)) continue;
    log.infer(m.path, `A value template names ${quote(name)}, which the model does not declare (OneTable takes it from the table's context or the call's properties); it is added as an S attribute.`);
    paths.push([joinPath('attributes', attributes.length), m.path]);
    attributes.push({ name, type: 'S' });
    attributeFields.push(undefined);
  }

  // The table's keys and an LSI's sort key need a template: an attribute carried under the key's own name is it.
  for (const key of [...tableKeys, ...lsiKeys]) {
    if (!Object.hasOwn(keys, key) && has(key)) setOwn(keys, key, { template: formatKeyTemplate([{ kind: 'attribute', name: key }]) });
  }

  const optional: string[] = [];
  attributes.forEach((a, i) => {
    const f = attributeFields[i];
    if (!f || tableKeys.has(a.name) || primarySources.has(a.name) || a.name === params.typeField || params.timestampFields.includes(a.name)) return;
    const isOnEveryItem = own(f.def, 'required') === true || own(f.def, 'default') !== undefined || a.generator?.kind === 'uuid' || a.generator?.kind === 'id' || (own(f.def, 'generate') !== undefined && own(f.def, 'generate') !== false);
    if (isOnEveryItem) return;
    a.presence = ONETABLE_OPTIONAL_PRESENCE;
    optional.push(a.name);
  });
  if (optional.length > 0) {
    log.infer(
      m.path,
      `${optional.map(quote).join(', ')} ${optional.length === 1 ? 'is' : 'are'} optional (not required, no default, not generated): the schema does not say how many items carry ${optional.length === 1 ? 'it' : 'them'}, so each is on ${ONETABLE_OPTIONAL_PRESENCE * 100} % of them (presence ${ONETABLE_OPTIONAL_PRESENCE}).`,
    );
  }
  log.infer(m.path, `The schema holds no item count; ${m.name} is given ${formatProblemCount(ONETABLE_DEFAULT_ITEM_COUNT)} items. Set the real count after importing.`);
  const entity: Entity = { id: uniqueName(`ent-${tableSlug}-${slug(m.name)}`, ids), name: m.name, itemCount: ONETABLE_DEFAULT_ITEM_COUNT, attributes, keys };
  return { entity, paths };
}
