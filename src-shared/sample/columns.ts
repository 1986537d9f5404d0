/**
 * Columns of generated values: one per attribute of an entity, holding the whole entity's values in
 * compact form (typed arrays of codes, numbers or day numbers; many kinds store nothing and derive
 * the value from the row number) and turning a row into its value, its text in a key template, and
 * its size in bytes, without building DynamoDB JSON.
 *
 * More on its rules: docs/modules.md, "src-shared/sample/columns.ts".
 */
import { base64DecodedLength, type AttributeValue, DEFAULT_VALUE_BYTES } from '../capacity/index.ts';
import type { Attribute, AttributeType, Distribution, Entity, Generator } from '../model/index.ts';
import {
  idDigits,
  CATEGORIES,
  CITIES,
  COUNTRIES,
  CURRENCIES,
  FIRST_NAMES,
  idInitialsOf,
  kindFromName,
  LAST_NAMES,
  PRODUCTS,
  STATUSES,
  wordsOf,
  type NameKind,
} from '../model/index.ts';
import { Column, DAY_SECONDS, identifyByK, padNumber, toBase64, type Codes, type ColumnContext } from './column.ts';
import { BinaryColumn, DocumentColumn, FormatColumn, IdColumn, NumberColumn, PersonColumn, PoolColumn, RefColumn, SequenceNumberColumn, TextColumn, TimeColumn, UuidColumn } from './column-kinds.ts';
import { createAliasSampler, createRankSampler, deriveSeed, hash2, Random, type RankSampler } from './random.ts';
import { digitCount } from './sizes.ts';
import type { SampleValue } from './types.ts';

export { Column, type ColumnContext } from './column.ts';

const WORDS = ['fast', 'delivery', 'great', 'quality', 'would', 'buy', 'again', 'fits', 'well', 'as', 'described', 'solid', 'light', 'sturdy', 'good', 'value', 'arrived', 'early', 'nice', 'colour'];

/**
 * Draws ranks 0 … n−1 as `createRankSampler(distribution, n)` does (the same draws from the same
 * stream), or as a given sampler does. Uniform ranks, the default, are drawn here by a method, so
 * that the loops below call no closure made per column: V8 inlines such a closure into the loop's
 * optimized code and throws that code away once the closure is collected, so every new sample
 * would run its loops unoptimized again. A ranked column's ranks are not drawn: the i-th is i mod n
 * (`createRankColumn`).
 */
class Ranks {
  readonly #size: number;
  readonly #sample: RankSampler | undefined;
  readonly #isRanked: boolean;
  #next = 0;
  constructor(distribution: Distribution | undefined, n: number, sample: RankSampler | undefined, isRanked: boolean) {
    this.#size = Math.max(1, Math.floor(n));
    const kind = distribution?.kind;
    this.#isRanked = isRanked;
    this.#sample = isRanked ? undefined : (sample ?? (kind === 'zipf' || kind === 'hotKey' || kind === 'today' ? createRankSampler(distribution, n) : undefined));
  }
  draw(random: Random): number {
    if (this.#isRanked) {
      const rank = this.#next;
      this.#next = rank + 1 < this.#size ? rank + 1 : 0;
      return rank;
    }
    const sample = this.#sample;
    if (sample !== undefined) return sample(random);
    return this.#size === 1 ? 0 : random.int(this.#size);
  }
}

/** A drawn rank per row; with `last`, `last − rank` (rank 0 the newest of `last + 1` rows). */
function drawCodes(rows: number, ranks: Ranks, random: Random, last?: number): Uint32Array {
  const codes = new Uint32Array(rows);
  if (last !== undefined) for (let i = 0; i < rows; i += 1) codes[i] = last - ranks.draw(random);
  else for (let i = 0; i < rows; i += 1) codes[i] = ranks.draw(random);
  return codes;
}

/** A drawn rank per row, into `out` (a pool's codes). */
function fillRanks(out: Uint8Array | Uint16Array | Uint32Array, ranks: Ranks, random: Random): void {
  for (let i = 0; i < out.length; i += 1) out[i] = ranks.draw(random);
}

/** Day numbers: `newest` − a drawn rank per row. */
function fillDays(out: Int32Array, newest: number, ranks: Ranks, random: Random): void {
  for (let i = 0; i < out.length; i += 1) out[i] = newest - ranks.draw(random);
}

/** Epoch seconds: a drawn day back from `newest`, then a uniform second of it, per row. */
function fillSeconds(out: Int32Array | Float64Array, newest: number, ranks: Ranks, random: Random): void {
  for (let i = 0; i < out.length; i += 1) out[i] = (newest - ranks.draw(random)) * DAY_SECONDS + random.int(DAY_SECONDS);
}

/** Epoch seconds of `step`-spaced instants back from `end`, by a drawn rank per row. */
function fillInstants(out: Int32Array | Float64Array, end: number, step: number, ranks: Ranks, random: Random): void {
  for (let i = 0; i < out.length; i += 1) out[i] = end - Math.floor(ranks.draw(random) * step);
}

/** Integer units from `low`: a drawn rank of `count` spread over `span` values, per row. */
function fillUnits(out: Float64Array, low: number, span: number, count: number, ranks: Ranks, random: Random): void {
  if (count === span) for (let i = 0; i < out.length; i += 1) out[i] = low + ranks.draw(random);
  else for (let i = 0; i < out.length; i += 1) out[i] = low + Math.floor((ranks.draw(random) * span) / count);
}

/** A seeded run of words at least `length` + 2,048 characters long, and the word starts in its first 2,048. */
function wordPool(random: Random, length: number): { pool: string; starts: number[] } {
  const words: string[] = [];
  const starts: number[] = [];
  let size = 0;
  while (size < length + 2048) {
    if (size < 2048) starts.push(size);
    const w = WORDS[random.int(WORDS.length)] as string;
    words.push(w);
    size += w.length + 1;
  }
  return { pool: words.join(' '), starts };
}

/** `userId` → `u-`, `orderItemId` → `oi-`, `id` → the entity's initial (the initials of `idInitialsOf` and a dash). */
function idPrefix(name: string, entityName: string): string {
  return `${idInitialsOf(name, entityName)}-`;
}

// The name alone decides a kind only for S and N attributes: a BOOL column uses only its
// generator's kind (constant, enum), never the name's.
type Kind = Generator['kind'] | NameKind;

const POOLS: Partial<Record<Kind, readonly string[]>> = {
  firstName: FIRST_NAMES,
  lastName: LAST_NAMES,
  product: PRODUCTS,
  status: STATUSES,
  country: COUNTRIES,
  city: CITIES,
  currency: CURRENCIES,
  category: CATEGORIES,
};

/** Resolves a `ref` generator to the column (and item count) of the entity it names. */
export type RefResolver = (entityId: string, attributeName: string) => { column: Column; rows: number } | undefined;

const finite = (n: number | undefined, fallback: number): number => (n !== undefined && Number.isFinite(n) ? n : fallback);

/** The placeholder a list, map, set or NULL attribute holds, about `bytes` in size. */
function documentFor(type: AttributeType, bytes: number, random: Random): AttributeValue {
  const filler = (n: number): string => wordPool(random, Math.max(0, n)).pool.slice(0, Math.max(0, n));
  switch (type) {
    case 'M':
      return bytes >= 8 ? { M: { note: { S: filler(bytes - 8) } } } : { M: {} };
    case 'L':
      return bytes >= 4 ? { L: [{ S: filler(bytes - 4) }] } : { L: [] };
    case 'SS':
      return { SS: [filler(Math.max(1, bytes)) || 'x'] };
    case 'NS':
      return { NS: Array.from({ length: Math.max(1, Math.floor(bytes / 2)) }, (_, i) => String(i + 1)) };
    case 'BS':
      return { BS: [toBase64(Array.from({ length: Math.max(1, bytes) }, () => random.int(256)))] };
    default:
      return { NULL: true };
  }
}
/** What drawing one attribute's column needs: its streams, its cardinality and distribution. */
interface Draw {
  entity: Entity;
  attribute: Attribute;
  rows: number;
  ctx: ColumnContext;
  /** The attribute's own stream. */
  random: Random;
  /** Seed of the values hashed from k (uuids, user names, phones, binary values). */
  hashSeed: number;
  /** Seed of the entity's people, shared by its name and email attributes. */
  personSeed: number;
  g: Generator | undefined;
  cardinality: number | undefined;
  distribution: Distribution | undefined;
  /** Row r holds rank r's value rather than a drawn one (`createRankColumn`). */
  isRanked: boolean;
}

const ranksOf = (d: Draw, n: number, sample?: RankSampler): Ranks => new Ranks(d.distribution, n, sample, d.isRanked);

/** The value indexes of a kind whose values follow from k: none (k is the row) or, with a cardinality, drawn ranks. */
const codesOf = (d: Draw): Codes => (d.cardinality === undefined ? null : drawCodes(d.rows, ranksOf(d, d.cardinality), d.random));

/** Gives a column of a kind whose values follow from k its identities. */
const byK = <C extends Column & { readonly codes: Codes }>(d: Draw, column: C, isInjective = true): C => identifyByK(column, d.cardinality ?? d.rows, isInjective);

/**
 * Generates one column: every value of `attribute` for `rows` items of `entity`. Deterministic for
 * (ctx.seed, entity id, attribute name): a column does not change when another attribute does.
 */
export function createColumn(entity: Entity, attribute: Attribute, rows: number, ctx: ColumnContext, resolveRef: RefResolver): Column {
  const column = createValueColumn(entity, attribute, rows, ctx, resolveRef, false);
  const p = attribute.presence;
  if (p !== undefined && Number.isFinite(p) && p < 1) {
    // Its own stream, so that making an attribute optional does not change its values.
    const random = new Random(deriveSeed(ctx.seed, `${entity.id}\u0000${attribute.name}\u0000presence`));
    const present = new Uint8Array(rows);
    for (let r = 0; r < rows; r += 1) present[r] = random.next() < p ? 1 : 0;
    column.present = present;
  }
  return column;
}

/**
 * A column whose row r holds the value of rank r of `attribute`, for `ranks` ranks: the value the
 * sample data writes for an item that drew rank r of the attribute's distribution (rank 0 the
 * heaviest: the hot value, the newest day). Ids, uuids, names and the other kinds that follow from k
 * give value k; a list its r-th value; numbers the r-th of their spread; dates r days back from the
 * newest (on past the window when there is no cardinality, so that every rank is a distinct day);
 * a reference the r-th generated item of its entity. Ranks past the attribute's distinct values
 * (its cardinality, a list's length) start over. Every item carries the attribute.
 */
export function createRankColumn(entity: Entity, attribute: Attribute, ranks: number, ctx: ColumnContext, resolveRef: RefResolver): Column {
  return createValueColumn(entity, attribute, Math.max(1, Math.floor(ranks)), ctx, resolveRef, true);
}

function createValueColumn(entity: Entity, attribute: Attribute, rows: number, ctx: ColumnContext, resolveRef: RefResolver, isRanked: boolean): Column {
  const { name, type } = attribute;
  const streamSeed = deriveSeed(ctx.seed, `${entity.id}\u0000${name}`);
  const g = attribute.generator;
  const d: Draw = {
    entity,
    attribute,
    rows,
    ctx,
    random: new Random(streamSeed),
    hashSeed: deriveSeed(streamSeed, 'hash'),
    personSeed: deriveSeed(ctx.seed, `${entity.id}\u0000person`),
    g,
    cardinality: attribute.cardinality !== undefined && attribute.cardinality >= 1 ? Math.floor(attribute.cardinality) : undefined,
    distribution: g?.distribution,
    isRanked,
  };
  if (type !== 'S' && type !== 'N' && type !== 'B' && type !== 'BOOL') {
    return new DocumentColumn(name, type, documentFor(type, Math.round(finite(attribute.averageSizeBytes, DEFAULT_VALUE_BYTES[type])), d.random));
  }
  let kind: Kind = g?.kind ?? kindFromName(name);
  if (kind === 'ref') {
    const column = refColumn(d, resolveRef);
    if (column) return column;
    kind = g?.kind === 'ref' ? kindFromName(name) : kind;
    if (kind === 'ref') kind = 'plain';
  }
  if (type === 'BOOL') {
    if (kind === 'constant') return poolColumn(d, [g?.value === 'true']);
    if (kind === 'enum' && g?.values && g.values.length > 0) return poolColumn(d, g.values.map((v) => v === 'true'), g.weights);
    return poolColumn(d, [true, false]);
  }
  if (type === 'B') {
    if (kind === 'constant' && g?.value !== undefined && base64DecodedLength(g.value) !== undefined) return poolColumn(d, [g.value]);
    if (kind === 'enum' && g?.values && g.values.length > 0 && g.values.every((v) => base64DecodedLength(v) !== undefined)) return poolColumn(d, g.values, g.weights);
    const length = Math.max(1, Math.round(finite(g?.length ?? attribute.averageSizeBytes, 16)));
    return byK(d, new BinaryColumn(name, d.hashSeed, length, codesOf(d)));
  }
  return kindColumn(d, kind);
}

/** A reference: the target entity's column at a drawn row of it; undefined when it names no entity with items. */
function refColumn(d: Draw, resolveRef: RefResolver): Column | undefined {
  const { name, type } = d.attribute;
  const inherited = d.g?.via !== undefined ? inheritedColumn(d, d.g.via, resolveRef) : undefined;
  if (inherited) return inherited;
  const target = d.g?.entity !== undefined ? resolveRef(d.g.entity, name) : undefined;
  if (!target || target.rows === 0) return undefined;
  const span = Math.min(d.cardinality ?? target.rows, target.rows);
  const isNewest = d.distribution?.kind === 'today';
  const targetRows = drawCodes(d.rows, ranksOf(d, span), d.random, isNewest ? target.rows - 1 : undefined);
  return new RefColumn(name, type, target.column, targetRows);
}

/**
 * An attribute inherited through the reference `via` (relationsOf): the referenced item's own value
 * of it, at the row the reference drew, so that an issue's organizationId is its project's.
 */
function inheritedColumn(d: Draw, via: string, resolveRef: RefResolver): Column | undefined {
  const { name, type } = d.attribute;
  const parentId = d.entity.attributes.find((a) => a.name === via)?.generator?.entity;
  const through = parentId !== undefined && via !== name ? resolveRef(d.entity.id, via) : undefined;
  if (!(through?.column instanceof RefColumn) || through.column.name !== via || parentId === undefined) return undefined;
  const parent = resolveRef(parentId, name);
  if (!parent || parent.column.name !== name) return undefined;
  return new RefColumn(name, type, parent.column, through.column.rows);
}

/** Values from a small list, the first c with a cardinality: by the distribution, else by `weights`, else even. */
function poolColumn(d: Draw, values: readonly SampleValue[], weights?: readonly number[]): Column {
  const { name, type } = d.attribute;
  const kept = d.cardinality !== undefined ? values.slice(0, Math.max(1, d.cardinality)) : values;
  if (kept.length <= 1) return new PoolColumn(name, type, kept.length === 0 ? [''] : kept, null);
  const ranks = d.distribution
    ? ranksOf(d, kept.length)
    : weights && weights.length === values.length
      ? ranksOf(d, kept.length, createAliasSampler(weights.slice(0, kept.length)))
      : ranksOf(d, kept.length);
  const store = kept.length <= 256 ? new Uint8Array(d.rows) : kept.length <= 65_536 ? new Uint16Array(d.rows) : new Uint32Array(d.rows);
  fillRanks(store, ranks, d.random);
  return new PoolColumn(name, type, kept, store);
}

/** Dates or timestamps in the window `min` … `max` days before today (defaults 0 … 364). */
function timeColumn(d: Draw, isTimestamp: boolean): Column {
  const { g, rows, cardinality } = d;
  const { name } = d.attribute;
  const type = d.attribute.type === 'N' ? 'N' : 'S';
  const low = Math.max(0, Math.floor(finite(g?.min, 0)));
  const high = Math.max(low, Math.floor(finite(g?.max, 364)));
  const days = high - low + 1;
  const newest = d.ctx.today - low;
  const oldestSecond = (newest - days + 1) * DAY_SECONDS;
  const end = (newest + 1) * DAY_SECONDS - 1;
  // Epoch seconds of the window in 32 bits while they fit (until 2038), half the memory of doubles.
  const secondsArray = (): Int32Array | Float64Array => (oldestSecond - DAY_SECONDS >= -(2 ** 31) && end < 2 ** 31 ? new Int32Array(rows) : new Float64Array(rows));
  if (isTimestamp && cardinality !== undefined) {
    const times = secondsArray();
    fillInstants(times, end, (days * DAY_SECONDS) / cardinality, ranksOf(d, cardinality), d.random);
    return new TimeColumn(name, type, true, times, oldestSecond, days * DAY_SECONDS);
  }
  // Ranked without a cardinality, every rank is a day of its own, back past the window if need be.
  const ranks = ranksOf(d, cardinality !== undefined ? Math.min(days, cardinality) : d.isRanked ? Math.max(days, rows) : days);
  if (!isTimestamp) {
    const dayNumbers = new Int32Array(rows);
    fillDays(dayNumbers, newest, ranks, d.random);
    return new TimeColumn(name, type, false, dayNumbers, newest - days + 1, days);
  }
  const times = d.isRanked ? new Float64Array(rows) : secondsArray();
  fillSeconds(times, newest, ranks, d.random);
  return new TimeColumn(name, type, true, times, oldestSecond, days * DAY_SECONDS);
}

/** Numbers `min` … `max`: whole, or cents when `hasDecimals` or either bound has decimals. */
function numberColumn(d: Draw, min: number, max: number, hasDecimals: boolean): Column {
  const decimals = hasDecimals || !Number.isInteger(min) || !Number.isInteger(max) ? 2 : 0;
  const scale = 10 ** decimals;
  const low = Math.ceil(min * scale);
  const high = Math.max(low, Math.floor(max * scale));
  const span = high - low + 1;
  const count = Math.min(span, d.cardinality ?? span);
  const units = new Float64Array(d.rows);
  fillUnits(units, low, span, count, ranksOf(d, count), d.random);
  return new NumberColumn(d.attribute.name, d.attribute.type === 'N' ? 'N' : 'S', units, decimals, low, span);
}

/** The column of an S or N attribute of a kind (its generator's, else its name's). */
function kindColumn(d: Draw, kind: Kind): Column {
  const { entity, attribute, g, rows, cardinality, hashSeed } = d;
  const { name } = attribute;
  const isNumber = attribute.type === 'N';
  const sequence = (): Column => byK(d, new SequenceNumberColumn(name, codesOf(d)));
  switch (kind) {
    case 'id': {
      if (isNumber) return sequence();
      // The width the previews and the simulator's keys use: for the design's count, not the sample's.
      const width = Math.max(idDigits(attribute, entity.itemCount), digitCount(cardinality ?? rows));
      return byK(d, new IdColumn(name, g?.prefix ?? idPrefix(name, entity.name), width, codesOf(d)));
    }
    case 'uuid':
      return isNumber ? sequence() : byK(d, new UuidColumn(name, hashSeed, codesOf(d)));
    case 'name':
    case 'email':
      if (isNumber) return sequence();
      // One person per k across the entity's name and email attributes: row 5's email is row 5's name.
      return kind === 'email' ? byK(d, new PersonColumn(name, true, d.personSeed, codesOf(d))) : new PersonColumn(name, false, d.personSeed, codesOf(d));
    case 'date':
      return timeColumn(d, false);
    case 'timestamp':
      return timeColumn(d, true);
    case 'number':
      return numberColumn(d, finite(g?.min, 1), finite(g?.max, 100), false);
    case 'money':
      return numberColumn(d, 1, 500, true);
    case 'quantity':
      return numberColumn(d, 1, 5, false);
    case 'rating':
      return numberColumn(d, 1, 5, false);
    case 'enum': {
      const values = g?.values && g.values.length > 0 ? g.values : STATUSES;
      const typed = isNumber ? values.map((v, i) => (Number.isFinite(Number(v)) && v.trim() !== '' ? Number(v) : i + 1)) : values;
      return poolColumn(d, typed, g?.values && g.values.length > 0 ? g.weights : undefined);
    }
    case 'constant': {
      const v = g?.value ?? '';
      return poolColumn(d, [isNumber ? (Number.isFinite(Number(v)) && v.trim() !== '' ? Number(v) : 0) : v]);
    }
    case 'text': {
      if (isNumber) return sequence();
      const length = Math.max(0, Math.round(finite(g?.length ?? attribute.averageSizeBytes, 24)));
      const { pool: words, starts } = wordPool(d.random, length);
      const chosen = new Uint32Array(rows);
      for (let i = 0; i < rows; i += 1) chosen[i] = starts[d.random.int(starts.length)] as number;
      return new TextColumn(name, words, chosen, length);
    }
    default:
      return isNumber ? sequence() : formattedColumn(d, kind);
  }
}

/** The S column of a kind whose values are text made from k, or drawn from a list its name suggests. */
function formattedColumn(d: Draw, kind: Kind): Column {
  const { name } = d.attribute;
  const hashSeed = d.hashSeed;
  switch (kind) {
    case 'userName':
      return byK(d, new FormatColumn(name, (k) => `${(FIRST_NAMES[hash2(hashSeed, k) % FIRST_NAMES.length] as string).toLowerCase()}${k + 1}`, codesOf(d)), false);
    case 'phone':
      return byK(d, new FormatColumn(name, (k) => `+1-555-${padNumber(hash2(hashSeed, k) % 10_000, 4)}`, codesOf(d)), false);
    case 'sku':
      return byK(d, new IdColumn(name, 'SKU-', 5, codesOf(d)));
    case 'url':
      return byK(d, new IdColumn(name, `https://example.com/${wordsOf(name)[0] ?? 'item'}/`, 1, codesOf(d)));
    case 'plain':
      return byK(d, new IdColumn(name, `${name}-`, 1, codesOf(d)));
    default: {
      const list = POOLS[kind];
      return list ? poolColumn(d, list) : byK(d, new SequenceNumberColumn(name, codesOf(d)));
    }
  }
}
