/**
 * Plans a read pattern (get, query, count): every target (the table, each GSI, each LSI) is tried,
 * the cheapest that serves the pattern wins, and every other target gets the reason it lost. When
 * none serves it, a Scan with a filter and a suggested index (`read-scan.ts`).
 *
 * More on its rules: docs/modules.md, "src-shared/planner/read.ts".
 */
import { conditionAttributes, formatCondition, templateAttributes, isCountPattern } from '../model/index.ts';
import { formatCount, formatItems, formatList, formatPercent } from './count-estimate.ts';
import type { Candidate, ShardReach, TargetMatch } from './read-candidate.ts';
import { getItemCandidate } from './read-get.ts';
import { queryCandidate } from './read-query.ts';
import type { ReadRequest } from './read-request.ts';
import { planScan } from './read-scan.ts';
import { matchSortKeyParts } from './sort-key.ts';
import { isConditionImplied } from './sparse-conditions.ts';
import type { KeyTarget } from './table-view.ts';
import type { Plan, Rejection } from './types.ts';

type Evaluation = { ok: true; candidate: Candidate } | { ok: false; rejection: Rejection };

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
          ? `${loser.target.label} does not project ${formatList(loser.plan.fetch.missing)}, so each item would be fetched from the table`
          : `${loser.target.label} holds only some of the items`
        : loser.plan.itemsRead > winner.plan.itemsRead
          ? `${formatItems(winner.plan.itemsRead)} read instead of ${formatCount(loser.plan.itemsRead)}`
          : 'the table before an index, then the first index declared';
  return `${loser.target.label}: could serve it with a ${loser.plan.badge} reading ${formatItems(loser.plan.itemsRead)}, but ${winner.target.label}'s ${winner.plan.badge} is preferred (${why})`;
}

/** A target's candidate (a GetItem when the caller knows the table's whole key, else a Query), or why it cannot serve. */
function evaluateTarget(request: ReadRequest, t: KeyTarget): Evaluation {
  const matched = matchTarget(request, t);
  if (!matched.ok) return matched;
  const match = matched.match;
  const sk = match.sortKey;
  const pkAttributes = match.partitionAttributes;
  const isGetItem = t.kind === 'table' && sk.isComplete && !isCountPattern(request.pattern);
  // A Query's FilterExpression cannot name a key attribute of the index (or table) it queries: the
  // key condition says everything about them. So a sort-key attribute the key condition skips cannot
  // be filtered instead. https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Query.FilterExpression.html
  if (!isGetItem && request.filter) {
    const keyNames = new Set([...t.partitionKeys, ...t.sortKeys].map((k) => k.name));
    const named = [...new Set(conditionAttributes(request.filter))].filter((a) => keyNames.has(a));
    if (named.length > 0) {
      return rejection(
        t,
        `the filter names ${formatList(named)}, ${named.length === 1 ? 'a key attribute' : 'key attributes'} of ${t.label}; a Query's filter cannot name the key attributes of what it queries, so ${named.length === 1 ? 'it needs' : 'they need'} to be in the key condition`,
      );
    }
  }
  if (isGetItem) {
    const keyAttributes = [...pkAttributes, ...sk.fixed.filter((a) => !pkAttributes.includes(a))];
    return { ok: true, candidate: getItemCandidate(match, keyAttributes) };
  }
  return { ok: true, candidate: queryCandidate(match) };
}

function rejection(t: KeyTarget, reason: string): { ok: false; rejection: Rejection } {
  return { ok: false, rejection: { target: t.target, reason: `${t.label}: ${reason}` } };
}

/**
 * Whether the target's keys serve the pattern: the entity is in it, the caller knows every attribute
 * of its partition key, and its sort key serves what the pattern knows and needs (`sort-key.ts`).
 * The match carries the key condition's values, the shards it reaches and whether the target is a
 * sparse index the pattern does not imply.
 */
function matchTarget(request: ReadRequest, t: KeyTarget): { ok: true; match: TargetMatch } | { ok: false; rejection: Rejection } {
  const { pattern, entity: ev, known } = request;
  const entity = ev.entity;
  const m = ev.membership[t.order];
  if (!m?.isMember || !m.partitionKey?.template) return rejection(t, m?.reason ?? `${entity.name} is not in it`);
  const pk = m.partitionKey;
  const pkTemplate = m.partitionKey.template;
  const pkAttributes = templateAttributes(pkTemplate);
  const missing = pkAttributes.filter((a) => !known.has(a));
  if (missing.length > 0) {
    const isRange = request.range !== undefined && missing.includes(request.range.attribute);
    return rejection(
      t,
      `partition key ${t.partitionKeyLabel} = ${pk.source} needs ${formatList(missing)}, which the caller does not know` +
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
  if (!sortKey.ok) return rejection(t, sortKey.reason);
  const sk = sortKey.match;

  const shards = pk.shards;
  const isOneShard = shards !== undefined && shards.method === 'calculated' && shards.from !== undefined && known.has(shards.from);
  const sharding: ShardReach = { fanOut: shards !== undefined && !isOneShard ? shards.count : 1, isOneShard, count: shards?.count ?? 1 };
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
  const match: TargetMatch = {
    request,
    target: t,
    membership: m,
    partitionKey: pk,
    partitionTemplate: pkTemplate,
    partitionAttributes: pkAttributes,
    sortKey: sk,
    values,
    sharding,
    isPartial,
    notes,
    warnings,
    assumptions,
  };
  return { ok: true, match };
}
