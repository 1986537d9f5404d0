/**
 * Item-count estimates from what a design states about its data: an entity's `itemCount`, an
 * attribute's `cardinality`, its generator (an `enum` lists the values and their weights, a `ref`
 * names the entity whose ids it holds and `via` the reference it is inherited through) and its
 * presence. Every estimate comes with the assumption behind it, in words. Computed by formula from
 * the value model (`withValueModel`), never by sampling.
 *
 * More on its rules: docs/modules.md, "src-shared/workload-stats".
 */
import {
  evaluateCondition,
  formatCondition,
  type Condition,
  type ConditionClause,
  type ConditionValue,
  enumShares,
} from '../model/index.ts';
import type { Attribute, Entity, Table } from '../model/index.ts';
import { formatNumber } from '../numbers/index.ts';

/** How many distinct values an attribute takes, and why we think so. */
export interface DistinctValues {
  count: number;
  /** "Order.userId has 1,000,000 distinct values (its cardinality)". */
  assumption: string;
}

/** The share of items one attribute's clauses keep. */
export interface SharePart {
  /** The clauses, as condition source: `status IN ("PENDING", "PROCESSING")`. */
  text: string;
  fraction: number;
  /** Why: `the generator's weights`, `Order.status has 5 distinct values (its cardinality)`. */
  basis: string;
}

/** A share of an entity's items, and the assumptions behind it. */
export interface Share {
  fraction: number;
  parts: SharePart[];
  /** One sentence per part: `Order: status = "SHIPPED" holds for 10% of items (the generator's weights)`. */
  assumptions: string[];
}

/** The entities a `ref` generator can point at: id → name and item count. */
export type EntityCounts = ReadonlyMap<string, { name: string; itemCount: number }>;

/** Each entity's name and item count by id: what a `ref` generator's distinct values are (the referenced entity's items). */
export function entityCountsOf(table: Pick<Table, 'entities'>): EntityCounts {
  return new Map((table.entities ?? []).map((e) => [e.id, { name: e.name, itemCount: sanitizeCount(e.itemCount) }]));
}

/** Selectivity of an ordering comparison (`<`, `>=` …) on an attribute whose values we know nothing about. */
export const UNKNOWN_RANGE_SELECTIVITY = 0.5;
/** Share of items assumed to have an attribute that `attribute_exists` tests, without better data. */
export const UNKNOWN_EXISTS_SELECTIVITY = 0.5;

/** An item count that is a finite number ≥ 0 (designs being edited can hold anything). */
export function sanitizeCount(n: unknown): number {
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : 0;
}

/** Rounds to 6 decimals so that repeated divisions do not show float noise (8333.333333, not 8333.333333333334). */
export function tidy(n: number): number {
  return Number.isFinite(n) ? Math.round(n * 1e6) / 1e6 : 0;
}

/** `1,000,000`, `8,333.33`, `2.4`: grouped thousands, at most two decimals, no locale dependence. */
export function formatCount(n: number): string {
  return formatNumber(n, 2);
}

/** `5%`, `0.4%`, `100%`. */
export function formatPercent(fraction: number): string {
  return `${formatCount(fraction * 100)}%`;
}

/** `a`, `a and b`, `a, b and c`: names in a sentence. */
export function formatList(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1] ?? ''}`;
}

/** `1 item`, `2.4 items`. */
export function formatItems(n: number, what = 'item'): string {
  return `${formatCount(n)} ${what}${n === 1 ? '' : 's'}`;
}

/** An enum attribute's values and their shares, as the value model decides them (distribution, weights, or even). */
function enumValuesOf(a: Attribute): { values: Array<string | number | boolean>; shares: number[]; basis: string } | undefined {
  return enumShares(a);
}

/** Distinct values of one attribute of an entity (rules in the module comment). `refs` resolves `ref` generators. */
export function distinctValuesOf(entity: Entity, name: string, refs?: EntityCounts): DistinctValues {
  const itemCount = sanitizeCount(entity.itemCount);
  const cap = Math.max(1, itemCount);
  const a = entity.attributes.find((x) => x.name === name);
  const label = `${entity.name}.${name}`;
  const capped = (count: number, why: string): DistinctValues => {
    const c = Math.min(Math.max(1, count), cap);
    return { count: c, assumption: `${label} has ${formatCount(c)} distinct value${c === 1 ? '' : 's'} (${why})` };
  };
  if (a?.cardinality !== undefined && Number.isFinite(a.cardinality) && a.cardinality >= 1) return capped(a.cardinality, 'its cardinality');
  const enumValues = a ? enumValuesOf(a) : undefined;
  if (enumValues) return capped(new Set(enumValues.values).size, "its generator's values");
  const g = a?.generator;
  if (g?.kind === 'number' && Number.isFinite(g.min) && Number.isFinite(g.max) && (g.max ?? 0) >= (g.min ?? 0)) {
    const low = Math.ceil(g.min ?? 0);
    const high = Math.floor(g.max ?? 0);
    return capped(high - low + 1, `its generator's whole numbers ${formatCount(low)}–${formatCount(high)}`);
  }
  const target = g?.kind === 'ref' && g.entity !== undefined ? refs?.get(g.entity) : undefined;
  if (target) return capped(sanitizeCount(target.itemCount), `it references ${target.name}, which has ${formatCount(sanitizeCount(target.itemCount))} items`);
  if (g?.kind === 'constant') return capped(1, 'a constant generator');
  if (a?.type === 'BOOL') return capped(2, 'a BOOL');
  return {
    count: cap,
    assumption: `${label} has no cardinality: assumed unique (${formatCount(cap)} distinct value${cap === 1 ? '' : 's'}, one per ${entity.name} item)`,
  };
}

/**
 * Distinct values of a set of attributes: the product of each one's, capped at the item count.
 * `limits` caps single attributes (a sparse index whose condition allows only k values of one).
 */
export function distinctCombinationsOf(
  entity: Entity,
  names: readonly string[],
  limits: ReadonlyMap<string, number> = new Map(),
  refs?: EntityCounts,
): DistinctValues & { assumptions: string[] } {
  const cap = Math.max(1, sanitizeCount(entity.itemCount));
  const assumptions: string[] = [];
  let product = 1;
  const tied = tiedAttributes(entity, names);
  for (const name of new Set(names)) {
    const through = tied.get(name);
    if (through !== undefined) {
      assumptions.push(`${entity.name}.${name} follows from ${through} (inherited through the reference): it adds no values`);
      continue;
    }
    const d = distinctValuesOf(entity, name, refs);
    const limit = limits.get(name);
    if (limit !== undefined && limit < d.count) {
      product *= Math.max(1, limit);
      assumptions.push(`${d.assumption}; the index holds only ${formatCount(limit)} of them`);
    } else {
      product *= d.count;
      assumptions.push(d.assumption);
    }
  }
  const count = Math.min(product, cap);
  return { count, assumption: assumptions.join('; '), assumptions };
}

/**
 * The attributes among `names` whose value another of them decides: an attribute inherited through a
 * reference (`generator.via`) that is in `names` too, or decided in turn. Maps each to that reference.
 */
export function tiedAttributes(entity: Entity, names: readonly string[]): Map<string, string> {
  const inSet = new Set(names);
  const tied = new Map<string, string>();
  const viaOf = (name: string): string | undefined => {
    const g = entity.attributes.find((a) => a.name === name)?.generator;
    return g?.kind === 'ref' && typeof g.via === 'string' && g.via !== name ? g.via : undefined;
  };
  for (const name of inSet) {
    // Follow the chain (comment → issue → project): tied when some link on it is in the set.
    const seen = new Set([name]);
    for (let via = viaOf(name); via !== undefined && !seen.has(via); via = viaOf(via)) {
      seen.add(via);
      if (inSet.has(via)) {
        tied.set(name, via);
        break;
      }
    }
  }
  // Two attributes that decide each other (a cycle) keep one of them free.
  for (const [name, via] of tied) if (tied.get(via) === name) tied.delete(via);
  return tied;
}

/** The values one clause allows, when it is an `=` or an `IN`; undefined for any other clause. */
export function valuesAllowedBy(clause: ConditionClause): readonly ConditionValue[] | undefined {
  return clause.kind === 'compare' && clause.operator === '=' ? [clause.value] : clause.kind === 'in' ? clause.values : undefined;
}

/** The values a condition allows for `name` through `=` and `IN` clauses, if it restricts it that way. */
export function allowedValueCount(condition: Condition, name: string): number | undefined {
  let allowed: Set<string> | undefined;
  for (const clause of condition.clauses) {
    if (clause.attribute !== name) continue;
    const values = valuesAllowedBy(clause);
    if (!values) continue;
    const keys = new Set(values.map((v) => `${typeof v}:${String(v)}`));
    allowed = allowed === undefined ? keys : new Set([...allowed].filter((k) => keys.has(k)));
  }
  return allowed?.size;
}

function clauseShare(entity: Entity, clause: ConditionClause, refs: EntityCounts | undefined): number {
  const d = distinctValuesOf(entity, clause.attribute, refs).count;
  switch (clause.kind) {
    case 'exists':
      return UNKNOWN_EXISTS_SELECTIVITY;
    case 'notExists':
      return UNKNOWN_EXISTS_SELECTIVITY;
    case 'in':
      return Math.min(1, new Set(clause.values.map((v) => `${typeof v}:${String(v)}`)).size / d);
    case 'compare':
      if (clause.operator === '=') return 1 / d;
      if (clause.operator === '<>') return 1 - 1 / d;
      return rangeShareOf(entity, clause) ?? UNKNOWN_RANGE_SELECTIVITY;
  }
}

/** An ordering comparison's share on a `number` generator's even spread over min..max; undefined without one. */
function rangeShareOf(entity: Entity, clause: ConditionClause): number | undefined {
  const g = entity.attributes.find((a) => a.name === clause.attribute)?.generator;
  if (clause.kind !== 'compare' || typeof clause.value !== 'number' || g?.kind !== 'number') return undefined;
  const { min, max } = g;
  if (min === undefined || max === undefined || !Number.isFinite(min) || !Number.isFinite(max) || !(max > min)) return undefined;
  // As the sample data draws them: whole numbers, or cents when a bound has decimals, evenly.
  const scale = Number.isInteger(min) && Number.isInteger(max) ? 1 : 100;
  const low = Math.ceil(min * scale);
  const high = Math.max(low, Math.floor(max * scale));
  const v = clause.value * scale;
  const [from, to] =
    clause.operator === '<' ? [low, Math.ceil(v) - 1] : clause.operator === '<=' ? [low, Math.floor(v)] : clause.operator === '>' ? [Math.floor(v) + 1, high] : [Math.ceil(v), high];
  return Math.max(0, Math.min(high, to) - Math.max(low, from) + 1) / (high - low + 1);
}

/** The share of items that carry an attribute: its `presence` (optional attributes), else every item. */
export function presenceOf(a: Pick<Attribute, 'presence'> | undefined): number {
  const p = a?.presence;
  return p !== undefined && Number.isFinite(p) && p >= 0 && p < 1 ? p : 1;
}

/** The share of an entity's items a condition holds for (rules in the module comment). `refs` resolves `ref` generators. */
export function shareOf(entity: Entity, condition: Condition, refs?: EntityCounts, carried: ReadonlySet<string> = new Set()): Share {
  const byAttribute = new Map<string, ConditionClause[]>();
  for (const clause of condition.clauses) {
    const list = byAttribute.get(clause.attribute);
    if (list) list.push(clause);
    else byAttribute.set(clause.attribute, [clause]);
  }
  let fraction = 1;
  const parts: SharePart[] = [];
  for (const [name, clauses] of byAttribute) {
    const a = entity.attributes.find((x) => x.name === name);
    const enumValues = a ? enumValuesOf(a) : undefined;
    const text = formatCondition(clauses);
    const part: Condition = { source: text, clauses };
    if (!a) {
      // An attribute the entity lacks fails every comparison but `<>` and attribute_not_exists.
      const share = evaluateCondition(part, {}) ? 1 : 0;
      fraction *= share;
      parts.push({ text, fraction: share, basis: `${entity.name} has no attribute ${name}` });
      continue;
    }
    // An optional attribute: the share among the items that carry it, and what the others give.
    // `carried`: attributes every counted item has (a key is built from them), so the share is among those.
    const p = carried.has(name) ? 1 : presenceOf(a);
    const withPresence = (given: number): number => (p < 1 ? p * given + (1 - p) * (evaluateCondition(part, {}) ? 1 : 0) : given);
    const presenceNote = p < 1 ? `; ${formatPercent(p)} of items carry ${name}` : '';
    if (enumValues) {
      let given = 0;
      enumValues.values.forEach((v, i) => {
        if (evaluateCondition(part, { [name]: v })) given += enumValues.shares[i] ?? 0;
      });
      const share = withPresence(given);
      fraction *= share;
      parts.push({ text, fraction: share, basis: `${enumValues.basis}${presenceNote}` });
      continue;
    }
    let given = 1;
    // The value model: an attribute is on every item unless its presence says otherwise.
    for (const clause of clauses) given *= clause.kind === 'exists' ? 1 : clause.kind === 'notExists' ? 0 : clauseShare(entity, clause, refs);
    const share = withPresence(given);
    fraction *= share;
    const isRange = (c: ConditionClause): boolean => c.kind === 'compare' && c.operator !== '=' && c.operator !== '<>';
    const basis = clauses.every((c) => c.kind === 'exists' || c.kind === 'notExists')
      ? p < 1
        ? 'its presence'
        : 'every item carries it (set a presence below 100 % in the Entities screen for an optional attribute)'
      : clauses.some(isRange)
        ? clauses.filter(isRange).every((c) => rangeShareOf(entity, c) !== undefined)
          ? "values spread evenly over its generator's range"
          : 'an ordering comparison is assumed to keep half'
        : distinctValuesOf(entity, name, refs).assumption;
    parts.push({ text, fraction: share, basis: `${basis}${presenceNote}` });
  }
  const assumptions = parts.map((p) => `${entity.name}: ${p.text} holds for ${formatPercent(p.fraction)} of items (${p.basis})`);
  return { fraction, parts, assumptions };
}
