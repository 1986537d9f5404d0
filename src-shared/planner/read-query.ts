/**
 * The Query candidate of a read, built in four steps:
 * - the items under the key condition: the entity's own per key value, and those of other entities
 *   sharing the item collection that the sort-key condition does not exclude (`itemsUnderKey`);
 * - the filter the Query sends: known attributes the key does not use and the pattern's filter, less
 *   the clauses a sparse index's own condition already implies (`queryFilterOf`);
 * - the items read and returned, after a range without resultSize, Select=COUNT, the filter or a
 *   Limit (`queryCounts`);
 * - the fetches from the table when the index lacks attributes the pattern needs
 *   (`addTableFetch`; docs/dynamodb-rules.md §2.4, §2.5).
 */
import {
  conditionAttributes,
  formatCondition,
  type Condition,
  templateAttributes,
  type KeyTemplate,
  isCountPattern,
  kindOf,
} from '../model/index.ts';
import { distinctCombinationsOf, formatCount, formatItems, formatList, formatPercent, shareOf, tidy, UNKNOWN_RANGE_SELECTIVITY } from './count-estimate.ts';
import { conditionExpression, equalityExpression, ExpressionBuilder } from './expression.ts';
import { MAX_BATCH_GET_KEYS, PARTIAL_PENALTY, RANK, usedConsistency, type Candidate, type TargetMatch } from './read-candidate.ts';
import { wantedItems, type ReadRequest } from './read-request.ts';
import { mayMatchSortKey } from './sort-key.ts';
import { isClauseImpliedBy } from './sparse-conditions.ts';
import { counterNote } from './suggest.ts';
import { projectedAttributesOf, type KeyTarget, type TableView } from './table-view.ts';
import type { Consistency } from '../model/index.ts';
import type { BaseFetch, EntityRead, Plan, PlanBadge, ProjectionChange } from './types.ts';

/** A count reading more items than this is told about the counter-item alternative. */
const COUNTER_ITEM_THRESHOLD = 100;
/** Added when the index lacks needed attributes and every item must be fetched from the table. */
const FETCH_PENALTY = 0.25;

/** Two partition-key templates that write the same values: one item collection. */
function isSameCollection(a: KeyTemplate, b: KeyTemplate): boolean {
  if (a.parts.length !== b.parts.length) return false;
  const hasLiteral = a.parts.some((p) => p.kind === 'literal');
  return a.parts.every((p, i) => {
    const q = b.parts[i];
    if (p.kind === 'literal') return q?.kind === 'literal' && q.text === p.text;
    // `USER#{userId}` and `USER#{id}` share collections; bare `{userId}` and `{productId}` do not.
    return q?.kind === 'attribute' && q.pad === p.pad && (hasLiteral || q.name === p.name);
  });
}

/** Items per key value: the items in the target spread over the distinct key values (at least 1 each). */
function itemsPerKey(itemsInTarget: number, distinct: number): number {
  if (itemsInTarget <= 0) return 0;
  return itemsInTarget / Math.min(Math.max(1, distinct), Math.max(1, itemsInTarget));
}

/** The items one key condition selects, before any range halving or Limit. */
interface KeyItems {
  /** Attributes the key condition fixes by equality. */
  fixed: string[];
  /** The entity's own items per key value. */
  own: number;
  /** Other entities of the same item collection that the sort-key condition does not exclude. */
  neighbours: EntityRead[];
}

function itemsUnderKey(match: TargetMatch): KeyItems {
  const { request, target: t, membership: m, sharding, assumptions } = match;
  const { entity: ev, view } = request;
  const entity = ev.entity;
  const shardDivisor = sharding.isOneShard ? sharding.count : 1;
  const inTarget = ev.itemCount * m.fraction;
  const fixed = [...match.partitionAttributes, ...match.sortKey.fixed];
  const distinct = distinctCombinationsOf(entity, fixed, m.allowedValues, view.refs);
  const own = itemsPerKey(inTarget, distinct.count) / shardDivisor;
  if (fixed.length > 0) assumptions.push(...distinct.assumptions);
  assumptions.push(
    fixed.length > 0
      ? `${formatItems(own, `${entity.name} item`)} per ${fixed.length === 1 ? `${fixed[0] ?? ''} value` : `combination of ${formatList(fixed)}`} (${formatCount(inTarget)} in ${t.label} / ${formatCount(distinct.count)}${shardDivisor > 1 ? ` / ${shardDivisor} shards` : ''})`
      : `The key is a constant: all ${formatItems(own, `${entity.name} item`)} of ${t.label} share it`,
  );
  return { fixed, own, neighbours: collectionNeighbours(match, shardDivisor) };
}

/** Other entities of the same item collection that the sort-key condition does not exclude, per key. */
function collectionNeighbours(match: TargetMatch, shardDivisor: number): EntityRead[] {
  const { request, target: t, sortKey: sk, assumptions } = match;
  const { entity: ev, view } = request;
  const neighbours: EntityRead[] = [];
  for (const other of view.entities) {
    if (other === ev) continue;
    const om = other.membership[t.order];
    const otherPk = om?.partitionKey;
    if (!om?.isMember || !otherPk?.template || !isSameCollection(match.partitionTemplate, otherPk.template)) continue;
    if ((otherPk.shards?.count ?? 1) !== (match.partitionKey.shards?.count ?? 1)) continue;
    if (t.sortKeys.length > 0 && !(om.sortKey?.template && mayMatchSortKey(sk.shape, om.sortKey.template.parts))) continue;
    const otherIn = other.itemCount * om.fraction;
    const otherDistinct = distinctCombinationsOf(other.entity, templateAttributes(otherPk.template), om.allowedValues, view.refs);
    const items = itemsPerKey(otherIn, otherDistinct.count) / shardDivisor;
    if (items <= 0) continue;
    neighbours.push({ entityId: other.entity.id, name: other.entity.name, items });
    assumptions.push(
      `${other.entity.name} items share the item collection ${t.partitionKeyLabel} = ${otherPk.source} and the key condition does not exclude them: ${formatItems(items, `${other.entity.name} item`)} per key (${otherDistinct.assumption})`,
    );
  }
  return neighbours;
}

/** The filter a Query sends, what it keeps, and what the index lacks for it. */
interface QueryFilter {
  builder: ExpressionBuilder;
  /** The FilterExpression's clauses; none: no filter. */
  parts: string[];
  /** Share of the items read that pass the filter. */
  selectivity: number;
  coverage: Coverage | undefined;
  /** A GSI entry lacks the filter's attributes: the Query cannot test them, the caller does after fetching. */
  isInCaller: boolean;
}

function queryFilterOf(match: TargetMatch, keyItems: KeyItems): QueryFilter {
  const { request, target: t, membership: m, sharding, values, notes, assumptions } = match;
  const { entity: ev, view } = request;
  const entity = ev.entity;
  // Known attributes the key condition does not use: filtered, unless the key selects at most one item.
  const usedByKey = new Set(keyItems.fixed);
  if (sharding.isOneShard && match.partitionKey.shards?.from) usedByKey.add(match.partitionKey.shards.from);
  const unused = [...request.known].filter((k) => !usedByKey.has(k) && ev.attributeNames.has(k));
  const filteredKnown = keyItems.own > 1 ? unused : [];
  // Filter clauses that only repeat the index's own condition: every entry passes them, so none is sent.
  const redundant = request.filter ? request.filter.clauses.filter((c) => isClauseImpliedBy(c, m.conditions)) : [];
  const filter: Condition | undefined =
    request.filter && redundant.length < request.filter.clauses.length
      ? { source: request.filter.source, clauses: request.filter.clauses.filter((c) => !redundant.includes(c)) }
      : undefined;
  if (redundant.length > 0) {
    notes.push(`The filter ${formatCondition(redundant)} repeats ${t.label}'s own condition: every entry holds it, so it is not sent.`);
  }
  const coverage = coverageOf(request, t, view, filteredKnown, filter);

  const builder = new ExpressionBuilder(values);
  const parts: string[] = [];
  let selectivity = 1;
  if (unused.length > 0) {
    if (keyItems.own <= 1) {
      notes.push(`${formatList(unused)} ${unused.length === 1 ? 'is' : 'are'} implied: the key condition already selects at most one ${entity.name} item.`);
    } else {
      for (const name of unused) parts.push(equalityExpression(name, builder));
      const d = distinctCombinationsOf(entity, unused, new Map(), view.refs);
      selectivity *= 1 / d.count;
      assumptions.push(`The key does not hold ${formatList(unused)}: filtered after reading, keeping 1 in ${formatCount(d.count)} (${d.assumption})`);
    }
  }
  if (filter) parts.push(conditionExpression(filter, builder));
  if (request.filter) {
    const share = shareOf(entity, request.filter, view.refs);
    // In a sparse index the filter is measured against the items the index holds: a filter that
    // repeats the index's own condition keeps all of them (P(filter | in index) = P(filter) / P(in index)).
    const inIndex = m.fraction > 0 && m.fraction < 1 ? Math.min(1, share.fraction / m.fraction) : share.fraction;
    selectivity *= inIndex;
    assumptions.push(...share.assumptions.map((a) => `Filter: ${a}`));
    if (inIndex !== share.fraction) {
      assumptions.push(`${t.label} holds ${formatPercent(m.fraction)} of ${entity.name} items, so the filter keeps ${formatPercent(inIndex)} of what it reads there`);
    }
  }
  const isInCaller = t.kind === 'gsi' && coverage !== undefined && coverage.missingForFilter.length > 0 && parts.length > 0;
  return { builder, parts, selectivity, coverage, isInCaller };
}

/** The items a Query reads and returns, its Limit, and the entities it reads. */
interface QueryCounts {
  itemsRead: number;
  itemsReturned: number;
  limit?: number;
  entitiesRead: EntityRead[];
}

function queryCounts(match: TargetMatch, keyItems: KeyItems, filter: QueryFilter): QueryCounts {
  const { request, sharding, notes, warnings, assumptions } = match;
  const { pattern, entity: ev, view } = request;
  let matchedOwn = keyItems.own;
  let matchedNeighbours = keyItems.neighbours.map((n) => n.items);
  if (match.sortKey.hasRange && request.resultSize === undefined) {
    matchedOwn *= UNKNOWN_RANGE_SELECTIVITY;
    matchedNeighbours = matchedNeighbours.map((n) => n * UNKNOWN_RANGE_SELECTIVITY);
    assumptions.push(`No resultSize: the range on ${request.range?.attribute ?? ''} is assumed to match half of the items the rest of the key condition selects`);
  }
  const matched = matchedOwn + matchedNeighbours.reduce((s, n) => s + n, 0);
  const wanted = wantedItems(request);
  let limit: number | undefined;
  let itemsRead: number;
  let itemsReturned: number;
  if (isCountPattern(pattern)) {
    itemsRead = matched;
    itemsReturned = 0;
    if (request.resultSize !== undefined && request.resultSize < matched) {
      itemsRead = request.resultSize;
      assumptions.push(`resultSize ${request.resultSize}: the count is expected to be ${request.resultSize}`);
    }
    notes.push('Select=COUNT returns only the number of matching items but is charged for reading all of them.');
    if (itemsRead > COUNTER_ITEM_THRESHOLD) {
      warnings.push(`Each count reads ${formatItems(itemsRead)}. ${counterNote(view, ev)}`);
    }
  } else if (filter.parts.length > 0) {
    // Limit caps the items read, not those returned, so the caller pages until enough pass the filter.
    const kept = matchedOwn * filter.selectivity;
    if (wanted === undefined || kept <= wanted) {
      itemsRead = matched;
      itemsReturned = kept;
    } else {
      itemsRead = (wanted * matched) / kept;
      itemsReturned = wanted;
      assumptions.push(
        `The caller pages until ${formatItems(wanted)} pass the filter: ${formatPercent(kept / matched)} of the items read pass, so it reads ${formatCount(itemsRead)} of ${formatItems(matched)} matching`,
      );
    }
    notes.push('The filter runs after the read: it does not lower the items read, and no Limit is sent since Limit would cap the items read, not those returned.');
  } else {
    limit = wanted;
    itemsRead = limit === undefined ? matched : Math.min(matched, limit * sharding.fanOut);
    itemsReturned = limit === undefined ? itemsRead : Math.min(itemsRead, limit);
    if (limit !== undefined && limit * sharding.fanOut > matched) {
      assumptions.push(`resultSize ${limit} is more than the ${formatItems(matched)} the key condition matches: reads ${formatCount(matched)}`);
    } else if (limit !== undefined) {
      assumptions.push(`Limit ${limit}${sharding.fanOut > 1 ? ` per shard` : ''}: reads ${formatCount(itemsRead)} of ${formatItems(matched)} matching`);
    }
  }
  const scale = matched > 0 ? itemsRead / matched : 0;
  const entitiesRead: EntityRead[] = [
    { entityId: ev.entity.id, name: ev.entity.name, items: tidy(matchedOwn * scale) },
    ...keyItems.neighbours.map((n, i) => ({ ...n, items: tidy((matchedNeighbours[i] ?? 0) * scale) })),
  ];
  return { itemsRead, itemsReturned, entitiesRead, ...(limit !== undefined ? { limit } : {}) };
}

/** The explanation's sentences about the key condition, the order and the shards. */
function queryExplanation(match: TargetMatch): string[] {
  const { request, target: t, sortKey: sk, sharding, partitionAttributes: pkAttributes } = match;
  const source = match.partitionKey.source;
  const pkPhrase =
    pkAttributes.length > 0
      ? `${formatList(pkAttributes)} give${pkAttributes.length === 1 ? 's' : ''} the partition key ${t.partitionKeyLabel} = ${source}`
      : `the partition key ${t.partitionKeyLabel} = ${source} is a constant`;
  const parts = [`Query on ${t.kind === 'table' ? 'the table' : t.label}: ${pkPhrase}${sk.condition ? `; ${sk.description}` : ''}.`];
  if (kindOf(request.pattern.action).single) parts.push(`GetItem needs the table's whole primary key, so the get is a Query with Limit ${wantedItems(request) ?? 1}.`);
  if (sk.scanIndexForward === false) parts.push('ScanIndexForward=false for descending order.');
  if (sharding.fanOut > 1) {
    parts.push(`${t.partitionKeyLabel} has ${sharding.fanOut} shards: ${sharding.fanOut} Queries, one per shard, merged by the caller (scatter-gather).`);
  } else if (sharding.isOneShard) {
    parts.push(`${t.partitionKeyLabel} has ${sharding.count} calculated shards; ${match.partitionKey.shards?.from ?? ''} gives the shard, so one Query.`);
  }
  parts.push(...sk.notes.map((n) => `${n.charAt(0).toUpperCase()}${n.slice(1)}.`));
  return parts;
}

/** A Query on the target: its key condition, filter, Limit and counts, and the fetches its index needs. */
export function queryCandidate(match: TargetMatch): Candidate {
  const { request, target: t, sortKey: sk, sharding, values, notes, warnings, assumptions, isPartial } = match;
  const keyItems = itemsUnderKey(match);
  const filter = queryFilterOf(match, keyItems);
  const counts = queryCounts(match, keyItems, filter);
  const badge: PlanBadge = sharding.fanOut > 1 ? 'Fan-out Query' : t.kind === 'gsi' ? 'GSI Query' : t.kind === 'lsi' ? 'LSI Query' : 'Query';
  const consistency = usedConsistency(request, t, 'Query', notes, warnings);
  const pkCondition =
    t.partitionKeys.length > 1 ? t.partitionKeys.map((k, i) => `${k.name} = :pk${i + 1}`).join(' AND ') : `${t.partitionKeyLabel} = :pk`;
  const keyCondition = [pkCondition, ...(sk.condition ? [sk.condition] : [])].join(' AND ');
  const plan: Plan = {
    patternId: request.pattern.id,
    operation: 'Query',
    badge,
    target: t.target,
    keyCondition,
    values,
    requests: sharding.fanOut,
    consistency,
    entitiesRead: counts.entitiesRead,
    itemsRead: tidy(counts.itemsRead),
    itemsReturned: tidy(counts.itemsReturned),
    isServed: true,
    indexWrites: [],
    rejected: [],
    explanation: [...queryExplanation(match), ...notes].join(' '),
    assumptions,
    warnings,
  };
  if (filter.parts.length > 0 && !filter.isInCaller) {
    plan.filter = filter.parts.join(' AND ');
    plan.names = filter.builder.names;
  }
  if (request.returns !== undefined) plan.returns = request.returns;
  if (counts.limit !== undefined) plan.limit = counts.limit;
  if (filter.coverage) addTableFetch(match, plan, filter.coverage, consistency, filter.isInCaller);
  if (sk.scanIndexForward !== undefined) plan.scanIndexForward = sk.scanIndexForward;
  const rank = (sharding.fanOut > 1 ? RANK.fanOut : t.kind === 'gsi' ? RANK.gsiQuery : RANK.query) + (isPartial ? PARTIAL_PENALTY : 0) + (filter.coverage ? FETCH_PENALTY : 0);
  return { target: t, rank, plan };
}

/**
 * The fetches from the table that an index lacking needed attributes costs: a GSI cannot fetch, so
 * the caller sends GetItem or BatchGetItem for what it returned (or read, when the filter runs in the
 * caller); an LSI fetches every item it reads itself. Sets the plan's fetch and projection change.
 */
function addTableFetch(match: TargetMatch, plan: Plan, coverage: Coverage, consistency: Consistency, isFilterInCaller: boolean): void {
  const { request, target: t, warnings } = match;
  const fetched = t.kind === 'lsi' || coverage.missingForFilter.length > 0 ? plan.itemsRead : plan.itemsReturned;
  const fetch: BaseFetch = {
    kind: t.kind === 'lsi' ? 'lsi' : 'gsi',
    index: t.label,
    missing: coverage.missing,
    missingForFilter: coverage.missingForFilter,
    items: tidy(fetched),
    // The fetch is a table read, which can give what the pattern asks for even when the GSI read cannot.
    consistency: t.kind === 'lsi' ? consistency : request.pattern.consistency,
  };
  const projection = t.projection;
  const what = `${t.label} projects ${projection?.type === 'INCLUDE' ? `INCLUDE ${projection.nonKeyAttributes.join(', ')}` : (projection?.type ?? 'ALL')}, without ${formatList(coverage.missing)}, which the pattern ${coverage.missingForFilter.length === coverage.missing.length ? 'filters on' : coverage.missingForFilter.length > 0 ? 'returns or filters on' : 'returns'}`;
  const isAll = coverage.change.projection.type === 'ALL';
  const include = `INCLUDE ${formatList(coverage.change.adds)}`;
  let text: string;
  if (t.kind === 'gsi') {
    fetch.operation = request.pattern.consistency === 'transactional' ? 'TransactGetItems' : fetched > 1 ? 'BatchGetItem' : 'GetItem';
    fetch.requests = fetched > 1 ? Math.ceil(fetched / MAX_BATCH_GET_KEYS) : 1;
    text =
      `Not served by ${t.label} alone: ${what}. A GSI cannot fetch from the table, so the caller sends ${fetch.operation === 'GetItem' ? 'a GetItem' : `${fetch.operation} (100 keys each)`} to the table for ${formatItems(fetched, 'returned item')}` +
      (isFilterInCaller ? ` (every item read, since the filter on ${formatList(coverage.missingForFilter)} can only run after the fetch, in the caller)` : '') +
      `, charged on the table; or ${isAll ? 'project ALL' : include} in ${t.label}.`;
  } else {
    text = `${what}: DynamoDB fetches the whole base item from the table for each of the ${formatItems(fetched)} the Query reads, each fetch rounded up to 4 KB on its own and charged on the table; ${isAll ? 'projecting ALL' : include} would avoid the fetches.`;
  }
  plan.explanation += ` ${text}`;
  warnings.push(text);
  plan.fetch = fetch;
  plan.projectionChange = coverage.change;
}

/** Needed attributes an index lacks, and the projection that would hold them. */
interface Coverage {
  missing: string[];
  missingForFilter: string[];
  change: ProjectionChange;
}

/**
 * Whether the index's entries hold what the pattern needs: the attributes it returns and those `filter`
 * (the part of the pattern's filter that is sent) and any known attribute the key does not use test. Undefined when they do (or for the
 * table, or an ALL projection). docs/dynamodb-rules.md §2.4, §2.5.
 */
function coverageOf(request: ReadRequest, t: KeyTarget, view: TableView, filteredKnown: readonly string[], filter: Condition | undefined): Coverage | undefined {
  if (t.kind === 'table') return undefined;
  const ev = request.entity;
  const projected = projectedAttributesOf(t, ev, view);
  if (projected.all) return undefined;
  const returned = request.returns === 'item' ? [...ev.attributeNames] : (request.returns ?? []);
  const filtered = [...new Set([...filteredKnown, ...(filter ? conditionAttributes(filter) : [])])].filter((a) => ev.attributeNames.has(a));
  const missingForFilter = filtered.filter((a) => !projected.stored.has(a));
  const missing = [...new Set([...returned.filter((a) => !projected.names.has(a)), ...missingForFilter])];
  if (missing.length === 0) return undefined;
  const existing = t.projection?.type === 'INCLUDE' ? t.projection.nonKeyAttributes : [];
  const projection: ProjectionChange['projection'] =
    request.returns === 'item' && missingForFilter.length < missing.length ? { type: 'ALL' } : { type: 'INCLUDE', nonKeyAttributes: [...new Set([...existing, ...missing])] };
  return { missing, missingForFilter, change: { kind: t.kind === 'lsi' ? 'lsi' : 'gsi', index: t.label, projection, adds: missing } };
}
