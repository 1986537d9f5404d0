/**
 * Plans a read pattern (get, query, count): every target (the table, each GSI, each LSI) is tried,
 * the cheapest that serves the pattern wins, and every other target gets the reason it lost. When
 * none serves it, a Scan with a filter and a suggested index.
 *
 * Preference, cheapest first: GetItem (and BatchGetItem of known keys) < Query on the table or an
 * LSI < Query on a GSI < fan-out over shards < Scan. Within a class: fewer items read, then the table
 * before an index, then declaration order. A sparse index whose condition the pattern does not imply
 * (it would miss some of the entity's items) comes after complete candidates of its class.
 */
import { conditionAttributes, evaluateCondition, parseCondition, formatCondition, type Condition, type ConditionClause } from '../model/condition.ts';
import { templateAttributes, type KeyTemplate } from '../model/key-template.ts';
import { RANGE_OPERATORS, type AccessPattern, type Consistency } from '../model/schema.ts';
import { isCountPattern, kindOf } from '../model/pattern-kinds.ts';
import { distinctCombinationsOf, formatCount, formatItems, formatPercent, shareOf, tidy } from './estimate.ts';
import { conditionExpression, equalityExpression, ExpressionBuilder } from './expression.ts';
import { mayMatchSortKey, matchSortKeyParts, type NeededRange, type SortKeyMatch } from './sort-key.ts';
import { counterNote, suggestIndex } from './suggest.ts';
import { projectedAttributesOf, type EntityView, type KeyTarget, type Membership, type TableView } from './table-view.ts';
import type { BaseFetch, EntityRead, Operation, Plan, PlanBadge, ProjectionChange, Rejection } from './types.ts';

/** The most keys one BatchGetItem request takes. https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchGetItem.html */
export const MAX_BATCH_GET_KEYS = 100;

/** Preference classes, cheapest first. */
const RANK = { getItem: 0, query: 1, gsiQuery: 2, fanOut: 3, scan: 4 } as const;
/** Added to a candidate's class when it reads a sparse index the pattern does not imply. */
const PARTIAL_PENALTY = 0.5;
/** A count reading more items than this is told about the counter-item alternative. */
const COUNTER_ITEM_THRESHOLD = 100;
/** Added when the index lacks needed attributes and every item must be fetched from the table. */
const FETCH_PENALTY = 0.25;

/** What a read pattern knows and needs, sanitized once. */
export interface ReadRequest {
  pattern: AccessPattern;
  view: TableView;
  entity: EntityView;
  /** Attributes known by equality (a range with `=` counts as known). */
  known: Set<string>;
  range?: NeededRange;
  resultSize?: number;
  filter?: Condition;
  /** What the caller needs back: `item`, a list of the entity's attributes, or undefined for a count. */
  returns?: 'item' | string[];
  notes: string[];
}

interface Candidate {
  target: KeyTarget;
  rank: number;
  plan: Plan;
}

type Evaluation = { ok: true; candidate: Candidate } | { ok: false; rejection: Rejection };

const list = (names: readonly string[]): string =>
  names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1] ?? ''}`;

/** Sanitizes a read pattern's inputs (designs being edited can hold anything). */
export function readRequestOf(view: TableView, entity: EntityView, pattern: AccessPattern): ReadRequest {
  const notes: string[] = [];
  const known = new Set((Array.isArray(pattern.known) ? pattern.known : []).filter((k): k is string => typeof k === 'string'));
  let range: NeededRange | undefined;
  const r = pattern.range;
  if (r && typeof r.attribute === 'string' && r.attribute !== '') {
    if (!(RANGE_OPERATORS as readonly string[]).includes(r.operator)) notes.push(`The range operator ${JSON.stringify(r.operator)} is unknown: the range is ignored.`);
    else if (r.operator === '=') known.add(r.attribute);
    else {
      range = { attribute: r.attribute, operator: r.operator };
      known.delete(r.attribute);
    }
  }
  const request: ReadRequest = { pattern, view, entity, known, notes };
  if (range) request.range = range;
  if (typeof pattern.resultSize === 'number' && Number.isFinite(pattern.resultSize) && pattern.resultSize >= 0) request.resultSize = Math.floor(pattern.resultSize);
  if (typeof pattern.filter === 'string' && pattern.filter.trim() !== '') {
    const parsed = parseCondition(pattern.filter);
    if (parsed.ok) request.filter = parsed.value;
    else notes.push(`The filter ${JSON.stringify(pattern.filter)} does not parse: it is ignored.`);
  }
  if (!isCountPattern(pattern)) {
    const r = pattern.returns;
    request.returns = Array.isArray(r) ? [...new Set(r.filter((a): a is string => typeof a === 'string' && entity.attributeNames.has(a)))] : 'item';
  }
  return request;
}

/** Plans a read: the cheapest target that serves it, or a Scan with a suggestion. */
export function planRead(request: ReadRequest): Plan {
  const evaluations = request.view.targets.map((t) => evaluateTarget(request, t));
  const candidates = evaluations.flatMap((e) => (e.ok ? [e.candidate] : []));
  candidates.sort((a, b) => a.rank - b.rank || a.plan.itemsRead - b.plan.itemsRead || a.target.order - b.target.order);
  const best = candidates[0];
  if (!best) return planScan(request, evaluations.flatMap((e) => (e.ok ? [] : [e.rejection])));
  const rejected = evaluations.flatMap((e): Rejection[] => {
    if (!e.ok) return [e.rejection];
    if (e.candidate === best) return [];
    return [{ target: e.candidate.target.target, reason: lostTo(e.candidate, best) }];
  });
  return { ...best.plan, rejected };
}

function lostTo(loser: Candidate, winner: Candidate): string {
  const why =
    Math.floor(loser.rank) > Math.floor(winner.rank)
      ? 'GetItem < Query on the table or an LSI < Query on a GSI < fan-out < Scan'
      : loser.rank > winner.rank
        ? loser.plan.fetch && !winner.plan.fetch
          ? `${loser.target.label} does not project ${list(loser.plan.fetch.missing)}, so each item would be fetched from the table`
          : `${loser.target.label} holds only some of the items`
        : loser.plan.itemsRead > winner.plan.itemsRead
          ? `${formatItems(winner.plan.itemsRead)} read instead of ${formatCount(loser.plan.itemsRead)}`
          : 'the table before an index, then the first index declared';
  return `${loser.target.label}: could serve it with a ${loser.plan.badge} reading ${formatItems(loser.plan.itemsRead)}, but ${winner.target.label}'s ${winner.plan.badge} is preferred (${why})`;
}

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

/** Whether every item meeting `conditions` meets the clause: the clause only repeats the target's `when`. */
function isClauseImpliedBy(clause: ConditionClause, conditions: readonly Condition[]): boolean {
  return conditions.some((c) =>
    c.clauses.some((w) => {
      if (w.attribute !== clause.attribute) return false;
      const allowed = w.kind === 'compare' && w.operator === '=' ? [w.value] : w.kind === 'in' ? w.values : undefined;
      return allowed !== undefined && allowed.every((v) => evaluateCondition({ source: '', clauses: [clause] }, { [clause.attribute]: v }));
    }),
  );
}

/** Whether the pattern only asks for items a sparse target holds: its filter (or known) implies every `when`. */
function isConditionImplied(conditions: readonly Condition[], request: ReadRequest): boolean {
  const filterClauses = request.filter?.clauses ?? [];
  return conditions.every((c) =>
    c.clauses.every((clause) => {
      if (clause.kind === 'exists' && request.known.has(clause.attribute)) return true;
      return filterClauses.some((f) => {
        if (f.attribute !== clause.attribute) return false;
        const allowed = f.kind === 'compare' && f.operator === '=' ? [f.value] : f.kind === 'in' ? f.values : undefined;
        if (allowed) return allowed.every((v) => evaluateCondition({ source: '', clauses: [clause] }, { [clause.attribute]: v }));
        return clause.kind === 'exists' && f.kind === 'compare' && f.operator !== '<>';
      });
    }),
  );
}

function usedConsistency(request: ReadRequest, target: KeyTarget, operation: Operation, notes: string[], warnings: string[]): Consistency {
  const asked = request.pattern.consistency;
  if (target.kind === 'gsi' && asked !== 'eventual') {
    const text = `${target.label} is a GSI, whose reads are eventually consistent only: the ${asked} read the pattern asks for is planned as eventual.`;
    notes.push(text);
    warnings.push(text);
    return 'eventual';
  }
  if (asked === 'transactional' && (operation === 'Query' || operation === 'Scan')) {
    notes.push(`A ${operation} has no transactional form (TransactGetItems takes gets only): planned as a strongly consistent ${operation}.`);
    return 'strong';
  }
  if (asked === 'transactional') notes.push(`Transactional: sent as TransactGetItems (2 read units per 4 KB).`);
  return asked === 'strong' || asked === 'transactional' ? asked : 'eventual';
}

function evaluateTarget(request: ReadRequest, t: KeyTarget): Evaluation {
  const { pattern, entity: ev, known } = request;
  const entity = ev.entity;
  const reject = (reason: string): Evaluation => ({ ok: false, rejection: { target: t.target, reason: `${t.label}: ${reason}` } });
  const m = ev.membership[t.order];
  if (!m?.isMember || !m.partitionKey?.template) return reject(m?.reason ?? `${entity.name} is not in it`);
  const pk = m.partitionKey;
  const pkTemplate = m.partitionKey.template;
  const pkAttributes = templateAttributes(pkTemplate);
  const missing = pkAttributes.filter((a) => !known.has(a));
  if (missing.length > 0) {
    const isRange = request.range !== undefined && missing.includes(request.range.attribute);
    return reject(
      `partition key ${t.partitionKeyLabel} = ${pk.source} needs ${list(missing)}, which the caller does not know` +
        (isRange
          ? ` (the range on ${request.range?.attribute ?? ''} cannot be used: a partition key takes equality only)`
          : t.partitionKeys.length > 1
            ? ' (a multi-attribute partition key takes an equality on every one of its attributes)'
            : ''),
    );
  }
  const sortKey = matchSortKeyParts({
    keys: t.sortKeys,
    bound: m.sortParts,
    known,
    ...(request.range ? { range: request.range } : {}),
    ...(pattern.order === 'asc' || pattern.order === 'desc' ? { order: pattern.order } : {}),
    attributeType: (name) => entity.attributes.find((a) => a.name === name)?.type,
  });
  if (!sortKey.ok) return reject(sortKey.reason);
  const sk = sortKey.match;

  const shards = pk.shards;
  const isOneShard = shards !== undefined && shards.method === 'calculated' && shards.from !== undefined && known.has(shards.from);
  const fanOut = shards !== undefined && !isOneShard ? shards.count : 1;
  const notes: string[] = [...request.notes];
  const warnings: string[] = [];
  const assumptions: string[] = [];
  // A multi-attribute partition key: one equality per attribute (`tournamentId = :pk1 AND region = :pk2`).
  const pkValues: Record<string, string> =
    m.partitionParts.length > 1
      ? Object.fromEntries(m.partitionParts.map((b, i) => [`:pk${i + 1}`, b.source]))
      : { ':pk': shards ? `${pk.source}.{shard}` : pk.source };
  const values: Record<string, string> = { ...pkValues, ...sk.values };
  if (shards) {
    assumptions.push(
      isOneShard
        ? `${t.partitionKeyLabel} has ${shards.count} calculated shards: shard = hash(${shards.from ?? ''}) mod ${shards.count} + 1, which the caller computes; one shard holds 1/${shards.count} of the key's items`
        : `${t.partitionKeyLabel} has ${shards.count} ${shards.method} shards${shards.method === 'calculated' ? ` hashed from ${shards.from ?? '(no attribute)'}, which the caller does not know` : ''}: shard = 1…${shards.count}, one request per shard`,
    );
  }
  const isPartial = m.conditions.length > 0 && !isConditionImplied(m.conditions, request);
  if (isPartial) {
    const when = m.conditions.map((c) => formatCondition(c.clauses)).join(' AND ');
    warnings.push(
      `${t.label} holds ${entity.name} items only when ${when} (${formatPercent(m.fraction)} of them): this plan sees only those. Add the condition to the pattern's filter if that is what it asks for, or use an index that holds every ${entity.name} item.`,
    );
  }
  assumptions.push(...m.assumptions);

  const isGetItem = t.kind === 'table' && sk.isComplete && !isCountPattern(pattern);
  // A Query's FilterExpression cannot name a key attribute of the index (or table) it queries: the
  // key condition says everything about them. So a sort-key attribute the key condition skips cannot
  // be filtered instead. https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Query.FilterExpression.html
  if (!isGetItem && request.filter) {
    const keyNames = new Set([...t.partitionKeys, ...t.sortKeys].map((k) => k.name));
    const named = [...new Set(conditionAttributes(request.filter))].filter((a) => keyNames.has(a));
    if (named.length > 0) {
      return reject(
        `the filter names ${list(named)}, ${named.length === 1 ? 'a key attribute' : 'key attributes'} of ${t.label}; a Query's filter cannot name the key attributes of what it queries, so ${named.length === 1 ? 'it needs' : 'they need'} to be in the key condition`,
      );
    }
  }
  if (isGetItem) {
    const keyAttributes = [...pkAttributes, ...sk.fixed.filter((a) => !pkAttributes.includes(a))];
    return { ok: true, candidate: getItemCandidate(request, t, keyAttributes, values, fanOut, notes, warnings, assumptions, isPartial) };
  }
  return { ok: true, candidate: queryCandidate(request, t, m, sk, pkAttributes, values, { fanOut, isOneShard, count: shards?.count ?? 1 }, notes, warnings, assumptions, isPartial) };
}

function getItemCandidate(
  request: ReadRequest,
  t: KeyTarget,
  keyAttributes: string[],
  values: Record<string, string>,
  fanOut: number,
  notes: string[],
  warnings: string[],
  assumptions: string[],
  isPartial: boolean,
): Candidate {
  const { pattern, entity: ev } = request;
  const perCall = kindOf(pattern.action).single && (request.resultSize ?? 1) > 1 ? (request.resultSize ?? 1) : 1;
  const keys = perCall * fanOut;
  const operation: Operation = keys > 1 ? 'BatchGetItem' : 'GetItem';
  const pkName = t.partitionKeyLabel;
  const skName = t.sortKeyLabel;
  const keyCondition = skName !== undefined ? `${pkName} = :pk AND ${skName} = :sk` : `${pkName} = :pk`;
  const keyText = skName !== undefined ? `${pkName} = ${values[':pk'] ?? ''}, ${skName} = ${values[':sk'] ?? ''}` : `${pkName} = ${values[':pk'] ?? ''}`;
  const by = keyAttributes.length > 0 ? `${list(keyAttributes)} give${keyAttributes.length === 1 ? 's' : ''}` : 'constants give';
  let explanation = `${operation} on the table: ${by} the whole primary key (${keyText}).`;
  if (fanOut > 1) {
    explanation += ` ${pkName} has ${fanOut} shards and the caller cannot tell which one holds the item, so it asks for the key in every shard (${formatItems(keys, 'key')}).`;
    assumptions.push(`Each of the ${formatCount(keys)} keys costs a read; ${formatCount(keys - perCall)} of them find nothing and cost the minimum`);
  } else if (perCall > 1) {
    explanation += ` resultSize ${perCall}: one BatchGetItem with ${perCall} keys.`;
  }
  const requests = keys > 1 ? Math.ceil(keys / MAX_BATCH_GET_KEYS) : 1;
  const consistency = usedConsistency(request, t, operation, notes, warnings);
  if (request.filter) notes.push(`A ${operation} takes no filter: the caller checks ${formatCondition(request.filter.clauses)} on the item.`);
  const badge: PlanBadge = operation;
  const plan: Plan = {
    patternId: pattern.id,
    operation,
    badge,
    target: t.target,
    keyCondition,
    values,
    requests,
    consistency,
    entitiesRead: [{ entityId: ev.entity.id, name: ev.entity.name, items: keys }],
    itemsRead: keys,
    itemsReturned: perCall,
    isServed: true,
    indexWrites: [],
    rejected: [],
    explanation: [explanation, ...notes].join(' '),
    assumptions,
    warnings,
  };
  const rank = (fanOut > 1 ? RANK.fanOut : RANK.getItem) + (isPartial ? PARTIAL_PENALTY : 0);
  return { target: t, rank, plan };
}

/** How many shards of a sharded partition key a read reaches. */
interface ShardReach {
  /** Requests: N for a fan-out, else 1. */
  fanOut: number;
  /** A calculated suffix the caller can compute: one shard, holding 1/count of the key's items. */
  isOneShard: boolean;
  count: number;
}

function queryCandidate(
  request: ReadRequest,
  t: KeyTarget,
  m: Membership,
  sk: SortKeyMatch,
  pkAttributes: string[],
  values: Record<string, string>,
  sharding: ShardReach,
  notes: string[],
  warnings: string[],
  assumptions: string[],
  isPartial: boolean,
): Candidate {
  const { pattern, entity: ev, view } = request;
  const entity = ev.entity;
  const shardDivisor = sharding.isOneShard ? sharding.count : 1;
  const pkTemplate = m.partitionKey?.template as KeyTemplate;

  // The entity's own items under the key condition (before any range halving or Limit).
  const inTarget = ev.itemCount * m.fraction;
  const fixed = [...pkAttributes, ...sk.fixed];
  const distinct = distinctCombinationsOf(entity, fixed, m.allowedValues, view.refs);
  const own = itemsPerKey(inTarget, distinct.count) / shardDivisor;
  if (fixed.length > 0) assumptions.push(...distinct.assumptions);
  assumptions.push(
    fixed.length > 0
      ? `${formatItems(own, `${entity.name} item`)} per ${fixed.length === 1 ? `${fixed[0] ?? ''} value` : `combination of ${list(fixed)}`} (${formatCount(inTarget)} in ${t.label} / ${formatCount(distinct.count)}${shardDivisor > 1 ? ` / ${shardDivisor} shards` : ''})`
      : `The key is a constant: all ${formatItems(own, `${entity.name} item`)} of ${t.label} share it`,
  );

  // Other entities of the same item collection that the sort-key condition does not exclude.
  const neighbours: EntityRead[] = [];
  for (const other of view.entities) {
    if (other === ev) continue;
    const om = other.membership[t.order];
    const otherPk = om?.partitionKey;
    if (!om?.isMember || !otherPk?.template || !isSameCollection(pkTemplate, otherPk.template)) continue;
    if ((otherPk.shards?.count ?? 1) !== (m.partitionKey?.shards?.count ?? 1)) continue;
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

  // What the pattern needs from each entry, against what the index projects.
  const usedByKey = new Set(fixed);
  if (sharding.isOneShard && m.partitionKey?.shards?.from) usedByKey.add(m.partitionKey.shards.from);
  const filteredKnown = own > 1 ? [...request.known].filter((k) => !usedByKey.has(k) && ev.attributeNames.has(k)) : [];
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
  const isGsiFetch = t.kind === 'gsi' && coverage !== undefined;

  // Filters: known attributes the key condition does not use, and the pattern's filter.
  const builder = new ExpressionBuilder(values);
  const filterParts: string[] = [];
  let selectivity = 1;
  const used = new Set(fixed);
  if (sharding.isOneShard && m.partitionKey?.shards?.from) used.add(m.partitionKey.shards.from);
  const unused = [...request.known].filter((k) => !used.has(k) && ev.attributeNames.has(k));
  if (unused.length > 0) {
    if (own <= 1) {
      notes.push(`${list(unused)} ${unused.length === 1 ? 'is' : 'are'} implied: the key condition already selects at most one ${entity.name} item.`);
    } else {
      for (const name of unused) filterParts.push(equalityExpression(name, builder));
      const d = distinctCombinationsOf(entity, unused, new Map(), view.refs);
      selectivity *= 1 / d.count;
      assumptions.push(`The key does not hold ${list(unused)}: filtered after reading, keeping 1 in ${formatCount(d.count)} (${d.assumption})`);
    }
  }
  if (filter) {
    filterParts.push(conditionExpression(filter, builder));
  }
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
  // A GSI entry lacks the filter's attributes: the Query cannot test them, the caller does after fetching.
  const isFilterInCaller = isGsiFetch && coverage.missingForFilter.length > 0 && filterParts.length > 0;
  const hasFilter = filterParts.length > 0;

  // Items matched by the key condition, then Limit and filter.
  let matchedOwn = own;
  let matchedNeighbours = neighbours.map((n) => n.items);
  const isCount = isCountPattern(pattern);
  if (sk.hasRange && request.resultSize === undefined) {
    matchedOwn /= 2;
    matchedNeighbours = matchedNeighbours.map((n) => n / 2);
    assumptions.push(`No resultSize: the range on ${request.range?.attribute ?? ''} is assumed to match half of the items the rest of the key condition selects`);
  }
  const matched = matchedOwn + matchedNeighbours.reduce((s, n) => s + n, 0);
  const wanted = request.resultSize ?? (kindOf(pattern.action).single ? 1 : undefined);
  let limit: number | undefined;
  let itemsRead: number;
  let itemsReturned: number;
  if (isCount) {
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
  } else if (hasFilter) {
    // Limit caps the items read, not those returned, so the caller pages until enough pass the filter.
    const kept = matchedOwn * selectivity;
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
    { entityId: entity.id, name: entity.name, items: tidy(matchedOwn * scale) },
    ...neighbours.map((n, i) => ({ ...n, items: tidy((matchedNeighbours[i] ?? 0) * scale) })),
  ];

  const badge: PlanBadge = sharding.fanOut > 1 ? 'Fan-out Query' : t.kind === 'gsi' ? 'GSI Query' : t.kind === 'lsi' ? 'LSI Query' : 'Query';
  const consistency = usedConsistency(request, t, 'Query', notes, warnings);
  const pkCondition =
    t.partitionKeys.length > 1 ? t.partitionKeys.map((k, i) => `${k.name} = :pk${i + 1}`).join(' AND ') : `${t.partitionKeyLabel} = :pk`;
  const keyCondition = [pkCondition, ...(sk.condition ? [sk.condition] : [])].join(' AND ');
  const pkPhrase =
    pkAttributes.length > 0
      ? `${list(pkAttributes)} give${pkAttributes.length === 1 ? 's' : ''} the partition key ${t.partitionKeyLabel} = ${m.partitionKey?.source ?? ''}`
      : `the partition key ${t.partitionKeyLabel} = ${m.partitionKey?.source ?? ''} is a constant`;
  const parts = [`Query on ${t.kind === 'table' ? 'the table' : t.label}: ${pkPhrase}${sk.condition ? `; ${sk.description}` : ''}.`];
  if (kindOf(pattern.action).single) parts.push(`GetItem needs the table's whole primary key, so the get is a Query with Limit ${wanted ?? 1}.`);
  if (sk.scanIndexForward === false) parts.push('ScanIndexForward=false for descending order.');
  if (sharding.fanOut > 1) {
    parts.push(`${t.partitionKeyLabel} has ${sharding.fanOut} shards: ${sharding.fanOut} Queries, one per shard, merged by the caller (scatter-gather).`);
  } else if (sharding.isOneShard) {
    parts.push(`${t.partitionKeyLabel} has ${sharding.count} calculated shards; ${m.partitionKey?.shards?.from ?? ''} gives the shard, so one Query.`);
  }
  parts.push(...sk.notes.map((n) => `${n.charAt(0).toUpperCase()}${n.slice(1)}.`));
  const plan: Plan = {
    patternId: pattern.id,
    operation: 'Query',
    badge,
    target: t.target,
    keyCondition,
    values,
    requests: sharding.fanOut,
    consistency,
    entitiesRead,
    itemsRead: tidy(itemsRead),
    itemsReturned: tidy(itemsReturned),
    isServed: true,
    indexWrites: [],
    rejected: [],
    explanation: [...parts, ...notes].join(' '),
    assumptions,
    warnings,
  };
  if (hasFilter && !isFilterInCaller) {
    plan.filter = filterParts.join(' AND ');
    plan.names = builder.names;
  }
  if (request.returns !== undefined) plan.returns = request.returns;
  if (limit !== undefined) plan.limit = limit;
  let fetchPenalty = 0;
  if (coverage) {
    fetchPenalty = FETCH_PENALTY;
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
    const what = `${t.label} projects ${projection?.type === 'INCLUDE' ? `INCLUDE ${projection.nonKeyAttributes.join(', ')}` : (projection?.type ?? 'ALL')}, without ${list(coverage.missing)}, which the pattern ${coverage.missingForFilter.length === coverage.missing.length ? 'filters on' : coverage.missingForFilter.length > 0 ? 'returns or filters on' : 'returns'}`;
    if (t.kind === 'gsi') {
      fetch.operation = request.pattern.consistency === 'transactional' ? 'TransactGetItems' : fetched > 1 ? 'BatchGetItem' : 'GetItem';
      fetch.requests = fetched > 1 ? Math.ceil(fetched / MAX_BATCH_GET_KEYS) : 1;
      const text =
        `Not served by ${t.label} alone: ${what}. A GSI cannot fetch from the table, so the caller sends ${fetch.operation === 'GetItem' ? 'a GetItem' : `${fetch.operation} (100 keys each)`} to the table for ${formatItems(fetched, 'returned item')}` +
        (isFilterInCaller ? ` (every item read, since the filter on ${list(coverage.missingForFilter)} can only run after the fetch, in the caller)` : '') +
        `, charged on the table; or ${coverage.change.projection.type === 'ALL' ? `project ALL` : `INCLUDE ${list(coverage.change.adds)}`} in ${t.label}.`;
      plan.explanation += ` ${text}`;
      warnings.push(text);
    } else {
      const text = `${what}: DynamoDB fetches the whole base item from the table for each of the ${formatItems(fetched)} the Query reads, each fetch rounded up to 4 KB on its own and charged on the table; ${coverage.change.projection.type === 'ALL' ? 'projecting ALL' : `INCLUDE ${list(coverage.change.adds)}`} would avoid the fetches.`;
      plan.explanation += ` ${text}`;
      warnings.push(text);
    }
    plan.fetch = fetch;
    plan.projectionChange = coverage.change;
  }
  if (sk.scanIndexForward !== undefined) plan.scanIndexForward = sk.scanIndexForward;
  const rank = (sharding.fanOut > 1 ? RANK.fanOut : t.kind === 'gsi' ? RANK.gsiQuery : RANK.query) + (isPartial ? PARTIAL_PENALTY : 0) + fetchPenalty;
  return { target: t, rank, plan };
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

/** The fallback: read every item of the table and filter. */
function planScan(request: ReadRequest, rejected: Rejection[]): Plan {
  const { pattern, entity: ev, view } = request;
  const entity = ev.entity;
  const values: Record<string, string> = {};
  const builder = new ExpressionBuilder(values);
  const clauses: string[] = [];
  const known = [...request.known].filter((k) => ev.attributeNames.has(k));
  for (const name of known) clauses.push(equalityExpression(name, builder));
  const range = request.range;
  if (range) {
    const name = builder.name(range.attribute);
    const value = `{${range.attribute}}`;
    switch (range.operator) {
      case 'begins_with':
        clauses.push(`begins_with(${name}, ${builder.value(range.attribute, value)})`);
        break;
      case 'between':
        clauses.push(`${name} BETWEEN ${builder.value(`${range.attribute}From`, value)} AND ${builder.value(`${range.attribute}To`, value)}`);
        break;
      default:
        clauses.push(`${name} ${range.operator} ${builder.value(range.attribute, value)}`);
    }
  }
  const assumptions: string[] = [];
  let share = 1;
  if (known.length > 0) {
    const d = distinctCombinationsOf(entity, known, new Map(), view.refs);
    share /= d.count;
    assumptions.push(...d.assumptions);
  }
  if (range && request.resultSize === undefined) {
    share /= 2;
    assumptions.push(`No resultSize: the range on ${range.attribute} is assumed to match half of the items`);
  }
  if (request.filter) {
    clauses.push(conditionExpression(request.filter, builder));
    const s = shareOf(entity, request.filter, view.refs);
    share *= s.fraction;
    assumptions.push(...s.assumptions.map((a) => `Filter: ${a}`));
  }
  const entitiesRead = view.entities.filter((e) => e.itemCount > 0).map((e) => ({ entityId: e.entity.id, name: e.entity.name, items: e.itemCount }));
  const itemsRead = entitiesRead.reduce((s, e) => s + e.items, 0);
  const matching = ev.itemCount * share;
  const wanted = request.resultSize ?? (kindOf(pattern.action).single ? 1 : undefined);
  const itemsReturned = isCountPattern(pattern) ? 0 : wanted === undefined ? matching : Math.min(wanted, matching);
  assumptions.push(`A Scan reads every item of table ${view.table.name}: ${formatCount(itemsRead)} items`);
  const notes: string[] = [...request.notes];
  const warnings: string[] = [];
  const consistency = usedConsistency(request, view.targets[0] as KeyTarget, 'Scan', notes, warnings);
  const reasons = rejected.map((r) => r.reason);
  const suggestion = suggestIndex(view, ev, request);
  const varying = known.filter((k) => {
    const a = entity.attributes.find((x) => x.name === k);
    return a !== undefined && a.generator?.kind !== 'constant' && a.cardinality !== 1;
  });
  let designProblem: string | undefined;
  if (kindOf(pattern.action).single && varying.length === 0) {
    designProblem = `A get must address one item by its key, but the caller knows ${known.length === 0 ? 'no attribute' : `only ${list(known)}, which ${known.length === 1 ? 'is' : 'are'} the same for every ${entity.name}`}: there is no key to get. Say which attribute identifies the item (add it to what the caller knows), or make this a query or count.`;
    warnings.push(designProblem);
  } else if (!suggestion && varying.length === 0) {
    warnings.push(
      `The caller knows no attribute that varies between ${entity.name} items, so any index would need a constant partition key: all ${formatCount(ev.itemCount)} items in one partition, at most 3,000 RCU and 1,000 WCU per second, a hot partition however the table scales. Read them with a (parallel) Scan, shard the key over N partitions and query each, or say what the caller knows.` +
        (isCountPattern(pattern) ? ` ${counterNote(view, ev)}` : ''),
    );
  }
  const plan: Plan = {
    patternId: pattern.id,
    operation: 'Scan',
    badge: 'Scan',
    target: { kind: 'table' },
    values,
    requests: 1,
    consistency,
    entitiesRead,
    itemsRead,
    itemsReturned: tidy(itemsReturned),
    isServed: false,
    indexWrites: [],
    rejected,
    explanation: [
      `No key serves this pattern${reasons.length > 0 ? ` (${reasons.join('; ')})` : ''}: a Scan of table ${view.table.name} reads every item and filters.`,
      ...notes,
    ].join(' '),
    assumptions,
    warnings,
  };
  if (clauses.length > 0) {
    plan.filter = clauses.join(' AND ');
    plan.names = builder.names;
  }
  if (suggestion) plan.suggestion = suggestion;
  if (designProblem) plan.designProblem = designProblem;
  if (request.returns !== undefined) plan.returns = request.returns;
  return plan;
}

/** The plan for a pattern whose entity is not in the table: nothing to key on, so a Scan that finds nothing. */
export function planUnknownEntity(view: TableView, pattern: AccessPattern): Plan {
  const entitiesRead = view.entities.filter((e) => e.itemCount > 0).map((e) => ({ entityId: e.entity.id, name: e.entity.name, items: e.itemCount }));
  const text = `The pattern's entity ${JSON.stringify(pattern.entityId ?? '')} is not an entity of table ${view.table.name}: nothing to plan.`;
  return {
    patternId: pattern.id,
    operation: 'Scan',
    badge: 'Scan',
    target: { kind: 'table' },
    values: {},
    requests: 1,
    consistency: pattern.consistency === 'eventual' ? 'eventual' : 'strong',
    entitiesRead,
    itemsRead: entitiesRead.reduce((s, e) => s + e.items, 0),
    itemsReturned: 0,
    isServed: false,
    indexWrites: [],
    rejected: [],
    explanation: text,
    assumptions: [],
    warnings: [text],
  };
}

/** The plan of a pattern that cannot be planned yet (`reason`, from `keyDesignGap`): no operation, nothing read. */
export function planNeedingKeyDesign(pattern: AccessPattern, reason: string): Plan {
  return {
    patternId: pattern.id,
    operation: 'None',
    badge: 'Needs key design',
    target: { kind: 'table' },
    values: {},
    requests: 0,
    consistency: pattern.consistency,
    entitiesRead: [],
    itemsRead: 0,
    itemsReturned: 0,
    isServed: false,
    indexWrites: [],
    rejected: [],
    explanation: reason,
    assumptions: [],
    needsKeyDesign: reason,
  };
}
