/**
 * NoSQL Workbench for DynamoDB data models (the JSON its data modeler imports and exports), both
 * directions: `fromNoSqlWorkbench` reads model versions 1.0, 2.0 and 3.0; `toNoSqlWorkbench` writes
 * version 3.0.
 *
 * Reading. A model is `{ ModelName, ModelMetadata, DataModel: [table …] }`; each table has TableName,
 * KeyAttributes, NonKeyAttributes (name and type), GlobalSecondaryIndexes (key attributes and
 * projection), BillingMode with ProvisionedCapacitySettings, sample items (TableData, in DynamoDB
 * JSON, on the table or on each facet) and facets (TableFacets: FacetName, KeyAttributeAlias,
 * NonKeyAttributes, TableData). Blocks Keyplan has no use for (DataAccess, ModelSchema, auto scaling
 * settings, dates) are ignored. LocalSecondaryIndexes, which Workbench does not write, are read when present.
 *
 * Entities:
 * - One per facet, named by FacetName. Its items are the facet's TableData, plus table-level items
 *   assigned to it (by a type attribute whose value is the facet's name, else by the facet whose
 *   attributes fit the item best). Its attributes are the facet's NonKeyAttributes.
 * - Without facets, from the table's items, grouped by a type attribute when every item has one
 *   (`type`, `entityType`, `entity_type`, `_type`, `__type`, `__typename`, `_et`, `__edb_e__`, in any
 *   case), else by the literal prefix of the partition key (`USER#…` → entity `USER`; items without a
 *   prefix make one entity named after the table). Its attributes are those its items hold. A table
 *   with neither facets nor items gets no entity.
 * - Item count: the number of sample items (0 when none: Workbench's sample data says nothing about
 *   volume, so set real counts after importing).
 * - Attribute types: the type the entity's items hold (when they agree), else the table's
 *   NonKeyAttributes type, else S.
 *
 * Key templates are inferred from the items' key values, split at `#`. A part that is the same word
 * (letters and `_`) in every item is literal text (`PROFILE`, the `USER` of `USER#…`); a part that
 * equals an attribute's value in every item becomes that attribute's placeholder (`{State}#{Date}`);
 * any other part becomes a placeholder of a new attribute, named after the facet's key alias, else the
 * word before it (`USER#…` → `{userId}`), else the key attribute's own name (the attribute holds itself:
 * `{AccountID}`). A table key no item holds becomes `{<key>}`. An entity is in a GSI when some item of
 * it holds all of the index's keys (with no items: when its facet lists them).
 *
 * Billing: BillingMode PROVISIONED with ProvisionedCapacitySettings.ProvisionedThroughput, else
 * on-demand (also when BillingMode is absent, as in version 1.0 and 2.0 models). A provisioned
 * table's GSIs get the table's throughput unless they carry their own ProvisionedThroughput.
 *
 * Ids derive from names (`tbl-<table>`, `gsi-<table>-<index>`, `ent-<table>-<entity>`), so the same
 * model always gives the same design. Every problem carries the path in the model
 * (`DataModel[0].GlobalSecondaryIndexes[1].KeyAttributes.PartitionKey`) and what was found and expected.
 *
 * Writing: one facet per entity (its key aliases name the key templates' placeholder), the table's
 * NonKeyAttributes, GSIs, billing, and a few sample items per facet rendered from the key templates
 * with deterministic sample values (as many as the entity's item count, up to `maxItemsPerEntity`).
 * Not written, because a Workbench model has no place for them: LSIs, TTL, streams, table class,
 * point-in-time recovery, encryption, tags, GSI throughput other than the table's, access patterns.
 * Reading back what was written gives the same design for any design `fromNoSqlWorkbench` produced.
 */
import { parseDynamoDbItem, type AttributeValue } from '../capacity/item-size.ts';
import { fail, ok, type Result } from '../errors.ts';
import { keySlotsOf } from '../model/key-slots.ts';
import { formatKeyTemplate, parseKeyTemplate, PLACEHOLDER_NAME, type KeyTemplatePart } from '../model/key-template.ts';
import type { Problem } from '../model/problems.ts';
import {
  ATTRIBUTE_TYPES,
  FORMAT_VERSION,
  type Attribute,
  type AttributeType,
  type Billing,
  type Design,
  type Entity,
  type GlobalSecondaryIndex,
  type KeyAttribute,
  type KeyAttributeType,
  type KeyBinding,
  type LocalSecondaryIndex,
  type Projection,
  type Table,
} from '../model/schema.ts';
import { describeValue, joinPath, parseDesign } from '../model/validate.ts';
import { setOwn } from './values.ts';
import { sampleItemsOf, WORD } from './sample-items.ts';
import { uniqueName, wellFormed } from './table-spec.ts';

/** Codes of the problems `fromNoSqlWorkbench` raises (besides `item.*` for bad sample values and the `model.*` rules of the design it builds). */
export type WorkbenchErrorCode =
  | 'workbench.notModel'
  | 'workbench.unsupportedVersion'
  | 'workbench.schema'
  | 'workbench.duplicateName'
  | 'workbench.billing'
  | 'workbench.keyValue';

/** The model versions `fromNoSqlWorkbench` reads. */
export const WORKBENCH_VERSIONS = ['1.0', '2.0', '3.0'] as const;
/** The version `toNoSqlWorkbench` writes. */
export const WORKBENCH_EXPORT_VERSION = '3.0';
/** Sample items written per facet unless told otherwise. */
export const DEFAULT_EXPORT_ITEMS_PER_ENTITY = 25;
/** The design's name when the model has none. */
export const DEFAULT_DESIGN_NAME = 'Imported model';

/** Attribute names that mark an item's entity type, compared in lower case. */
const TYPE_ATTRIBUTE_NAMES = ['type', 'entitytype', 'entity_type', '_type', '__type', '__typename', '_et', '__edb_e__'];
const KEY_TYPES: readonly string[] = ['S', 'N', 'B'];
const PROJECTION_TYPES: readonly string[] = ['ALL', 'KEYS_ONLY', 'INCLUDE'];

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const quote = (s: string): string => JSON.stringify(s);

// ---------------------------------------------------------------------------------------------
// Reading the model's shape
// ---------------------------------------------------------------------------------------------

/** Collects shape problems while reading fields of the model. */
class Reader {
  readonly problems: Problem[] = [];

  add(code: WorkbenchErrorCode, path: string, message: string, found: string, expected: string): void {
    this.problems.push({ code, path, message, found, expected });
  }

  /** A required (or, with `isOptional`, optional) string field. */
  string(obj: Json, key: string, path: string, isOptional = false): string | undefined {
    const v = obj[key];
    if (v === undefined && isOptional) return undefined;
    if (typeof v === 'string') return v;
    const p = joinPath(path, key);
    this.add('workbench.schema', p, `${p} is ${describeValue(v)}; expected text.`, describeValue(v), 'text');
    return undefined;
  }

  object(obj: Json, key: string, path: string, isOptional = false): Json | undefined {
    const v = obj[key];
    if (v === undefined && isOptional) return undefined;
    if (isRecord(v)) return v;
    const p = joinPath(path, key);
    this.add('workbench.schema', p, `${p} is ${describeValue(v)}; expected an object.`, describeValue(v), 'an object');
    return undefined;
  }

  array(obj: Json, key: string, path: string): unknown[] | undefined {
    const v = obj[key];
    if (v === undefined) return undefined;
    if (Array.isArray(v)) return v;
    const p = joinPath(path, key);
    this.add('workbench.schema', p, `${p} is ${describeValue(v)}; expected a list.`, describeValue(v), 'a list');
    return undefined;
  }

  oneOf(obj: Json, key: string, path: string, allowed: readonly string[], what: string): string | undefined {
    const v = obj[key];
    if (typeof v === 'string' && allowed.includes(v)) return v;
    const p = joinPath(path, key);
    const expected = `${what}: ${allowed.join(', ')}`;
    this.add('workbench.schema', p, `${p} is ${describeValue(v)}; expected ${expected}.`, describeValue(v), expected);
    return undefined;
  }

  /** A whole number ≥ 1 (capacity units). */
  units(obj: Json, key: string, path: string): number | undefined {
    const v = obj[key];
    if (typeof v === 'number' && Number.isInteger(v) && v >= 1) return v;
    const p = joinPath(path, key);
    this.add('workbench.billing', p, `${p} is ${describeValue(v)}; expected a whole number of capacity units ≥ 1.`, describeValue(v), 'a whole number ≥ 1');
    return undefined;
  }
}

interface KeyAttributesRead {
  partitionKey: KeyAttribute;
  sortKey?: KeyAttribute;
}

function readKeyAttribute(r: Reader, raw: Json, key: 'PartitionKey' | 'SortKey', path: string): KeyAttribute | undefined {
  const obj = r.object(raw, key, path, key === 'SortKey');
  if (!obj) return undefined;
  const p = joinPath(path, key);
  const name = r.string(obj, 'AttributeName', p);
  const type = r.oneOf(obj, 'AttributeType', p, KEY_TYPES, 'a key attribute type') as KeyAttributeType | undefined;
  return name !== undefined && type !== undefined ? { name, type } : undefined;
}

function readKeyAttributes(r: Reader, owner: Json, path: string): KeyAttributesRead | undefined {
  const raw = r.object(owner, 'KeyAttributes', path);
  if (!raw) return undefined;
  const p = joinPath(path, 'KeyAttributes');
  const before = r.problems.length;
  const partitionKey = readKeyAttribute(r, raw, 'PartitionKey', p);
  const sortKey = raw.SortKey === undefined ? undefined : readKeyAttribute(r, raw, 'SortKey', p);
  if (!partitionKey || r.problems.length > before) return undefined;
  return sortKey ? { partitionKey, sortKey } : { partitionKey };
}

function readProjection(r: Reader, owner: Json, path: string): Projection | undefined {
  const raw = r.object(owner, 'Projection', path);
  if (!raw) return undefined;
  const p = joinPath(path, 'Projection');
  const type = r.oneOf(raw, 'ProjectionType', p, PROJECTION_TYPES, 'a projection type');
  if (type === undefined) return undefined;
  if (type !== 'INCLUDE') return { type: type as 'ALL' | 'KEYS_ONLY' };
  const names = r.array(raw, 'NonKeyAttributes', p) ?? [];
  const np = joinPath(p, 'NonKeyAttributes');
  const nonKeyAttributes: string[] = [];
  names.forEach((n, k) => {
    if (typeof n === 'string') nonKeyAttributes.push(n);
    else r.add('workbench.schema', joinPath(np, k), `${joinPath(np, k)} is ${describeValue(n)}; expected an attribute name.`, describeValue(n), 'an attribute name');
  });
  return { type: 'INCLUDE', nonKeyAttributes };
}

interface IndexRead {
  name: string;
  keys: KeyAttributesRead;
  projection: Projection;
  throughput?: { readCapacityUnits: number; writeCapacityUnits: number };
  path: string;
}

function readIndexes(r: Reader, raw: Json, key: 'GlobalSecondaryIndexes' | 'LocalSecondaryIndexes', path: string): IndexRead[] {
  const list = r.array(raw, key, path) ?? [];
  const lp = joinPath(path, key);
  const out: IndexRead[] = [];
  const names = new Map<string, number>();
  list.forEach((item, k) => {
    const ip = joinPath(lp, k);
    if (!isRecord(item)) {
      r.add('workbench.schema', ip, `${ip} is ${describeValue(item)}; expected an index object.`, describeValue(item), 'an object with IndexName, KeyAttributes and Projection');
      return;
    }
    const name = r.string(item, 'IndexName', ip);
    const keys = readKeyAttributes(r, item, ip);
    const projection = readProjection(r, item, ip);
    let throughput: IndexRead['throughput'];
    const pt = r.object(item, 'ProvisionedThroughput', ip, true);
    if (pt) {
      const tp = joinPath(ip, 'ProvisionedThroughput');
      const read = r.units(pt, 'ReadCapacityUnits', tp);
      const write = r.units(pt, 'WriteCapacityUnits', tp);
      if (read !== undefined && write !== undefined) throughput = { readCapacityUnits: read, writeCapacityUnits: write };
    }
    if (name !== undefined) {
      const first = names.get(name);
      if (first !== undefined) {
        const np = joinPath(ip, 'IndexName');
        r.add('workbench.duplicateName', np, `${np} is ${quote(name)}, the name of ${joinPath(lp, first)} too; expected unique index names.`, quote(name), 'a name no other index of the table has');
      } else names.set(name, k);
    }
    if (name === undefined || !keys || !projection) return;
    out.push({ name, keys, projection, path: ip, ...(throughput ? { throughput } : {}) });
  });
  return out;
}

/** One sample item with its values parsed; `{}` (a cell Workbench left empty) is dropped. */
interface Row {
  values: Map<string, AttributeValue>;
  path: string;
}

function readRows(r: Reader, owner: Json, path: string): Row[] | undefined {
  const list = r.array(owner, 'TableData', path);
  if (!list) return undefined;
  const lp = joinPath(path, 'TableData');
  const rows: Row[] = [];
  list.forEach((raw, k) => {
    const rp = joinPath(lp, k);
    if (!isRecord(raw)) {
      r.add('workbench.schema', rp, `${rp} is ${describeValue(raw)}; expected an item in DynamoDB JSON.`, describeValue(raw), 'an object of attribute values such as {"id": {"S": "a"}}');
      return;
    }
    const kept: Json = {};
    for (const [name, value] of Object.entries(raw)) {
      if (isRecord(value) && Object.keys(value).length === 0) continue;
      setOwn(kept, name, value);
    }
    const parsed = parseDynamoDbItem(kept, rp);
    if (!parsed.ok) {
      r.problems.push(...parsed.errors);
      return;
    }
    rows.push({ values: new Map(Object.entries(parsed.value)), path: rp });
  });
  return rows;
}

interface FacetRead {
  name: string;
  path: string;
  partitionKeyAlias?: string;
  sortKeyAlias?: string;
  nonKeyAttributes: string[];
  rows: Row[];
}

interface TableRead {
  path: string;
  name: string;
  keys: KeyAttributesRead;
  /** Declared types of non-key attributes (NonKeyAttributes), in order. */
  declared: Map<string, AttributeType>;
  gsis: IndexRead[];
  lsis: IndexRead[];
  billing: Billing;
  billingPath: string;
  facets: FacetRead[] | undefined;
  rows: Row[];
}

function readBilling(r: Reader, raw: Json, path: string): Billing {
  const mode = raw.BillingMode;
  if (mode === undefined || mode === 'PAY_PER_REQUEST') return { mode: 'ON_DEMAND' };
  const mp = joinPath(path, 'BillingMode');
  if (mode !== 'PROVISIONED') {
    r.add('workbench.billing', mp, `${mp} is ${describeValue(mode)}; expected PROVISIONED or PAY_PER_REQUEST.`, describeValue(mode), 'PROVISIONED or PAY_PER_REQUEST');
    return { mode: 'ON_DEMAND' };
  }
  const cp = joinPath(path, 'ProvisionedCapacitySettings');
  const settings = raw.ProvisionedCapacitySettings;
  const throughput = isRecord(settings) ? settings.ProvisionedThroughput : undefined;
  if (!isRecord(throughput)) {
    const tp = joinPath(cp, 'ProvisionedThroughput');
    r.add(
      'workbench.billing',
      tp,
      `${mp} is PROVISIONED but ${tp} is ${describeValue(throughput)}; expected {"ReadCapacityUnits": n, "WriteCapacityUnits": n}.`,
      describeValue(throughput),
      'ReadCapacityUnits and WriteCapacityUnits',
    );
    return { mode: 'ON_DEMAND' };
  }
  const tp = joinPath(cp, 'ProvisionedThroughput');
  const read = r.units(throughput, 'ReadCapacityUnits', tp);
  const write = r.units(throughput, 'WriteCapacityUnits', tp);
  return read !== undefined && write !== undefined ? { mode: 'PROVISIONED', readCapacityUnits: read, writeCapacityUnits: write } : { mode: 'ON_DEMAND' };
}

function readFacets(r: Reader, raw: Json, path: string, tableName: string): FacetRead[] | undefined {
  const list = r.array(raw, 'TableFacets', path);
  if (!list) return undefined;
  const lp = joinPath(path, 'TableFacets');
  const facets: FacetRead[] = [];
  const names = new Map<string, number>();
  list.forEach((item, k) => {
    const fp = joinPath(lp, k);
    if (!isRecord(item)) {
      r.add('workbench.schema', fp, `${fp} is ${describeValue(item)}; expected a facet object.`, describeValue(item), 'an object with FacetName and KeyAttributeAlias');
      return;
    }
    let name = r.string(item, 'FacetName', fp);
    // `toNoSqlWorkbench` writes <table>.<entity> where two tables have an entity of one name
    // (Workbench wants facet names unique in the model).
    if (name !== undefined && name.startsWith(`${tableName}.`) && name.length > tableName.length + 1) name = name.slice(tableName.length + 1);
    const alias = r.object(item, 'KeyAttributeAlias', fp, true);
    const ap = joinPath(fp, 'KeyAttributeAlias');
    const partitionKeyAlias = alias ? r.string(alias, 'PartitionKeyAlias', ap, true) : undefined;
    const sortKeyAlias = alias ? r.string(alias, 'SortKeyAlias', ap, true) : undefined;
    const nonKey = r.array(item, 'NonKeyAttributes', fp) ?? [];
    const np = joinPath(fp, 'NonKeyAttributes');
    const nonKeyAttributes: string[] = [];
    nonKey.forEach((n, m) => {
      if (typeof n === 'string') {
        if (!nonKeyAttributes.includes(n)) nonKeyAttributes.push(n);
      } else r.add('workbench.schema', joinPath(np, m), `${joinPath(np, m)} is ${describeValue(n)}; expected an attribute name.`, describeValue(n), 'an attribute name');
    });
    const rows = readRows(r, item, fp) ?? [];
    if (name === undefined) return;
    const first = names.get(name);
    if (first !== undefined) {
      const np2 = joinPath(fp, 'FacetName');
      r.add('workbench.duplicateName', np2, `${np2} is ${quote(name)}, the name of ${joinPath(lp, first)} too; expected unique facet names.`, quote(name), 'a name no other facet has');
      return;
    }
    names.set(name, k);
    const facet: FacetRead = { name, path: fp, nonKeyAttributes, rows };
    if (partitionKeyAlias !== undefined) facet.partitionKeyAlias = partitionKeyAlias;
    if (sortKeyAlias !== undefined) facet.sortKeyAlias = sortKeyAlias;
    facets.push(facet);
  });
  return facets;
}

function readTable(r: Reader, raw: unknown, path: string): TableRead | undefined {
  if (!isRecord(raw)) {
    r.add('workbench.schema', path, `${path} is ${describeValue(raw)}; expected a table object.`, describeValue(raw), 'an object with TableName and KeyAttributes');
    return undefined;
  }
  const before = r.problems.length;
  const name = r.string(raw, 'TableName', path);
  const keys = readKeyAttributes(r, raw, path);
  const declared = new Map<string, AttributeType>();
  const nonKey = r.array(raw, 'NonKeyAttributes', path) ?? [];
  nonKey.forEach((a, k) => {
    const ap = joinPath(joinPath(path, 'NonKeyAttributes'), k);
    if (!isRecord(a)) {
      r.add('workbench.schema', ap, `${ap} is ${describeValue(a)}; expected {"AttributeName": …, "AttributeType": …}.`, describeValue(a), 'an object with AttributeName and AttributeType');
      return;
    }
    const n = r.string(a, 'AttributeName', ap);
    const t = r.oneOf(a, 'AttributeType', ap, ATTRIBUTE_TYPES, 'a DynamoDB type') as AttributeType | undefined;
    if (n !== undefined && t !== undefined && !declared.has(n)) declared.set(n, t);
  });
  const gsis = readIndexes(r, raw, 'GlobalSecondaryIndexes', path);
  const lsis = readIndexes(r, raw, 'LocalSecondaryIndexes', path);
  const billing = readBilling(r, raw, path);
  const facets = readFacets(r, raw, path, name ?? '');
  const rows = readRows(r, raw, path) ?? [];
  if (name === undefined || !keys || r.problems.length > before) return undefined;
  // Key values must be of the key's type (an empty S is Workbench's empty cell: no value).
  const keyTypes = new Map<string, KeyAttributeType>();
  for (const k of [keys.partitionKey, keys.sortKey, ...gsis.flatMap((g) => [g.keys.partitionKey, g.keys.sortKey]), ...lsis.map((l) => l.keys.sortKey)]) {
    if (k && !keyTypes.has(k.name)) keyTypes.set(k.name, k.type);
  }
  for (const row of [...rows, ...(facets ?? []).flatMap((f) => f.rows)]) {
    for (const [k, type] of keyTypes) {
      const v = row.values.get(k);
      if (v === undefined || typeOf(v) === type) continue;
      const vp = joinPath(row.path, k);
      r.add('workbench.keyValue', vp, `${vp} is ${typeOf(v)}, but ${quote(k)} is a key attribute of type ${type}; expected a value of type ${type}.`, typeOf(v), type);
    }
  }
  if (r.problems.length > before) return undefined;
  const billingPath = raw.BillingMode === 'PROVISIONED' ? joinPath(joinPath(path, 'ProvisionedCapacitySettings'), 'ProvisionedThroughput') : joinPath(path, 'BillingMode');
  return { path, name, keys, declared, gsis, lsis, billing, billingPath, facets, rows };
}

// ---------------------------------------------------------------------------------------------
// Inferring entities and key templates
// ---------------------------------------------------------------------------------------------

/** A value as key text: S as is, N as written, BOOL as true/false; others have none. */
function textOf(v: AttributeValue | undefined): string | undefined {
  if (v === undefined) return undefined;
  if ('S' in v) return v.S;
  if ('N' in v) return v.N;
  if ('BOOL' in v) return v.BOOL ? 'true' : 'false';
  if ('B' in v) return v.B;
  return undefined;
}

const typeOf = (v: AttributeValue): AttributeType => ATTRIBUTE_TYPES.find((t) => Object.hasOwn(v, t)) ?? 'S';

/** `USER` → `userId`, `order_item` → `orderItemId`, `c` → `cId`. */
function idNameFor(word: string): string {
  const words = word.split(/[_-]+/).filter((w) => w !== '');
  return `${words.map((w, i) => (i === 0 ? w.toLowerCase() : w.charAt(0).toUpperCase() + w.slice(1).toLowerCase())).join('')}Id`;
}

/** A name a placeholder can hold: invalid characters become `_`, a leading digit gets `_` before it. */
function placeholderName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_.-]/g, '_');
  return /^[A-Za-z_]/.test(cleaned) ? cleaned : `_${cleaned}`;
}

interface AttributeDraft {
  name: string;
  type: AttributeType;
  /** Value text per row of the entity (for matching key parts), undefined where the row has none. */
  values: Array<string | undefined>;
  /** Made up for a key part; `isKeyNamed`: named like a key attribute of the table. */
  isSynthetic: boolean;
  isKeyNamed: boolean;
  /** For a new attribute named after the word before its key part (`c#…` → `cId`): that word. */
  word?: string;
}

interface EntityDraft {
  name: string;
  path: string;
  rows: Row[];
  /** Attribute names the model declares for the entity (facet NonKeyAttributes, or what its items hold). */
  declared: string[];
  partitionKeyAlias?: string;
  sortKeyAlias?: string;
  /** The facet's NonKeyAttributes with key attributes: which GSIs an entity without items is in. */
  listed?: Set<string>;
}

/** Which attribute name marks the entity type in every row, if one does. */
function typeAttributeOf(rows: readonly Row[], keyNames: ReadonlySet<string>): string | undefined {
  if (rows.length === 0) return undefined;
  const names: string[] = [];
  for (const row of rows) for (const n of row.values.keys()) if (!names.includes(n)) names.push(n);
  for (const candidate of TYPE_ATTRIBUTE_NAMES) {
    const name = names.find((n) => n.toLowerCase() === candidate && !keyNames.has(n));
    if (name === undefined) continue;
    if (rows.every((row) => { const v = row.values.get(name); return v !== undefined && 'S' in v && v.S.trim() !== ''; })) return name;
  }
  return undefined;
}

const prefixOf = (row: Row, pk: string): string | undefined => {
  const v = row.values.get(pk);
  const m = v && 'S' in v ? /^([A-Za-z][A-Za-z0-9_]*)#/.exec(v.S) : null;
  return m ? m[1] : undefined;
};

/** Non-key attribute names the rows hold: declared ones in the table's order, then others as first seen. */
function attributesHeld(rows: readonly Row[], table: TableRead, keyNames: ReadonlySet<string>): string[] {
  const seen = new Set<string>();
  for (const row of rows) for (const n of row.values.keys()) if (!keyNames.has(n)) seen.add(n);
  return [...[...table.declared.keys()].filter((n) => seen.has(n)), ...[...seen].filter((n) => !table.declared.has(n))];
}

function entityDrafts(table: TableRead, keyNames: ReadonlySet<string>): EntityDraft[] {
  if (table.facets && table.facets.length > 0) {
    const drafts: EntityDraft[] = table.facets.map((f) => {
      const d: EntityDraft = { name: f.name, path: f.path, rows: [...f.rows], declared: f.nonKeyAttributes.filter((n) => !keyNames.has(n)), listed: new Set(f.nonKeyAttributes) };
      if (f.partitionKeyAlias !== undefined) d.partitionKeyAlias = f.partitionKeyAlias;
      if (f.sortKeyAlias !== undefined) d.sortKeyAlias = f.sortKeyAlias;
      return d;
    });
    // Table-level items go to the facet their type attribute names, else to the best-fitting one.
    const typeAttribute = typeAttributeOf(table.rows, keyNames);
    for (const row of table.rows) {
      const typeValue = typeAttribute ? textOf(row.values.get(typeAttribute))?.toLowerCase() : undefined;
      let target = typeValue === undefined ? undefined : drafts.find((d) => d.name.toLowerCase() === typeValue);
      if (!target) {
        const held = [...row.values.keys()].filter((n) => !keyNames.has(n));
        let best = -Infinity;
        for (const d of drafts) {
          const fit = held.filter((n) => d.declared.includes(n)).length - held.filter((n) => !d.declared.includes(n)).length;
          if (fit > best) {
            best = fit;
            target = d;
          }
        }
      }
      target?.rows.push(row);
    }
    return drafts;
  }
  if (table.rows.length === 0) return [];
  const groups = new Map<string, Row[]>();
  const typeAttribute = typeAttributeOf(table.rows, keyNames);
  const pk = table.keys.partitionKey.name;
  const fallback = table.name;
  for (const row of table.rows) {
    const group = typeAttribute ? textOf(row.values.get(typeAttribute))! : (prefixOf(row, pk) ?? fallback);
    const list = groups.get(group);
    if (list) list.push(row);
    else groups.set(group, [row]);
  }
  return [...groups].map(([name, rows]) => ({ name, path: joinPath(table.path, 'TableData'), rows, declared: attributesHeld(rows, table, keyNames) }));
}

/** The key attribute names of one GSI or LSI (an LSI's include the table's partition key). */
interface IndexKeys {
  names: string[];
}

/** Infers one entity's attributes and key templates from its rows. */
class EntityInference {
  readonly attributes: AttributeDraft[] = [];
  readonly keys = new Map<string, KeyBinding>();
  /** The key attributes the entity gets a template for (set before `infer`). */
  carried: ReadonlySet<string> = new Set();

  constructor(
    private readonly draft: EntityDraft,
    private readonly table: TableRead,
    private readonly keyNames: ReadonlySet<string>,
    private readonly keyTypes: ReadonlyMap<string, KeyAttributeType>,
  ) {
    for (const name of draft.declared) this.attributes.push(this.declaredAttribute(name));
  }

  private declaredAttribute(name: string): AttributeDraft {
    const seen: AttributeType[] = [];
    const values = this.draft.rows.map((row) => {
      const v = row.values.get(name);
      if (v !== undefined) {
        const t = typeOf(v);
        if (!seen.includes(t)) seen.push(t);
      }
      return textOf(v);
    });
    const declaredType = this.table.declared.get(name);
    const type = seen.length === 1 ? seen[0]! : declaredType !== undefined && (seen.length === 0 || seen.includes(declaredType)) ? declaredType : (seen[0] ?? 'S');
    return { name, type, values, isSynthetic: false, isKeyNamed: false };
  }

  private find(name: string): AttributeDraft | undefined {
    return this.attributes.find((a) => a.name === name);
  }

  /** A name for a new attribute: `base`, or `base2`, `base3` … when another attribute or key has it. */
  private freshName(base: string, key: string): string {
    const taken = new Set([...this.attributes.map((a) => a.name), ...[...this.keyNames].filter((k) => k !== key)]);
    return uniqueName(base, taken);
  }

  /**
   * The attribute whose value text equals `parts[i]` in every member row (`rows` are indexes into the
   * entity's rows): an entity attribute, else another key attribute the rows hold (which then becomes
   * an attribute of the entity).
   */
  private match(parts: ReadonlyArray<string>, rows: readonly number[], keyType: KeyAttributeType, key: string, word?: string): AttributeDraft | undefined {
    const fits = (values: ReadonlyArray<string | undefined>): boolean => rows.every((r, i) => values[r] === parts[i]);
    const typeFits = (t: AttributeType): boolean => (keyType === 'S' ? t === 'S' || t === 'N' || t === 'BOOL' : t === keyType);
    for (const a of this.attributes) {
      // A part made up for `c#…` is not reused after another word (`o#…`), even when the sample values agree.
      if (a.word !== undefined && a.word !== word) continue;
      if (PLACEHOLDER_NAME.test(a.name) && typeFits(a.type) && fits(a.values)) return a;
    }
    for (const k of this.keyNames) {
      // Only keys the entity will carry: an item of it holds no other key attribute.
      if (k === key || !this.carried.has(k) || this.find(k) || !PLACEHOLDER_NAME.test(k)) continue;
      const type = this.keyTypes.get(k)!;
      if (!typeFits(type)) continue;
      const values = this.draft.rows.map((row) => {
        const v = row.values.get(k);
        return v !== undefined && typeOf(v) === type ? textOf(v) : undefined;
      });
      if (!fits(values)) continue;
      const a: AttributeDraft = { name: k, type, values, isSynthetic: true, isKeyNamed: true };
      this.attributes.push(a);
      return a;
    }
    return undefined;
  }

  private synthetic(base: string, key: string, type: AttributeType, rows: readonly number[], parts: readonly string[], word?: string): AttributeDraft {
    const name = this.freshName(base, key);
    const values: Array<string | undefined> = this.draft.rows.map(() => undefined);
    rows.forEach((r, i) => (values[r] = parts[i]));
    const a: AttributeDraft = { name, type, values, isSynthetic: true, isKeyNamed: this.keyNames.has(name) };
    if (word !== undefined) a.word = word;
    this.attributes.push(a);
    return a;
  }

  /** The alias the facet gives this key, when it can name a placeholder. */
  private aliasFor(key: string): string | undefined {
    const alias =
      key === this.table.keys.partitionKey.name ? this.draft.partitionKeyAlias : key === this.table.keys.sortKey?.name ? this.draft.sortKeyAlias : undefined;
    return alias !== undefined && alias !== key && PLACEHOLDER_NAME.test(alias) && !this.keyNames.has(alias) ? alias : undefined;
  }

  /** Infers the template of key attribute `key` from the member rows' values. */
  infer(key: string, keyType: KeyAttributeType, memberRows: readonly number[]): void {
    const rows: number[] = [];
    const texts: string[] = [];
    for (const r of memberRows) {
      const v = this.draft.rows[r]!.values.get(key);
      const text = v !== undefined && typeOf(v) === keyType ? textOf(v) : undefined;
      if (text !== undefined && text !== '') {
        rows.push(r);
        texts.push(text);
      }
    }
    const ownName = PLACEHOLDER_NAME.test(key) ? key : placeholderName(key);
    if (texts.length === 0) {
      // No item holds this key: the key attribute holds a value of its own.
      const a = this.find(ownName) ?? this.synthetic(ownName, key, keyType, [], []);
      this.keys.set(key, { template: `{${a.name}}` });
      return;
    }
    if (keyType !== 'S') {
      const a = this.match(texts, rows, keyType, key) ?? this.synthetic(this.aliasFor(key) ?? ownName, key, keyType, rows, texts);
      this.keys.set(key, { template: `{${a.name}}` });
      return;
    }
    const split = texts.map((t) => t.split('#'));
    const count = split[0]!.length;
    let segments: string[][];
    if (split.every((s) => s.length === count)) {
      segments = Array.from({ length: count }, (_, j) => split.map((s) => s[j]!));
    } else {
      // Different shapes: the leading words all items share stay literal, the rest is one part.
      const shortest = Math.min(...split.map((s) => s.length));
      let lead = 0;
      while (lead < shortest - 1 && split.every((s) => s[lead] === split[0]![lead]) && WORD.test(split[0]![lead]!)) lead += 1;
      segments = [...Array.from({ length: lead }, (_, j) => split.map((s) => s[j]!)), split.map((s) => s.slice(lead).join('#'))];
    }
    const isLiteral = segments.map((seg) => seg.every((x) => x === seg[0]) && (seg[0] === '' || WORD.test(seg[0]!)));
    const varying = isLiteral.filter((x) => !x).length;
    const keyNameParts = key.split('#');
    const parts: KeyTemplatePart[] = [];
    segments.forEach((seg, j) => {
      if (j > 0) parts.push({ kind: 'literal', text: '#' });
      if (isLiteral[j]) {
        if (seg[0] !== '') parts.push({ kind: 'literal', text: seg[0]! });
        return;
      }
      const before = j > 0 && isLiteral[j - 1] && segments[j - 1]![0] !== '' ? segments[j - 1]![0]! : undefined;
      let a = this.match(seg, rows, 'S', key, before);
      if (!a) {
        const alias = varying === 1 ? this.aliasFor(key) : undefined;
        const fromKeyName = keyNameParts.length === segments.length && keyNameParts[j] !== '' ? placeholderName(keyNameParts[j]!) : undefined;
        const base = alias ?? (before !== undefined ? idNameFor(before) : undefined) ?? fromKeyName ?? ownName;
        a = this.synthetic(base, key, 'S', rows, seg, alias === undefined ? before : undefined);
      }
      parts.push({ kind: 'attribute', name: a.name });
    });
    const merged: KeyTemplatePart[] = [];
    for (const p of parts) {
      const last = merged.at(-1);
      if (p.kind === 'literal' && last?.kind === 'literal') last.text += p.text;
      else merged.push({ ...p });
    }
    this.keys.set(key, { template: formatKeyTemplate(merged) });
  }

  /** The entity's attributes: declared ones, then new ones for key parts, then those named like key attributes. */
  orderedAttributes(): Attribute[] {
    const ordered = [...this.attributes.filter((a) => !a.isSynthetic), ...this.attributes.filter((a) => a.isSynthetic && !a.isKeyNamed), ...this.attributes.filter((a) => a.isKeyNamed)];
    return ordered.map((a) => ({ name: a.name, type: a.type }));
  }
}

/** The keys of every GSI and LSI, for which items are in which index. */
function indexKeysOf(table: TableRead): IndexKeys[] {
  const pk = table.keys.partitionKey.name;
  return [
    ...table.gsis.map((g) => ({ names: [g.keys.partitionKey.name, ...(g.keys.sortKey ? [g.keys.sortKey.name] : [])] })),
    ...table.lsis.map((l) => ({ names: [pk, (l.keys.sortKey ?? l.keys.partitionKey).name] })),
  ];
}

function inferEntity(draft: EntityDraft, table: TableRead, keyNames: ReadonlySet<string>, keyTypes: ReadonlyMap<string, KeyAttributeType>): { attributes: Attribute[]; keys: Record<string, KeyBinding> } {
  const inference = new EntityInference(draft, table, keyNames, keyTypes);
  const tableKeys = new Set([table.keys.partitionKey.name, ...(table.keys.sortKey ? [table.keys.sortKey.name] : [])]);
  const holds = (row: Row, name: string): boolean => {
    const v = row.values.get(name);
    const text = v !== undefined && typeOf(v) === keyTypes.get(name) ? textOf(v) : undefined;
    return text !== undefined && text !== '';
  };
  const indexes = indexKeysOf(table);
  const all = draft.rows.map((_, i) => i);
  // Which keys the entity carries, and from which of its items: all items for the table's keys; for
  // an index's keys, the items that hold every key of an index using it.
  const carried = new Map<string, number[]>();
  for (const name of keyTypes.keys()) {
    if (tableKeys.has(name)) {
      carried.set(name, all);
      continue;
    }
    const using = indexes.filter((ix) => ix.names.includes(name));
    const members = all.filter((r) => using.some((ix) => ix.names.every((n) => tableKeys.has(n) || holds(draft.rows[r]!, n))));
    const isListed = draft.rows.length === 0 && draft.listed !== undefined && using.some((ix) => ix.names.every((n) => tableKeys.has(n) || draft.listed!.has(n)));
    if (members.length > 0 || isListed) carried.set(name, members);
  }
  inference.carried = new Set(carried.keys());
  for (const [name, members] of carried) inference.infer(name, keyTypes.get(name)!, members);
  const keys: Record<string, KeyBinding> = {};
  for (const [k, binding] of inference.keys) setOwn(keys, k, binding);
  return { attributes: inference.orderedAttributes(), keys };
}

// ---------------------------------------------------------------------------------------------
// Building the design
// ---------------------------------------------------------------------------------------------

/** `Order Items` → `order-items`: lower case, runs of other characters as one dash. */
function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'x';
}

/** Where each part of the built design came from in the model, for problems the design's rules raise. */
type PathMap = Array<[designPath: string, modelPath: string]>;

function mapPath(map: PathMap, path: string): string {
  let best: [string, string] | undefined;
  for (const entry of map) {
    const [d] = entry;
    const isPrefix = path === d || (path.startsWith(d) && (path[d.length] === '.' || path[d.length] === '['));
    if (isPrefix && (!best || d.length > best[0].length)) best = entry;
  }
  return best ? best[1] : '';
}

function keyAttributePaths(map: PathMap, designPath: string, modelPath: string): void {
  map.push([designPath, modelPath], [joinPath(designPath, 'name'), joinPath(modelPath, 'AttributeName')], [joinPath(designPath, 'type'), joinPath(modelPath, 'AttributeType')]);
}

function buildTable(read: TableRead, ti: number, ids: Set<string>, map: PathMap): Table {
  const tp = joinPath('tables', ti);
  const tableSlug = slug(read.name);
  map.push([tp, read.path], [joinPath(tp, 'name'), joinPath(read.path, 'TableName')], [joinPath(tp, 'billing'), read.billingPath]);
  map.push([joinPath(tp, 'entities'), read.path], [joinPath(tp, 'globalSecondaryIndexes'), joinPath(read.path, 'GlobalSecondaryIndexes')]);
  map.push([joinPath(tp, 'localSecondaryIndexes'), joinPath(read.path, 'LocalSecondaryIndexes')]);
  keyAttributePaths(map, joinPath(tp, 'partitionKey'), joinPath(joinPath(read.path, 'KeyAttributes'), 'PartitionKey'));
  if (read.keys.sortKey) keyAttributePaths(map, joinPath(tp, 'sortKey'), joinPath(joinPath(read.path, 'KeyAttributes'), 'SortKey'));

  const tableThroughput = read.billing.mode === 'PROVISIONED' ? { readCapacityUnits: read.billing.readCapacityUnits, writeCapacityUnits: read.billing.writeCapacityUnits } : undefined;
  const gsis: GlobalSecondaryIndex[] = read.gsis.map((g, k) => {
    const gp = joinPath(joinPath(tp, 'globalSecondaryIndexes'), k);
    map.push([gp, g.path], [joinPath(gp, 'name'), joinPath(g.path, 'IndexName')], [joinPath(gp, 'projection'), joinPath(g.path, 'Projection')]);
    map.push([joinPath(joinPath(gp, 'projection'), 'nonKeyAttributes'), joinPath(joinPath(g.path, 'Projection'), 'NonKeyAttributes')]);
    if (g.projection.type === 'INCLUDE') {
      g.projection.nonKeyAttributes.forEach((_, m) => map.push([joinPath(joinPath(joinPath(gp, 'projection'), 'nonKeyAttributes'), m), joinPath(joinPath(joinPath(g.path, 'Projection'), 'NonKeyAttributes'), m)]));
    }
    map.push([joinPath(gp, 'provisioned'), g.throughput ? joinPath(g.path, 'ProvisionedThroughput') : read.billingPath]);
    keyAttributePaths(map, joinPath(gp, 'partitionKey'), joinPath(joinPath(g.path, 'KeyAttributes'), 'PartitionKey'));
    if (g.keys.sortKey) keyAttributePaths(map, joinPath(gp, 'sortKey'), joinPath(joinPath(g.path, 'KeyAttributes'), 'SortKey'));
    const gsi: GlobalSecondaryIndex = { id: uniqueName(`gsi-${tableSlug}-${slug(g.name)}`, ids), name: g.name, partitionKey: g.keys.partitionKey, projection: g.projection };
    if (g.keys.sortKey) gsi.sortKey = g.keys.sortKey;
    const provisioned = g.throughput ?? tableThroughput;
    if (provisioned) gsi.provisioned = provisioned;
    return gsi;
  });
  const lsis: LocalSecondaryIndex[] = read.lsis.map((l, k) => {
    const lp = joinPath(joinPath(tp, 'localSecondaryIndexes'), k);
    map.push([lp, l.path], [joinPath(lp, 'name'), joinPath(l.path, 'IndexName')], [joinPath(lp, 'projection'), joinPath(l.path, 'Projection')]);
    const sortKey = l.keys.sortKey ?? l.keys.partitionKey;
    keyAttributePaths(map, joinPath(lp, 'sortKey'), joinPath(joinPath(l.path, 'KeyAttributes'), l.keys.sortKey ? 'SortKey' : 'PartitionKey'));
    return { id: uniqueName(`lsi-${tableSlug}-${slug(l.name)}`, ids), name: l.name, sortKey, projection: l.projection };
  });

  const table: Table = {
    id: uniqueName(`tbl-${tableSlug}`, ids),
    name: read.name,
    partitionKey: read.keys.partitionKey,
    billing: read.billing,
    tableClass: 'STANDARD',
    globalSecondaryIndexes: gsis,
    localSecondaryIndexes: lsis,
    entities: [],
    accessPatterns: [],
  };
  if (read.keys.sortKey) table.sortKey = read.keys.sortKey;

  const keyTypes = new Map<string, KeyAttributeType>(keySlotsOf(table).map((s) => [s.attribute.name, s.attribute.type]));
  const keyNames = new Set(keyTypes.keys());
  table.entities = entityDrafts(read, keyNames).map((draft, j): Entity => {
    const ep = joinPath(joinPath(tp, 'entities'), j);
    map.push([ep, draft.path]);
    if (draft.path.includes('TableFacets')) map.push([joinPath(ep, 'name'), joinPath(draft.path, 'FacetName')]);
    const { attributes, keys } = inferEntity(draft, read, keyNames, keyTypes);
    return { id: uniqueName(`ent-${tableSlug}-${slug(draft.name)}`, ids), name: draft.name, itemCount: draft.rows.length, attributes, keys };
  });
  return table;
}

/** What a JSON value that is not a Workbench model looks like, for the one problem about it. */
function describeOther(json: unknown): string {
  if (!isRecord(json)) return describeValue(json);
  if ('formatVersion' in json && ('tables' in json || 'table' in json)) return 'a Keyplan design';
  if ('AWSTemplateFormatVersion' in json || 'Resources' in json) return 'a CloudFormation template';
  if ('RequestItems' in json) return 'a BatchWriteItem request';
  if ('TableName' in json && 'KeySchema' in json) return 'a CreateTable input';
  const keys = Object.keys(json);
  return keys.length === 0 ? 'an empty object' : `an object with ${keys.slice(0, 6).map(quote).join(', ')}${keys.length > 6 ? ', …' : ''}`;
}

/**
 * Reads a NoSQL Workbench data model (versions 1.0, 2.0 and 3.0) as a Keyplan design; see the module
 * comment for how entities, templates, counts and billing are inferred. Every problem is collected
 * with its path in the model. Errors: `workbench.notModel` (not a Workbench model: one problem),
 * `workbench.unsupportedVersion`, `workbench.schema` (a field of the wrong shape or missing),
 * `workbench.duplicateName`, `workbench.billing`, `item.*` (a sample value that is not DynamoDB JSON),
 * and the `model.*` / `keyTemplate.*` problems of the design's rules, mapped to the model's paths
 * (`details.designPath` keeps the design's). Deterministic; never throws.
 */
export function fromNoSqlWorkbench(json: unknown): Result<Design, Problem> {
  const expected = 'an object with "ModelName" and "DataModel", as NoSQL Workbench exports a model';
  if (!isRecord(json) || (!('DataModel' in json) && !('ModelName' in json))) {
    const found = describeOther(json);
    return fail([{ code: 'workbench.notModel', path: '', message: `This is not a NoSQL Workbench model: expected ${expected}; found ${found}.`, found, expected }]);
  }
  const r = new Reader();
  const metadata = r.object(json, 'ModelMetadata', '', true);
  if (metadata && metadata.Version !== undefined) {
    const v = metadata.Version;
    if (typeof v !== 'string' || !(WORKBENCH_VERSIONS as readonly string[]).includes(v)) {
      const ex = `model version ${WORKBENCH_VERSIONS.join(', ')}`;
      r.add('workbench.unsupportedVersion', 'ModelMetadata.Version', `ModelMetadata.Version is ${describeValue(v)}; expected ${ex}.`, describeValue(v), ex);
    }
  }
  const modelName = r.string(json, 'ModelName', '', true);
  const description = metadata ? r.string(metadata, 'Description', 'ModelMetadata', true) : undefined;
  const dataModel = json.DataModel;
  if (!Array.isArray(dataModel) || dataModel.length === 0) {
    const found = Array.isArray(dataModel) ? 'an empty list' : describeValue(dataModel);
    r.add('workbench.schema', 'DataModel', `DataModel is ${found}; expected a list of at least one table.`, found, 'a list of at least one table');
    return fail(r.problems);
  }
  const tables: TableRead[] = [];
  const names = new Map<string, string>();
  dataModel.forEach((raw, i) => {
    const path = joinPath('DataModel', i);
    const tableName = isRecord(raw) ? raw.TableName : undefined;
    if (typeof tableName === 'string') {
      const first = names.get(tableName);
      if (first !== undefined) {
        const np = joinPath(path, 'TableName');
        r.add('workbench.duplicateName', np, `${np} is ${quote(tableName)}, the name of ${first} too; expected unique table names.`, quote(tableName), 'a name no other table has');
        return;
      }
      names.set(tableName, path);
    }
    const table = readTable(r, raw, path);
    if (table) tables.push(table);
  });
  if (r.problems.length > 0) return fail(r.problems);

  const name = modelName?.trim() ? modelName : DEFAULT_DESIGN_NAME;
  const ids = new Set<string>();
  const map: PathMap = [['name', 'ModelName']];
  const design: Design = { formatVersion: FORMAT_VERSION, id: uniqueName(`design-${slug(name)}`, ids), name, tables: [] };
  if (description !== undefined && description.trim() !== '') design.description = description;
  design.tables = tables.map((t, i) => buildTable(t, i, ids, map));

  const parsed = parseDesign(JSON.parse(JSON.stringify(design)));
  if (parsed.ok) return ok(design);
  return fail(parsed.errors.map((p) => ({ ...p, path: mapPath(map, p.path), details: { designPath: p.path } })));
}

// ---------------------------------------------------------------------------------------------
// Writing a model
// ---------------------------------------------------------------------------------------------

export interface NoSqlWorkbenchOptions {
  /** Sample items written per facet: the entity's item count, up to this (default 25; 0 writes none). */
  maxItemsPerEntity?: number;
  /** When the model was made, in ms since the epoch (UTC); written as Workbench writes dates. Default: none (empty). */
  dateMs?: number;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `Dec 23, 2019, 7:12 PM` (UTC), the way Workbench writes ModelMetadata dates. */
export function workbenchDate(ms: number): string {
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return '';
  const hours = d.getUTCHours();
  const h12 = hours % 12 === 0 ? 12 : hours % 12;
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}, ${h12}:${String(d.getUTCMinutes()).padStart(2, '0')} ${hours < 12 ? 'AM' : 'PM'}`;
}

interface FacetOut {
  entity: Entity;
  name: string;
}

function exportTable(table: Table, facets: FacetOut[], maxItems: number): Json {
  const slots = keySlotsOf(table);
  const keyNames = new Set(slots.map((s) => s.attribute.name));
  const tableKeys = new Set([table.partitionKey.name, ...(table.sortKey ? [table.sortKey.name] : [])]);

  const nonKey: Array<{ AttributeName: string; AttributeType: AttributeType }> = [];
  const declared = new Set<string>();
  for (const e of table.entities) {
    for (const a of e.attributes) {
      if (keyNames.has(a.name) || declared.has(a.name)) continue;
      declared.add(a.name);
      nonKey.push({ AttributeName: a.name, AttributeType: a.type });
    }
  }
  for (const slot of slots) {
    if (tableKeys.has(slot.attribute.name) || declared.has(slot.attribute.name)) continue;
    declared.add(slot.attribute.name);
    nonKey.push({ AttributeName: slot.attribute.name, AttributeType: slot.attribute.type });
  }

  const keyAttribute = (k: KeyAttribute): Json => ({ AttributeName: k.name, AttributeType: k.type });
  const keyAttributes = (pk: KeyAttribute, sk: KeyAttribute | undefined): Json => (sk ? { PartitionKey: keyAttribute(pk), SortKey: keyAttribute(sk) } : { PartitionKey: keyAttribute(pk) });

  const tableFacets = facets.map(({ entity, name }) => {
    const alias = (key: KeyAttribute): string => {
      const template = Object.hasOwn(entity.keys, key.name) ? entity.keys[key.name]?.template : undefined;
      const parsed = template === undefined ? undefined : parseKeyTemplate(template);
      const placeholders = parsed?.ok ? parsed.value.parts.filter((p) => p.kind === 'attribute') : [];
      return placeholders.length === 1 && placeholders[0]!.kind === 'attribute' ? placeholders[0]!.name : key.name;
    };
    const keyAlias: Json = { PartitionKeyAlias: alias(table.partitionKey) };
    if (table.sortKey) keyAlias.SortKeyAlias = alias(table.sortKey);
    const attributeNames = entity.attributes.filter((a) => !keyNames.has(a.name)).map((a) => a.name);
    const indexKeys = slots.map((s) => s.attribute.name).filter((n) => !tableKeys.has(n) && Object.hasOwn(entity.keys, n));
    return {
      FacetName: name,
      KeyAttributeAlias: keyAlias,
      TableData: sampleItemsOf(table, entity, Math.min(entity.itemCount, maxItems), true),
      NonKeyAttributes: [...attributeNames, ...indexKeys.filter((n) => !attributeNames.includes(n))],
      DataAccess: { MySql: {} },
    };
  });

  const out: Json = { TableName: table.name, KeyAttributes: keyAttributes(table.partitionKey, table.sortKey), NonKeyAttributes: nonKey, TableFacets: tableFacets };
  out.GlobalSecondaryIndexes = table.globalSecondaryIndexes.map((g) => ({
    IndexName: g.name,
    KeyAttributes: keyAttributes(g.partitionKey, g.sortKey),
    Projection: g.projection.type === 'INCLUDE' ? { ProjectionType: 'INCLUDE', NonKeyAttributes: [...g.projection.nonKeyAttributes] } : { ProjectionType: g.projection.type },
  }));
  out.DataAccess = { MySql: {} };
  if (table.billing.mode === 'PROVISIONED') {
    // Auto scaling held at the design's capacity (min = max), so committing the model changes nothing.
    const scaling = (units: number): Json => ({
      ScalableTargetRequest: { MinCapacity: units, MaxCapacity: units, ServiceRole: 'AWSServiceRoleForApplicationAutoScaling_DynamoDBTable' },
      ScalingPolicyConfiguration: { TargetValue: 70 },
    });
    out.BillingMode = 'PROVISIONED';
    out.ProvisionedCapacitySettings = {
      ProvisionedThroughput: { ReadCapacityUnits: table.billing.readCapacityUnits, WriteCapacityUnits: table.billing.writeCapacityUnits },
      AutoScalingRead: scaling(table.billing.readCapacityUnits),
      AutoScalingWrite: scaling(table.billing.writeCapacityUnits),
    };
  } else {
    out.BillingMode = 'PAY_PER_REQUEST';
  }
  return out;
}

/**
 * A design as a NoSQL Workbench data model, version 3.0 (JSON text, two-space indents, final
 * newline); see the module comment for what is written and what a model cannot hold. Facet names are
 * the entity names, as `<table>.<entity>` where two tables have entities of one name (Workbench wants
 * them unique in the model). Deterministic.
 */
export function toNoSqlWorkbench(design: Design, options: NoSqlWorkbenchOptions = {}): string {
  const maxItems = Math.max(0, Math.floor(options.maxItemsPerEntity ?? DEFAULT_EXPORT_ITEMS_PER_ENTITY));
  const date = options.dateMs === undefined ? '' : workbenchDate(options.dateMs);
  const useCount = new Map<string, number>();
  for (const t of design.tables) for (const e of new Set(t.entities.map((x) => x.name))) useCount.set(e, (useCount.get(e) ?? 0) + 1);
  const model = {
    ModelName: wellFormed(design.name),
    ModelMetadata: {
      Author: 'Keyplan',
      DateCreated: date,
      DateLastModified: date,
      Description: design.description ?? '',
      AWSService: 'Amazon DynamoDB',
      Version: WORKBENCH_EXPORT_VERSION,
    },
    DataModel: design.tables.map((t) =>
      exportTable(
        t,
        t.entities.map((entity) => ({ entity, name: (useCount.get(entity.name) ?? 0) > 1 ? `${t.name}.${entity.name}` : entity.name })),
        maxItems,
      ),
    ),
  };
  return `${JSON.stringify(model, null, 2)}\n`;
}
