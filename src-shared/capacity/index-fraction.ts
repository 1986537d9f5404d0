/**
 * The share of an entity's items an index holds (docs/dynamodb-rules.md §3.3, and the value model in
 * its appendix): 0 without a template for every key attribute; otherwise the share that carries the
 * optional attributes the keys are built from, times the share for which the keys' `when` conditions hold.
 */
import {
  gsiKeySourceOf,
  formatCondition,
  parseCondition,
  type Condition,
  parseKeyTemplate,
  conditionValuesOf,
  valueModelBasis,
  withValueModel,
} from '../model/index.ts';
import type { Entity, Table } from '../model/index.ts';
import { entityCountsOf, membershipShareOf, presenceOf } from '../workload-stats/index.ts';
import { ESTIMATE_ASSUMPTIONS } from './estimate-assumptions.ts';
import { figure, formatNumber, type Figure, type Step } from './figure.ts';
import { findIndex } from './index-shape.ts';
import { AWS_DOCS } from './sources.ts';

const quote = (s: string): string => JSON.stringify(s);

/** The share of items that carry an attribute (workload-stats'). */
export { presenceOf };

/**
 * The share of the entity's items that are in the index, from 0 to 1: 0 when the entity lacks a
 * key template of the index, 1 when its keys have no `when` condition, else estimated from the
 * conditions by workload-stats' `membershipShareOf` (the planner's and the Entities screen's
 * share): per attribute, the weight of its enum values that match (weights, or equal shares), else
 * k / distinct values for `=` and `IN`, the complement for `<>`, the part of a number generator's
 * min..max range for `<`, `>` …, else 1 / 2; attributes taken as independent. Unit: ratio.
 */
export function indexFraction(designTable: Table, designEntity: Entity, indexName: string): Figure {
  const table = withValueModel(designTable);
  const entity = table.entities.find((e) => e.id === designEntity.id) ?? designEntity;
  const shape = findIndex(table, indexName);
  const label = shape ? `${shape.kind === 'gsi' ? 'GSI' : 'LSI'} ${quote(indexName)}` : `Index ${quote(indexName)}`;
  if (!shape) {
    return figure([{ label: `${label}: no such index on table ${quote(table.name)}`, expression: '0', value: 0, unit: 'ratio' }]);
  }
  // What the entity writes into each key attribute: its template, or for a GSI an attribute it
  // carries under the key's own name (a natural key, as multi-attribute keys use).
  const templateOf = (k: string): string | undefined =>
    Object.hasOwn(entity.keys, k) ? entity.keys[k]?.template : shape.kind === 'gsi' ? gsiKeySourceOf(entity, k)?.template : undefined;
  const missing = shape.keyNames.filter((k) => templateOf(k) === undefined);
  if (missing.length > 0) {
    return figure([
      {
        label: `${entity.name} is not in ${label}`,
        expression: `no template${shape.kind === 'gsi' ? ' or attribute' : ''} for ${missing.join(', ')}: an item is in an index only with all of its key attributes`,
        value: 0,
        unit: 'ratio',
        source: AWS_DOCS.sparseIndexes,
      },
    ]);
  }
  const conditions: Condition[] = [];
  const assumptions: string[] = [];
  for (const k of new Set(shape.keyNames)) {
    const when = entity.keys[k]?.when;
    if (when === undefined || when.trim() === '') continue;
    const parsed = parseCondition(when);
    if (!parsed.ok) {
      assumptions.push(`${entity.name}: the condition of key ${k} does not parse (${quote(when)}); it is ignored.`);
      continue;
    }
    conditions.push(parsed.value);
  }
  // Optional attributes the index's key templates are built from: an item without one has no key there.
  const keyAttributes = new Set<string>();
  for (const k of new Set(shape.keyNames)) {
    const parsed = parseKeyTemplate(templateOf(k) ?? '');
    if (parsed.ok) for (const part of parsed.value.parts) if (part.kind === 'attribute') keyAttributes.add(part.name);
  }
  // The one membership share (workload-stats), as the planner and the Entities screen state it.
  const share = membershipShareOf(entity, conditions, [...keyAttributes], entityCountsOf(table));
  if (share.factors.length === 0) {
    return figure(
      [{ label: `Every ${entity.name} item is in ${label}`, expression: 'its key templates have no "when" condition', value: 1, unit: 'ratio', source: AWS_DOCS.sparseIndexes }],
      assumptions,
    );
  }
  const conditionValues = conditionValuesOf(designTable, designEntity);
  const steps: Step[] = [];
  for (const f of share.factors) {
    if (f.kind === 'presence') {
      steps.push({ label: `Items that carry ${f.text} (optional: the key needs it)`, expression: `${formatNumber(f.fraction * 100, 2)} % carry it`, value: f.fraction, unit: 'ratio', source: AWS_DOCS.sparseIndexes });
      continue;
    }
    steps.push({ label: `Items where ${f.text}`, expression: f.basis, value: f.fraction, unit: 'ratio' });
    const name = conditions.flatMap((c) => c.clauses).find((c) => formatCondition([c]) === f.text || f.text.startsWith(`${c.attribute} `))?.attribute;
    const declared = designEntity.attributes.find((x) => x.name === name);
    const modeled = entity.attributes.find((x) => x.name === name);
    if (declared && !declared.generator && modeled?.generator) {
      const note = `${entity.name}.${declared.name} has ${valueModelBasis(declared, conditionValues.get(declared.name))}; set its values and weights in the Entities screen.`;
      if (!assumptions.includes(note)) assumptions.push(note);
    }
    if (/assumed|half/.test(f.basis)) {
      const note = `${entity.name}: ${f.text} holds for ${formatNumber(f.fraction * 100, 2)} % of items (${f.basis}); set ${name ?? 'the attribute'}'s values and weights in the Entities screen for a better estimate.`;
      if (!assumptions.includes(note)) assumptions.push(note);
    }
  }
  if (steps.length > 1) {
    assumptions.push(ESTIMATE_ASSUMPTIONS.conditionIndependence);
    steps.push({ label: `Share of ${entity.name} items in ${label}`, expression: steps.map((s) => formatNumber(s.value, 4)).join(' × '), value: share.fraction, unit: 'ratio' });
  } else {
    const only = steps[0] as Step;
    steps[0] = { ...only, label: `Share of ${entity.name} items in ${label}: ${only.label.toLowerCase()}` };
  }
  return figure(steps, assumptions);
}
