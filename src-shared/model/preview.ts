/**
 * Key previews: the values a key template renders for a few sample items of its entity, so the
 * entities screen shows `USER#u-1001` beside `USER#{userId}` while the user types.
 */
import { conditionValuesFor, evaluateCondition, parseCondition } from './condition.ts';
import { parseKeyTemplate, renderKeyTemplate } from './key-template.ts';
import type { Problem } from './problems.ts';
import { sampleItems } from './sample-values.ts';
import type { Entity, KeyBinding } from './schema.ts';

/** One sample's key: its rendered value, or why it has none. */
export type KeyPreview =
  | { kind: 'value'; value: string }
  /** The `when` condition is false for this sample, so the item is not in the index (sparse). */
  | { kind: 'excluded' }
  | { kind: 'problem'; problem: Problem };

/**
 * Renders `binding` for `count` sample items of `entity`. Returns an empty list when there is no
 * binding, or when the template or condition does not parse (validation reports those).
 * With a condition, every other sample is made to satisfy it, so the preview shows items both in
 * and out of a sparse index.
 */
export function previewKey(entity: Entity, binding: KeyBinding | undefined, count = 3): KeyPreview[] {
  if (!binding) return [];
  const template = parseKeyTemplate(binding.template);
  if (!template.ok) return [];
  const condition = binding.when?.trim() ? parseCondition(binding.when) : undefined;
  if (condition && !condition.ok) return [];
  return sampleItems(entity, count).map((item, i) => {
    if (condition) {
      const sample: Record<string, unknown> = { ...item };
      if (i % 2 === 0) {
        for (const clause of condition.value.clauses) {
          const [first] = conditionValuesFor(condition.value, clause.attribute);
          if (first !== undefined && clause.kind !== 'compare') sample[clause.attribute] = first;
          else if (clause.kind === 'compare' && clause.operator === '=') sample[clause.attribute] = clause.value;
        }
      }
      if (!evaluateCondition(condition.value, sample)) return { kind: 'excluded' };
      const rendered = renderKeyTemplate(template.value, sample as Record<string, string | number | boolean>);
      return rendered.ok ? { kind: 'value', value: rendered.value } : { kind: 'problem', problem: rendered.errors[0]! };
    }
    const rendered = renderKeyTemplate(template.value, item);
    return rendered.ok ? { kind: 'value', value: rendered.value } : { kind: 'problem', problem: rendered.errors[0]! };
  });
}
