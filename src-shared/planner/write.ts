/**
 * Plans a write pattern (put, update, delete): the table operation with the item's primary key, and
 * what it does to each index (docs/dynamodb-rules.md §3.3):
 * - the entity is not in the index (no template for one of its keys): none;
 * - put: put; delete: delete;
 * - update: move (delete + put, 2 writes) when it changes an attribute the index's key templates are
 *   built from, or one its `when` condition reads (the item may enter or leave the index); put (1
 *   write) when it changes only attributes projected into the index; none when it changes nothing
 *   projected; put when `updates` is not given (every non-key attribute may change).
 * `fraction` is the share of the entity's items the index holds, so a sparse index costs less.
 */
import {
  conditionAttributes,
  evaluateCondition,
  formatCondition,
  type ConditionValue,
  kindOf,
  unreachableAction,
  writeOperationOf,
  type WriteAction,
} from '../model/index.ts';
import type { AccessPattern } from '../model/index.ts';
import { formatList, formatPercent } from './count-estimate.ts';
import { boundAttributes, projectedAttributesOf, type EntityView, type KeyTarget, type Membership, type TableView } from './table-view.ts';
import type { IndexWrite, Operation, Plan, PlanBadge } from './types.ts';

/** Plans a put, update or delete. */
export function planWrite(view: TableView, ev: EntityView, pattern: AccessPattern & { action: WriteAction }): Plan {
  const entity = ev.entity;
  const kind = kindOf(pattern.action);
  const operation: Operation & PlanBadge = writeOperationOf(pattern.action);
  const known = new Set((Array.isArray(pattern.known) ? pattern.known : []).filter((k): k is string => typeof k === 'string'));
  const table = view.targets[0] as KeyTarget;
  const m = ev.membership[0];
  const warnings: string[] = [];
  const notes: string[] = [];
  const values: Record<string, string> = {};
  const keyParts: string[] = [];
  const missing: string[] = [];

  const keyBindings = [
    ...table.partitionKeys.map((key) => ({ key, bound: ev.keys.get(key.name), placeholder: ':pk' })),
    ...table.sortKeys.map((key) => ({ key, bound: ev.keys.get(key.name), placeholder: ':sk' })),
  ];
  for (const { key, bound, placeholder } of keyBindings) {
    if (!bound?.template) {
      warnings.push(`${entity.name} has no usable template for the table's key ${key.name}${bound?.error ? `: ${bound.error}` : ''}.`);
      continue;
    }
    const shards = bound.shards;
    values[placeholder] = shards ? `${bound.source}.{shard}` : bound.source;
    keyParts.push(`${key.name} = ${placeholder}`);
    for (const a of boundAttributes(bound)) if (!known.has(a) && !missing.includes(a)) missing.push(a);
    if (shards?.method === 'calculated' && shards.from && !known.has(shards.from) && !missing.includes(shards.from)) missing.push(shards.from);
    if (shards?.method === 'random') {
      if (kind.creates) notes.push(`${key.name} has ${shards.count} random shards: the writer picks one of .1…${shards.count}.`);
      else {
        warnings.push(
          `${key.name} has ${shards.count} random shards: to ${kind.verb} an item the caller must know which shard it was written to (store the suffix, or find the item first with a fan-out read).`,
        );
      }
    } else if (shards) {
      notes.push(`${key.name} has ${shards.count} calculated shards: the suffix is hash(${shards.from ?? ''}) mod ${shards.count} + 1.`);
    }
  }
  const isServed = missing.length === 0 && keyParts.length === keyBindings.length && m?.isMember === true;
  if (missing.length > 0) {
    warnings.push(
      `To ${kind.verb} a ${entity.name} the caller needs its primary key, which is built from ${formatList(missing)}; the pattern does not know ${missing.length === 1 ? 'it' : 'them'}. Add ${missing.length === 1 ? 'it' : 'them'} to the known attributes, or read the item first to find its key.`,
    );
  }
  if (pattern.consistency === 'transactional') {
    notes.push(`Transactional: sent in a TransactWriteItems, which costs 2 write units per KB on the table; the index writes are ordinary (a Keyplan assumption: AWS does not say how transactions charge indexes).`);
  }

  const indexWrites = view.targets.slice(1).map((t) => indexWriteOf(t, ev, pattern, view));
  const touched = indexWrites.filter((w) => w.effect !== 'none');
  const explanation = [
    `${operation} on the table${keyParts.length > 0 ? ` (${keyParts.map((p) => p.replace(/:pk|:sk/, (ph) => values[ph] ?? ph)).join(', ')})` : ''}${isServed ? '' : `, once the key is known`}.`,
    touched.length === 0
      ? 'No index is written.'
      : `Also writes ${touched.map((w) => `${w.target.kind === 'table' ? 'the table' : w.target.name} (${w.effect}${w.fraction < 1 ? `, ${formatPercent(w.fraction)} of items` : ''})`).join(', ')}.`,
    ...notes,
  ].join(' ');
  const plan: Plan = {
    patternId: pattern.id,
    operation,
    badge: operation,
    target: { kind: 'table' },
    keyCondition: keyParts.join(', '),
    values,
    requests: 1,
    consistency: pattern.consistency,
    entitiesRead: [],
    itemsRead: 0,
    itemsReturned: 0,
    isServed,
    indexWrites,
    rejected: [],
    explanation,
    assumptions: view.targets.slice(1).flatMap((t) => ev.membership[t.order]?.assumptions ?? []),
    warnings,
  };
  return plan;
}

function indexWriteOf(t: KeyTarget, ev: EntityView, pattern: AccessPattern & { action: WriteAction }, view: TableView): IndexWrite {
  const entity = ev.entity;
  const m = ev.membership[t.order];
  if (!m?.isMember) return { target: t.target, effect: 'none', fraction: 0, reason: m?.reason ?? `${entity.name} is not in ${t.label}` };
  const fraction = m.fraction;
  const share = fraction < 1 ? ` (${formatPercent(fraction)} of ${entity.name} items are in it)` : '';
  switch (pattern.action) {
    case 'put':
      return { target: t.target, effect: 'put', fraction, reason: `A new ${entity.name} item gets an entry in ${t.label}${share}: 1 write.` };
    case 'delete':
      return { target: t.target, effect: 'delete', fraction, reason: `Deleting the item deletes its entry in ${t.label}${share}: 1 write.` };
    case 'update':
      return updateIndexWrite(t, ev, m, pattern, view, share);
    default:
      return unreachableAction(pattern.action);
  }
}

/** What an update does to its item's entry in `t` (`m`: the entity's membership of it). */
function updateIndexWrite(t: KeyTarget, ev: EntityView, m: Membership, pattern: AccessPattern, view: TableView, share: string): IndexWrite {
  const entity = ev.entity;
  const fraction = m.fraction;

  const updates = Array.isArray(pattern.updates) ? pattern.updates : undefined;
  if (updates === undefined) {
    return {
      target: t.target,
      effect: 'put',
      fraction,
      reason: `The pattern does not list what it updates, so every non-key attribute may change: the entry in ${t.label} is rewritten${share}, 1 write. List "updates" to see whether it moves (2 writes) or is left alone (none).`,
    };
  }
  // An LSI shares the table's partition key, which an update cannot change.
  // A natural key attribute (no template) is its own attribute: `boundAttributes` of `{region}` is region.
  const keyParts = t.kind === 'lsi' ? m.sortParts : [...m.partitionParts, ...m.sortParts];
  const keyAttributes = new Set(keyParts.flatMap((b) => boundAttributes(b)));
  const changedKeys = updates.filter((u) => keyAttributes.has(u));
  const conditionNames = new Set(m.conditions.flatMap((c) => conditionAttributes(c)));
  const changedConditions = updates.filter((u) => conditionNames.has(u));
  const when = m.conditions.map((c) => formatCondition(c.clauses)).join(' AND ');
  // The update says what it writes: whether the item ends up in the index is known.
  const after = membershipAfter(pattern, ev, m, [...new Set([...changedConditions, ...changedKeys.filter((k) => conditionNames.has(k))])]);
  if (after && !after.isIn) {
    return {
      target: t.target,
      effect: 'delete',
      fraction,
      reason: `The update sets ${after.text}, which takes the item out of ${t.label} (${when}): one delete for the ${formatPercent(fraction)} of ${entity.name} items in it; the others stay out.`,
    };
  }
  if (after?.isIn && changedKeys.length === 0) {
    const projected = projectedAttributesOf(t, ev, view);
    const rewrites = projected.all || updates.some((u) => projected.names.has(u));
    return {
      target: t.target,
      effect: 'put',
      fraction: rewrites ? 1 : 1 - fraction,
      reason: `The update sets ${after.text}, which keeps the item in ${t.label} (${when}) or brings it in: one put for the ${formatPercent(1 - fraction)} of ${entity.name} items not in it yet${rewrites ? `, and a rewrite of the ${formatPercent(fraction)} already in it, whose projected attributes change` : `; the ${formatPercent(fraction)} already in it change nothing it projects`}.`,
    };
  }
  if (after?.isIn && changedKeys.length > 0) {
    return {
      target: t.target,
      effect: 'move',
      fraction,
      enterShare: 1 - fraction,
      reason: `The update sets ${after.text}, inside ${t.label}'s condition (${when}) and in its key: the ${formatPercent(fraction)} of ${entity.name} items already in it move (delete + put, 2 writes), the ${formatPercent(1 - fraction)} not yet in it enter (one put).`,
    };
  }
  // A key attribute the condition pins to one value cannot change while the item stays in the index:
  // changing it takes the item out (or brings it in), one delete or one put (docs/dynamodb-rules.md §3.3).
  const movable = changedKeys.filter((k) => (m.allowedValues.get(k) ?? Infinity) > 1);
  if (movable.length > 0) {
    return {
      target: t.target,
      effect: 'move',
      fraction,
      reason: `The update changes ${formatList(movable)}, which ${t.label}'s key templates are built from, while the item stays in the index: the entry moves (delete + put, 2 writes)${share}${changedConditions.length > 0 ? `; an update that takes it out of or into the index (${when}) costs 1` : ''}.`,
    };
  }
  if (changedKeys.length > 0 || changedConditions.length > 0) {
    const changed = [...new Set([...changedKeys, ...changedConditions])];
    return {
      target: t.target,
      effect: 'enterOrLeave',
      fraction: 1,
      reason: `The update changes ${formatList(changed)}, which decides whether the item is in ${t.label} (${when}): it enters (one put) or leaves (one delete), 1 write; every such update is taken to cross the condition.`,
    };
  }
  const projected = projectedAttributesOf(t, ev, view);
  const changedProjected = projected.all ? updates : updates.filter((u) => projected.names.has(u));
  if (changedProjected.length > 0) {
    return {
      target: t.target,
      effect: 'put',
      fraction,
      reason: `The update changes ${formatList(changedProjected)}, projected into ${t.label}: the entry is rewritten in place${share}, 1 write.`,
    };
  }
  return {
    target: t.target,
    effect: 'none',
    fraction,
    reason: `The update changes ${updates.length > 0 ? formatList(updates) : 'nothing listed'}, none of it projected into ${t.label} (${t.projection?.type ?? 'ALL'}): no write to the index.`,
  };
}

/**
 * Whether the item is in the index after an update that sets every attribute in `decisive` (those of
 * the index's condition it changes) to a known value: each condition clause on a set attribute is
 * evaluated on that value; clauses on attributes it does not set are taken to hold. Undefined when the
 * update changes no condition attribute, or does not say what it writes to one of them.
 */
function membershipAfter(pattern: AccessPattern, ev: EntityView, m: Membership, decisive: readonly string[]): { isIn: boolean; text: string } | undefined {
  const sets = pattern.sets;
  if (decisive.length === 0 || !sets || !decisive.every((a) => Object.hasOwn(sets, a))) return undefined;
  const values: Record<string, ConditionValue> = Object.create(null) as Record<string, ConditionValue>;
  for (const name of decisive) {
    const raw = sets[name] ?? '';
    const type = ev.entity.attributes.find((a) => a.name === name)?.type;
    values[name] = type === 'N' ? Number(raw) : type === 'BOOL' ? raw === 'true' : raw;
  }
  const clauses = m.conditions.flatMap((c) => c.clauses).filter((c) => Object.hasOwn(values, c.attribute));
  const isIn = clauses.every((c) => evaluateCondition({ source: '', clauses: [c] }, { [c.attribute]: values[c.attribute] as ConditionValue }));
  return { isIn, text: decisive.map((n) => `${n} = ${JSON.stringify(values[n])}`).join(', ') };
}
