/**
 * OneTable schema import: a schema of the DynamoDB OneTable library (sensedeep/dynamodb-onetable,
 * `format: "onetable:1.0.0"` or `"onetable:1.1.0"`, the JSON its `saveSchema` writes and the SenseDeep
 * app exports) read as a Keyplan design of one table. The format is specified in the library's
 * doc/schema-1.1.0.md; where the specification is silent this module follows what the library's
 * code does (src/Schema.js, src/Model.js, src/Table.js).
 *
 * What is read, and how:
 * - `indexes.primary` → the table's partition key (`hash`) and sort key (`sort`). Every other index
 *   is a GSI, or an LSI when it has `type: "local"` (or, as OneTable itself decides, no `hash` and no
 *   `type`). `project`: `"all"` → ALL, `"keys"` → KEYS_ONLY, a list → INCLUDE of its non-key
 *   attributes; absent or anything else → ALL, as OneTable's createTable does.
 * - A key attribute's type comes from the model fields stored in it: `number` → N, `binary`/`buffer`/
 *   `arraybuffer` → B, `string` → S, `date` → S with ISO dates else N; S when no model stores it (an
 *   `inferred` note). Two models that disagree, or a key stored from a boolean, object, array or set,
 *   stop the import (`onetable.keyType`).
 * - Each model → an entity (item count `ONETABLE_DEFAULT_ITEM_COUNT`, an `inferred` note: a schema
 *   says nothing about volume). A field stored in a key attribute (by its name, or by `map`) with a
 *   `value` template becomes the entity's key template: `user#${email}` → `user#{email}`,
 *   `${id:8:0}` → `{id:08}` on a number (padding is dropped, with a warning, on anything else),
 *   `${_type}` (the type field) → the model's name, a reference to another value-templated field →
 *   that field's template. A key field without `value` is the attribute itself: a natural key (the
 *   table's keys and an LSI's sort key get the template `{name}`, a GSI's key is the attribute alone).
 *   A placeholder naming a property the model does not declare (a OneTable context value) adds an S
 *   attribute, with an `inferred` note.
 * - Every other field → an attribute: string → S, number → N, boolean → BOOL, date → S (ISO text)
 *   when `params.isoDates` (or the field's `isoDates`) is true, else N (epoch milliseconds), and N
 *   (epoch seconds) for a `ttl` field, object → M, array → L, binary/buffer/arraybuffer → B,
 *   set → SS (a Set's element type is not in the schema: an `inferred` note). A field without `type` is
 *   read as string (OneTable's default), an unknown type too, with a warning.
 * - Presence: a field that is `required`, has a `default` or a `generate`, or builds the table's keys
 *   is on every item (no `presence`); any other field is optional and gets `presence`
 *   `ONETABLE_OPTIONAL_PRESENCE` (0.5, an `inferred` note per model: the schema does not say how many
 *   items carry it). An optional field in a GSI's key template makes the index sparse, as in OneTable,
 *   which writes no key whose template lacks a value.
 * - Values: `enum` → an enum generator with the values; `generate: "uuid"` → a uuid generator,
 *   `"ulid"` → 26-digit ids (ULIDs are 26 characters, unique and sorted by time); a date → a
 *   timestamp generator; the type field (`params.typeField`, default `_type`) → an S attribute on
 *   every entity with a constant generator of the model's name; `params.timestamps` → the `created`
 *   and `updated` dates (`createdField`, `updatedField`) on every entity. A `ttl` field names the
 *   table's TTL attribute.
 * - Saved `queries` → access patterns where they name an index and a partition key value: the model
 *   is the query's `model`, else the first whose templates match the values; `known` are the
 *   attributes the `hash` value and the `sort` value fix; a comparison (`Less than`, `Begins with`,
 *   `Between` …) is the range on the next attribute of the sort template; `get` when the values fix the
 *   table's whole primary key, else `query` with `limit` as its result size; `filters` joined by And
 *   → the filter. Rate `ONETABLE_DEFAULT_RATE_PER_SECOND` per second, eventual consistency (a query
 *   holds neither). Scans, and queries that match no model, are skipped with a note.
 * - The table is on-demand, Standard class. Its name and the design's come from `extensions.keyplan`
 *   (what `toOneTable` writes), else `ONETABLE_DEFAULT_TABLE_NAME` and the schema's `name` or
 *   `ONETABLE_DEFAULT_DESIGN_NAME`.
 *
 * Everything else a schema holds is a note with its path (`models.User.email.validate`,
 * `indexes.gs1.follow`, `params.nulls`): `dropped` for what Keyplan does not keep (hidden, validate,
 * unique, crypt, map, nested schemas, defaults' values, `follow`, `items` …), `warning` for what is
 * malformed or unknown and was skipped.
 *
 * Ids follow the NoSQL Workbench importer's scheme: `design-<name>`, `tbl-<table>`,
 * `gsi-<table>-<index>`, `lsi-<table>-<index>`, `ent-<table>-<model>`, and `ap-<table>-<query>` for
 * patterns, each a lower-case slug made unique with a number.
 */
import { fail, ok } from '../../errors.ts';
import { formatCondition, type ComparisonOperator, type ConditionClause, type ConditionValue } from '../../model/condition.ts';
import { formatCount } from '../../model/quoted-text.ts';
import { MAX_PAD_DIGITS, parseKeyTemplate, PLACEHOLDER_NAME, formatKeyTemplate, type KeyTemplatePart } from '../../model/key-template.ts';
import type { Problem } from '../../model/problems.ts';
import {
  FORMAT_VERSION,
  type AccessPattern,
  type Attribute,
  type AttributeType,
  type Design,
  type Entity,
  type Generator,
  type GlobalSecondaryIndex,
  type KeyAttribute,
  type KeyAttributeType,
  type KeyBinding,
  type LocalSecondaryIndex,
  type Projection,
  type RangeOperator,
  type Table,
} from '../../model/schema.ts';
import { describeValue, joinPath, parseDesign } from '../../model/validate.ts';
import { uniqueName } from '../common/table-spec.ts';
import { setOwn } from '../common/values.ts';
import type { ImportNote, ImportResult } from '../common/import-types.ts';
import { mapPath, type PathMap } from '../common/source-paths.ts';
import { slug } from '../common/ids.ts';

/**
 * Codes of the problems `fromOneTable` raises (besides the `model.*` and `keyTemplate.*` rules of
 * the design it builds): `onetable.notSchema` (not a OneTable schema at all), `onetable.unsupportedFormat` (a `format` other than `onetable:1.x`),
 * `onetable.schema` (a part missing or of the wrong shape), `onetable.keyType` (a key attribute
 * stored from a type a key cannot have, or from two types).
 */
export type OneTableErrorCode = 'onetable.notSchema' | 'onetable.unsupportedFormat' | 'onetable.schema' | 'onetable.keyType';

/** Items per entity when a schema says nothing about volume (always): set real counts after importing. */
export const ONETABLE_DEFAULT_ITEM_COUNT = 1000;
/** Requests per second of a pattern read from a saved query, which holds no rate. */
export const ONETABLE_DEFAULT_RATE_PER_SECOND = 1;
/** The share of items assumed to carry an optional field (not required, no default, not generated). */
export const ONETABLE_OPTIONAL_PRESENCE = 0.5;
/** The table's name when the schema does not say (OneTable takes it from `new Table({name})`). */
export const ONETABLE_DEFAULT_TABLE_NAME = 'AppTable';
/** The design's name when the schema has none. */
export const ONETABLE_DEFAULT_DESIGN_NAME = 'OneTable schema';
/** OneTable's type field when `params.typeField` is not set. */
export const ONETABLE_DEFAULT_TYPE_FIELD = '_type';
/** What `toOneTable` writes under `extensions`, and this importer reads back. */
export const ONETABLE_EXTENSION = 'keyplan';

/** The field types OneTable accepts (src/Model.js `ValidTypes`), lower case. */
const FIELD_TYPES = ['array', 'arraybuffer', 'binary', 'boolean', 'buffer', 'date', 'number', 'object', 'set', 'string'] as const;
type FieldType = (typeof FIELD_TYPES)[number];

/** The format this module reads: `onetable:1.<minor>.<patch>` (SemVer: any 1.x is compatible). */
const FORMAT_PATTERN = /^onetable:1\.\d+\.\d+$/;

/** A ULID's length: 26 characters of Crockford base 32. https://github.com/ulid/spec */
const ULID_LENGTH = 26;

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

/** Saved-query operations (the SenseDeep app's words) and the range operator each is. */
const OPERATIONS: Record<string, RangeOperator> = {
  equal: '=',
  'less than': '<',
  'less than or equal': '<=',
  'greater than or equal': '>=',
  'greater than': '>',
  'begins with': 'begins_with',
  between: 'between',
};

/** Filter operations Keyplan's filter conditions can say: a comparison operator, or an existence test. */
const FILTER_OPERATORS: Record<string, ComparisonOperator | 'exists' | 'notExists'> = {
  equal: '=',
  'not equal': '<>',
  'less than': '<',
  'less than or equal': '<=',
  'greater than': '>',
  'greater than or equal': '>=',
  existing: 'exists',
  'not existing': 'notExists',
};

/** OneTable's own models, which a schema read back from a table holds (src/Schema.js): not application entities. */
const INTERNAL_MODELS = ['_Schema', '_Migration', '_Unique', '_Generic'];

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const quote = (s: string): string => JSON.stringify(s.length > 80 ? `${s.slice(0, 80)}…` : s);
const own = (obj: Json, key: string): unknown => (Object.hasOwn(obj, key) ? obj[key] : undefined);
/** `table[key]` for a key the input chose: own properties only, so "constructor" finds nothing. */
const lookup = <T>(table: Readonly<Record<string, T>>, key: string): T | undefined => (Object.hasOwn(table, key) ? table[key] : undefined);
/** A value for a message: text in quotes, anything else described. */
const shownValue = (v: unknown): string => (typeof v === 'string' ? quote(v) : describeValue(v));

/** Collects the problems that stop the import and the notes on what was inferred, skipped or dropped. */
class Log {
  readonly problems: Problem[] = [];
  readonly notes: ImportNote[] = [];
  problem(code: OneTableErrorCode, path: string, message: string, found: string, expected: string): void {
    this.problems.push({ code, path, message, found, expected });
  }
  warn(path: string, message: string): void {
    this.notes.push({ kind: 'warning', path, message });
  }
  infer(path: string, message: string): void {
    this.notes.push({ kind: 'inferred', path, message });
  }
  drop(path: string, message: string): void {
    this.notes.push({ kind: 'dropped', path, message });
  }
  /** A problem for `value` at `path` not being `expected`: "indexes.gs1.hash is the number 5; expected …". */
  shape(path: string, value: unknown, expected: string): void {
    const found = describeValue(value);
    this.problem('onetable.schema', path, `${path} is ${found}; expected ${expected}.`, found, expected);
  }
}

// ---------------------------------------------------------------------------------------------
// Reading the schema's shape
// ---------------------------------------------------------------------------------------------

interface Params {
  typeField: string;
  isoDates: boolean;
  /** The timestamp fields OneTable adds to every model. */
  timestampFields: string[];
}

interface IndexRead {
  name: string;
  path: string;
  kind: 'primary' | 'gsi' | 'lsi';
  /** The partition key attribute (an LSI's is the table's). */
  hash: string;
  sort?: string;
  projection: Projection;
}

interface FieldRead {
  name: string;
  path: string;
  def: Json;
  type: FieldType;
  /** The attribute the field is stored in: its `map` target when it maps to one attribute, else its name. */
  attribute: string;
  /** `map: "data.address"`: packed into another attribute. */
  isPacked: boolean;
  /** The `value` template, when non-empty text. */
  value?: string;
  isIsoDate: boolean;
  isTtl: boolean;
}

interface ModelRead {
  name: string;
  path: string;
  fields: FieldRead[];
}

function readParams(schema: Json, log: Log): Params {
  const params: Params = { typeField: ONETABLE_DEFAULT_TYPE_FIELD, isoDates: false, timestampFields: [] };
  const raw = own(schema, 'params');
  if (raw === undefined) return params;
  if (!isRecord(raw)) {
    log.warn('params', `params is ${describeValue(raw)}, not an object of schema parameters; it is ignored, so the type field is ${ONETABLE_DEFAULT_TYPE_FIELD} and dates are numbers.`);
    return params;
  }
  const text = (key: string, fallback: string): string => {
    const v = own(raw, key);
    if (v === undefined || v === null) return fallback;
    if (typeof v === 'string' && v.trim() !== '') return v;
    log.warn(joinPath('params', key), `params.${key} is ${describeValue(v)}; expected an attribute name, so OneTable's default ${quote(fallback)} is used.`);
    return fallback;
  };
  params.typeField = text('typeField', ONETABLE_DEFAULT_TYPE_FIELD);
  const iso = own(raw, 'isoDates');
  if (typeof iso === 'boolean') params.isoDates = iso;
  else if (iso !== undefined && iso !== null) log.warn('params.isoDates', `params.isoDates is ${describeValue(iso)}; expected true or false, so dates are read as numbers (OneTable's default).`);
  const created = text('createdField', 'created');
  const updated = text('updatedField', 'updated');
  const stamps = own(raw, 'timestamps');
  if (stamps === true) params.timestampFields = [created, updated];
  else if (stamps === 'create') params.timestampFields = [created];
  else if (stamps === 'update') params.timestampFields = [updated];
  else if (stamps !== undefined && stamps !== null && stamps !== false) {
    log.warn('params.timestamps', `params.timestamps is ${describeValue(stamps)}; expected true, false, "create" or "update", so no timestamps are added.`);
  }
  for (const key of Object.keys(raw)) {
    const path = joinPath('params', key);
    if (['typeField', 'isoDates', 'timestamps', 'createdField', 'updatedField'].includes(key)) continue;
    if (['hidden', 'nulls', 'separator', 'warn', 'legacyEmpties'].includes(key)) {
      log.drop(path, `params.${key} is a setting of the OneTable library (how it reads, writes or reports items); Keyplan has no such setting.`);
    } else {
      log.warn(path, `params.${key} is not a parameter the OneTable schema specification defines; it is ignored.`);
    }
  }
  return params;
}

function readProjection(index: Json, path: string, keyNames: readonly string[], log: Log): Projection {
  const pp = joinPath(path, 'project');
  const project = own(index, 'project');
  if (project === undefined) {
    log.infer(pp, `The index has no "project"; OneTable creates it with projection ALL, so it is ALL.`);
    return { type: 'ALL' };
  }
  if (project === 'all') return { type: 'ALL' };
  if (project === 'keys') return { type: 'KEYS_ONLY' };
  if (Array.isArray(project)) {
    const names: string[] = [];
    project.forEach((name, i) => {
      if (typeof name !== 'string' || name === '') {
        log.warn(joinPath(pp, i), `${joinPath(pp, i)} is ${describeValue(name)}; expected an attribute name, so it is skipped.`);
      } else if (keyNames.includes(name)) {
        // DynamoDB projects key attributes into every index anyway; OneTable lists them for clarity.
        log.infer(joinPath(pp, i), `${quote(name)} is a key attribute, which every index holds; it is left out of the INCLUDE list.`);
      } else if (!names.includes(name)) names.push(name);
    });
    if (names.length === 0) {
      log.infer(pp, 'The project list names only key attributes, so the projection is KEYS_ONLY.');
      return { type: 'KEYS_ONLY' };
    }
    return { type: 'INCLUDE', nonKeyAttributes: names };
  }
  log.warn(pp, `${pp} is ${describeValue(project)}; expected "all", "keys" or a list of attribute names. OneTable creates such an index with projection ALL, so it is ALL.`);
  return { type: 'ALL' };
}

/** Reads `indexes`: the primary index first, then the GSIs and LSIs in the schema's order. */
function readIndexes(schema: Json, log: Log): IndexRead[] {
  const raw = own(schema, 'indexes');
  if (!isRecord(raw)) {
    log.shape('indexes', raw, 'an object of indexes with a "primary" index ({ "primary": { "hash": "pk", "sort": "sk" } })');
    return [];
  }
  const primary = own(raw, 'primary');
  if (!isRecord(primary)) {
    log.shape('indexes.primary', primary, 'the primary index, an object with "hash" (the partition key attribute) and an optional "sort"');
    return [];
  }
  const keyName = (index: Json, path: string, key: 'hash' | 'sort', isRequired: boolean): string | undefined => {
    const v = own(index, key);
    if (v === undefined && !isRequired) return undefined;
    if (typeof v === 'string' && v !== '') return v;
    log.shape(joinPath(path, key), v, `the name of the ${key === 'hash' ? 'partition' : 'sort'} key attribute`);
    return undefined;
  };
  const hash = keyName(primary, 'indexes.primary', 'hash', true);
  const sort = keyName(primary, 'indexes.primary', 'sort', false);
  if (hash === undefined) return [];
  const reads: IndexRead[] = [{ name: 'primary', path: 'indexes.primary', kind: 'primary', hash, ...(sort !== undefined ? { sort } : {}), projection: { type: 'ALL' } }];
  for (const key of Object.keys(primary)) {
    if (key !== 'hash' && key !== 'sort') log.drop(joinPath('indexes.primary', key), `indexes.primary.${key} is not read: the table's primary key has only a partition key and a sort key.`);
  }
  const tableKeys = [hash, ...(sort !== undefined ? [sort] : [])];

  for (const [name, index] of Object.entries(raw)) {
    if (name === 'primary') continue;
    const path = joinPath('indexes', name);
    if (!isRecord(index)) {
      log.shape(path, index, 'an index, an object with "hash" and "sort"');
      continue;
    }
    const type = own(index, 'type');
    if (type !== undefined && type !== 'local' && type !== 'global') {
      log.warn(joinPath(path, 'type'), `${path}.type is ${describeValue(type)}; expected "local" for an LSI, so the index is read as ${own(index, 'hash') === undefined ? 'an LSI' : 'a GSI'}.`);
    }
    const isLocal = type === 'local' || (own(index, 'hash') === undefined && type !== 'global');
    if (isLocal) {
      if (type !== 'local') log.infer(path, `The index has no "hash" and no "type"; OneTable reads it as an LSI (and asks for "type": "local"), so it is an LSI.`);
      const ownHash = own(index, 'hash');
      if (ownHash !== undefined && ownHash !== hash) {
        const found = describeValue(ownHash);
        log.problem('onetable.schema', joinPath(path, 'hash'), `${path}.hash is ${found}, but an LSI shares the table's partition key ${quote(hash)}; expected ${quote(hash)} or no "hash".`, found, quote(hash));
        continue;
      }
      const lsiSort = own(index, 'sort');
      if (typeof lsiSort !== 'string' || lsiSort === '') {
        log.shape(joinPath(path, 'sort'), lsiSort, 'the name of the LSI\'s sort key attribute (an LSI needs one)');
        continue;
      }
      const projection = readProjection(index, path, [...tableKeys, lsiSort], log);
      reads.push({ name, path, kind: 'lsi', hash, sort: lsiSort, projection });
    } else {
      const gsiHash = keyName(index, path, 'hash', true);
      const gsiSort = keyName(index, path, 'sort', false);
      if (gsiHash === undefined) continue;
      const projection = readProjection(index, path, [...tableKeys, gsiHash, ...(gsiSort !== undefined ? [gsiSort] : [])], log);
      reads.push({ name, path, kind: 'gsi', hash: gsiHash, ...(gsiSort !== undefined ? { sort: gsiSort } : {}), projection });
    }
    for (const key of Object.keys(index)) {
      const kp = joinPath(path, key);
      if (['hash', 'sort', 'project', 'type'].includes(key)) continue;
      if (key === 'follow') log.drop(kp, 'follow makes OneTable read the full item from the table after a query of this index; Keyplan plans reads from the patterns, not from this setting.');
      else if (key === 'description') log.drop(kp, 'The index description is not kept: Keyplan indexes have no description.');
      else log.warn(kp, `${kp} is not an index property the OneTable schema specification defines; it is ignored.`);
    }
  }
  return reads;
}

function fieldTypeOf(def: Json, path: string, log: Log): FieldType | undefined {
  const type = own(def, 'type');
  const tp = joinPath(path, 'type');
  if (type === undefined) {
    log.infer(tp, 'The field has no type; OneTable reads such a field as a string, so it is S. (A schema written in code with `type: String` loses its types when printed with JSON.stringify: save it with the SenseDeep app or write the types as text.)');
    return 'string';
  }
  if (typeof type !== 'string') {
    log.shape(tp, type, `a type name: ${FIELD_TYPES.join(', ')}`);
    return undefined;
  }
  const lower = type.toLowerCase();
  if ((FIELD_TYPES as readonly string[]).includes(lower)) return lower as FieldType;
  log.warn(tp, `${tp} is ${quote(type)}, which is not a OneTable type (${FIELD_TYPES.join(', ')}); the field is read as a string.`);
  return 'string';
}

/** Reads `models`: each model's fields, in the schema's order. */
function readModels(schema: Json, params: Params, log: Log): ModelRead[] {
  const raw = own(schema, 'models');
  if (!isRecord(raw)) {
    log.shape('models', raw, 'an object of models, each a map of field name → field ({ "User": { "pk": { "type": "string", "value": "user#${id}" } } })');
    return [];
  }
  const models: ModelRead[] = [];
  for (const [name, model] of Object.entries(raw)) {
    const path = joinPath('models', name);
    if (INTERNAL_MODELS.includes(name)) {
      log.drop(path, `${name} is OneTable's own model (for the schema, migration or unique items it writes), not an application entity; it is not read.`);
      continue;
    }
    if (!isRecord(model)) {
      log.shape(path, model, 'a model, an object of field name → field');
      continue;
    }
    const fields: FieldRead[] = [];
    for (const [fieldName, def] of Object.entries(model)) {
      const fp = joinPath(path, fieldName);
      if (!isRecord(def)) {
        log.shape(fp, def, 'a field, an object such as { "type": "string", "required": true }');
        continue;
      }
      const type = fieldTypeOf(def, fp, log);
      if (type === undefined) continue;
      const map = own(def, 'map');
      let attribute = fieldName;
      let isPacked = false;
      if (typeof map === 'string' && map !== '') {
        const [target = '', sub] = map.split('.');
        attribute = target || fieldName;
        isPacked = sub !== undefined;
      } else if (map !== undefined) {
        log.warn(joinPath(fp, 'map'), `${fp}.map is ${describeValue(map)}; expected an attribute name, so the field keeps its own name.`);
      }
      const value = own(def, 'value');
      const fieldIso = own(def, 'isoDates');
      const read: FieldRead = {
        name: fieldName,
        path: fp,
        def,
        type,
        attribute,
        isPacked,
        isIsoDate: typeof fieldIso === 'boolean' ? fieldIso : params.isoDates,
        isTtl: own(def, 'ttl') === true,
      };
      if (typeof value === 'string' && value !== '') read.value = value;
      else if (value !== undefined && value !== '' && value !== false && value !== null) {
        log.warn(joinPath(fp, 'value'), `${fp}.value is ${describeValue(value)}; expected a value template such as "user#\${email}", so it is skipped.`);
      }
      fields.push(read);
    }
    models.push({ name, path, fields });
  }
  return models;
}

// ---------------------------------------------------------------------------------------------
// Key attributes and their types
// ---------------------------------------------------------------------------------------------

function keyTypeOfField(f: FieldRead): KeyAttributeType | undefined {
  switch (f.type) {
    case 'string':
      return 'S';
    case 'number':
      return 'N';
    case 'binary':
    case 'buffer':
    case 'arraybuffer':
      return 'B';
    case 'date':
      return f.isIsoDate && !f.isTtl ? 'S' : 'N';
    default:
      return undefined;
  }
}

/** The type of each key attribute, from the fields stored in it; problems for a type a key cannot have and for disagreements. */
function readKeyTypes(indexes: readonly IndexRead[], models: readonly ModelRead[], log: Log): Map<string, KeyAttributeType> {
  const types = new Map<string, KeyAttributeType>();
  const firstPath = new Map<string, string>();
  const names: Array<[name: string, path: string]> = [];
  for (const i of indexes) {
    if (i.kind !== 'lsi') names.push([i.hash, joinPath(i.path, 'hash')]);
    if (i.sort !== undefined) names.push([i.sort, joinPath(i.path, 'sort')]);
  }
  for (const [name, indexPath] of names) {
    if (types.has(name)) continue;
    for (const m of models) {
      const stored = m.fields.filter((f) => f.attribute === name && !f.isPacked);
      if (stored.length > 1) {
        const found = stored.map((f) => quote(f.name)).join(' and ');
        log.problem('onetable.schema', (stored[1] as FieldRead).path, `Model ${quote(m.name)} stores ${found} in the key attribute ${quote(name)}; expected one field per key attribute (OneTable refuses two).`, found, 'one field');
      }
      const packed = m.fields.find((f) => f.attribute === name && f.isPacked);
      if (packed) {
        const found = quote(String(own(packed.def, 'map')));
        log.problem('onetable.schema', joinPath(packed.path, 'map'), `${packed.path}.map is ${found}, which packs the property into the key attribute ${quote(name)}; expected a plain attribute name, since a key cannot hold a packed object.`, found, 'an attribute name without "."');
      }
      const f = stored[0];
      if (!f) continue;
      const type = keyTypeOfField(f);
      if (type === undefined) {
        const found = `a ${f.type} field`;
        log.problem('onetable.keyType', joinPath(f.path, 'type'), `${f.path} is stored in the key attribute ${quote(name)} but is of type ${f.type}; expected string, number, binary or date, the types a DynamoDB key can hold (S, N, B).`, found, 'string, number, binary or date');
        continue;
      }
      const first = types.get(name);
      if (first === undefined) {
        types.set(name, type);
        firstPath.set(name, f.path);
      } else if (first !== type) {
        log.problem(
          'onetable.keyType',
          joinPath(f.path, 'type'),
          `${f.path} stores the key attribute ${quote(name)} as ${type}, but ${firstPath.get(name) ?? ''} stores it as ${first}; expected one type per key attribute, since the table defines each key attribute once.`,
          type,
          first,
        );
      }
    }
    if (!types.has(name)) {
      types.set(name, 'S');
      log.infer(indexPath, `No model stores the key attribute ${quote(name)}, so its type is S (OneTable's createTable makes it S too).`);
    }
  }
  return types;
}

// ---------------------------------------------------------------------------------------------
// Value templates
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// Entities
// ---------------------------------------------------------------------------------------------

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

interface EntityBuild {
  entity: Entity;
  /** Design path (relative to the entity) → schema path, for problems the design's rules raise. */
  paths: Array<[string, string]>;
}

function buildEntity(m: ModelRead, indexes: readonly IndexRead[], keyTypes: ReadonlyMap<string, KeyAttributeType>, params: Params, ids: Set<string>, tableSlug: string, log: Log): EntityBuild {
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
  log.infer(m.path, `The schema holds no item count; ${m.name} is given ${formatCount(ONETABLE_DEFAULT_ITEM_COUNT)} items. Set the real count after importing.`);
  const entity: Entity = { id: uniqueName(`ent-${tableSlug}-${slug(m.name)}`, ids), name: m.name, itemCount: ONETABLE_DEFAULT_ITEM_COUNT, attributes, keys };
  return { entity, paths };
}

// ---------------------------------------------------------------------------------------------
// Saved queries
// ---------------------------------------------------------------------------------------------

interface KeyMatch {
  /** Placeholders the value fixes. */
  known: string[];
  /** The placeholder a comparison (not equality) applies to. */
  rangeOn?: string;
  /** Whether the value is the whole template (every placeholder fixed). */
  isComplete: boolean;
}

/**
 * Which placeholders of a template a key value fixes. `operator` '=' needs the whole value to fit the
 * template; any other operator takes the value as the start of a key: the placeholders it covers up
 * to the next literal are fixed, and the one it ends in (or, when it covers them all, the last) is
 * the one the comparison is on. Undefined when the value does not fit.
 */
function matchKey(parts: readonly KeyTemplatePart[], value: string, operator: RangeOperator): KeyMatch | undefined {
  const known: string[] = [];
  let pos = 0;
  for (let i = 0; i < parts.length; i += 1) {
    const part = parts[i] as KeyTemplatePart;
    const rest = value.slice(pos);
    if (part.kind === 'literal') {
      if (rest.startsWith(part.text)) {
        pos += part.text.length;
        continue;
      }
      // The value stops inside the literal: a prefix of the key, with nothing to compare on.
      if (operator !== '=' && part.text.startsWith(rest)) return { known, isComplete: false };
      return undefined;
    }
    if (rest === '') return operator === '=' ? undefined : { known, isComplete: false };
    const next = parts[i + 1];
    if (next?.kind === 'literal') {
      const end = value.indexOf(next.text, pos + 1);
      if (end > pos) {
        if (!known.includes(part.name)) known.push(part.name);
        pos = end;
        continue;
      }
      // The value ends inside this placeholder.
      return operator === '=' ? undefined : { known, rangeOn: part.name, isComplete: false };
    }
    // The last placeholder (or one followed by another) takes the rest of the value.
    if (operator !== '=') return { known, rangeOn: part.name, isComplete: false };
    if (!known.includes(part.name)) known.push(part.name);
    pos = value.length;
  }
  if (pos !== value.length) return undefined;
  return { known, isComplete: true };
}

interface QueryContext {
  table: Table;
  indexes: readonly IndexRead[];
  models: readonly ModelRead[];
  entities: readonly Entity[];
  ids: Set<string>;
  tableSlug: string;
  log: Log;
}

/** The template an entity writes into a key attribute: its binding, or the attribute itself (a natural key). */
function keyTemplateOf(entity: Entity, attribute: string): KeyTemplatePart[] | undefined {
  const binding = Object.hasOwn(entity.keys, attribute) ? entity.keys[attribute] : undefined;
  if (binding) {
    const parsed = parseKeyTemplate(binding.template);
    return parsed.ok ? parsed.value.parts : undefined;
  }
  return entity.attributes.some((a) => a.name === attribute) ? [{ kind: 'attribute', name: attribute }] : undefined;
}

/** A saved query's filters as a Keyplan filter, when they are comparisons of the entity's attributes joined by And. */
function filterOf(raw: unknown, path: string, entity: Entity, log: Log): string | undefined {
  if (raw === undefined) return undefined;
  if (!Array.isArray(raw)) {
    log.warn(path, `${path} is ${describeValue(raw)}; expected a list of filters, so the query has no filter.`);
    return undefined;
  }
  if (raw.length === 0) return undefined;
  const clauses: ConditionClause[] = [];
  const skip = (message: string): undefined => {
    log.drop(path, `The filters are not kept: ${message}`);
    return undefined;
  };
  const lower = (v: unknown): string => (typeof v === 'string' ? v.toLowerCase() : '');
  // Equal filters on one field joined by Or (how toOneTable writes IN): one IN clause.
  const first = raw[0];
  const isOneOf =
    raw.length > 1 &&
    isRecord(first) &&
    raw.every((f, i) => isRecord(f) && own(f, 'field') === own(first, 'field') && lower(own(f, 'operation')) === 'equal' && (i === 0 || lower(own(f, 'combine')) === 'or'));
  if (isOneOf) {
    const field = own(first, 'field');
    const attribute = entity.attributes.find((a) => a.name === field);
    const values = raw.map((f) => (isRecord(f) ? own(f, 'value') : undefined));
    const isTyped = (v: unknown): v is ConditionValue =>
      attribute?.type === 'N' ? typeof v === 'number' && Number.isFinite(v) : attribute?.type === 'BOOL' ? typeof v === 'boolean' : attribute?.type === 'S' && typeof v === 'string';
    if (typeof field !== 'string' || !attribute || !values.every(isTyped)) return skip(`the Or filters on ${describeValue(field)} do not compare an attribute of ${entity.name} with values of its type.`);
    return formatCondition([{ kind: 'in', attribute: field, values }]);
  }
  for (let i = 0; i < raw.length; i += 1) {
    const f: unknown = raw[i];
    if (!isRecord(f)) return skip(`filter ${i + 1} is ${describeValue(f)}, not a filter object.`);
    const field = own(f, 'field');
    const operation = own(f, 'operation');
    const combine = own(f, 'combine');
    if (typeof field !== 'string' || typeof operation !== 'string') return skip(`filter ${i + 1} has no "field" or no "operation".`);
    if (i > 0 && typeof combine === 'string' && combine.toLowerCase() !== 'and') return skip(`filter ${i + 1} is combined with ${quote(combine)}; Keyplan's filters join comparisons with AND only.`);
    const attribute = entity.attributes.find((a) => a.name === field);
    if (!attribute) return skip(`filter ${i + 1} tests ${quote(field)}, which is not an attribute of ${entity.name}.`);
    const op = lookup(FILTER_OPERATORS, operation.toLowerCase());
    if (op === undefined) return skip(`filter ${i + 1} uses ${quote(operation)}; Keyplan's filters compare (=, <>, <, <=, >, >=) or test existence.`);
    if (op === 'exists' || op === 'notExists') {
      clauses.push({ kind: op, attribute: field });
      continue;
    }
    const rawValue = own(f, 'value');
    let value: ConditionValue | undefined;
    if (attribute.type === 'N') value = typeof rawValue === 'number' ? rawValue : typeof rawValue === 'string' && rawValue.trim() !== '' && Number.isFinite(Number(rawValue)) ? Number(rawValue) : undefined;
    else if (attribute.type === 'BOOL') value = rawValue === true || rawValue === 'true' ? true : rawValue === false || rawValue === 'false' ? false : undefined;
    else if (attribute.type === 'S') value = typeof rawValue === 'string' ? rawValue : typeof rawValue === 'number' || typeof rawValue === 'boolean' ? String(rawValue) : undefined;
    if (value === undefined || (typeof value === 'number' && !Number.isFinite(value))) return skip(`filter ${i + 1} compares ${quote(field)}, ${attribute.type === 'S' ? 'a string' : `an ${attribute.type} attribute`}, with ${describeValue(rawValue)}.`);
    clauses.push({ kind: 'compare', attribute: field, operator: op, value });
  }
  return formatCondition(clauses);
}

function readQuery(name: string, q: unknown, ctx: QueryContext): { pattern: AccessPattern; path: string } | undefined {
  const { log } = ctx;
  const path = joinPath('queries', name);
  if (!isRecord(q)) {
    log.warn(path, `${path} is ${describeValue(q)}, not a saved query; it is skipped.`);
    return undefined;
  }
  const type = own(q, 'type');
  if (typeof type === 'string' && type.toLowerCase() === 'scan') {
    log.drop(path, 'The saved query is a Scan; Keyplan\'s access patterns read by key (a Scan is what the planner falls back to), so it is skipped.');
    return undefined;
  }
  const indexName = own(q, 'index') ?? 'primary';
  if (own(q, 'index') === undefined) log.infer(path, 'The saved query names no index; it is read as a query of the primary index.');
  const index = ctx.indexes.find((i) => i.name === indexName);
  if (!index) {
    log.warn(joinPath(path, 'index'), `The saved query names the index ${shownValue(indexName)}, which is not in "indexes"; it is skipped.`);
    return undefined;
  }
  const hash = own(q, 'hash');
  if ((typeof hash !== 'string' || hash === '') && typeof hash !== 'number') {
    log.warn(joinPath(path, 'hash'), `The saved query's partition key value is ${describeValue(hash)}; expected the value to query, so it is skipped.`);
    return undefined;
  }
  const sortRaw = own(q, 'sort');
  const sort = typeof sortRaw === 'string' || typeof sortRaw === 'number' ? String(sortRaw) : '';
  const operationRaw = own(q, 'operation');
  let operator: RangeOperator = '=';
  if (sort !== '') {
    const op = typeof operationRaw === 'string' ? lookup(OPERATIONS, operationRaw.toLowerCase()) : undefined;
    if (op === undefined) {
      log.warn(joinPath(path, 'operation'), `The saved query's operation is ${shownValue(operationRaw)}; expected one of Equal, Less than, Less than or equal, Greater than or equal, Greater than, Begins with, Between. The sort key value is read as a prefix.`);
      operator = 'begins_with';
    } else operator = op;
  }
  const modelName = own(q, 'model');
  let candidates = ctx.entities;
  if (modelName !== undefined) {
    candidates = ctx.entities.filter((e) => e.name === modelName);
    if (candidates.length === 0) {
      log.warn(joinPath(path, 'model'), `The saved query names the model ${shownValue(modelName)}, which is not in "models"; it is skipped.`);
      return undefined;
    }
  }
  const matches: Array<{ entity: Entity; known: string[]; range?: { attribute: string; operator: RangeOperator }; isWholeKey: boolean }> = [];
  for (const entity of candidates) {
    const hashParts = keyTemplateOf(entity, index.hash);
    const hashMatch = hashParts ? matchKey(hashParts, String(hash), '=') : undefined;
    if (!hashMatch) continue;
    const known = [...hashMatch.known];
    let range: { attribute: string; operator: RangeOperator } | undefined;
    let isWholeKey = index.sort === undefined;
    if (index.sort !== undefined && sort !== '') {
      const sortParts = keyTemplateOf(entity, index.sort);
      const sortMatch = sortParts ? matchKey(sortParts, sort, operator) : undefined;
      if (!sortMatch) continue;
      for (const k of sortMatch.known) if (!known.includes(k) && k !== sortMatch.rangeOn) known.push(k);
      if (operator === '=') isWholeKey = sortMatch.isComplete;
      else if (sortMatch.rangeOn !== undefined) range = { attribute: sortMatch.rangeOn, operator };
    }
    matches.push({ entity, known, ...(range ? { range } : {}), isWholeKey });
  }
  const chosen = matches[0];
  if (!chosen) {
    const which = modelName !== undefined ? `the templates of ${quote(String(modelName))}` : 'the templates of any model';
    log.warn(path, `The saved query's key values (${quote(String(hash))}${sort !== '' ? `, ${quote(sort)}` : ''}) do not fit ${which} on index ${quote(index.name)}; it is skipped.`);
    return undefined;
  }
  if (matches.length > 1) {
    log.infer(path, `The key values fit ${matches.map((m) => quote(m.entity.name)).join(', ')}; a Keyplan pattern reads one entity, so it reads ${quote(chosen.entity.name)} (name the model in the query to choose).`);
  }
  const isGet = index.kind === 'primary' && chosen.isWholeKey && chosen.range === undefined;
  const pattern: AccessPattern = {
    id: uniqueName(`ap-${ctx.tableSlug}-${slug(name)}`, ctx.ids),
    name: name.trim() === '' ? `Saved query ${ctx.table.accessPatterns.length + 1}` : name,
    entityId: chosen.entity.id,
    action: isGet ? 'get' : 'query',
    known: chosen.known,
    ratePerSecond: ONETABLE_DEFAULT_RATE_PER_SECOND,
    consistency: 'eventual',
  };
  if (chosen.range) pattern.range = chosen.range;
  const limit = own(q, 'limit');
  if (!isGet && typeof limit === 'number' && Number.isInteger(limit) && limit > 0) {
    pattern.resultSize = limit;
    log.infer(joinPath(path, 'limit'), `limit ${limit} is read as the result size: at most ${formatCount(limit)} ${limit === 1 ? 'item' : 'items'} per request.`);
  }
  const filter = filterOf(own(q, 'filters'), joinPath(path, 'filters'), chosen.entity, log);
  if (filter !== undefined) pattern.filter = filter;
  log.infer(path, `A saved query holds no rate or consistency: ${ONETABLE_DEFAULT_RATE_PER_SECOND} request per second, eventually consistent.`);
  for (const key of Object.keys(q)) {
    if (['hash', 'sort', 'index', 'limit', 'operation', 'model', 'type', 'filters', 'schema', 'name'].includes(key)) continue;
    log.warn(joinPath(path, key), `${key} is not a saved-query property the OneTable schema specification defines; it is ignored.`);
  }
  return { pattern, path };
}

// ---------------------------------------------------------------------------------------------
// The entry point
// ---------------------------------------------------------------------------------------------

/** What a JSON value that is not a OneTable schema looks like, for the one problem about it. */
function describeOther(json: unknown): string {
  if (!isRecord(json)) return describeValue(json);
  if ('formatVersion' in json && ('tables' in json || 'table' in json)) return 'a Keyplan design';
  if ('DataModel' in json || 'ModelName' in json) return 'a NoSQL Workbench model';
  if ('AWSTemplateFormatVersion' in json || 'Resources' in json) return 'a CloudFormation template';
  if ('Table' in json && isRecord(json.Table)) return 'describe-table output';
  if ('TableName' in json && 'KeySchema' in json) return 'a CreateTable input';
  const keys = Object.keys(json);
  return keys.length === 0 ? 'an empty object' : `an object with ${keys.slice(0, 6).map(quote).join(', ')}${keys.length > 6 ? ', …' : ''}`;
}

/** The design's and the table's names that `toOneTable` keeps under `extensions.keyplan`. */
function readExtension(schema: Json, log: Log): { designName?: string; tableName?: string } {
  const extensions = own(schema, 'extensions');
  if (extensions === undefined) return {};
  if (!isRecord(extensions)) {
    log.warn('extensions', `extensions is ${describeValue(extensions)}, not an object; it is ignored.`);
    return {};
  }
  const out: { designName?: string; tableName?: string } = {};
  for (const [key, value] of Object.entries(extensions)) {
    if (key !== ONETABLE_EXTENSION) {
      log.drop(joinPath('extensions', key), `The extension ${quote(key)} belongs to another tool; Keyplan does not read it.`);
      continue;
    }
    if (!isRecord(value)) continue;
    const designName = own(value, 'designName');
    const tableName = own(value, 'tableName');
    if (typeof designName === 'string' && designName.trim() !== '') out.designName = designName;
    if (typeof tableName === 'string' && tableName.trim() !== '') out.tableName = tableName;
  }
  return out;
}

/**
 * Reads a OneTable schema (a parsed JSON value) as a Keyplan design of one table;
 * see the module comment for the mapping. Returns the design with notes (each with its path in the
 * schema: what was inferred, dropped or skipped), or every problem that stops the import, with its
 * path in the schema: `onetable.notSchema`, `onetable.unsupportedFormat`,
 * `onetable.schema` (`indexes`, `indexes.primary`, a model or field that is not an object …),
 * `onetable.keyType`, and the `model.*` / `keyTemplate.*` rules of the design it builds, mapped to
 * the schema's paths (`details.designPath` keeps the design's). A saved query the design's rules
 * refuse is skipped with a warning instead. Deterministic; never throws.
 */
export function fromOneTable(json: unknown): ImportResult {
  const input = json;
  const expected = 'an object with "indexes" and "models", as a OneTable schema has';
  if (!isRecord(input) || (!Object.hasOwn(input, 'indexes') && !Object.hasOwn(input, 'models'))) {
    const found = describeOther(input);
    return fail([{ code: 'onetable.notSchema', path: '', message: `This is not a OneTable schema: expected ${expected}; found ${found}.`, found, expected }]);
  }
  const schema = input;
  const log = new Log();
  const format = own(schema, 'format');
  if (format !== undefined && (typeof format !== 'string' || !FORMAT_PATTERN.test(format))) {
    const found = describeValue(format);
    log.problem('onetable.unsupportedFormat', 'format', `format is ${found}; expected "onetable:1.0.0" or "onetable:1.1.0" (any onetable:1.x).`, found, 'onetable:1.x.y');
  } else if (format === undefined) {
    log.infer('format', 'The schema has no "format"; it is read as onetable:1.1.0.');
  }
  const version = own(schema, 'version');
  if (version !== undefined && typeof version !== 'string') log.warn('version', `version is ${describeValue(version)}; expected the schema's SemVer version as text. It is not read.`);

  const params = readParams(schema, log);
  const indexes = readIndexes(schema, log);
  const models = readModels(schema, params, log);
  const keyTypes = indexes.length > 0 ? readKeyTypes(indexes, models, log) : new Map<string, KeyAttributeType>();
  if (log.problems.length > 0) return fail(log.problems);

  for (const key of Object.keys(schema)) {
    if (['format', 'version', 'indexes', 'models', 'params', 'queries', 'extensions', 'name', 'description'].includes(key)) continue;
    const value = schema[key];
    if (key === 'items') {
      if (Array.isArray(value) && value.length > 0) log.drop('items', `The ${value.length} sample ${value.length === 1 ? 'item is' : 'items are'} not read: Keyplan generates sample data from the entities.`);
    } else if (key === 'process') log.drop('process', 'process is the SenseDeep app\'s own record; Keyplan does not read it.');
    else log.warn(key, `${key} is not a top-level property the OneTable schema specification defines; it is ignored.`);
  }

  if (models.length > 0) {
    if (!keyTypes.has(params.typeField)) log.infer(own(schema, 'params') === undefined ? '' : 'params.typeField', `Every entity has the type field ${quote(params.typeField)}, an S attribute holding its model's name, as OneTable writes it on every item.`);
    if (params.timestampFields.length > 0) log.infer('params.timestamps', `params.timestamps adds ${params.timestampFields.map(quote).join(' and ')} to every model: each entity has ${params.timestampFields.length === 1 ? 'it' : 'them'} as a date.`);
    if (models.some((m) => m.fields.some((f) => f.type === 'date' && !f.isTtl)) || params.timestampFields.length > 0) {
      log.infer(
        own(schema, 'params') === undefined ? '' : 'params.isoDates',
        params.isoDates
          ? 'Dates are stored as ISO 8601 text (params.isoDates is true): date fields are S attributes.'
          : 'Dates are stored as numbers of milliseconds since 1970 (params.isoDates is not true): date fields are N attributes.',
      );
    }
  }
  const names = readExtension(schema, log);
  const schemaName = own(schema, 'name');
  const designName = names.designName ?? (typeof schemaName === 'string' && schemaName.trim() !== '' && schemaName !== 'Current' ? schemaName : ONETABLE_DEFAULT_DESIGN_NAME);
  const tableName = names.tableName ?? ONETABLE_DEFAULT_TABLE_NAME;
  if (names.tableName === undefined) log.infer('', `A OneTable schema does not name its table (OneTable takes the name from new Table({ name })); the table is called ${tableName}.`);
  log.infer('', 'A OneTable schema holds no billing mode or table class: the table is on-demand, Standard class, as OneTable\'s createTable makes it.');

  const ids = new Set<string>();
  const tableSlug = slug(tableName);
  const map: PathMap = [['name', ''], ['tables[0]', ''], ['tables[0].name', '']];
  const keyAttribute = (name: string): KeyAttribute => ({ name, type: keyTypes.get(name) ?? 'S' });
  const primary = indexes[0] as IndexRead;
  map.push(['tables[0].partitionKey', 'indexes.primary.hash']);
  if (primary.sort !== undefined) map.push(['tables[0].sortKey', 'indexes.primary.sort']);
  const gsis: GlobalSecondaryIndex[] = [];
  const lsis: LocalSecondaryIndex[] = [];
  for (const i of indexes) {
    if (i.kind === 'gsi') {
      const gp = joinPath('tables[0].globalSecondaryIndexes', gsis.length);
      map.push([gp, i.path], [joinPath(gp, 'partitionKey'), joinPath(i.path, 'hash')], [joinPath(gp, 'sortKey'), joinPath(i.path, 'sort')], [joinPath(gp, 'projection'), joinPath(i.path, 'project')]);
      gsis.push({ id: uniqueName(`gsi-${tableSlug}-${slug(i.name)}`, ids), name: i.name, partitionKey: keyAttribute(i.hash), ...(i.sort !== undefined ? { sortKey: keyAttribute(i.sort) } : {}), projection: i.projection });
    } else if (i.kind === 'lsi') {
      const lp = joinPath('tables[0].localSecondaryIndexes', lsis.length);
      map.push([lp, i.path], [joinPath(lp, 'sortKey'), joinPath(i.path, 'sort')], [joinPath(lp, 'projection'), joinPath(i.path, 'project')]);
      lsis.push({ id: uniqueName(`lsi-${tableSlug}-${slug(i.name)}`, ids), name: i.name, sortKey: keyAttribute(i.sort as string), projection: i.projection });
    }
  }
  const table: Table = {
    id: uniqueName(`tbl-${tableSlug}`, ids),
    name: tableName,
    partitionKey: keyAttribute(primary.hash),
    ...(primary.sort !== undefined ? { sortKey: keyAttribute(primary.sort) } : {}),
    billing: { mode: 'ON_DEMAND' },
    tableClass: 'STANDARD',
    globalSecondaryIndexes: gsis,
    localSecondaryIndexes: lsis,
    entities: [],
    accessPatterns: [],
  };
  models.forEach((m) => {
    const ep = joinPath('tables[0].entities', table.entities.length);
    const { entity, paths } = buildEntity(m, indexes, keyTypes, params, ids, tableSlug, log);
    map.push([ep, m.path], [joinPath(ep, 'name'), m.path]);
    for (const [d, s] of paths) map.push([`${ep}.${d}`, s]);
    table.entities.push(entity);
  });

  // TTL: the first field marked ttl (a date or number) names the table's TTL attribute.
  const ttlFields = models.flatMap((m) => m.fields.filter((f) => f.isTtl && (f.type === 'date' || f.type === 'number') && !keyTypes.has(f.attribute)));
  const [ttl] = ttlFields;
  if (ttl) {
    table.ttlAttribute = ttl.name;
    map.push(['tables[0].ttlAttribute', joinPath(ttl.path, 'ttl')]);
    for (const other of ttlFields.slice(1)) {
      if (other.name !== ttl.name) log.warn(joinPath(other.path, 'ttl'), `A table has one TTL attribute, ${quote(ttl.name)} (${ttl.path}); ${quote(other.name)} is not it.`);
    }
  }

  const queries = own(schema, 'queries');
  const patternPaths: string[] = [];
  if (queries !== undefined && !isRecord(queries)) log.warn('queries', `queries is ${describeValue(queries)}, not an object of saved queries; it is skipped.`);
  else if (queries !== undefined) {
    const ctx: QueryContext = { table, indexes, models, entities: table.entities, ids, tableSlug, log };
    for (const [name, q] of Object.entries(queries)) {
      const read = readQuery(name, q, ctx);
      if (!read) continue;
      table.accessPatterns.push(read.pattern);
      patternPaths.push(read.path);
    }
  }

  const design: Design = { formatVersion: FORMAT_VERSION, id: uniqueName(`design-${slug(designName)}`, ids), name: designName, tables: [table] };
  const description = own(schema, 'description');
  if (typeof description === 'string' && description.trim() !== '') design.description = description;

  let parsed = parseDesign(JSON.parse(JSON.stringify(design)));
  const prefix = 'tables[0].accessPatterns[';
  const patternOf = (path: string): number | undefined => (path.startsWith(prefix) ? Number(path.slice(prefix.length, path.indexOf(']', prefix.length))) : undefined);
  if (!parsed.ok && parsed.errors.every((p) => patternOf(p.path) !== undefined)) {
    // Only saved queries break the design's rules: they are skipped, not a reason to refuse the schema.
    const refused = new Set<number>();
    for (const p of parsed.errors) {
      const k = patternOf(p.path) as number;
      refused.add(k);
      log.warn(patternPaths[k] ?? 'queries', `The saved query is skipped: ${p.message}`);
    }
    table.accessPatterns = table.accessPatterns.filter((_, k) => !refused.has(k));
    patternPaths.splice(0, patternPaths.length, ...patternPaths.filter((_, k) => !refused.has(k)));
    parsed = parseDesign(JSON.parse(JSON.stringify(design)));
  }
  patternPaths.forEach((path, k) => map.push([joinPath('tables[0].accessPatterns', k), path]));
  if (!parsed.ok) return fail(parsed.errors.map((p) => ({ ...p, path: mapPath(map, p.path), details: { designPath: p.path } })));
  return ok({ design, notes: log.notes });
}
