/**
 * The share of an entity's items an index holds (docs/dynamodb-rules.md §3.3, and the value model in
 * its appendix): 0 without a template for every key attribute; otherwise the share that carries the
 * optional attributes the keys are built from, times the share for which the keys' `when` conditions hold.
 */
import {
  gsiKeySourceOf,
  evaluateCondition,
  formatCondition,
  parseCondition,
  type ConditionClause,
  type ConditionValue,
  parseKeyTemplate,
  conditionValuesOf,
  enumShares,
  valueModelBasis,
  withValueModel,
} from '../model/index.ts';
import type { Attribute, Entity, Table } from '../model/index.ts';
import { ESTIMATE_ASSUMPTIONS } from './estimate-assumptions.ts';
import { figure, formatNumber, type Figure, type Step } from './figure.ts';
import { findIndex } from './index-shape.ts';
import { AWS_DOCS } from './sources.ts';

const quote = (s: string): string => JSON.stringify(s);

/** The share of items that carry an attribute: its `presence` (optional attributes), else every item. */
export function presenceOf(a: Attribute | undefined): number {
  const p = a?.presence;
  return p !== undefined && Number.isFinite(p) && p >= 0 && p < 1 ? p : 1;
}

/** The share of items holding each value, when the attribute's distribution is known. */
function valueShares(a: Attribute): Array<{ value: ConditionValue; share: number }> | undefined {
  const shares = enumShares(a);
  if (shares) return shares.values.map((value, i) => ({ value, share: shares.shares[i] ?? 0 }));
  if (a.type === 'BOOL') return [{ value: true, share: 0.5 }, { value: false, share: 0.5 }];
  return undefined;
}

interface ClauseShare {
  share: number;
  expression: string;
  assumption?: string;
}

function clauseShare(clause: ConditionClause, a: Attribute | undefined, entity: Entity): ClauseShare {
  const text = formatCondition([clause]);
  if (!a) {
    // A missing attribute fails every comparison except <> and attribute_not_exists.
    const holds = evaluateCondition({ source: text, clauses: [clause] }, {});
    return { share: holds ? 1 : 0, expression: `${entity.name} has no attribute ${clause.attribute}` };
  }
  if (clause.kind === 'exists' || clause.kind === 'notExists') {
    return { share: clause.kind === 'exists' ? 1 : 0, expression: 'every attribute is on every item', assumption: ESTIMATE_ASSUMPTIONS.exists };
  }
  const shares = valueShares(a);
  if (shares) {
    const share = Math.min(1, shares.filter((s) => evaluateCondition({ source: text, clauses: [clause] }, { [a.name]: s.value })).reduce((sum, s) => sum + s.share, 0));
    const source = a.generator?.kind === 'enum' ? `the value weights of ${a.name}` : `${a.name} is true or false`;
    return { share, expression: `Σ shares of the values that match (${source})` };
  }
  const distinct = (values: ConditionValue[]): number => new Set(values.map((v) => `${typeof v}:${String(v)}`)).size;
  if (a.cardinality !== undefined && (clause.kind === 'in' || (clause.kind === 'compare' && (clause.operator === '=' || clause.operator === '<>')))) {
    const c = a.cardinality;
    const matching = clause.kind === 'in' ? distinct(clause.values) : 1;
    const equal = Math.min(1, matching / c);
    if (clause.kind === 'compare' && clause.operator === '<>') return { share: 1 - equal, expression: `1 − 1 / ${formatNumber(c)} distinct values` };
    return { share: equal, expression: `${formatNumber(matching)} / ${formatNumber(c)} distinct values` };
  }
  if (clause.kind === 'compare' && clause.operator !== '=' && clause.operator !== '<>' && typeof clause.value === 'number' && a.generator?.kind === 'number') {
    const { min, max } = a.generator;
    if (min !== undefined && max !== undefined && max > min) {
      const below = Math.min(1, Math.max(0, (clause.value - min) / (max - min)));
      const share = clause.operator === '<' || clause.operator === '<=' ? below : 1 - below;
      return { share, expression: `values spread evenly over ${formatNumber(min)}..${formatNumber(max)}` };
    }
  }
  if (clause.kind === 'compare' && clause.operator !== '=' && clause.operator !== '<>') {
    return { share: 0.5, expression: 'half, for want of a distribution', assumption: `${entity.name}.${a.name}: no value distribution for ${quote(text)}; half the items are taken to match.` };
  }
  return {
    share: 1,
    expression: 'every item, for want of a cardinality',
    assumption: `${entity.name}.${a.name} has no cardinality or enum values, so ${quote(text)} is taken to hold for every item (an upper bound); set its cardinality for a better estimate.`,
  };
}

/**
 * The share of the entity's items that are in the index, from 0 to 1: 0 when the entity lacks a
 * key template of the index, 1 when its keys have no `when` condition, else estimated from the
 * conditions' clauses (taken as independent, multiplied): `=` takes the value's weight when the
 * attribute has enum values (weights, or equal shares), else 1 / cardinality; `IN` the sum over its
 * values (e.g. 2 of cardinality 5 → 2 / 5); `<>` the complement; `<`, `>` … the matching enum
 * values, or the part of a number generator's min..max range, else 1 / 2; `attribute_exists` 1. With
 * no cardinality an equality counts every item (an upper bound, flagged). Unit: ratio.
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
  const clauses: ConditionClause[] = [];
  const seen = new Set<string>();
  const assumptions: string[] = [];
  for (const k of new Set(shape.keyNames)) {
    const when = entity.keys[k]?.when;
    if (when === undefined || when.trim() === '') continue;
    const parsed = parseCondition(when);
    if (!parsed.ok) {
      assumptions.push(`${entity.name}: the condition of key ${k} does not parse (${quote(when)}); it is ignored.`);
      continue;
    }
    for (const c of parsed.value.clauses) {
      const text = formatCondition([c]);
      if (!seen.has(text)) {
        seen.add(text);
        clauses.push(c);
      }
    }
  }
  // Optional attributes the index's key templates are built from: an item without one has no key there.
  const optional = new Map<string, number>();
  for (const k of new Set(shape.keyNames)) {
    const parsed = parseKeyTemplate(templateOf(k) ?? '');
    if (!parsed.ok) continue;
    for (const part of parsed.value.parts) {
      if (part.kind !== 'attribute') continue;
      const p = presenceOf(entity.attributes.find((x) => x.name === part.name));
      if (p < 1) optional.set(part.name, p);
    }
  }
  if (clauses.length === 0 && optional.size === 0) {
    return figure(
      [{ label: `Every ${entity.name} item is in ${label}`, expression: 'its key templates have no "when" condition', value: 1, unit: 'ratio', source: AWS_DOCS.sparseIndexes }],
      assumptions,
    );
  }
  const steps: Step[] = [];
  let share = 1;
  for (const [name, p] of optional) {
    share *= p;
    steps.push({ label: `Items that carry ${name} (optional: the key needs it)`, expression: `${formatNumber(p * 100, 2)} % carry it`, value: p, unit: 'ratio', source: AWS_DOCS.sparseIndexes });
  }
  const conditionValues = conditionValuesOf(designTable, designEntity);
  for (const c of clauses) {
    const a = entity.attributes.find((x) => x.name === c.attribute);
    const declared = designEntity.attributes.find((x) => x.name === c.attribute);
    if (declared && !declared.generator && a?.generator) {
      const note = `${entity.name}.${declared.name} has ${valueModelBasis(declared, conditionValues.get(declared.name))}; set its values and weights in the Entities screen.`;
      if (!assumptions.includes(note)) assumptions.push(note);
    }
    const given = clauseShare(c, a, entity);
    // On an optional attribute not already counted through the key: the items without it decide too.
    const p = optional.has(c.attribute) ? 1 : presenceOf(a);
    const onMissing = evaluateCondition({ source: '', clauses: [c] }, {}) ? 1 : 0;
    const s = p < 1 ? { ...given, share: p * given.share + (1 - p) * onMissing, expression: `${formatNumber(p * 100, 2)} % carry ${c.attribute}, of which ${given.expression}` } : given;
    share *= s.share;
    steps.push({ label: `Items where ${formatCondition([c])}`, expression: s.expression, value: s.share, unit: 'ratio' });
    if (s.assumption && !assumptions.includes(s.assumption)) assumptions.push(s.assumption);
  }
  if (steps.length > 1) {
    assumptions.push(ESTIMATE_ASSUMPTIONS.conditionIndependence);
    steps.push({ label: `Share of ${entity.name} items in ${label}`, expression: steps.map((s) => formatNumber(s.value, 4)).join(' × '), value: share, unit: 'ratio' });
  } else {
    const only = steps[0] as Step;
    steps[0] = { ...only, label: `Share of ${entity.name} items in ${label}: ${only.label.toLowerCase()}` };
  }
  return figure(steps, assumptions);
}
