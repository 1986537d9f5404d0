/**
 * A plan's expressions as a run's requests send them: its key condition taken apart into clauses,
 * its placeholders filled from a sample item's values (rendered through the key templates, typed as
 * DynamoDB JSON), its filter's values, and the attributes it returns as a ProjectionExpression.
 */
import type { AttributeValue } from '../capacity/index.ts';
import { parseKeyTemplate, renderKeyTemplate, templateAttributes } from '../model/index.ts';
import type { Plan } from '../planner/index.ts';
import { typed, type Plain, type SampleItem } from './sample-items.ts';

/** One clause of a plan's key condition: `name = :v`, `name < :v`, `begins_with(name, :v)`, `name BETWEEN :a AND :b`. */
export interface KeyClause {
  attribute: string;
  operator: '=' | '<' | '<=' | '>' | '>=' | 'begins_with' | 'between';
  placeholders: string[];
}

/** `begins_with(name, :v)`, `name BETWEEN :a AND :b`, or `name <op> :v`. */
const KEY_CLAUSE = /begins_with\(\s*([^,\s]+)\s*,\s*(:\w+)\s*\)|([^\s()]+)\s+BETWEEN\s+(:\w+)\s+AND\s+(:\w+)|([^\s()]+)\s*(<=|>=|=|<|>)\s*(:\w+)/g;

/** The clauses of a plan's key condition, in order. */
export function keyClauses(condition: string): KeyClause[] {
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
export function render(template: string, values: Record<string, Plain>, shard?: number): string | undefined {
  const parsed = parseKeyTemplate(template);
  if (!parsed.ok) return undefined;
  const rendered = renderKeyTemplate(parsed.value, shard === undefined ? values : { ...values, shard });
  return rendered.ok ? rendered.value : undefined;
}

/** Whether a template names the shard suffix (`{shard}`). */
export const mentionsShard = (template: string): boolean => {
  const parsed = parseKeyTemplate(template);
  return parsed.ok && templateAttributes(parsed.value).includes('shard');
};

/** `s` as a regular expression that matches it literally. */
function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The key condition with each clause's attribute named by a placeholder (`#k0 = :pk AND
 * begins_with(#k1, :sk)`), and the names those placeholders stand for.
 */
export function namedKeyCondition(keyCondition: string, clauses: readonly KeyClause[]): { condition: string; names: Record<string, string> } {
  const names: Record<string, string> = {};
  let condition = keyCondition;
  clauses.forEach((clause, i) => {
    const placeholder = `#k${i}`;
    names[placeholder] = clause.attribute;
    condition = condition.replace(new RegExp(`(^|[\\s(,])${escapeRegExp(clause.attribute)}(?=[\\s,)=<>])`), `$1${placeholder}`);
  });
  return { condition, names };
}

/** Adds names and values to an input's ExpressionAttributeNames / Values (leaving them out when empty). */
export function mergeExpression(input: Record<string, unknown>, names: Record<string, string>, values: Record<string, AttributeValue>): void {
  if (Object.keys(names).length > 0) input['ExpressionAttributeNames'] = { ...((input['ExpressionAttributeNames'] as Record<string, string> | undefined) ?? {}), ...names };
  if (Object.keys(values).length > 0) input['ExpressionAttributeValues'] = { ...((input['ExpressionAttributeValues'] as Record<string, AttributeValue> | undefined) ?? {}), ...values };
}

/** The plan's filter with its values filled in (literals, or the sample's values for attributes the caller knows). */
export function filterFor(plan: Plan, sample: SampleItem, types: Map<string, string>): { filter?: string; values: Record<string, AttributeValue> } {
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
export function projectionFor(plan: Plan): { input: Record<string, unknown> } {
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
