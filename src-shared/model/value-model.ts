/**
 * The value model: what values each attribute takes, decided once and read by every consumer (key
 * previews, sample data, the exports' items, the planner's and the cost engine's shares, the
 * partition simulator's key space). An attribute's own generator decides when it has one. When it has
 * none, a categorical attribute gets an explicit enum here, so that no consumer guesses on its own:
 *
 * - values named by the design's conditions (a sparse key's `when`, a pattern's filter or the value an
 *   update sets: `status = "OPEN"`), plus one value `OTHER` for everything else (or, with a stated
 *   cardinality of at most 64, `OTHER`, `OTHER_2`, … up to that many values), all equally likely;
 * - else the name's categorical pool (`status`: PENDING, SHIPPED, …; `country`: PT, US, …), even;
 * - a BOOL: true or false, even.
 *
 * Other attributes (ids, emails, dates, numbers, text) keep their generator or name heuristics: their
 * values are many and distinct, so no share depends on them.
 */
import { parseCondition, type Condition, type ConditionValue } from './condition.ts';
import type { Attribute, Distribution, Entity, Generator, Table } from './schema.ts';
import { CATEGORICAL_POOLS, kindFromName } from './value-heuristics.ts';

/**
 * Digits an id's number is zero-padded to, the same in previews, sample data and the simulator's
 * keys: the generator's width, else enough for every value the design asks for (its cardinality, or
 * its entity's item count, whatever share of it a sample generates), at least 6.
 */
export function idDigits(attribute: Attribute, itemCount: number): number {
  const width = attribute.generator?.width;
  if (width !== undefined && width >= 1) return Math.floor(width);
  const distinct = attribute.cardinality !== undefined && attribute.cardinality >= 1 ? attribute.cardinality : itemCount;
  return Math.max(6, String(Math.max(1, Math.floor(Number.isFinite(distinct) ? distinct : 1))).length);
}

/** The value standing for "anything the conditions do not name". */
export const OTHER_VALUE = 'OTHER';

/**
 * Literal values the design's conditions compare an entity's attributes with, by attribute, in order of
 * first mention: its keys' `when` conditions and, given the table, its patterns' filters and set values.
 */
export function conditionValuesOf(table: Pick<Table, 'accessPatterns'> | undefined, entity: Entity): Map<string, ConditionValue[]> {
  const found = new Map<string, ConditionValue[]>();
  const add = (attribute: string, value: ConditionValue): void => {
    const list = found.get(attribute) ?? [];
    if (!list.some((v) => v === value)) list.push(value);
    found.set(attribute, list);
  };
  const read = (text: string | undefined): void => {
    if (typeof text !== 'string' || text.trim() === '') return;
    const parsed = parseCondition(text);
    if (parsed.ok) collect(parsed.value, add);
  };
  for (const binding of Object.values(entity.keys ?? {})) read(binding?.when);
  for (const p of table?.accessPatterns ?? []) {
    if (p.entityId !== entity.id) continue;
    read(p.filter);
    for (const [attribute, value] of Object.entries(p.sets ?? {})) {
      const a = entity.attributes.find((x) => x.name === attribute);
      add(attribute, a?.type === 'N' && Number.isFinite(Number(value)) ? Number(value) : a?.type === 'BOOL' ? value === 'true' : value);
    }
  }
  return found;
}

function collect(c: Condition, add: (attribute: string, value: ConditionValue) => void): void {
  for (const clause of c.clauses) {
    if (clause.kind === 'compare') add(clause.attribute, clause.value);
    else if (clause.kind === 'in') for (const v of clause.values) add(clause.attribute, v);
  }
}

/**
 * The generator an attribute's values follow: its own, or (without one) the enum this module decides
 * for a categorical attribute (see the module comment); undefined when the name heuristics of the
 * sample data decide (ids, emails, dates, numbers, text).
 */
export function effectiveGenerator(attribute: Attribute, conditionValues: readonly ConditionValue[] = []): Generator | undefined {
  if (attribute.generator) return attribute.generator;
  const { name, type } = attribute;
  if (type === 'BOOL') return { kind: 'enum', values: ['true', 'false'] };
  if (type !== 'S' && type !== 'N') return undefined;
  const cardinality = attribute.cardinality !== undefined && attribute.cardinality >= 1 ? Math.floor(attribute.cardinality) : undefined;
  // A stated cardinality keeps its meaning (that many values, even); too many to list are left to it.
  if (cardinality !== undefined && cardinality > MAX_ENUMERATED) return undefined;
  const typed = conditionValues.filter((v) => (type === 'N' ? typeof v === 'number' && Number.isFinite(v) : typeof v === 'string' && v !== ''));
  if (typed.length > 0) {
    const values = typed.map(String).slice(0, cardinality ?? Infinity);
    const wanted = cardinality ?? values.length + 1;
    for (let n = 1; values.length < wanted; n += 1) {
      const other = type === 'N' ? String(Math.max(...typed.map(Number)) + n) : n === 1 ? OTHER_VALUE : `${OTHER_VALUE}_${n}`;
      if (!values.includes(other)) values.push(other);
    }
    return { kind: 'enum', values };
  }
  const pool = type === 'S' ? CATEGORICAL_POOLS[kindFromName(name)] : undefined;
  if (!pool) return undefined;
  if (cardinality === undefined) return { kind: 'enum', values: [...pool] };
  // A stated cardinality decides how many: the pool's first values, or the pool and more of the same kind.
  const values = pool.slice(0, cardinality);
  for (let n = values.length + 1; values.length < cardinality; n += 1) values.push(`${name.toUpperCase()}_${n}`);
  return { kind: 'enum', values };
}

/** A stated cardinality above this is not listed as enum values (it stays a count of even values). */
export const MAX_ENUMERATED = 64;

/** Why an attribute's values are what they are, in words, for assumptions and the Entities screen. */
export function valueModelBasis(attribute: Attribute, conditionValues: readonly ConditionValue[] = []): string {
  if (attribute.generator) return 'its generator';
  const g = effectiveGenerator(attribute, conditionValues);
  if (!g) return 'its name';
  if (attribute.type === 'BOOL') return 'true or false, even (no generator)';
  const named = conditionValues.length > 0 && g.values?.some((v) => conditionValues.map(String).includes(v));
  return named
    ? `no generator: the values the design's conditions name (${g.values?.slice(0, -1).join(', ') ?? ''}) and one other value, all equally likely`
    : `no generator: what its name suggests (${g.values?.join(', ') ?? ''}), equally likely`;
}

const cache = new WeakMap<Table, Table>();

/**
 * The table with every categorical attribute's value model made explicit (`effectiveGenerator`), so
 * the planner, the cost engine, the sample data and the simulator read the same values. Idempotent;
 * cached per table object. Attributes whose generator is already set are untouched.
 */
export function withValueModel(table: Table): Table {
  const hit = cache.get(table);
  if (hit) return hit;
  let changed = false;
  const entities = (table.entities ?? []).map((entity) => {
    const modeled = modelEntity(entity, conditionValuesOf(table, entity));
    if (modeled !== entity) changed = true;
    return modeled;
  });
  const result = changed ? { ...table, entities } : table;
  cache.set(table, result);
  cache.set(result, result);
  return result;
}

/**
 * One entity with its value model made explicit, from the values its own key conditions name (a
 * caller holding the whole table should prefer `withValueModel`, which also reads the patterns).
 */
export function withEntityValueModel(entity: Entity): Entity {
  return modelEntity(entity, conditionValuesOf(undefined, entity));
}

function modelEntity(entity: Entity, values: ReadonlyMap<string, ConditionValue[]>): Entity {
  let changed = false;
  const attributes = (entity.attributes ?? []).map((a) => {
    if (a.generator) return a;
    const g = effectiveGenerator(a, values.get(a.name));
    if (!g) return a;
    changed = true;
    return { ...a, generator: g };
  });
  return changed ? { ...entity, attributes } : entity;
}

/**
 * The share of rank r (0-based, heaviest first) of n values under a distribution: Zipf r ∝ 1 / (r + 1)^s,
 * one hot value taking `share` and the rest even, "today" falling linearly with age, else even. The
 * sample data draws ranks with these shares; every estimate reads them from here.
 */
export function rankShare(distribution: Distribution | undefined, n: number, r: number): number {
  if (r < 0 || r >= n) return 0;
  switch (distribution?.kind) {
    case 'zipf': {
      let harmonic = 0;
      for (let k = 1; k <= n; k += 1) harmonic += k ** -distribution.exponent;
      return (r + 1) ** -distribution.exponent / harmonic;
    }
    case 'hotKey':
      return n === 1 ? 1 : r === 0 ? distribution.share : (1 - distribution.share) / (n - 1);
    case 'today':
      return (n - r) / ((n * (n + 1)) / 2);
    default:
      return 1 / n;
  }
}

/** An enum attribute's values with the share of items holding each: by its distribution (the listed order is the rank), else its weights, else even. */
export function enumShares(attribute: Attribute): { values: Array<string | number | boolean>; shares: number[]; basis: string } | undefined {
  const g = attribute.generator;
  if (g?.kind !== 'enum' || !Array.isArray(g.values) || g.values.length === 0) return undefined;
  const values = g.values.map((v) => (attribute.type === 'N' ? Number(v) : attribute.type === 'BOOL' ? v === 'true' : v));
  const n = values.length;
  if (g.distribution && g.distribution.kind !== 'uniform') {
    return { values, shares: values.map((_, r) => rankShare(g.distribution, n, r)), basis: `the generator's ${g.distribution.kind === 'hotKey' ? 'hot value' : g.distribution.kind === 'zipf' ? 'Zipf spread' : 'time skew'}` };
  }
  const given = Array.isArray(g.weights) && g.weights.length === n ? g.weights.map((w) => (Number.isFinite(w) && w > 0 ? w : 0)) : undefined;
  const total = given?.reduce((a, b) => a + b, 0) ?? 0;
  if (given && total > 0) return { values, shares: given.map((w) => w / total), basis: "the generator's weights" };
  return { values, shares: values.map(() => 1 / n), basis: "the generator's values, equally likely" };
}
