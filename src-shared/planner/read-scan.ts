/**
 * The reads no key serves: a Scan of the whole table with the pattern's filter (and the index that
 * would serve it, or why none can), a pattern whose entity is not in the table, and one that needs
 * a key design before it can be planned.
 */
import { conditionExpression, equalityExpression, ExpressionBuilder } from './expression.ts';
import type { AccessPattern } from '../model/index.ts';
import { isCountPattern, kindOf } from '../model/index.ts';
import { distinctCombinationsOf, formatCount, formatList, shareOf, tidy, UNKNOWN_RANGE_SELECTIVITY } from './count-estimate.ts';
import { usedConsistency } from './read-candidate.ts';
import { wantedItems, type ReadRequest } from './read-request.ts';
import { counterNote, suggestIndex } from './suggest.ts';
import type { KeyTarget, TableView } from './table-view.ts';
import type { EntityRead, Plan, Rejection } from './types.ts';

/** Every item of the table, by entity: what a Scan reads. */
function everyItemOf(view: TableView): EntityRead[] {
  return view.entities.filter((e) => e.itemCount > 0).map((e) => ({ entityId: e.entity.id, name: e.entity.name, items: e.itemCount }));
}

/** The fallback: read every item of the table and filter. */
export function planScan(request: ReadRequest, rejected: Rejection[]): Plan {
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
    share *= UNKNOWN_RANGE_SELECTIVITY;
    assumptions.push(`No resultSize: the range on ${range.attribute} is assumed to match half of the items`);
  }
  if (request.filter) {
    clauses.push(conditionExpression(request.filter, builder));
    const s = shareOf(entity, request.filter, view.refs);
    share *= s.fraction;
    assumptions.push(...s.assumptions.map((a) => `Filter: ${a}`));
  }
  const entitiesRead = everyItemOf(view);
  const itemsRead = entitiesRead.reduce((s, e) => s + e.items, 0);
  const matching = ev.itemCount * share;
  const wanted = wantedItems(request);
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
    designProblem = `A get must address one item by its key, but the caller knows ${known.length === 0 ? 'no attribute' : `only ${formatList(known)}, which ${known.length === 1 ? 'is' : 'are'} the same for every ${entity.name}`}: there is no key to get. Say which attribute identifies the item (add it to what the caller knows), or make this a query or count.`;
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
  const entitiesRead = everyItemOf(view);
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
