/**
 * The GetItem candidate of a read: the caller knows the table's whole primary key. A get of several
 * items (resultSize) or of a key sharded over N partitions the caller cannot tell apart is one
 * BatchGetItem of every key; the keys that find nothing still cost a read each.
 */
import { formatCondition, kindOf } from '../model/index.ts';
import { formatCount, formatItems, formatList } from './count-estimate.ts';
import { MAX_BATCH_GET_KEYS, PARTIAL_PENALTY, RANK, usedConsistency, type Candidate, type TargetMatch } from './read-candidate.ts';
import type { Operation, Plan, PlanBadge } from './types.ts';

/** A GetItem (or BatchGetItem) on the table, its key given by `keyAttributes` (or constants). */
export function getItemCandidate(match: TargetMatch, keyAttributes: string[]): Candidate {
  const { request, target: t, values, notes, warnings, assumptions, isPartial } = match;
  const fanOut = match.sharding.fanOut;
  const { pattern, entity: ev } = request;
  const perCall = kindOf(pattern.action).single && (request.resultSize ?? 1) > 1 ? (request.resultSize ?? 1) : 1;
  const keys = perCall * fanOut;
  const operation: Operation = keys > 1 ? 'BatchGetItem' : 'GetItem';
  const pkName = t.partitionKeyLabel;
  const skName = t.sortKeyLabel;
  const keyCondition = skName !== undefined ? `${pkName} = :pk AND ${skName} = :sk` : `${pkName} = :pk`;
  const keyText = skName !== undefined ? `${pkName} = ${values[':pk'] ?? ''}, ${skName} = ${values[':sk'] ?? ''}` : `${pkName} = ${values[':pk'] ?? ''}`;
  const by = keyAttributes.length > 0 ? `${formatList(keyAttributes)} give${keyAttributes.length === 1 ? 's' : ''}` : 'constants give';
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
