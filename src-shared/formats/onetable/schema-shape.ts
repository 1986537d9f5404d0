/**
 * OneTable import, step one: the schema's shape. Reads `params`, `indexes` (the primary index, GSIs
 * and LSIs with their projections) and `models` (each field's type, the attribute it is stored in, its
 * value template), and the type of each key attribute from the fields stored in it. See `import.ts`
 * for the mapping in full.
 */
import type { KeyAttributeType, Projection } from '../../model/index.ts';
import { describeValue, joinPath } from '../../model/index.ts';
import { ONETABLE_DEFAULT_TYPE_FIELD } from './defaults.ts';
import { isRecord, own, quote, type Json, type Log } from './import-log.ts';

/** The field types OneTable accepts (src/Model.js `ValidTypes`), lower case. */
const FIELD_TYPES = ['array', 'arraybuffer', 'binary', 'boolean', 'buffer', 'date', 'number', 'object', 'set', 'string'] as const;
/** A field type, lower case as OneTable compares them. */
export type FieldType = (typeof FIELD_TYPES)[number];

/** OneTable's own models, which a schema read back from a table holds (src/Schema.js): not application entities. */
const INTERNAL_MODELS = ['_Schema', '_Migration', '_Unique', '_Generic'];

/** The schema parameters the import reads. */
export interface Params {
  typeField: string;
  isoDates: boolean;
  /** The timestamp fields OneTable adds to every model. */
  timestampFields: string[];
}

/** One index of `indexes`, as read: the primary index, a GSI or an LSI. */
export interface IndexRead {
  name: string;
  path: string;
  kind: 'primary' | 'gsi' | 'lsi';
  /** The partition key attribute (an LSI's is the table's). */
  hash: string;
  sort?: string;
  projection: Projection;
}

/** One field of a model, as read, with its path in the schema (`models.User.email`). */
export interface FieldRead {
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

/** One model of `models`, as read. */
export interface ModelRead {
  name: string;
  path: string;
  fields: FieldRead[];
}

/** Reads `params`: the type field, ISO dates and timestamps; a warning or `dropped` note for the rest. */
export function readParams(schema: Json, log: Log): Params {
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
export function readIndexes(schema: Json, log: Log): IndexRead[] {
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
export function readModels(schema: Json, params: Params, log: Log): ModelRead[] {
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
export function readKeyTypes(indexes: readonly IndexRead[], models: readonly ModelRead[], log: Log): Map<string, KeyAttributeType> {
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
