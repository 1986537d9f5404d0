/**
 * Builds the expressions a plan sends, DynamoDB-style: attribute names as `#name` placeholders and
 * values as `:value` placeholders. A plan's `values` maps each value placeholder to what it holds,
 * written as a key template: `{status}` for a value the caller supplies, `SHIPPED` for a literal
 * from the pattern's filter.
 */
import { formatKeyTemplate } from '../model/index.ts';
import type { Condition, ConditionValue } from '../model/index.ts';

/** Collects `#name` and `:value` placeholders without collisions. */
export class ExpressionBuilder {
  readonly names: Record<string, string> = {};
  readonly values: Record<string, string>;

  /** `values` is shared with the key condition's placeholders so that filter placeholders do not clash. */
  constructor(values: Record<string, string>) {
    this.values = values;
  }

  /** `#status` for the attribute `status` (characters a placeholder cannot hold become `_`). */
  name(attribute: string): string {
    const base = `#${attribute.replace(/[^A-Za-z0-9_]/g, '_') || 'a'}`;
    for (let n = 1; ; n += 1) {
      const candidate = n === 1 ? base : `${base}${n}`;
      const holder = this.names[candidate];
      if (holder === undefined) {
        this.names[candidate] = attribute;
        return candidate;
      }
      if (holder === attribute) return candidate;
    }
  }

  /** A new `:value` placeholder holding `template`; `base` names it (`:status`, then `:status2`). */
  value(base: string, template: string): string {
    const stem = `:${base.replace(/[^A-Za-z0-9_]/g, '_') || 'v'}`;
    for (let n = 1; ; n += 1) {
      const candidate = n === 1 ? stem : `${stem}${n}`;
      if (!Object.hasOwn(this.values, candidate)) {
        this.values[candidate] = template;
        return candidate;
      }
    }
  }
}

/** A literal as a key template: text with braces doubled, numbers and booleans as written. */
export function literalTemplate(v: ConditionValue): string {
  return typeof v === 'string' ? formatKeyTemplate([{ kind: 'literal', text: v }]) : String(v);
}

/** A pattern's filter condition as a FilterExpression: `#status = :status AND #total > :total`. */
export function conditionExpression(c: Condition, b: ExpressionBuilder): string {
  return c.clauses
    .map((clause) => {
      const name = b.name(clause.attribute);
      switch (clause.kind) {
        case 'exists':
          return `attribute_exists(${name})`;
        case 'notExists':
          return `attribute_not_exists(${name})`;
        case 'compare':
          return `${name} ${clause.operator} ${b.value(clause.attribute, literalTemplate(clause.value))}`;
        case 'in':
          return `${name} IN (${clause.values.map((v) => b.value(clause.attribute, literalTemplate(v))).join(', ')})`;
      }
    })
    .join(' AND ');
}

/** `#status = :status`, the caller's value for a known attribute. */
export function equalityExpression(attribute: string, b: ExpressionBuilder): string {
  return `${b.name(attribute)} = ${b.value(attribute, `{${attribute}}`)}`;
}
