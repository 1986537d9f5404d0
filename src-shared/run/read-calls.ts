/**
 * The read requests of one call of a pattern, exactly as its plan says: GetItem or BatchGetItem of
 * sample keys (every shard's key for a fan-out), a Scan with the plan's filter, or a Query per shard
 * whose key condition takes the sample item's values and whose range bounds take in the item's
 * partition. Each request carries a witness: the same read without filter, projection or Select, so
 * that the items it read are known.
 */
import type { AttributeValue, Item } from '../capacity/index.ts';
import { gsiKeyAttributes, isCountPattern } from '../model/index.ts';
import type { AccessPattern, Table } from '../model/index.ts';
import { MAX_BATCH_GET_KEYS } from '../planner/index.ts';
import type { Plan } from '../planner/index.ts';
import { tableKeyNames } from './create-table.ts';
import { filterFor, keyClauses, mentionsShard, mergeExpression, namedKeyCondition, projectionFor, render, type KeyClause } from './plan-expressions.ts';
import { keyOf, keyText, typed, type Plain, type SampleItem } from './sample-items.ts';
import type { RunCall, RunOperation, RunRequest } from './types.ts';

/** What one pattern's calls are built from. */
export interface PatternContext {
  table: Table;
  /** The run's table name, which every request names. */
  runName: string;
  /** Attribute types (`attributeTypes`), to type the values a request fills in. */
  types: Map<string, string>;
  plan: Plan;
  pattern: AccessPattern;
  repeat: number;
}

/** Key attributes of the plan's target (the table's, or the index's), in key order. */
export function targetKeyAttributes(table: Table, plan: Plan): string[] {
  const t = plan.target;
  if (t.kind === 'gsi') {
    const gsi = table.globalSecondaryIndexes.find((g) => g.name === t.name);
    return gsi ? gsiKeyAttributes(gsi).map((a) => a.name) : [];
  }
  if (t.kind === 'lsi') {
    const lsi = table.localSecondaryIndexes.find((l) => l.name === t.name);
    return lsi ? [table.partitionKey.name, lsi.sortKey.name] : [];
  }
  return tableKeyNames(table);
}

/** Whether the read asks for a strongly consistent read (a GSI has none). */
const isConsistent = (plan: Plan): boolean => plan.consistency === 'strong' && plan.target.kind !== 'gsi';

/** What every single-target read input starts with: the run's table, the index, consumed capacity by index. */
function baseInput(ctx: PatternContext): Record<string, unknown> {
  const index = ctx.plan.target.kind === 'table' ? undefined : ctx.plan.target.name;
  return { TableName: ctx.runName, ...(index ? { IndexName: index } : {}), ReturnConsumedCapacity: 'INDEXES' };
}

/** The read requests of one call, built from `sample` (and its neighbours sharing its partition). */
export function readCall(ctx: PatternContext, sample: SampleItem, candidates: readonly SampleItem[], k: number): RunCall {
  const operation = ctx.plan.operation as RunOperation;
  if (operation === 'GetItem' || operation === 'BatchGetItem') return getCall(ctx, operation, sample, candidates, k);
  if (operation === 'Scan') return scanCall(ctx, sample);
  return queryCall(ctx, sample, candidates);
}

/** A GetItem of the sample's key, or a BatchGetItem of every shard's key (a fan-out) or of the next candidates' keys. */
function getCall(ctx: PatternContext, operation: 'GetItem' | 'BatchGetItem', sample: SampleItem, candidates: readonly SampleItem[], k: number): RunCall {
  const { plan, table, runName, types } = ctx;
  const consistent = isConsistent(plan);
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
    const input = { ...baseInput(ctx), Key: keys[0], ...(consistent ? { ConsistentRead: true } : {}), ...projection.input };
    const witness = { ...baseInput(ctx), Key: keys[0], ...(consistent ? { ConsistentRead: true } : {}) };
    return { requests: [{ operation, input, witness }], keyFrom: keyText(sample.item, table) };
  }
  const request = (withProjection: boolean): Record<string, unknown> => ({
    RequestItems: { [runName]: { Keys: keys, ...(consistent ? { ConsistentRead: true } : {}), ...(withProjection ? projection.input : {}) } },
    ReturnConsumedCapacity: 'INDEXES',
  });
  return { requests: [{ operation, input: request(true), witness: request(false) }], keyFrom: keyText(sample.item, table) };
}

/** A Scan with the plan's filter, paged until the caller's resultSize passes it. */
function scanCall(ctx: PatternContext, sample: SampleItem): RunCall {
  const { plan, types, pattern } = ctx;
  const consistent = isConsistent(plan);
  const { filter, values: filterValues } = filterFor(plan, sample, types);
  const projection = projectionFor(plan);
  const read = (): Record<string, unknown> => ({ ...baseInput(ctx), ...(consistent ? { ConsistentRead: true } : {}), ...(plan.limit !== undefined ? { Limit: plan.limit } : {}) });
  const input: Record<string, unknown> = {
    ...read(),
    ...(filter ? { FilterExpression: filter } : {}),
    ...(isCountPattern(pattern) ? { Select: 'COUNT' } : projection.input),
  };
  mergeExpression(input, filter ? plan.names ?? {} : {}, filterValues);
  const witness = read();
  const stopAfterItems = filter && pattern.resultSize !== undefined && pattern.resultSize > 0 ? pattern.resultSize : undefined;
  return { requests: [{ operation: 'Scan', input, witness, ...(stopAfterItems !== undefined ? { stopAfterItems } : {}) }] };
}

/** A Query per shard: the key condition with its attribute names as placeholders, its values from the sample. */
function queryCall(ctx: PatternContext, sample: SampleItem, candidates: readonly SampleItem[]): RunCall {
  const { plan, table, types, pattern } = ctx;
  const consistent = isConsistent(plan);
  const clauses = keyClauses(plan.keyCondition ?? '');
  const { condition, names } = namedKeyCondition(plan.keyCondition ?? '', clauses);
  const samePartition = (other: SampleItem): boolean =>
    clauses.filter((c) => c.operator === '=').every((c) => c.attribute in sample.item && JSON.stringify(other.item[c.attribute]) === JSON.stringify(sample.item[c.attribute]));
  // The sample item itself when it is not in the target (a sparse index none of the sample is in).
  const inPartition = candidates.filter(samePartition);
  const neighbours = inPartition.length > 0 ? inPartition : [sample];
  const fanOut = Math.max(1, plan.requests);
  // What the measured request and its witness share: the key condition, consistency, Limit and order.
  const read = (): Record<string, unknown> => ({
    ...baseInput(ctx),
    KeyConditionExpression: condition,
    ...(consistent ? { ConsistentRead: true } : {}),
    ...(plan.limit !== undefined ? { Limit: plan.limit } : {}),
    ...(plan.scanIndexForward === false ? { ScanIndexForward: false } : {}),
  });
  const requests: RunRequest[] = [];
  for (let shard = 1; shard <= fanOut; shard += 1) {
    const values = keyConditionValues(ctx, clauses, sample, neighbours, fanOut > 1 ? shard : undefined);
    const { filter, values: filterValues } = filterFor(plan, sample, types);
    const projection = projectionFor(plan);
    const input: Record<string, unknown> = {
      ...read(),
      ...(filter ? { FilterExpression: filter } : {}),
      ...(isCountPattern(pattern) ? { Select: 'COUNT' } : projection.input),
    };
    mergeExpression(input, { ...names, ...(filter ? plan.names ?? {} : {}) }, { ...values, ...filterValues });
    if (projection.input['ExpressionAttributeNames']) mergeExpression(input, projection.input['ExpressionAttributeNames'] as Record<string, string>, {});
    const witness: Record<string, unknown> = { ...read(), ExpressionAttributeNames: { ...names }, ExpressionAttributeValues: { ...values } };
    const stopAfterItems = plan.limit !== undefined ? plan.limit : filter && pattern.resultSize !== undefined && pattern.resultSize > 0 ? pattern.resultSize : undefined;
    requests.push({ operation: 'Query', input, witness, ...(stopAfterItems !== undefined ? { stopAfterItems } : {}) });
  }
  return { requests, keyFrom: keyText(sample.item, table) };
}

/**
 * The key condition's values for one Query (`shard`: the shard a fan-out asks, else undefined): an
 * equality takes the sample item's own value (or its template rendered, with the shard), a range the
 * bound that takes in the sample's partition.
 */
function keyConditionValues(ctx: PatternContext, clauses: readonly KeyClause[], sample: SampleItem, neighbours: readonly SampleItem[], shard: number | undefined): Record<string, AttributeValue> {
  const { plan, types } = ctx;
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
        const value = render(template, sample.values, mentionsShard(template) ? shard : undefined);
        if (value !== undefined) values[placeholder] = typed(value, type);
        return;
      }
      const lower = clause.operator === '>' || clause.operator === '>=' || (clause.operator === 'between' && position === 0);
      const bound = rangeBound(template, clause.attribute, neighbours, lower, type === 'N');
      if (bound !== undefined) values[placeholder] = typed(bound, type);
    });
  }
  return values;
}

/**
 * A range's bound that takes in the sample item's partition: its neighbours' lowest key value (a
 * lower bound) or highest (an upper bound), as they hold it (a template such as `{orderDate}` may be
 * only the start of a key `{orderDate}#{orderId}`); undefined when none has one.
 */
function rangeBound(template: string, attribute: string, neighbours: readonly SampleItem[], lower: boolean, numeric: boolean): string | undefined {
  const held = neighbours
    .map((n) => n.values[attribute])
    .filter((v): v is Plain => v !== undefined)
    .map(String);
  const rendered = held.length > 0 ? held : neighbours.map((n) => render(template, n.values)).filter((v): v is string => v !== undefined);
  if (rendered.length === 0) return undefined;
  const sorted = [...new Set(rendered)].sort((a, b) => (numeric ? Number(a) - Number(b) : a < b ? -1 : a > b ? 1 : 0));
  return lower ? sorted[0]! : sorted.at(-1)!;
}
