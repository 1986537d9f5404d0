/**
 * The write request of one call of a pattern: a PutItem of a held-back sample item, a DeleteItem of
 * a loaded one, or an UpdateItem that sets the pattern's attributes and keeps the index keys built
 * from them in step; each inside a TransactWriteItems when the pattern is transactional.
 */
import type { AttributeValue } from '../capacity/index.ts';
import {
  evaluateCondition,
  parseCondition,
  parseKeyTemplate,
  renderKeyTemplate,
  templateAttributes,
  unreachableAction,
  type WriteAction,
} from '../model/index.ts';
import type { Entity } from '../model/index.ts';
import { tableKeyNames } from './create-table.ts';
import type { PatternContext } from './read-calls.ts';
import { keyOf, keyText, plainValues, typed, type Plain, type SampleItem } from './sample-items.ts';
import type { RunCall, RunOperation, RunRequest } from './types.ts';

/** One write request: the single-item operation, or the same item in a TransactWriteItems. */
type WriteWrap = (kind: 'Put' | 'Update' | 'Delete', body: Record<string, unknown>, operation: RunOperation) => RunRequest;

/** The write of one call. */
export function writeCall(ctx: PatternContext & { pattern: { action: WriteAction } }, sample: SampleItem, others: readonly SampleItem[], entity: Entity): RunCall {
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
  const tableKeys = new Set(tableKeyNames(table));
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
