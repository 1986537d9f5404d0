/**
 * The value model: what values each attribute takes, decided once and read by every consumer (key
 * previews, sample data, the exports' items, the planner's and the cost engine's shares, the
 * partition simulator's key space). An attribute's own generator decides when it has one. When it has
 * none, a categorical attribute gets an explicit enum here, so that no consumer guesses on its own:
 *
 * More on its rules: docs/modules.md, "src-shared/model/value-model.ts".
 */
import { parseCondition, type Condition, type ConditionValue } from './condition.ts';
import { utf8ByteLength, type KeyTemplate } from './key-template.ts';
import { generatorOfRelation, relationsOf, type Relation } from './relations.ts';
import type { AccessPattern, Attribute, Distribution, Entity, Generator, Sharding, Table } from './schema.ts';
import { CATEGORICAL_POOLS, FIRST_NAMES, idInitialsOf, kindFromName, LAST_NAMES, PRODUCTS, STATUSES, wordsOf, type NameKind } from './value-heuristics.ts';

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
  // Seen values per attribute, so that adding one is constant time however many there are.
  const seen = new Map<string, Set<ConditionValue>>();
  const add = (attribute: string, value: ConditionValue): void => {
    let values = seen.get(attribute);
    if (!values) {
      values = new Set();
      seen.set(attribute, values);
      found.set(attribute, []);
    }
    if (values.has(value)) return;
    values.add(value);
    found.get(attribute)?.push(value);
  };
  const types = new Map<string, Attribute['type']>();
  for (const a of entity.attributes ?? []) if (!types.has(a.name)) types.set(a.name, a.type);
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
      const type = types.get(attribute);
      add(attribute, type === 'N' && Number.isFinite(Number(value)) ? Number(value) : type === 'BOOL' ? value === 'true' : value);
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

/** Days before today of a date from which on ISO dates have a signed 6-digit year (year 0 is ~739,000 days before 2026). */
const BEFORE_YEAR_ZERO_DAYS = 700_000;
/** Days before today within which a date's epoch seconds have 10 digits (2001-09-09 on, for any "today" before 2286). */
const RECENT_DAYS = 8_000;
/** A bound on "today" as days since 1970 (the year 2106), for the digits of older dates' epoch seconds. */
const FUTURE_DAYS = 50_000;

/** Decimal digits of a whole number ≥ 1. */
const digitsOf = (n: number): number => String(Math.max(1, Math.floor(n))).length;

/**
 * The longest `String(n)` of numbers drawn from `min` to `max`: whole numbers, or cents (two decimals
 * at most) when `hasDecimals` or either bound has decimals, as the sample data draws them.
 */
function numberTextChars(min: number, max: number, hasDecimals = false): number {
  const ends = [min, max];
  if (hasDecimals || ends.some((x) => !Number.isInteger(x))) return Math.max(...ends.map((x) => String(Math.trunc(Math.abs(x))).length + (x < 0 ? 1 : 0) + 3));
  return Math.max(...ends.map((x) => String(x).length));
}

const finite = (n: number | undefined, fallback: number): number => (n !== undefined && Number.isFinite(n) ? n : fallback);
const longest = (list: readonly string[]): number => list.reduce((m, v) => Math.max(m, utf8ByteLength(v)), 0);
/** `Ana Silva` at its longest (ASCII names: characters are bytes). */
const LONGEST_NAME = longest(FIRST_NAMES) + 1 + longest(LAST_NAMES);
/** `@example.com`, the domain of sample emails. */
const EMAIL_DOMAIN_BYTES = 12;
/** `+1-555-0123`. */
const PHONE_BYTES = 11;
/** Lists the sample data draws a categorical name's values from when nothing else decides. */
const NAME_POOLS: Partial<Record<NameKind, readonly string[]>> = {
  firstName: FIRST_NAMES,
  lastName: LAST_NAMES,
  product: PRODUCTS,
  ...CATEGORICAL_POOLS,
};

/**
 * The most UTF-8 bytes an attribute's value can take as text in a key template (`String(value)`, as
 * `renderKeyTemplate` and the sample data write it), when the value model bounds it: by the
 * attribute's generator (or the one `effectiveGenerator` decides from the design's conditions), else
 * by what its name suggests, the way the sample data generates it (`sample/columns.ts`; a test there
 * checks that no generated value is wider). For example an enum's longest value, a constant, an id
 * (prefix and a number zero-padded to `idDigits`, wider when the entity has more items), a uuid (36),
 * an ISO date (10) or timestamp (20), text of a set length, a number range, an email (a name, a
 * number and `@example.com`), a BOOL (`false`, 5), a reference (the referenced attribute's width:
 * pass the table's `entities`). `undefined` when nothing bounds the values (a reference to an
 * attribute of another type, or in a cycle; a B value). Key size limits: docs/dynamodb-rules.md §7.
 */
export function maxKeyTextBytes(
  attribute: Attribute,
  entity: Pick<Entity, 'name' | 'itemCount'>,
  conditionValues: readonly ConditionValue[] = [],
  entities: readonly Entity[] = [],
): number | undefined {
  return widestText(attribute, entity, conditionValues, entities, new Set());
}

/** The attribute of `target` a reference to it shows, as the sample data picks it: same name, else its id. */
function referencedAttribute(target: Entity, name: string): Attribute | undefined {
  const scalars = target.attributes.filter((a) => a.type === 'S' || a.type === 'N' || a.type === 'B' || a.type === 'BOOL');
  return (
    scalars.find((a) => a.name === name) ??
    scalars.find((a) => a.generator?.kind === 'id' || a.generator?.kind === 'uuid') ??
    scalars.find((a) => a.generator === undefined && /id$/i.test(a.name))
  );
}

function widestText(
  attribute: Attribute,
  entity: Pick<Entity, 'name' | 'itemCount'>,
  conditionValues: readonly ConditionValue[],
  entities: readonly Entity[],
  visiting: Set<Attribute>,
): number | undefined {
  const g = effectiveGenerator(attribute, conditionValues);
  const { name, type } = attribute;
  const cardinality = attribute.cardinality !== undefined && attribute.cardinality >= 1 ? Math.floor(attribute.cardinality) : undefined;
  const kept = (list: readonly string[]): string[] => (cardinality === undefined ? [...list] : list.slice(0, Math.max(1, cardinality)));
  // The largest k + 1 an id or a sequence number takes: one per item, or per distinct value.
  const distinct = cardinality ?? (Number.isFinite(entity.itemCount) ? Math.max(1, entity.itemCount) : 1);
  const digits = digitsOf(distinct);
  if (type === 'BOOL') {
    if (g?.kind === 'constant') return g.value === 'true' ? 4 : 5;
    if (g?.kind === 'enum' && g.values && g.values.length > 0) return Math.max(...kept(g.values).map((v) => (v === 'true' ? 4 : 5)));
    return 5;
  }
  if (type !== 'S' && type !== 'N') return undefined;
  let kind: Generator['kind'] | NameKind = g?.kind ?? kindFromName(name);
  const isNumber = type === 'N';
  if (kind === 'ref') {
    // The value of the referenced entity's attribute (`entities` must hold it); without a target
    // with items, the sample data falls back to what the name suggests.
    const target = entities.find((e) => e.id === g?.entity);
    if (target && target.itemCount >= 1) {
      const shownAttribute = referencedAttribute(target, name);
      if (!shownAttribute || shownAttribute.type !== type || visiting.has(shownAttribute)) return undefined;
      visiting.add(shownAttribute);
      const width = widestText(shownAttribute, target, [], entities, visiting);
      visiting.delete(shownAttribute);
      return width;
    }
    kind = g?.kind === 'ref' ? kindFromName(name) : kind;
    if (kind === 'ref') kind = 'plain';
  }
  switch (kind) {
    case 'constant': {
      const v = g?.value ?? '';
      return isNumber ? String(Number.isFinite(Number(v)) && v.trim() !== '' ? Number(v) : 0).length : utf8ByteLength(v);
    }
    case 'enum': {
      const listed = g?.values && g.values.length > 0 ? kept(g.values) : undefined;
      if (!isNumber) return longest(listed ?? STATUSES);
      return Math.max(1, ...(listed ?? []).map((v, i) => String(Number.isFinite(Number(v)) && v.trim() !== '' ? Number(v) : i + 1).length));
    }
    case 'number':
      return numberTextChars(finite(g?.min, 1), finite(g?.max, 100));
    case 'money':
      return numberTextChars(1, 500, true);
    case 'quantity':
    case 'rating':
      return 1;
    case 'date':
    case 'timestamp': {
      if (isNumber) {
        // Epoch seconds: 10 digits from 2001 to 2286; a range reaching further back, the seconds of
        // its oldest day (negative before 1970) with a margin for "today".
        const daysBack = Math.max(finite(g?.max, 364), finite(g?.min, 0), 0);
        return daysBack <= RECENT_DAYS ? 10 : String(-Math.ceil((daysBack + FUTURE_DAYS) * 86_400)).length;
      }
      // ISO text, `2026-03-14` or `2026-03-14T09:30:00Z`; a day before the year 0 has a signed 6-digit year.
      const isBeforeYearZero = finite(g?.max, 364) > BEFORE_YEAR_ZERO_DAYS;
      return (kind === 'date' ? 10 : 20) + (isBeforeYearZero ? 3 : 0);
    }
    default:
      break;
  }
  // Every other kind of an N attribute is a sequence number 1 … the item count (or cardinality).
  if (isNumber) return digits;
  switch (kind) {
    case 'id':
      return utf8ByteLength(g?.prefix ?? `${idInitialsOf(name, entity.name)}-`) + Math.max(idDigits(attribute, entity.itemCount), digits);
    case 'uuid':
      return 36;
    case 'name':
      return LONGEST_NAME;
    case 'email':
      return LONGEST_NAME + digits + EMAIL_DOMAIN_BYTES;
    case 'text':
      return Math.max(0, Math.round(finite(g?.length ?? attribute.averageSizeBytes, 24)));
    case 'userName':
      return longest(FIRST_NAMES) + digits;
    case 'phone':
      return PHONE_BYTES;
    case 'sku':
      return 4 + Math.max(5, digits);
    case 'url':
      return utf8ByteLength(`https://example.com/${wordsOf(name)[0] ?? 'item'}/`) + digits;
    case 'plain':
      return utf8ByteLength(`${name}-`) + digits;
    default: {
      const pool = NAME_POOLS[kind];
      return pool ? longest(pool) : digits;
    }
  }
}

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
 * cached per table object. Attributes whose generator is already set are untouched, except that a
 * reference inherited through another (`relationsOf`) gets its `via`; an attribute named after an
 * entity, without a generator, becomes a reference to it.
 */
export function withValueModel(table: Table): Table {
  const hit = cache.get(table);
  if (hit) return hit;
  let changed = false;
  // Each entity reads only its own patterns: grouped once, not scanned once per entity.
  const patternsOf = new Map<string, AccessPattern[]>();
  for (const p of table.accessPatterns ?? []) {
    // A pattern written before its entity shapes no entity's values yet.
    if (p.entityId === undefined) continue;
    const list = patternsOf.get(p.entityId);
    if (list) list.push(p);
    else patternsOf.set(p.entityId, [p]);
  }
  const relations = relationsOf(table.entities ?? []);
  const entities = (table.entities ?? []).map((entity) => {
    const modeled = modelEntity(entity, conditionValuesOf({ accessPatterns: patternsOf.get(entity.id) ?? [] }, entity), relations.get(entity.id));
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

function modelEntity(entity: Entity, values: ReadonlyMap<string, ConditionValue[]>, relations?: ReadonlyMap<string, Relation>): Entity {
  let changed = false;
  const attributes = (entity.attributes ?? []).map((a) => {
    // A reference by name, or an attribute inherited through one: the relation graph's generator.
    const relation = relations?.get(a.name);
    if (relation && (!a.generator || (relation.via && a.generator.via === undefined))) {
      changed = true;
      return { ...a, generator: generatorOfRelation(a, relation) };
    }
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

/** How wide a placeholder's values are as key text: exact (`isKnown`), or an estimate. */
export interface ValueWidth {
  bytes: number;
  isKnown: boolean;
}

/** The longest value a key template renders, and where it comes from. */
export interface KeyValueBound {
  /** Literal text + each placeholder's width + a sharding suffix, in UTF-8 bytes. */
  bytes: number;
  /** Whether some placeholder's width is an estimate (its values have no bound in the value model). */
  isEstimate: boolean;
  /** The widest part: `its literal text` or a placeholder as written (`{status}`), and its bytes. */
  largest: { part: string; bytes: number };
}

/**
 * The longest value `t` renders (docs/dynamodb-rules.md §7 compares it with DynamoDB's key size
 * limits): the UTF-8 bytes of its literal text, plus per placeholder its padded width, else
 * `widthOf(name)` (undefined for an attribute the entity lacks: it adds nothing), plus the write
 * sharding suffix `.N` (1 + the digits of N; docs/dynamodb-rules.md §5). `maxKeyTextBytes` gives
 * the exact widths the value model knows; callers decide what stands in for the others. Linear in
 * the template's length.
 */
export function keyValueBound(t: KeyTemplate, shards: Sharding | undefined, widthOf: (name: string) => ValueWidth | undefined): KeyValueBound {
  let literalBytes = 0;
  let bytes = 0;
  let isEstimate = false;
  let largest = { part: 'its literal text', bytes: 0 };
  for (const part of t.parts) {
    if (part.kind === 'literal') {
      literalBytes += utf8ByteLength(part.text);
      continue;
    }
    const width = part.pad !== undefined ? { bytes: part.pad, isKnown: true } : widthOf(part.name);
    if (width === undefined) continue;
    bytes += width.bytes;
    if (!width.isKnown) isEstimate = true;
    if (width.bytes > largest.bytes) largest = { part: part.name, bytes: width.bytes };
  }
  if (literalBytes >= largest.bytes) largest = { part: 'its literal text', bytes: literalBytes };
  bytes += literalBytes;
  if (shards && Number.isInteger(shards.count) && shards.count >= 2) bytes += 1 + String(shards.count).length;
  return { bytes, isEstimate, largest };
}
