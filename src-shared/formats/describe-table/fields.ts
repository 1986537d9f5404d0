/**
 * The fields a table and its indexes share in a TableDescription, each read with its problems:
 * attribute definitions, key schemas (a GSI's may list several HASH and RANGE elements: a
 * multi-attribute key), projections, provisioned throughput, on-demand maximums and warm throughput;
 * and the design → input paths of a key part.
 */
import { formatNumber } from '../../numbers/index.ts';
import {
  storedKeyPart,
  MAX_KEY_ATTRIBUTES_PER_PART,
  type KeyAttribute,
  type KeyAttributeType,
  type OnDemandThroughput,
  type Projection,
  type ProvisionedThroughput,
  type WarmThroughput,
  joinPath,
  isRecord,
  listOf,
  quote,
} from '../../model/index.ts';
import { isKeyAttributeType, NO_MAXIMUM } from '../common/dynamodb-table.ts';
import type { PathMap } from '../common/source-paths.ts';
import { has, own, type Collector, type Json } from './collector.ts';

/**
 * The warm throughput a new on-demand table or GSI serves without pre-warming: a lower value asks
 * for nothing (the design's rules refuse it). https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/warm-throughput.html
 */
const ON_DEMAND_WARM_FLOOR = { read: 12_000, write: 4_000 } as const;

/** The attribute definitions by name: each key attribute's type and the path of its definition. */
export type Definitions = Map<string, { type: KeyAttributeType; path: string }>;

/** One element of a key schema, with the key attribute it names and its type. */
export interface KeyElement {
  attribute: KeyAttribute;
  /** Path of the KeySchema element. */
  path: string;
}

/** A key schema's HASH and RANGE elements, each in key order. */
export interface KeySchemaRead {
  hash: KeyElement[];
  range: KeyElement[];
}

/** Whose key schema it is: its rule differs (a GSI may have multi-attribute keys; an LSI shares the table's partition key). */
export type KeyOwner = 'table' | 'gsi' | 'lsi';

const KEY_SCHEMA_RULE: Record<KeyOwner, string> = {
  table: "a table's key schema is one HASH element, then at most one RANGE element",
  lsi: "an LSI's key schema is the table's HASH element, then one RANGE element",
  gsi: `a GSI's key schema is 1–${MAX_KEY_ATTRIBUTES_PER_PART} HASH elements, then 0–${MAX_KEY_ATTRIBUTES_PER_PART} RANGE elements`,
};

/** The attribute definitions by name, or undefined (with a problem) when they are unusable. */
export function readAttributeDefinitions(table: Json, base: string, c: Collector): Definitions | undefined {
  const path = joinPath(base, 'AttributeDefinitions');
  const value = own(table, 'AttributeDefinitions');
  if (!Array.isArray(value) || value.length === 0) {
    c.wrong(path, value, 'a list of the key attributes, each with AttributeName and AttributeType (S, N or B)');
    return undefined;
  }
  const defs: Definitions = new Map();
  let isUsable = true;
  value.forEach((d, i) => {
    const dp = joinPath(path, i);
    if (!isRecord(d)) {
      c.wrong(dp, d, 'an object with AttributeName and AttributeType');
      isUsable = false;
      return;
    }
    const name = own(d, 'AttributeName');
    const type = own(d, 'AttributeType');
    if (typeof name !== 'string' || name === '') {
      c.wrong(joinPath(dp, 'AttributeName'), name, 'an attribute name');
      isUsable = false;
    }
    if (!isKeyAttributeType(type)) {
      c.wrong(joinPath(dp, 'AttributeType'), type, 'S, N or B', ' (a key attribute is a string, a number or a binary)');
      isUsable = false;
    }
    if (typeof name !== 'string' || name === '' || !isKeyAttributeType(type)) return;
    const first = defs.get(name);
    if (first) {
      c.problem(joinPath(dp, 'AttributeName'), `${joinPath(dp, 'AttributeName')} is ${quote(name)}, which ${first.path} defines already; expected each attribute defined once.`, quote(name), 'each attribute defined once');
      isUsable = false;
      return;
    }
    defs.set(name, { type, path: joinPath(dp, 'AttributeType') });
  });
  return isUsable ? defs : undefined;
}

/**
 * A key schema's HASH and RANGE elements in order, each with its type from the attribute
 * definitions; undefined (with problems at `path[i].KeyType` or `.AttributeName`) when it breaks
 * the owner's rule.
 */
export function readKeySchema(
  value: unknown,
  path: string,
  owner: KeyOwner,
  defs: Definitions | undefined,
  c: Collector,
  tableHash?: string,
): KeySchemaRead | undefined {
  const rule = KEY_SCHEMA_RULE[owner];
  if (!Array.isArray(value) || value.length === 0) {
    c.wrong(path, value, 'a list of key schema elements, each with AttributeName and KeyType', `: ${rule}`);
    return undefined;
  }
  const read: KeySchemaRead = { hash: [], range: [] };
  // Elements seen of each key type, typed or not: the order rule counts them all.
  let hashCount = 0;
  let rangeCount = 0;
  const maxHash = owner === 'gsi' ? MAX_KEY_ATTRIBUTES_PER_PART : 1;
  const maxRange = owner === 'gsi' ? MAX_KEY_ATTRIBUTES_PER_PART : 1;
  const seen = new Map<string, string>();
  let isValid = true;
  value.forEach((element, i) => {
    const ep = joinPath(path, i);
    if (!isRecord(element)) {
      c.wrong(ep, element, 'an object with AttributeName and KeyType');
      isValid = false;
      return;
    }
    const name = own(element, 'AttributeName');
    const keyType = own(element, 'KeyType');
    const np = joinPath(ep, 'AttributeName');
    const kp = joinPath(ep, 'KeyType');
    let isElementValid = true;
    if (typeof name !== 'string' || name === '') {
      c.wrong(np, name, 'an attribute name');
      isElementValid = false;
    }
    if (keyType !== 'HASH' && keyType !== 'RANGE') {
      c.wrong(kp, keyType, 'HASH or RANGE');
      isElementValid = false;
    } else if (keyType === 'HASH' && (rangeCount > 0 || hashCount >= maxHash)) {
      const expected = hashCount >= maxHash && rangeCount < maxRange ? 'RANGE' : 'no further element';
      c.problem(kp, `${kp} is "HASH"; expected ${expected}: ${rule}.`, '"HASH"', expected);
      isElementValid = false;
    } else if (keyType === 'RANGE' && (hashCount === 0 || rangeCount >= maxRange)) {
      const expected = hashCount === 0 ? 'HASH (the partition key comes first)' : 'no further element';
      c.problem(kp, `${kp} is "RANGE"; expected ${expected}: ${rule}.`, '"RANGE"', expected);
      isElementValid = false;
    }
    if (keyType === 'HASH') hashCount += 1;
    else if (keyType === 'RANGE') rangeCount += 1;
    if (typeof name === 'string' && name !== '') {
      const first = seen.get(name);
      if (first !== undefined) {
        c.problem(np, `${np} is ${quote(name)}, which ${first} names already; expected each attribute once in a key schema.`, quote(name), 'each attribute once');
        isElementValid = false;
      } else seen.set(name, np);
    }
    if (!isElementValid) {
      isValid = false;
      return;
    }
    const attributeName = name as string;
    const def = defs?.get(attributeName);
    if (!def) {
      if (defs) {
        const expected = `one of the attributes AttributeDefinitions defines: ${listOf([...defs.keys()])}`;
        c.problem(np, `${np} is ${quote(attributeName)}, which AttributeDefinitions does not define; expected ${expected}.`, quote(attributeName), expected);
      }
      isValid = false;
      return;
    }
    const entry = { attribute: { name: attributeName, type: def.type }, path: ep };
    if (keyType === 'HASH') read.hash.push(entry);
    else read.range.push(entry);
  });
  if (!isValid) return undefined;
  if (owner === 'lsi' && read.range.length === 0) {
    c.problem(path, `${path} has no RANGE element; expected one: ${rule}.`, 'no RANGE element', 'one RANGE element');
    return undefined;
  }
  const [hash] = read.hash;
  if (owner === 'lsi' && tableHash !== undefined && hash && hash.attribute.name !== tableHash) {
    const np = joinPath(hash.path, 'AttributeName');
    c.problem(np, `${np} is ${quote(hash.attribute.name)}; expected ${quote(tableHash)}, the table's partition key: ${rule}.`, quote(hash.attribute.name), quote(tableHash));
    return undefined;
  }
  return read;
}

/** https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_Projection.html */
export function readProjection(value: unknown, path: string, c: Collector): Projection | undefined {
  if (!isRecord(value)) {
    c.wrong(path, value, 'an object with ProjectionType (ALL, KEYS_ONLY or INCLUDE)');
    return undefined;
  }
  const type = own(value, 'ProjectionType');
  const tp = joinPath(path, 'ProjectionType');
  if (type === 'ALL' || type === 'KEYS_ONLY') return { type };
  if (type !== 'INCLUDE') {
    c.wrong(tp, type, 'ALL, KEYS_ONLY or INCLUDE');
    return undefined;
  }
  const names = own(value, 'NonKeyAttributes');
  const np = joinPath(path, 'NonKeyAttributes');
  if (!Array.isArray(names) || names.some((n) => typeof n !== 'string' || n === '')) {
    c.wrong(np, names, 'a list of attribute names (ProjectionType is INCLUDE)');
    return undefined;
  }
  return { type: 'INCLUDE', nonKeyAttributes: [...(names as string[])] };
}

/** Provisioned RCU and WCU (whole numbers ≥ 1), or undefined with a problem. */
export function readThroughput(value: unknown, path: string, c: Collector, why: string): ProvisionedThroughput | undefined {
  if (!isRecord(value)) {
    c.wrong(path, value, 'an object with ReadCapacityUnits and WriteCapacityUnits', why);
    return undefined;
  }
  let isValid = true;
  const units = (field: string): number => {
    const v = own(value, field);
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) {
      c.wrong(joinPath(path, field), v, 'a whole number ≥ 1', why);
      isValid = false;
      return 0;
    }
    return v;
  };
  const readCapacityUnits = units('ReadCapacityUnits');
  const writeCapacityUnits = units('WriteCapacityUnits');
  return isValid ? { readCapacityUnits, writeCapacityUnits } : undefined;
}

/** On-demand maximums: -1 (none) or a whole number ≥ 1 per direction; undefined when neither is set. */
export function readOnDemand(value: unknown, path: string, c: Collector): { max?: OnDemandThroughput; isValid: boolean } {
  if (value === undefined) return { isValid: true };
  if (!isRecord(value)) {
    c.wrong(path, value, 'an object with MaxReadRequestUnits and MaxWriteRequestUnits');
    return { isValid: false };
  }
  const max: OnDemandThroughput = {};
  let isValid = true;
  for (const [field, key] of [['MaxReadRequestUnits', 'maxReadRequestUnits'], ['MaxWriteRequestUnits', 'maxWriteRequestUnits']] as const) {
    if (!has(value, field)) continue;
    const v = value[field];
    if (v === NO_MAXIMUM) continue;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) {
      c.wrong(joinPath(path, field), v, 'a whole number ≥ 1, or -1 for no maximum');
      isValid = false;
      continue;
    }
    max[key] = v;
  }
  return max.maxReadRequestUnits === undefined && max.maxWriteRequestUnits === undefined ? { isValid } : { max, isValid };
}

/**
 * Warm throughput units (`Status` is state and skipped); a direction below the on-demand floor of an
 * on-demand table or GSI is dropped with a note. Undefined when no direction is kept.
 */
export function readWarm(value: unknown, path: string, isOnDemand: boolean, owner: string, c: Collector): { warm?: WarmThroughput; isValid: boolean } {
  if (value === undefined) return { isValid: true };
  if (!isRecord(value)) {
    c.wrong(path, value, 'an object with ReadUnitsPerSecond and WriteUnitsPerSecond');
    return { isValid: false };
  }
  const warm: WarmThroughput = {};
  let isValid = true;
  for (const [field, key, direction] of [['ReadUnitsPerSecond', 'readUnitsPerSecond', 'read'], ['WriteUnitsPerSecond', 'writeUnitsPerSecond', 'write']] as const) {
    if (!has(value, field)) continue;
    const v = value[field];
    const fp = joinPath(path, field);
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) {
      c.wrong(fp, v, 'a whole number ≥ 1');
      isValid = false;
      continue;
    }
    const floor = ON_DEMAND_WARM_FLOOR[direction];
    if (isOnDemand && v < floor) {
      c.note(
        'dropped',
        fp,
        `${owner}: a warm throughput of ${formatNumber(v)} ${direction} units per second is below the ${formatNumber(floor)} a new on-demand table or GSI serves at once, so it asks for nothing; it was not imported.`,
      );
      continue;
    }
    warm[key] = v;
  }
  return warm.readUnitsPerSecond === undefined && warm.writeUnitsPerSecond === undefined ? { isValid } : { warm, isValid };
}

/** The design's key part from a key schema's elements: one attribute plainly, several as a list. */
export const keyPart = (elements: readonly KeyElement[]) => storedKeyPart(elements.map((e) => e.attribute));

/** Maps a key part's design path to the key schema elements (and their definitions) it came from. */
export function mapKeyPart(map: PathMap, designPath: string, elements: readonly KeyElement[], defs: Definitions): void {
  const [only] = elements;
  if (!only) return;
  const entries: Array<[string, KeyElement]> = elements.length === 1 ? [[designPath, only]] : elements.map((e, i) => [joinPath(designPath, i), e]);
  for (const [dp, e] of entries) {
    map.push([dp, e.path], [joinPath(dp, 'name'), joinPath(e.path, 'AttributeName')]);
    const def = defs.get(e.attribute.name);
    if (def) map.push([joinPath(dp, 'type'), def.path]);
  }
}
