/**
 * NoSQL Workbench import, step one: reading the model's shape. Checks the fields of each table
 * (TableName, KeyAttributes, NonKeyAttributes, GSIs and LSIs, BillingMode, TableFacets, TableData)
 * and collects every problem with its path in the model
 * (`DataModel[0].GlobalSecondaryIndexes[1].KeyAttributes.PartitionKey`), what was found and what
 * was expected. See `import.ts` for the format as a whole.
 */
import { parseDynamoDbItem, type AttributeValue } from '../../capacity/index.ts';
import type { Problem } from '../../model/index.ts';
import {
  ATTRIBUTE_TYPES,
  type AttributeType,
  type Billing,
  type KeyAttribute,
  type KeyAttributeType,
  type Projection,
  describeValue,
  joinPath,
} from '../../model/index.ts';
import { setOwn } from '../common/values.ts';
import type { ImportNote } from '../common/import-types.ts';

/** Codes of the problems `fromNoSqlWorkbench` raises (besides the `model.*` rules of the design it builds). */
export type WorkbenchErrorCode =
  | 'workbench.notModel'
  | 'workbench.unsupportedVersion'
  | 'workbench.schema'
  | 'workbench.duplicateName'
  | 'workbench.billing';

/** The model versions `fromNoSqlWorkbench` reads. */
export const WORKBENCH_VERSIONS = ['1.0', '2.0', '3.0'] as const;

const KEY_TYPES: readonly string[] = ['S', 'N', 'B'];
const PROJECTION_TYPES: readonly string[] = ['ALL', 'KEYS_ONLY', 'INCLUDE'];

/** A JSON object of the model. */
export type Json = Record<string, unknown>;
/** Whether `v` is a JSON object (not null, not a list). */
export const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
/** `s` in double quotes, as JSON writes it, for messages. */
export const quote = (s: string): string => JSON.stringify(s);

/** A value as key text: S as is, N as written, BOOL as true/false; others have none. */
export function textOf(v: AttributeValue | undefined): string | undefined {
  if (v === undefined) return undefined;
  if ('S' in v) return v.S;
  if ('N' in v) return v.N;
  if ('BOOL' in v) return v.BOOL ? 'true' : 'false';
  if ('B' in v) return v.B;
  return undefined;
}

/** The DynamoDB type of a value (S when it has none Keyplan knows). */
export const typeOf = (v: AttributeValue): AttributeType => ATTRIBUTE_TYPES.find((t) => Object.hasOwn(v, t)) ?? 'S';

/**
 * Collects shape problems while reading fields of the model, and the notes on what was skipped: a
 * problem confined to sample data or an optional part (a malformed sample value, an unknown declared
 * type) is a warning, and the rest of the model still imports.
 */
export class Reader {
  readonly problems: Problem[] = [];
  readonly notes: ImportNote[] = [];

  /** A part of the model skipped; `message` names it and why. */
  warn(path: string, message: string): void {
    this.notes.push({ kind: 'warning', path, message });
  }

  /** A value filled in that the model does not hold. */
  infer(path: string, message: string): void {
    this.notes.push({ kind: 'inferred', path, message });
  }

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

/** A table's or index's KeyAttributes, read. */
export interface KeyAttributesRead {
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

/** A GSI or LSI, read, with its path in the model. */
export interface IndexRead {
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
export interface Row {
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
      r.warn(rp, `Sample item skipped: it is ${describeValue(raw)}, not an item in DynamoDB JSON such as {"id": {"S": "a"}}.`);
      return;
    }
    // Each value on its own: a malformed one is skipped and named, the rest of the item is kept.
    const values = new Map<string, AttributeValue>();
    for (const [name, value] of Object.entries(raw)) {
      if (isRecord(value) && Object.keys(value).length === 0) continue;
      const single: Json = {};
      setOwn(single, name, value);
      const parsed = parseDynamoDbItem(single, rp);
      if (parsed.ok) {
        const v = parsed.value[name];
        if (v !== undefined) values.set(name, v);
        continue;
      }
      const vp = joinPath(rp, name);
      r.warn(vp, `Sample value skipped: ${shownValue(value)} is not a DynamoDB attribute value (${parsed.errors.map((e) => e.message.replace(/\.$/, '')).join('; ')}).`);
    }
    rows.push({ values, path: rp });
  });
  return rows;
}

/** A JSON value as a message shows it: compact, cut at 80 characters. */
function shownValue(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    // Nested deeper than the stack allows: said, not shown.
    return 'a value nested too deep to show';
  }
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** A facet (TableFacets entry), read, with its path in the model. */
export interface FacetRead {
  name: string;
  path: string;
  partitionKeyAlias?: string;
  sortKeyAlias?: string;
  nonKeyAttributes: string[];
  rows: Row[];
}

/** A table of the model, read and checked, with its path in the model. */
export interface TableRead {
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
      } else r.warn(joinPath(np, m), `Facet attribute skipped: it is ${describeValue(n)}, not an attribute name.`);
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

/** Reads one table of DataModel; undefined (with the problems in `r`) when any part of it is wrong. */
export function readTable(r: Reader, raw: unknown, path: string): TableRead | undefined {
  if (!isRecord(raw)) {
    r.add('workbench.schema', path, `${path} is ${describeValue(raw)}; expected a table object.`, describeValue(raw), 'an object with TableName and KeyAttributes');
    return undefined;
  }
  const before = r.problems.length;
  const name = r.string(raw, 'TableName', path);
  const keys = readKeyAttributes(r, raw, path);
  const declared = new Map<string, AttributeType>();
  const nonKey = r.array(raw, 'NonKeyAttributes', path) ?? [];
  // Declarations of non-key attributes are optional (sample items tell the types too): a malformed one is skipped.
  nonKey.forEach((a, k) => {
    const ap = joinPath(joinPath(path, 'NonKeyAttributes'), k);
    if (!isRecord(a) || typeof a.AttributeName !== 'string' || a.AttributeName === '') {
      const found = isRecord(a) ? `AttributeName ${describeValue(a.AttributeName)}` : describeValue(a);
      r.warn(ap, `Attribute declaration skipped: it has ${found}; expected {"AttributeName": "name", "AttributeType": "S"}.`);
      return;
    }
    const n = a.AttributeName;
    const t = a.AttributeType;
    if (typeof t !== 'string' || !(ATTRIBUTE_TYPES as readonly string[]).includes(t)) {
      r.warn(joinPath(ap, 'AttributeType'), `The declared type of ${quote(n)} is ${describeValue(t)}, not a DynamoDB type (${ATTRIBUTE_TYPES.join(', ')}); its type is taken from the sample items instead (S when they hold none).`);
      return;
    }
    if (!declared.has(n)) declared.set(n, t as AttributeType);
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
  // A sample key value of another type than its key: the value is skipped; an item without its
  // table key value is no item, so it is skipped whole.
  const primary = new Set([keys.partitionKey.name, ...(keys.sortKey ? [keys.sortKey.name] : [])]);
  const keep = (list: Row[]): Row[] =>
    list.filter((row) => {
      // An item without its table key value is no item (Workbench shows it as an empty row).
      const missing = [...primary].filter((k) => row.values.get(k) === undefined);
      if (missing.length > 0 && row.values.size > 0) {
        r.warn(row.path, `Sample item skipped: it has no value for the table's key ${missing.map(quote).join(' and ')}.`);
        return false;
      }
      if (row.values.size === 0) return false;
      for (const [k, type] of keyTypes) {
        const v = row.values.get(k);
        if (v === undefined || typeOf(v) === type) continue;
        const vp = joinPath(row.path, k);
        if (primary.has(k)) {
          r.warn(vp, `The whole sample item ${row.path} is skipped: its ${quote(k)} is of type ${typeOf(v)}, but ${quote(k)} is the table's key, of type ${type}.`);
          return false;
        }
        r.warn(vp, `Sample value skipped: it is of type ${typeOf(v)}, but ${quote(k)} is an index key of type ${type}.`);
        row.values.delete(k);
      }
      return true;
    });
  const keptRows = keep(rows);
  const keptFacets = facets?.map((f) => ({ ...f, rows: keep(f.rows) }));
  // A facet may list an attribute that nothing declares or holds: kept, its type guessed.
  const known = new Set([...keyTypes.keys(), ...declared.keys(), ...[...keptRows, ...(keptFacets ?? []).flatMap((f) => f.rows)].flatMap((row) => [...row.values.keys()])]);
  for (const f of keptFacets ?? []) {
    f.nonKeyAttributes.forEach((n, m) => {
      if (!known.has(n)) r.infer(joinPath(joinPath(f.path, 'NonKeyAttributes'), m), `Facet ${quote(f.name)} names attribute ${quote(n)}, which the table does not declare and no sample item holds; it is imported as a string (S).`);
    });
  }
  const billingPath = raw.BillingMode === 'PROVISIONED' ? joinPath(joinPath(path, 'ProvisionedCapacitySettings'), 'ProvisionedThroughput') : joinPath(path, 'BillingMode');
  return { path, name, keys, declared, gsis, lsis, billing, billingPath, facets: keptFacets, rows: keptRows };
}
