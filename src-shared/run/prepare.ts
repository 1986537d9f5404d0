/**
 * Builds everything a run sends, before anything is sent: the CreateTable input, the seeded sample
 * items to load, and for every access pattern its planned request filled with a sample item's values,
 * `repeat` times, with Keyplan's prediction for one call on that sample.
 *
 * The prediction is the cost engine's own figure on a copy of the table whose entities hold the items
 * the run loads (`itemsPerEntity` each) and whose patterns run once a second, so "units per second"
 * reads as "units per call". The requests follow the planner's plan exactly: its key condition, its
 * filter, its Limit, its order, its consistency; nothing is re-planned here.
 */
import { estimateItemBytes } from '../capacity/index.ts';
import type { AttributeValue, Item } from '../capacity/item-size.ts';
import { costTable } from '../costing/design-cost.ts';
import { averageReadBytes } from '../costing/read-cost.ts';
import { formatNumber } from '../format/index.ts';
import { evaluateCondition, parseCondition } from '../model/condition.ts';
import { gsiKeyAttributes, isMultiAttributeKey, partitionKeysOf, sortKeysOf } from '../model/gsi-keys.ts';
import { parseKeyTemplate, renderKeyTemplate, templateAttributes } from '../model/key-template.ts';
import type { AccessPattern, Design, Entity, KeyAttributeType, Projection, Table } from '../model/schema.ts';
import { isCountPattern, isWritePattern, kindOf, unreachableAction, type WriteAction } from '../model/pattern-kinds.ts';
import type { Plan } from '../planner/types.ts';
import { createSampleStore } from '../sample/store.ts';
import type { EngineCapabilities, PatternRun, Prediction, RunCall, RunIndex, RunOperation, RunPlan, RunRequest, RunTable } from './types.ts';
import { NEEDS_FULL_ENGINE } from './types.ts';

/** Every table a run creates starts with this, so that nothing a run creates is mistaken for the user's. */
export const RUN_TABLE_PREFIX = 'keyplan-run-';

/** DynamoDB table names are at most 255 characters. https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.NamingRulesDataTypes.html */
const MAX_TABLE_NAME_LENGTH = 255;

/** BatchGetItem takes at most 100 keys. https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchGetItem.html */
const MAX_BATCH_GET_KEYS = 100;

/** 8 base-36 characters of a 32-bit FNV-1a hash of the run id: short, and distinct per run. */
function shortId(runId: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < runId.length; i += 1) {
    h ^= runId.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(36).padStart(7, '0').padStart(8, 'k');
}

/** `keyplan-run-<short id>-<name>`, cut to DynamoDB's 255 characters. */
export function runTableName(runId: string, name: string): string {
  return `${RUN_TABLE_PREFIX}${shortId(runId)}-${name}`.slice(0, MAX_TABLE_NAME_LENGTH);
}

export interface PrepareOptions {
  runId: string;
  tableId: string;
  /** Sample items loaded per entity. */
  itemsPerEntity: number;
  /** Calls per pattern. */
  repeat: number;
  seed: number;
  capabilities: EngineCapabilities;
}

type Plain = string | number | boolean;

/** An item as plain values (S, N, BOOL; other types are left out: no key template renders them). */
function plainValues(item: Item): Record<string, Plain> {
  const out: Record<string, Plain> = {};
  for (const [name, value] of Object.entries(item)) {
    const v = value as Record<string, unknown>;
    if (typeof v['S'] === 'string') out[name] = v['S'];
    else if (typeof v['N'] === 'string') out[name] = Number(v['N']);
    else if (typeof v['BOOL'] === 'boolean') out[name] = v['BOOL'];
  }
  return out;
}

/** A value typed as DynamoDB JSON for an attribute of `type` (S when unknown). */
function typed(value: Plain, type: string | undefined): AttributeValue {
  if (type === 'N') return { N: String(value) };
  if (type === 'BOOL') return { BOOL: value === true || value === 'true' };
  if (type === 'B') return { B: String(value) };
  return { S: String(value) };
}

function projectionOf(p: Projection): RunIndex['projection'] {
  return p.type === 'INCLUDE' ? { type: 'INCLUDE', nonKeyAttributes: [...p.nonKeyAttributes] } : { type: p.type };
}

function projectionInput(p: Projection): Record<string, unknown> {
  return p.type === 'INCLUDE' ? { ProjectionType: 'INCLUDE', NonKeyAttributes: [...p.nonKeyAttributes] } : { ProjectionType: p.type };
}

/** The CreateTable input for the run's table, and which GSIs the engine cannot create. */
function tableFor(table: Table, name: string, capabilities: EngineCapabilities): RunTable {
  const definitions = new Map<string, KeyAttributeType>();
  const define = (a: { name: string; type: KeyAttributeType }): void => {
    if (!definitions.has(a.name)) definitions.set(a.name, a.type);
  };
  define(table.partitionKey);
  if (table.sortKey) define(table.sortKey);
  const tableKeys = [table.partitionKey.name, ...(table.sortKey ? [table.sortKey.name] : [])];
  const keySchema = [{ AttributeName: table.partitionKey.name, KeyType: 'HASH' }, ...(table.sortKey ? [{ AttributeName: table.sortKey.name, KeyType: 'RANGE' }] : [])];
  const omittedIndexes: RunTable['omittedIndexes'] = [];
  const indexes: RunIndex[] = [];
  const gsis: Record<string, unknown>[] = [];
  for (const gsi of table.globalSecondaryIndexes) {
    if (isMultiAttributeKey(gsi) && !capabilities.multiAttributeKeys) {
      omittedIndexes.push({ name: gsi.name, reason: `its key has several attributes per part, which this engine cannot create: ${NEEDS_FULL_ENGINE}` });
      continue;
    }
    gsiKeyAttributes(gsi).forEach(define);
    indexes.push({ name: gsi.name, kind: 'gsi', keyAttributes: gsiKeyAttributes(gsi).map((a) => a.name), projection: projectionOf(gsi.projection) });
    gsis.push({
      IndexName: gsi.name,
      KeySchema: [
        ...partitionKeysOf(gsi).map((a) => ({ AttributeName: a.name, KeyType: 'HASH' })),
        ...sortKeysOf(gsi).map((a) => ({ AttributeName: a.name, KeyType: 'RANGE' })),
      ],
      Projection: projectionInput(gsi.projection),
    });
  }
  const lsis: Record<string, unknown>[] = [];
  for (const lsi of table.localSecondaryIndexes) {
    define(lsi.sortKey);
    indexes.push({ name: lsi.name, kind: 'lsi', keyAttributes: [table.partitionKey.name, lsi.sortKey.name], projection: projectionOf(lsi.projection) });
    lsis.push({
      IndexName: lsi.name,
      KeySchema: [
        { AttributeName: table.partitionKey.name, KeyType: 'HASH' },
        { AttributeName: lsi.sortKey.name, KeyType: 'RANGE' },
      ],
      Projection: projectionInput(lsi.projection),
    });
  }
  const createInput: Record<string, unknown> = {
    TableName: name,
    AttributeDefinitions: [...definitions].map(([AttributeName, AttributeType]) => ({ AttributeName, AttributeType })),
    KeySchema: keySchema,
    BillingMode: 'PAY_PER_REQUEST',
    ...(gsis.length > 0 ? { GlobalSecondaryIndexes: gsis } : {}),
    ...(lsis.length > 0 ? { LocalSecondaryIndexes: lsis } : {}),
  };
  return { tableId: table.id, name, createInput, keyAttributes: tableKeys, indexes, omittedIndexes };
}


/** The types of every key attribute of the table and its indexes, then of the entities' attributes. */
function attributeTypes(table: Table): Map<string, string> {
  const types = new Map<string, string>();
  const keys = [
    table.partitionKey,
    ...(table.sortKey ? [table.sortKey] : []),
    ...table.globalSecondaryIndexes.flatMap((g) => gsiKeyAttributes(g)),
    ...table.localSecondaryIndexes.map((l) => l.sortKey),
  ];
  for (const k of keys) if (!types.has(k.name)) types.set(k.name, k.type);
  for (const e of table.entities) for (const a of e.attributes) if (!types.has(a.name)) types.set(a.name, a.type);
  return types;
}

/** Key attributes of the plan's target (the table's, or the index's), in key order. */
function targetKeyAttributes(table: Table, plan: Plan): string[] {
  const t = plan.target;
  if (t.kind === 'gsi') {
    const gsi = table.globalSecondaryIndexes.find((g) => g.name === t.name);
    return gsi ? gsiKeyAttributes(gsi).map((a) => a.name) : [];
  }
  if (t.kind === 'lsi') {
    const lsi = table.localSecondaryIndexes.find((l) => l.name === t.name);
    return lsi ? [table.partitionKey.name, lsi.sortKey.name] : [];
  }
  return [table.partitionKey.name, ...(table.sortKey ? [table.sortKey.name] : [])];
}

/** One clause of a plan's key condition: `name = :v`, `name < :v`, `begins_with(name, :v)`, `name BETWEEN :a AND :b`. */
interface KeyClause {
  attribute: string;
  operator: '=' | '<' | '<=' | '>' | '>=' | 'begins_with' | 'between';
  placeholders: string[];
}

const KEY_CLAUSE = /begins_with\(\s*([^,\s]+)\s*,\s*(:\w+)\s*\)|([^\s()]+)\s+BETWEEN\s+(:\w+)\s+AND\s+(:\w+)|([^\s()]+)\s*(<=|>=|=|<|>)\s*(:\w+)/g;

function keyClauses(condition: string): KeyClause[] {
  const out: KeyClause[] = [];
  for (const m of condition.matchAll(KEY_CLAUSE)) {
    if (m[1] !== undefined && m[2] !== undefined) out.push({ attribute: m[1], operator: 'begins_with', placeholders: [m[2]] });
    else if (m[3] !== undefined && m[4] !== undefined && m[5] !== undefined) out.push({ attribute: m[3], operator: 'between', placeholders: [m[4], m[5]] });
    else if (m[6] !== undefined && m[7] !== undefined && m[8] !== undefined) out.push({ attribute: m[6], operator: m[7] as KeyClause['operator'], placeholders: [m[8]] });
  }
  return out;
}

/** The filter's value placeholders and the attribute (by `#name`) each is compared with. */
function filterValueAttributes(filter: string, names: Record<string, string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of filter.matchAll(/(#\w+)\s*(?:<>|<=|>=|=|<|>)\s*(:\w+)/g)) {
    const attribute = names[m[1]!];
    if (attribute !== undefined) out.set(m[2]!, attribute);
  }
  for (const m of filter.matchAll(/(#\w+)\s+IN\s*\(([^)]*)\)/g)) {
    const attribute = names[m[1]!];
    if (attribute === undefined) continue;
    for (const v of m[2]!.matchAll(/:\w+/g)) out.set(v[0], attribute);
  }
  return out;
}

/** A template rendered with an item's values (and a shard number), or undefined when a value is missing. */
function render(template: string, values: Record<string, Plain>, shard?: number): string | undefined {
  const parsed = parseKeyTemplate(template);
  if (!parsed.ok) return undefined;
  const rendered = renderKeyTemplate(parsed.value, shard === undefined ? values : { ...values, shard });
  return rendered.ok ? rendered.value : undefined;
}

const mentionsShard = (template: string): boolean => {
  const parsed = parseKeyTemplate(template);
  return parsed.ok && templateAttributes(parsed.value).includes('shard');
};

/** A sample item of the run: its DynamoDB JSON and plain values. */
interface SampleItem {
  item: Item;
  values: Record<string, Plain>;
}

/** The primary key of an item, for requests. */
function keyOf(item: Item, table: Table): Item {
  const key: Item = {};
  for (const name of [table.partitionKey.name, ...(table.sortKey ? [table.sortKey.name] : [])]) {
    const v = item[name];
    if (v !== undefined) key[name] = v;
  }
  return key;
}

function keyText(item: Item, table: Table): string {
  return Object.entries(keyOf(item, table))
    .map(([name, v]) => `${name}=${String(Object.values(v as Record<string, unknown>)[0])}`)
    .join(', ');
}

/** Calls `k` of `repeat` spread over the candidates. */
function pick<T>(candidates: readonly T[], k: number, repeat: number): T {
  const stride = Math.max(1, Math.floor(candidates.length / Math.max(1, repeat)));
  return candidates[(k * stride) % candidates.length]!;
}

interface PatternContext {
  table: Table;
  runName: string;
  types: Map<string, string>;
  plan: Plan;
  pattern: AccessPattern;
  repeat: number;
}

/** The read requests of one call, built from `sample` (and its neighbours sharing its partition). */
function readCall(ctx: PatternContext, sample: SampleItem, candidates: readonly SampleItem[], k: number): RunCall {
  const { plan, table, runName, types, pattern } = ctx;
  const operation = plan.operation as RunOperation;
  const index = plan.target.kind === 'table' ? undefined : plan.target.name;
  const consistent = plan.consistency === 'strong' && plan.target.kind !== 'gsi';
  const base = (): Record<string, unknown> => ({ TableName: runName, ...(index ? { IndexName: index } : {}), ReturnConsumedCapacity: 'INDEXES' });

  if (operation === 'GetItem' || operation === 'BatchGetItem') {
    const fanOut = Object.values(plan.values).some(mentionsShard);
    let keys: Item[];
    if (operation === 'GetItem') keys = [keyOf(sample.item, table)];
    else if (fanOut) {
      keys = [];
      const count = Math.max(1, Math.round(plan.itemsRead));
      for (let shard = 1; shard <= Math.min(count, MAX_BATCH_GET_KEYS); shard += 1) {
        const key: Item = {};
        for (const clause of keyClauses(plan.keyCondition ?? '')) {
          const template = plan.values[clause.placeholders[0]!];
          const value = template === undefined ? undefined : render(template, sample.values, shard);
          if (value !== undefined) key[clause.attribute] = typed(value, types.get(clause.attribute));
        }
        keys.push(key);
      }
    } else {
      const wanted = Math.min(MAX_BATCH_GET_KEYS, Math.max(1, Math.round(plan.itemsRead)), candidates.length);
      keys = Array.from({ length: wanted }, (_, i) => keyOf(candidates[(k + i) % candidates.length]!.item, table));
    }
    const projection = projectionFor(plan);
    if (operation === 'GetItem') {
      const input = { ...base(), Key: keys[0], ...(consistent ? { ConsistentRead: true } : {}), ...projection.input };
      const witness = { ...base(), Key: keys[0], ...(consistent ? { ConsistentRead: true } : {}) };
      return { requests: [{ operation, input, witness }], keyFrom: keyText(sample.item, table) };
    }
    const request = (withProjection: boolean): Record<string, unknown> => ({
      RequestItems: { [runName]: { Keys: keys, ...(consistent ? { ConsistentRead: true } : {}), ...(withProjection ? projection.input : {}) } },
      ReturnConsumedCapacity: 'INDEXES',
    });
    return { requests: [{ operation, input: request(true), witness: request(false) }], keyFrom: keyText(sample.item, table) };
  }

  if (operation === 'Scan') {
    const { filter, values: filterValues } = filterFor(plan, sample, types);
    const projection = projectionFor(plan);
    const input: Record<string, unknown> = {
      ...base(),
      ...(consistent ? { ConsistentRead: true } : {}),
      ...(plan.limit !== undefined ? { Limit: plan.limit } : {}),
      ...(filter ? { FilterExpression: filter } : {}),
      ...(isCountPattern(pattern) ? { Select: 'COUNT' } : projection.input),
    };
    mergeExpression(input, filter ? plan.names ?? {} : {}, filterValues);
    const witness = { ...base(), ...(consistent ? { ConsistentRead: true } : {}), ...(plan.limit !== undefined ? { Limit: plan.limit } : {}) };
    const stopAfterItems = filter && pattern.resultSize !== undefined && pattern.resultSize > 0 ? pattern.resultSize : undefined;
    return { requests: [{ operation, input, witness, ...(stopAfterItems !== undefined ? { stopAfterItems } : {}) }] };
  }

  // Query: the key condition with its attribute names as placeholders, its values from the sample.
  const clauses = keyClauses(plan.keyCondition ?? '');
  const names: Record<string, string> = {};
  const keyValues: Record<string, AttributeValue> = {};
  let condition = plan.keyCondition ?? '';
  clauses.forEach((clause, i) => {
    const placeholder = `#k${i}`;
    names[placeholder] = clause.attribute;
    condition = condition.replace(new RegExp(`(^|[\\s(,])${escapeRegExp(clause.attribute)}(?=[\\s,)=<>])`), `$1${placeholder}`);
  });
  const samePartition = (other: SampleItem): boolean =>
    clauses.filter((c) => c.operator === '=').every((c) => c.attribute in sample.item && JSON.stringify(other.item[c.attribute]) === JSON.stringify(sample.item[c.attribute]));
  // The sample item itself when it is not in the target (a sparse index none of the sample is in).
  const inPartition = candidates.filter(samePartition);
  const neighbours = inPartition.length > 0 ? inPartition : [sample];
  const fanOut = Math.max(1, plan.requests);
  const requests: RunRequest[] = [];
  for (let shard = 1; shard <= fanOut; shard += 1) {
    const values: Record<string, AttributeValue> = {};
    for (const clause of clauses) {
      const type = types.get(clause.attribute);
      clause.placeholders.forEach((placeholder, position) => {
        const template = plan.values[placeholder];
        if (template === undefined) return;
        const own = sample.item[clause.attribute];
        if (clause.operator === '=' && own !== undefined && !mentionsShard(template)) {
          values[placeholder] = own;
          return;
        }
        if (clause.operator === '=' || clause.operator === 'begins_with') {
          const value = render(template, sample.values, mentionsShard(template) ? (fanOut > 1 ? shard : undefined) : undefined);
          if (value !== undefined) values[placeholder] = typed(value, type);
          return;
        }
        // A range: the bound that takes in the sample item's partition, its neighbours' lowest key
        // value (a lower bound) or highest (an upper bound), as they hold it (a template such as
        // `{orderDate}` may be only the start of a key `{orderDate}#{orderId}`).
        const lower = clause.operator === '>' || clause.operator === '>=' || (clause.operator === 'between' && position === 0);
        const numeric = type === 'N';
        const held = neighbours
          .map((n) => n.values[clause.attribute])
          .filter((v): v is Plain => v !== undefined)
          .map(String);
        const rendered = held.length > 0 ? held : neighbours.map((n) => render(template, n.values)).filter((v): v is string => v !== undefined);
        if (rendered.length === 0) return;
        const sorted = [...new Set(rendered)].sort((a, b) => (numeric ? Number(a) - Number(b) : a < b ? -1 : a > b ? 1 : 0));
        values[placeholder] = typed(lower ? sorted[0]! : sorted.at(-1)!, type);
      });
    }
    Object.assign(keyValues, values);
    const { filter, values: filterValues } = filterFor(plan, sample, types);
    const projection = projectionFor(plan);
    const input: Record<string, unknown> = {
      ...base(),
      KeyConditionExpression: condition,
      ...(consistent ? { ConsistentRead: true } : {}),
      ...(plan.limit !== undefined ? { Limit: plan.limit } : {}),
      ...(plan.scanIndexForward === false ? { ScanIndexForward: false } : {}),
      ...(filter ? { FilterExpression: filter } : {}),
      ...(isCountPattern(pattern) ? { Select: 'COUNT' } : projection.input),
    };
    mergeExpression(input, { ...names, ...(filter ? plan.names ?? {} : {}) }, { ...values, ...filterValues });
    if (projection.input['ExpressionAttributeNames']) mergeExpression(input, projection.input['ExpressionAttributeNames'] as Record<string, string>, {});
    const witness: Record<string, unknown> = {
      ...base(),
      KeyConditionExpression: condition,
      ...(consistent ? { ConsistentRead: true } : {}),
      ...(plan.limit !== undefined ? { Limit: plan.limit } : {}),
      ...(plan.scanIndexForward === false ? { ScanIndexForward: false } : {}),
      ExpressionAttributeNames: { ...names },
      ExpressionAttributeValues: { ...values },
    };
    const stopAfterItems = plan.limit !== undefined ? plan.limit : filter && pattern.resultSize !== undefined && pattern.resultSize > 0 ? pattern.resultSize : undefined;
    requests.push({ operation: 'Query', input, witness, ...(stopAfterItems !== undefined ? { stopAfterItems } : {}) });
  }
  void keyValues;
  return { requests, keyFrom: keyText(sample.item, table) };
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Adds names and values to an input's ExpressionAttributeNames / Values (leaving them out when empty). */
function mergeExpression(input: Record<string, unknown>, names: Record<string, string>, values: Record<string, AttributeValue>): void {
  if (Object.keys(names).length > 0) input['ExpressionAttributeNames'] = { ...((input['ExpressionAttributeNames'] as Record<string, string> | undefined) ?? {}), ...names };
  if (Object.keys(values).length > 0) input['ExpressionAttributeValues'] = { ...((input['ExpressionAttributeValues'] as Record<string, AttributeValue> | undefined) ?? {}), ...values };
}

/** The plan's filter with its values filled in (literals, or the sample's values for attributes the caller knows). */
function filterFor(plan: Plan, sample: SampleItem, types: Map<string, string>): { filter?: string; values: Record<string, AttributeValue> } {
  if (plan.filter === undefined) return { values: {} };
  const attributes = filterValueAttributes(plan.filter, plan.names ?? {});
  const values: Record<string, AttributeValue> = {};
  for (const [placeholder, attribute] of attributes) {
    const template = plan.values[placeholder];
    if (template === undefined) continue;
    const value = render(template, sample.values);
    if (value !== undefined) values[placeholder] = typed(value, types.get(attribute));
  }
  return { filter: plan.filter, values };
}

/** A ProjectionExpression for a pattern that returns a list of attributes. */
function projectionFor(plan: Plan): { input: Record<string, unknown> } {
  if (!Array.isArray(plan.returns) || plan.returns.length === 0) return { input: {} };
  const names: Record<string, string> = {};
  const expression = plan.returns
    .map((attribute, i) => {
      names[`#p${i}`] = attribute;
      return `#p${i}`;
    })
    .join(', ');
  return { input: { ProjectionExpression: expression, ExpressionAttributeNames: names } };
}

/** One write request: the single-item operation, or the same item in a TransactWriteItems. */
type WriteWrap = (kind: 'Put' | 'Update' | 'Delete', body: Record<string, unknown>, operation: RunOperation) => RunRequest;

/** The write of one call. */
function writeCall(ctx: PatternContext & { pattern: { action: WriteAction } }, sample: SampleItem, others: readonly SampleItem[], entity: Entity): RunCall {
  const { plan, table, runName, pattern } = ctx;
  const transactional = plan.consistency === 'transactional';
  const wrap: WriteWrap = (kind, body, operation) =>
    transactional
      ? { operation: 'TransactWriteItems', input: { TransactItems: [{ [kind]: { TableName: runName, ...body } }], ReturnConsumedCapacity: 'INDEXES' } }
      : { operation, input: { TableName: runName, ...body, ReturnConsumedCapacity: 'INDEXES' } };
  const keyFrom = keyText(sample.item, table);
  switch (pattern.action) {
    case 'put':
      return { requests: [wrap('Put', { Item: sample.item }, 'PutItem')], keyFrom };
    case 'delete':
      return { requests: [wrap('Delete', { Key: keyOf(sample.item, table) }, 'DeleteItem')], keyFrom };
    case 'update':
      return { requests: [wrap('Update', updateBody(ctx, sample, others, entity), 'UpdateItem')], keyFrom };
    default:
      return unreachableAction(pattern.action);
  }
}

/**
 * An update's request body: SET each updated attribute (the pattern's value, or another sample
 * item's), and keep the index keys built from them in step, as the application would: re-rendered,
 * or removed when the binding's condition no longer holds. The table's own key never changes.
 */
function updateBody(ctx: PatternContext, sample: SampleItem, others: readonly SampleItem[], entity: Entity): Record<string, unknown> {
  const { table, types, pattern } = ctx;
  const tableKeys = new Set([table.partitionKey.name, ...(table.sortKey ? [table.sortKey.name] : [])]);
  const updated = (pattern.updates ?? []).filter((a) => !tableKeys.has(a));
  const next: Record<string, Plain> = { ...sample.values };
  const names: Record<string, string> = {};
  const values: Record<string, AttributeValue> = {};
  const sets: string[] = [];
  const removes: string[] = [];
  let n = 0;
  const set = (attribute: string, value: AttributeValue): void => {
    names[`#u${n}`] = attribute;
    values[`:u${n}`] = value;
    sets.push(`#u${n} = :u${n}`);
    n += 1;
  };
  for (const attribute of updated) {
    const given = pattern.sets?.[attribute];
    const type = types.get(attribute);
    if (given !== undefined) {
      next[attribute] = type === 'N' ? Number(given) : type === 'BOOL' ? given === 'true' : given;
      set(attribute, typed(given, type));
      continue;
    }
    // Another item's value, a different one where the sample has one: an update that writes the
    // value already there changes no index entry, which is not what the pattern is about.
    const current = JSON.stringify(sample.item[attribute]);
    const differing = others.find((o) => o.item[attribute] !== undefined && JSON.stringify(o.item[attribute]) !== current);
    const from = differing?.item[attribute] ?? sample.item[attribute];
    if (from === undefined) continue;
    const plain = plainValues({ [attribute]: from })[attribute];
    if (plain !== undefined) next[attribute] = plain;
    set(attribute, from);
  }
  for (const [keyName, binding] of Object.entries(entity.keys)) {
    if (tableKeys.has(keyName)) continue;
    const parsed = parseKeyTemplate(binding.template);
    if (!parsed.ok) continue;
    const dependsOn = templateAttributes(parsed.value).some((a) => updated.includes(a));
    const when = binding.when === undefined ? undefined : parseCondition(binding.when);
    const whenDepends = when?.ok === true && when.value.clauses.some((c) => updated.includes(c.attribute));
    if (!dependsOn && !whenDepends) continue;
    const holds = when === undefined || !when.ok || evaluateCondition(when.value, next);
    const rendered = holds ? renderKeyTemplate(parsed.value, next) : undefined;
    if (rendered?.ok) set(keyName, typed(rendered.value, types.get(keyName)));
    else if (!holds) {
      names[`#u${n}`] = keyName;
      removes.push(`#u${n}`);
      n += 1;
    }
  }
  const expression = [sets.length > 0 ? `SET ${sets.join(', ')}` : '', removes.length > 0 ? `REMOVE ${removes.join(', ')}` : ''].filter((s) => s !== '').join(' ');
  return {
    Key: keyOf(sample.item, table),
    ...(expression !== '' ? { UpdateExpression: expression } : {}),
    ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
    ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
  };
}

/** A figure's steps as lines: `label: expression = value unit`. */
function derivationLines(steps: ReadonlyArray<{ label: string; expression: string; value: number; unit: string }>): string[] {
  return steps.map((s) => `${s.label}: ${s.expression} = ${formatNumber(s.value, 4)}${s.unit === '' ? '' : ` ${s.unit}`}`);
}

/**
 * Prepares a run of one table of `design`. Pure: the same design and options give the same plan.
 * The table must exist (the caller checks).
 */
export function prepareRun(design: Design, options: PrepareOptions): RunPlan {
  const source = design.tables.find((t) => t.id === options.tableId);
  if (!source) throw new Error(`The design has no table "${options.tableId}".`);
  const n = Math.max(1, Math.floor(options.itemsPerEntity));
  const repeat = Math.max(1, Math.floor(options.repeat));
  const runName = runTableName(options.runId, source.name);
  const table = tableFor(source, runName, options.capabilities);

  // The table as the run holds it: N items per entity, every pattern once a second.
  const modelTable: Table = {
    ...source,
    entities: source.entities.map((e) => ({ ...e, itemCount: n })),
    accessPatterns: source.accessPatterns.map((p) => ({ ...p, ratePerSecond: 1 })),
  };
  // Puts write items that are not loaded: K more per entity with put patterns, held back.
  const putsPerEntity = new Map<string, number>();
  for (const p of source.accessPatterns) if (kindOf(p.action).creates && p.entityId !== undefined) putsPerEntity.set(p.entityId, (putsPerEntity.get(p.entityId) ?? 0) + repeat);
  const storeTable: Table = { ...modelTable, entities: modelTable.entities.map((e) => ({ ...e, itemCount: n + (putsPerEntity.get(e.id) ?? 0) })) };
  const store = createSampleStore({ ...design, tables: design.tables.map((t) => (t.id === source.id ? storeTable : t)) }, source.id, { seed: options.seed, maxItems: 10_000_000 });

  // Items with the same primary key are one item in DynamoDB (the later write replaces the earlier):
  // a sample of random references can draw a key twice, so only its first item is kept.
  const byEntity = new Map<string, SampleItem[]>();
  const seen = new Set<string>();
  const total = store.summary().views.find((v) => v.name === 'table')?.itemCount ?? 0;
  const PAGE = 5_000;
  for (let offset = 0; offset < total; offset += PAGE) {
    const page = store.items('table', offset, Math.min(PAGE, total - offset));
    page.rows.forEach((row, i) => {
      const item = store.itemAt('table', offset + i);
      const key = JSON.stringify(keyOf(item, source));
      if (seen.has(key)) return;
      seen.add(key);
      const list = byEntity.get(row.entityId) ?? [];
      list.push({ item, values: plainValues(item) });
      byEntity.set(row.entityId, list);
    });
  }
  const loaded = new Map<string, SampleItem[]>();
  const heldBack = new Map<string, SampleItem[]>();
  for (const [entityId, list] of byEntity) {
    const held = putsPerEntity.get(entityId) ?? 0;
    loaded.set(entityId, list.slice(0, list.length - held));
    heldBack.set(entityId, list.slice(list.length - held));
  }

  const costs = costTable(modelTable);
  const types = attributeTypes(source);
  const omitted = new Set(table.omittedIndexes.map((o) => o.name));
  const usedPuts = new Map<string, number>();
  const patterns: PatternRun[] = [];
  for (const pattern of modelTable.accessPatterns) {
    const cost = costs.patterns.find((c) => c.patternId === pattern.id);
    const plan = cost?.plan;
    const kind = kindOf(pattern.action).family;
    const transactional = pattern.consistency === 'transactional';
    const operation: RunOperation = plan && plan.operation !== 'None' ? (transactional && kind === 'write' ? 'TransactWriteItems' : (plan.operation as RunOperation)) : kind === 'write' ? 'PutItem' : 'Query';
    const target = plan ? (plan.target.kind === 'table' ? 'table' : plan.target.name) : 'table';
    const runOf = (extra: Partial<PatternRun>): PatternRun => ({
      patternId: pattern.id,
      name: pattern.name,
      kind,
      operation,
      target,
      consistency: plan?.consistency ?? pattern.consistency,
      calls: [],
      notes: [],
      ...extra,
    });
    if (!plan || !cost || plan.operation === 'None') {
      patterns.push(runOf({ skipped: `needs a key design${plan?.needsKeyDesign ? `: ${plan.needsKeyDesign}` : ''}` }));
      continue;
    }
    if (transactional && !options.capabilities.transactions) {
      patterns.push(runOf({ skipped: `${NEEDS_FULL_ENGINE}: the pattern is transactional and this engine has no TransactWriteItems or TransactGetItems` }));
      continue;
    }
    if (transactional && kind === 'read') {
      patterns.push(runOf({ skipped: 'a transactional read (TransactGetItems) is not run yet; its plan is costed as usual' }));
      continue;
    }
    if (omitted.has(target)) {
      patterns.push(runOf({ skipped: `${NEEDS_FULL_ENGINE}: it queries ${target}, whose multi-attribute key this engine cannot create` }));
      continue;
    }
    const entity = modelTable.entities.find((e) => e.id === pattern.entityId);
    if (!entity) {
      patterns.push(runOf({ skipped: 'needs a key design: the pattern names no entity' }));
      continue;
    }
    const notes: string[] = [];
    // Prediction: the cost engine's figure for one call on the run's table.
    const units: Record<string, number> = {};
    for (const c of cost.consumption) {
      const name = c.target === 'table' ? 'table' : c.target.gsi;
      if (omitted.has(name)) {
        notes.push(`${name} is not created on this engine, so its units are left out of the prediction.`);
        continue;
      }
      const value = kind === 'write' ? c.writeUnitsPerSecond : c.readUnitsPerSecond;
      units[name] = (units[name] ?? 0) + value;
    }
    if (plan.fetch?.kind === 'gsi' && kind === 'read') {
      notes.push(`The plan fetches ${formatNumber(plan.fetch.items)} base items from the table with ${plan.fetch.operation ?? 'GetItem'} after the index read; the run sends the index read only, so the fetch's units are left out.`);
      delete units['table'];
    }
    const totalUnits = Object.values(units).reduce((s, v) => s + v, 0);
    const averageItemBytes = kind === 'read' ? averageReadBytes(modelTable, plan).value : estimateItemBytes(modelTable, entity).value;
    const prediction: Prediction = {
      units,
      total: totalUnits,
      unit: kind,
      itemsRead: plan.itemsRead,
      itemsReturned: plan.itemsReturned,
      requests: plan.requests,
      averageItemBytes,
      derivation: derivationLines(cost.perRequest.steps),
    };

    const ctx: PatternContext = { table: source, runName, types, plan, pattern, repeat };
    const entityItems = loaded.get(entity.id) ?? [];
    const calls: RunCall[] = [];
    if (!isWritePattern(pattern)) {
      const needed = plan.operation === 'Scan' ? [] : targetKeyAttributes(source, plan);
      const inTarget = entityItems.filter((s) => needed.every((a) => s.item[a] !== undefined));
      const candidates = inTarget.length > 0 ? inTarget : entityItems;
      if (inTarget.length === 0 && needed.length > 0) notes.push(`No ${entity.name} sample item is in ${target}: the requests use items outside it and read nothing.`);
      if (candidates.length === 0) {
        patterns.push(runOf({ prediction, notes, skipped: `no ${entity.name} items in the sample to take values from` }));
        continue;
      }
      for (let k = 0; k < repeat; k += 1) calls.push(readCall(ctx, pick(candidates, k, repeat), candidates, k));
    } else {
      const write = { ...ctx, pattern };
      switch (pattern.action) {
        case 'put': {
          const pool = heldBack.get(entity.id) ?? [];
          const used = usedPuts.get(entity.id) ?? 0;
          for (let k = 0; k < repeat && used + k < pool.length; k += 1) calls.push(writeCall(write, pool[used + k]!, [], entity));
          usedPuts.set(entity.id, used + repeat);
          break;
        }
        case 'delete':
          for (let k = 0; k < repeat && k < entityItems.length; k += 1) calls.push(writeCall(write, entityItems[entityItems.length - 1 - k]!, [], entity));
          break;
        case 'update':
          if (entityItems.length === 0) {
            patterns.push(runOf({ prediction, notes, skipped: `no ${entity.name} items in the sample to update` }));
            continue;
          }
          for (let k = 0; k < repeat; k += 1) {
            const sample = pick(entityItems, k, repeat);
            const at = entityItems.indexOf(sample);
            calls.push(writeCall(write, sample, [...entityItems.slice(at + 1 + k), ...entityItems.slice(0, at + 1 + k)], entity));
          }
          break;
        default:
          unreachableAction(pattern.action);
      }
    }
    patterns.push(runOf({ prediction, calls, notes }));
  }

  const items = [...loaded.values()].flat().map((s) => s.item);
  const itemsPerEntity: Record<string, number> = {};
  for (const [entityId, list] of loaded) itemsPerEntity[entityId] = list.length;
  return { runId: options.runId, table, items, itemsPerEntity, patterns, repeat, seed: options.seed };
}

/** The order a run sends its patterns in: reads, updates, puts, deletes (reports keep the design's order). */
export function sendOrder(patterns: readonly PatternRun[]): PatternRun[] {
  const writeKind = (p: PatternRun): string => {
    if (p.operation !== 'TransactWriteItems') return p.operation;
    const first = (p.calls[0]?.requests[0]?.input['TransactItems'] as Array<Record<string, unknown>> | undefined)?.[0] ?? {};
    return 'Update' in first ? 'UpdateItem' : 'Delete' in first ? 'DeleteItem' : 'PutItem';
  };
  const rank = (p: PatternRun): number => {
    if (p.kind === 'read') return 0;
    const op = writeKind(p);
    return op === 'UpdateItem' ? 1 : op === 'PutItem' ? 2 : 3;
  };
  return [...patterns].sort((a, b) => rank(a) - rank(b));
}
