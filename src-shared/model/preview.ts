/**
 * Key previews: the values key templates render for a few sample items of their entity, so the
 * entities screen shows `USER#u-1001` beside `USER#{userId}` while the user types.
 */
import { conditionAttributes, evaluateCondition, parseCondition, type Condition } from './condition.ts';
import { parseKeyTemplate, renderKeyTemplate } from './key-template.ts';
import type { Problem } from './problems.ts';
import { clipText, quoteClipped } from './quoted-text.ts';
import { sampleItems, type SampleItem } from './sample-values.ts';
import type { Entity, KeyBinding } from './schema.ts';

/** One sample's key: its rendered value, or why it has none. */
export type KeyPreview =
  | { kind: 'value'; value: string; deciding?: string }
  /** The `when` condition is false for this sample, so the item is not in the index (sparse). */
  | { kind: 'excluded'; deciding: string }
  | { kind: 'problem'; problem: Problem };

function conditionOf(binding: KeyBinding): Condition | undefined {
  if (!binding.when?.trim()) return undefined;
  const parsed = parseCondition(binding.when);
  return parsed.ok ? parsed.value : undefined;
}

/** A value that makes one clause true, where there is an obvious one. */
function satisfyingValue(condition: Condition, attribute: string): unknown {
  for (const clause of condition.clauses) {
    if (clause.attribute !== attribute) continue;
    if (clause.kind === 'in') return clause.values[0];
    if (clause.kind === 'compare' && clause.operator === '=') return clause.value;
  }
  return undefined;
}

/**
 * The sample items all of an entity's key previews share, so the partition key and sort key of one
 * row describe the same item. Every other sample (the 1st, 3rd, …) is made to satisfy the entity's
 * `when` conditions, so a sparse index shows items both in and out of it.
 */
export function previewSamples(entity: Entity, count = 3): SampleItem[] {
  const conditions = Object.values(entity.keys).map(conditionOf).filter((c): c is Condition => c !== undefined);
  return sampleItems(entity, count).map((item, i) => {
    if (i % 2 !== 0 || conditions.length === 0) return item;
    const forced: Record<string, unknown> = { ...item };
    for (const condition of conditions) {
      for (const attribute of conditionAttributes(condition)) {
        const value = satisfyingValue(condition, attribute);
        if (value !== undefined) forced[attribute] = value;
      }
    }
    return forced as SampleItem;
  });
}

/** `status = "OPEN", priority = 2`: the values a condition decided on, each name and value at most 80 characters. */
function describeDeciding(condition: Condition, item: Readonly<Record<string, unknown>>): string {
  return conditionAttributes(condition)
    .map((a) => {
      const v = item[a];
      return `${clipText(a)} = ${v === undefined ? '(absent)' : typeof v === 'string' ? quoteClipped(v) : JSON.stringify(v)}`;
    })
    .join(', ');
}

/**
 * Renders `binding` for each sample item. Returns an empty list when there is no binding, or when
 * the template or condition does not parse (validation reports those). A sample without one of the
 * `optional` attributes the template names has no key: excluded, like a false condition.
 */
export function previewKey(binding: KeyBinding | undefined, samples: readonly SampleItem[], optional: ReadonlySet<string> = new Set()): KeyPreview[] {
  if (!binding) return [];
  const template = parseKeyTemplate(binding.template);
  if (!template.ok) return [];
  const condition = conditionOf(binding);
  if (binding.when?.trim() && !condition) return [];
  return samples.map((item): KeyPreview => {
    const deciding = condition ? describeDeciding(condition, item) : undefined;
    if (condition && !evaluateCondition(condition, item)) return { kind: 'excluded', deciding: deciding! };
    const absent = template.value.parts.find((p) => p.kind === 'attribute' && optional.has(p.name) && !Object.hasOwn(item, p.name));
    // An optional attribute the item does not carry: no key, so the item is not in that index (sparse).
    if (absent?.kind === 'attribute') return { kind: 'excluded', deciding: `${absent.name} (absent)` };
    const rendered = renderKeyTemplate(template.value, item);
    if (!rendered.ok) return { kind: 'problem', problem: rendered.errors[0]! };
    return deciding === undefined ? { kind: 'value', value: rendered.value } : { kind: 'value', value: rendered.value, deciding };
  });
}
