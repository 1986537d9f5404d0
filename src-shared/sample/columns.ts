/**
 * Columns of generated values: one per attribute of an entity, holding the whole entity's values in
 * compact form (typed arrays of codes, numbers or day numbers; many kinds store nothing and derive
 * the value from the row number) and turning a row into its value, its text in a key template, and
 * its size in bytes, without building DynamoDB JSON.
 *
 * How each generator kind draws its values (`k` is a value index: the row itself, so values are
 * unique, or, when the attribute has a `cardinality` c, a rank in 0 … c−1 drawn by the generator's
 * `distribution`, uniform by default):
 * - `id`: `<prefix>-<k+1 zero-padded to 6 digits>` (`userId` → `u-000001`); an N attribute gets k + 1;
 * - `uuid`: a version-4-shaped uuid hashed from (seed, k);
 * - `name` / `email`: first and last names hashed from (seed, k); emails add k + 1 before
 *   `@example.com`, so they are unique when k is;
 * - `date` / `timestamp`: a day `min` … `max` days before `today` (defaults 0 … 364), by the
 *   distribution over days (rank 0 = today; uniform by default, `today` = the newest day heaviest);
 *   a timestamp adds a uniform second of that day (with a cardinality: c instants evenly spaced
 *   over the window, rank 0 the newest). ISO text for S (`2026-03-14`, `2026-03-14T09:30:00Z`),
 *   epoch seconds for N;
 * - `number`: integers `min` … `max` (defaults 1 … 100), or cents when either bound has decimals,
 *   uniform or by the distribution over the values from `min` up;
 * - `enum`: `values` by `weights` (alias method), or by the distribution over the values in order;
 *   a cardinality keeps the first c values;
 * - `ref`: the id of an item of the `entity` it names, drawn by the distribution over that entity's
 *   items (rank r = the r-th generated item; for `today` the newest, i.e. the last generated), from
 *   the first c items with a cardinality. The value is the target's attribute of the same name, else
 *   its first `id`/`uuid` attribute, so references always resolve;
 * - `constant`: `value`; `text`: words, exactly `length` (else `averageSizeBytes`, else 24) characters.
 * Without a generator the attribute's name and type decide (`email`, `createdAt`, `status`, `price`…),
 * like `model/sample-values.ts`. Lists, maps, sets and NULL get a fixed placeholder value of their
 * `averageSizeBytes` (a map `{"note": "…"}` and so on), shown as JSON text.
 */
import { base64DecodedLength, attributeValueBytes, type AttributeValue } from '../capacity/item-size.ts';
import { DEFAULT_VALUE_BYTES } from '../capacity/estimate.ts';
import { utf8ByteLength } from '../model/key-template.ts';
import type { Attribute, AttributeType, Distribution, Entity, Generator } from '../model/schema.ts';
import { idDigits } from '../model/value-model.ts';
import { CATEGORIES, CITIES, COUNTRIES, CURRENCIES, FIRST_NAMES, idInitialsOf, kindFromName, LAST_NAMES, PRODUCTS, STATUSES, wordsOf, type NameKind } from '../model/value-heuristics.ts';
import { createAliasSampler, createRankSampler, deriveSeed, hash2, Random, type RankSampler } from './random.ts';
import { digitCount, numberBytes, scaledNumberBytes } from './sizes.ts';
import type { SampleValue } from './types.ts';

const DAY_SECONDS = 86_400;
const DAY_MS = DAY_SECONDS * 1000;

const WORDS = ['fast', 'delivery', 'great', 'quality', 'would', 'buy', 'again', 'fits', 'well', 'as', 'described', 'solid', 'light', 'sturdy', 'good', 'value', 'arrived', 'early', 'nice', 'colour'];
const ZEROS = '000000000000000000000000000000000000000';
const HEX = '0123456789abcdef';
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** What a column needs to know about the run. */
export interface ColumnContext {
  seed: number;
  /** Today as a day number (days since 1970-01-01, UTC). */
  today: number;
}

/** Bytes DynamoDB stores for a scalar value of an attribute of `type` (docs/dynamodb-rules.md §1.1). */
function scalarValueBytes(type: AttributeType, v: SampleValue): number {
  switch (type) {
    case 'N':
      return numberBytes(v as number);
    case 'B':
      return base64DecodedLength(String(v)) ?? 0;
    case 'BOOL':
      return 1;
    default:
      return utf8ByteLength(String(v));
  }
}

/** Turns a row of a column into its value, text and sizes. */
export abstract class Column {
  constructor(
    readonly name: string,
    readonly type: AttributeType,
  ) {}

  /** The value as shown and as conditions see it: string for S and B (base64), number for N, boolean for BOOL. */
  abstract value(row: number): SampleValue;

  /** For an optional attribute: 1 where the item carries it; null when every item does. */
  present: Uint8Array | null = null;

  /** Whether item `row` carries the attribute. */
  isPresent(row: number): boolean {
    return this.present === null || this.present[row] === 1;
  }

  /** The value's text in a key template (`String(value)`). */
  text(row: number): string {
    const v = this.value(row);
    return typeof v === 'string' ? v : String(v);
  }

  /** UTF-8 bytes of `text(row)`. */
  textBytes(row: number): number {
    return utf8ByteLength(this.text(row));
  }

  /** Bytes DynamoDB stores for the value (docs/dynamodb-rules.md §1.1), without the attribute name. */
  valueBytes(row: number): number {
    return scalarValueBytes(this.type, this.value(row));
  }

  /**
   * Value identities, to group keys without rendering them: `identity(row)` is an integer in
   * 0 … identityBound − 1, equal whenever the texts are equal; when `isInjective`, different
   * identities also mean different texts. An identityBound of 0: the column has none.
   */
  identityBound = 0;
  isInjective = false;
  identity(row: number): number {
    void row;
    return 0;
  }

  /**
   * When `identity(row)` is simply `codes[row]` (or `row` itself, for null), those codes, so that a
   * hot loop can read them without a call per item; undefined when the identity is computed otherwise.
   */
  identityCodes: Uint32Array | null | undefined = undefined;

  /**
   * When every value's text is `prefix` and a whole number zero-padded to `width` (ids, sequence
   * numbers, references to them): the two, so that a key can be hashed from its digits
   * (`digitNumber(row)`) without rendering the text. Undefined for other columns.
   */
  digitText: { prefix: string; width: number } | undefined = undefined;

  /** The whole number in `text(row)` when `digitText` is set. */
  digitNumber(row: number): number {
    void row;
    return 0;
  }

  /** The column whose values this one shows: a reference's target, followed to the end. */
  get source(): Column {
    return this;
  }

  /** `valueBytes` when it is the same for every row. */
  get fixedBytes(): number | undefined {
    return undefined;
  }

  /** `textBytes` when it is the same for every row. */
  get fixedTextBytes(): number | undefined {
    return undefined;
  }

  /**
   * Adds `valueBytes(row)` to `out[row]` for rows `from` … `to − 1`. Hot column kinds override it
   * with their own loop, so that each loop calls one kind of column (V8 inlines monomorphic calls).
   */
  addValueBytes(out: Uint32Array, from: number, to: number): void {
    for (let r = from; r < to; r += 1) out[r] = (out[r] as number) + this.valueBytes(r);
  }

  /** The value in DynamoDB JSON. */
  attributeValue(row: number): AttributeValue {
    const v = this.value(row);
    switch (this.type) {
      case 'N':
        return { N: String(v) };
      case 'B':
        return { B: String(v) };
      case 'BOOL':
        return { BOOL: v === true };
      default:
        return { S: String(v) };
    }
  }
}

/** Value indexes: the row itself (unique values), or drawn ranks when the attribute has a cardinality. */
type Codes = Uint32Array | null;

const at = (codes: Codes, row: number): number => (codes === null ? row : (codes[row] as number));

/**
 * Draws ranks 0 … n−1 as `createRankSampler(distribution, n)` does (the same draws from the same
 * stream), or as a given sampler does. Uniform ranks, the default, are drawn here by a method, so
 * that the loops below call no closure made per column: V8 inlines such a closure into the loop's
 * optimized code and throws that code away once the closure is collected, so every new sample
 * would run its loops unoptimized again.
 */
class Ranks {
  readonly #size: number;
  readonly #sample: RankSampler | undefined;
  constructor(distribution: Distribution | undefined, n: number, sample?: RankSampler) {
    this.#size = Math.max(1, Math.floor(n));
    const kind = distribution?.kind;
    this.#sample = sample ?? (kind === 'zipf' || kind === 'hotKey' || kind === 'today' ? createRankSampler(distribution, n) : undefined);
  }
  draw(random: Random): number {
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

/** Gives a column whose values are a function of k (`codes`, or the row) the identity k. */
function identifyByK<C extends Column & { readonly codes: Codes }>(column: C, bound: number, isInjective: boolean): C {
  column.identityBound = bound;
  column.isInjective = isInjective;
  column.identity = (row: number): number => at(column.codes, row);
  column.identityCodes = column.codes;
  return column;
}

const padNumber = (n: number, width: number): string => {
  const s = String(n);
  return s.length >= width ? s : ZEROS.slice(0, width - s.length) + s;
};

class IdColumn extends Column {
  readonly #prefixBytes: number;
  constructor(name: string, readonly prefix: string, readonly width: number, readonly codes: Codes) {
    super(name, 'S');
    this.#prefixBytes = utf8ByteLength(prefix);
    this.digitText = { prefix, width };
  }
  override digitNumber(row: number): number {
    return at(this.codes, row) + 1;
  }
  override value(row: number): string {
    return this.prefix + padNumber(at(this.codes, row) + 1, this.width);
  }
  override textBytes(row: number): number {
    return this.#prefixBytes + Math.max(this.width, digitCount(at(this.codes, row) + 1));
  }
  override valueBytes(row: number): number {
    return this.textBytes(row);
  }
  override get fixedBytes(): number | undefined {
    return this.identityBound > 0 && digitCount(this.identityBound) <= this.width ? this.#prefixBytes + this.width : undefined;
  }
  override get fixedTextBytes(): number | undefined {
    return this.fixedBytes;
  }
  override addValueBytes(out: Uint32Array, from: number, to: number): void {
    for (let r = from; r < to; r += 1) out[r] = (out[r] as number) + this.#prefixBytes + Math.max(this.width, digitCount(at(this.codes, r) + 1));
  }
}

class SequenceNumberColumn extends Column {
  constructor(name: string, readonly codes: Codes) {
    super(name, 'N');
    this.digitText = { prefix: '', width: 1 };
  }
  override digitNumber(row: number): number {
    return at(this.codes, row) + 1;
  }
  override value(row: number): number {
    return at(this.codes, row) + 1;
  }
  override textBytes(row: number): number {
    return digitCount(at(this.codes, row) + 1);
  }
  override valueBytes(row: number): number {
    return scaledNumberBytes(at(this.codes, row) + 1, 0);
  }
  override addValueBytes(out: Uint32Array, from: number, to: number): void {
    for (let r = from; r < to; r += 1) out[r] = (out[r] as number) + scaledNumberBytes(at(this.codes, r) + 1, 0);
  }
}

class UuidColumn extends Column {
  constructor(name: string, readonly hashSeed: number, readonly codes: Codes) {
    super(name, 'S');
  }
  override value(row: number): string {
    const k = at(this.codes, row);
    let hex = '';
    for (let j = 0; j < 4; j += 1) {
      const w = hash2(this.hashSeed, k * 4 + j);
      for (let s = 28; s >= 0; s -= 4) hex += HEX[(w >>> s) & 15];
    }
    const variant = HEX[8 + (parseInt(hex[16] as string, 16) & 3)];
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  }
  override textBytes(): number {
    return 36;
  }
  override valueBytes(): number {
    return 36;
  }
  override get fixedBytes(): number {
    return 36;
  }
  override get fixedTextBytes(): number {
    return 36;
  }
}

/** Full names, or emails built from them: `Ana Silva`, `ana.silva42@example.com`. */
class PersonColumn extends Column {
  static readonly #firstLower = FIRST_NAMES.map((n) => n.toLowerCase());
  static readonly #lastLower = LAST_NAMES.map((n) => n.toLowerCase());
  constructor(name: string, readonly isEmail: boolean, readonly hashSeed: number, readonly codes: Codes) {
    super(name, 'S');
    if (!isEmail) {
      // A full name is its (first, last) pair.
      this.identityBound = FIRST_NAMES.length * LAST_NAMES.length;
      this.isInjective = true;
    }
  }
  override identity(row: number): number {
    const [f, l] = this.#parts(at(this.codes, row));
    return f * LAST_NAMES.length + l;
  }
  #parts(k: number): [number, number] {
    const h = hash2(this.hashSeed, k);
    return [h % FIRST_NAMES.length, (h >>> 16) % LAST_NAMES.length];
  }
  override value(row: number): string {
    const k = at(this.codes, row);
    const [f, l] = this.#parts(k);
    if (!this.isEmail) return `${FIRST_NAMES[f]} ${LAST_NAMES[l]}`;
    return `${PersonColumn.#firstLower[f]}.${PersonColumn.#lastLower[l]}${k + 1}@example.com`;
  }
  override textBytes(row: number): number {
    const k = at(this.codes, row);
    const [f, l] = this.#parts(k);
    const names = (FIRST_NAMES[f] as string).length + 1 + (LAST_NAMES[l] as string).length;
    return this.isEmail ? names + digitCount(k + 1) + 12 : names;
  }
  override valueBytes(row: number): number {
    return this.textBytes(row);
  }
  override addValueBytes(out: Uint32Array, from: number, to: number): void {
    for (let r = from; r < to; r += 1) out[r] = (out[r] as number) + this.textBytes(r);
  }
}

/** Values from a small list, by code (enums, constants, booleans, name-suggested lists). */
class PoolColumn extends Column {
  readonly #texts: string[];
  readonly #textBytes: number[];
  readonly #valueBytes: number[];
  readonly #identities: number[];
  constructor(name: string, type: AttributeType, readonly values: readonly SampleValue[], readonly codes: Uint8Array | Uint16Array | Uint32Array | null) {
    super(name, type);
    this.#texts = values.map((v) => String(v));
    this.#textBytes = this.#texts.map((t) => utf8ByteLength(t));
    this.#valueBytes = values.map((v) => scalarValueBytes(type, v));
    const first = new Map<string, number>();
    this.#identities = this.#texts.map((t, i) => {
      const seen = first.get(t);
      if (seen !== undefined) return seen;
      first.set(t, i);
      return i;
    });
    this.identityBound = values.length;
    this.isInjective = true;
  }
  override identity(row: number): number {
    return this.#identities[this.#code(row)] as number;
  }
  #code(row: number): number {
    return this.codes === null ? 0 : (this.codes[row] as number);
  }
  override value(row: number): SampleValue {
    return this.values[this.#code(row)] as SampleValue;
  }
  override text(row: number): string {
    return this.#texts[this.#code(row)] as string;
  }
  override textBytes(row: number): number {
    return this.#textBytes[this.#code(row)] as number;
  }
  override valueBytes(row: number): number {
    return this.#valueBytes[this.#code(row)] as number;
  }
  override get fixedBytes(): number | undefined {
    const first = this.#valueBytes[0] as number;
    return this.#valueBytes.every((b) => b === first) ? first : undefined;
  }
  override get fixedTextBytes(): number | undefined {
    const first = this.#textBytes[0] as number;
    return this.#textBytes.every((b) => b === first) ? first : undefined;
  }
  override addValueBytes(out: Uint32Array, from: number, to: number): void {
    const codes = this.codes;
    const bytes = this.#valueBytes;
    if (codes === null) for (let r = from; r < to; r += 1) out[r] = (out[r] as number) + (bytes[0] as number);
    else for (let r = from; r < to; r += 1) out[r] = (out[r] as number) + (bytes[codes[r] as number] as number);
  }
}

/** Numbers stored as integer units of 10^−decimals (decimals 0 or 2). */
class NumberColumn extends Column {
  readonly #scale: number;
  constructor(name: string, type: 'N' | 'S', readonly units: Float64Array, readonly decimals: number, readonly low: number, span: number) {
    super(name, type);
    this.#scale = 10 ** decimals;
    this.identityBound = span;
    this.isInjective = true;
  }
  override identity(row: number): number {
    return (this.units[row] as number) - this.low;
  }
  override value(row: number): SampleValue {
    const n = (this.units[row] as number) / this.#scale;
    return this.type === 'N' ? n : String(n);
  }
  override textBytes(row: number): number {
    const u = this.units[row] as number;
    if (this.decimals === 0) return digitCount(Math.abs(u)) + (u < 0 ? 1 : 0);
    return String(u / this.#scale).length;
  }
  override valueBytes(row: number): number {
    return this.type === 'N' ? scaledNumberBytes(this.units[row] as number, this.decimals) : this.textBytes(row);
  }
  override addValueBytes(out: Uint32Array, from: number, to: number): void {
    if (this.type !== 'N') return super.addValueBytes(out, from, to);
    const units = this.units;
    const decimals = this.decimals;
    for (let r = from; r < to; r += 1) out[r] = (out[r] as number) + scaledNumberBytes(units[r] as number, decimals);
  }
}

const isoDay = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** Dates (day numbers) or timestamps (epoch seconds): ISO text for S, epoch seconds for N. */
class TimeColumn extends Column {
  readonly #days = new Map<number, string>();
  constructor(name: string, type: 'S' | 'N', readonly isTimestamp: boolean, readonly times: Int32Array | Float64Array, readonly earliest: number, span: number) {
    super(name, type);
    this.identityBound = span;
    this.isInjective = true;
  }
  override identity(row: number): number {
    return (this.times[row] as number) - this.earliest;
  }
  #day(day: number): string {
    let s = this.#days.get(day);
    if (s === undefined) {
      s = isoDay(day);
      this.#days.set(day, s);
    }
    return s;
  }
  override value(row: number): SampleValue {
    const t = this.times[row] as number;
    if (this.type === 'N') return this.isTimestamp ? t : t * DAY_SECONDS;
    if (!this.isTimestamp) return this.#day(t);
    const day = Math.floor(t / DAY_SECONDS);
    let s = t - day * DAY_SECONDS;
    const h = Math.floor(s / 3600);
    s -= h * 3600;
    const m = Math.floor(s / 60);
    s -= m * 60;
    return `${this.#day(day)}T${h < 10 ? '0' : ''}${h}:${m < 10 ? '0' : ''}${m}:${s < 10 ? '0' : ''}${s}Z`;
  }
  override textBytes(row: number): number {
    if (this.type === 'S') return this.isTimestamp ? 20 : 10;
    return super.textBytes(row);
  }
  override valueBytes(row: number): number {
    if (this.type === 'S') return this.isTimestamp ? 20 : 10;
    const t = this.times[row] as number;
    return numberBytes(this.isTimestamp ? t : t * DAY_SECONDS);
  }
  override get fixedBytes(): number | undefined {
    return this.type === 'S' ? (this.isTimestamp ? 20 : 10) : undefined;
  }
  override get fixedTextBytes(): number | undefined {
    return this.fixedBytes;
  }
}

/** Text of an exact length, cut from a seeded run of words. */
class TextColumn extends Column {
  constructor(name: string, readonly pool: string, readonly starts: Uint32Array, readonly length: number) {
    super(name, 'S');
    this.identityBound = 2048;
  }
  override identity(row: number): number {
    return this.starts[row] as number;
  }
  override value(row: number): string {
    const start = this.starts[row] as number;
    return this.pool.slice(start, start + this.length);
  }
  override textBytes(): number {
    return this.length;
  }
  override valueBytes(): number {
    return this.length;
  }
  override get fixedBytes(): number {
    return this.length;
  }
  override get fixedTextBytes(): number {
    return this.length;
  }
}

/** Binary values of a fixed length, hashed from (seed, k); base64 text as in DynamoDB JSON. */
class BinaryColumn extends Column {
  constructor(name: string, readonly hashSeed: number, readonly length: number, readonly codes: Codes) {
    super(name, 'B');
  }
  override value(row: number): string {
    const k = at(this.codes, row);
    const bytes: number[] = [];
    for (let j = 0; bytes.length < this.length; j += 1) {
      const w = hash2(this.hashSeed, k * 131 + j);
      bytes.push(w & 255, (w >>> 8) & 255, (w >>> 16) & 255, w >>> 24);
    }
    return toBase64(bytes.slice(0, this.length));
  }
  override textBytes(): number {
    return 4 * Math.ceil(this.length / 3);
  }
  override valueBytes(): number {
    return this.length;
  }
  override get fixedBytes(): number {
    return this.length;
  }
  override get fixedTextBytes(): number {
    return 4 * Math.ceil(this.length / 3);
  }
}

/** Any string from k (sku, url, phone, user name, plain `<name>-<k+1>`); sizes measured from the text. */
class FormatColumn extends Column {
  constructor(name: string, readonly format: (k: number) => string, readonly codes: Codes) {
    super(name, 'S');
  }
  override value(row: number): string {
    return this.format(at(this.codes, row));
  }
}

/** A reference: the target column's value at a drawn row of the target entity. */
class RefColumn extends Column {
  readonly #same: boolean;
  constructor(name: string, type: AttributeType, readonly target: Column, readonly rows: Uint32Array) {
    super(name, type);
    this.#same = target.type === type;
    if (this.#same) {
      this.identityBound = target.identityBound;
      this.isInjective = target.isInjective;
      // The target's identity is its row (an id without a cardinality): this one's are the drawn rows.
      if (target.identityCodes === null) this.identityCodes = rows;
      this.digitText = target.digitText;
    }
  }
  override identity(row: number): number {
    return this.target.identity(this.rows[row] as number);
  }
  override get source(): Column {
    return this.#same ? this.target.source : this;
  }
  override digitNumber(row: number): number {
    return this.target.digitNumber(this.rows[row] as number);
  }
  override value(row: number): SampleValue {
    const v = this.target.value(this.rows[row] as number);
    if (this.#same) return v;
    return coerceValue(v, this.type, (this.rows[row] as number) + 1);
  }
  override text(row: number): string {
    return this.#same ? this.target.text(this.rows[row] as number) : super.text(row);
  }
  override textBytes(row: number): number {
    return this.#same ? this.target.textBytes(this.rows[row] as number) : super.textBytes(row);
  }
  override valueBytes(row: number): number {
    return this.#same ? this.target.valueBytes(this.rows[row] as number) : super.valueBytes(row);
  }
  override get fixedBytes(): number | undefined {
    return this.#same ? this.target.fixedBytes : undefined;
  }
  override get fixedTextBytes(): number | undefined {
    return this.#same ? this.target.fixedTextBytes : undefined;
  }
  override addValueBytes(out: Uint32Array, from: number, to: number): void {
    if (!this.#same) return super.addValueBytes(out, from, to);
    const target = this.target;
    const rows = this.rows;
    for (let r = from; r < to; r += 1) out[r] = (out[r] as number) + target.valueBytes(rows[r] as number);
  }
}

/** A list, map, set or NULL: the same placeholder of the attribute's average size on every item. */
class DocumentColumn extends Column {
  readonly #bytes: number;
  readonly #display: string;
  constructor(name: string, type: AttributeType, readonly document: AttributeValue) {
    super(name, type);
    this.#bytes = attributeValueBytes(document);
    this.#display = displayDocument(document);
  }
  override value(): string {
    return this.#display;
  }
  override valueBytes(): number {
    return this.#bytes;
  }
  override get fixedBytes(): number {
    return this.#bytes;
  }
  override attributeValue(): AttributeValue {
    return this.document;
  }
}

function toBase64(bytes: readonly number[]): string {
  let out = '';
  for (let k = 0; k < bytes.length; k += 3) {
    const a = bytes[k] ?? 0;
    const b = bytes[k + 1] ?? 0;
    const c = bytes[k + 2] ?? 0;
    const n = (a << 16) | (b << 8) | c;
    out += BASE64[(n >> 18) & 63];
    out += BASE64[(n >> 12) & 63];
    out += k + 1 < bytes.length ? BASE64[(n >> 6) & 63] : '=';
    out += k + 2 < bytes.length ? BASE64[n & 63] : '=';
  }
  return out;
}

function coerceValue(v: SampleValue, type: AttributeType, fallback: number): SampleValue {
  switch (type) {
    case 'N':
      return typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : fallback;
    case 'BOOL':
      return typeof v === 'boolean' ? v : fallback % 2 === 0;
    default:
      return String(v);
  }
}

function displayDocument(v: AttributeValue): string {
  const plain = (x: AttributeValue): unknown => {
    if ('S' in x) return x.S;
    if ('N' in x) return Number(x.N);
    if ('B' in x) return x.B;
    if ('BOOL' in x) return x.BOOL;
    if ('NULL' in x) return null;
    if ('SS' in x) return x.SS;
    if ('NS' in x) return x.NS.map(Number);
    if ('BS' in x) return x.BS;
    if ('L' in x) return x.L.map(plain);
    return Object.fromEntries(Object.entries(x.M).map(([k, e]) => [k, plain(e)]));
  };
  const text = JSON.stringify(plain(v));
  return text.length > 64 ? `${text.slice(0, 63)}…` : text;
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

// Unlike the key previews (model/sample-values.ts), which call every BOOL attribute `boolean`, the
// name alone decides here: a BOOL column uses only its generator's kind (constant, enum), never the name's.
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

/**
 * Generates one column: every value of `attribute` for `rows` items of `entity`. Deterministic for
 * (ctx.seed, entity id, attribute name): a column does not change when another attribute does.
 */
export function createColumn(entity: Entity, attribute: Attribute, rows: number, ctx: ColumnContext, resolveRef: RefResolver): Column {
  const column = createValueColumn(entity, attribute, rows, ctx, resolveRef);
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

function createValueColumn(entity: Entity, attribute: Attribute, rows: number, ctx: ColumnContext, resolveRef: RefResolver): Column {
  const { name, type } = attribute;
  const streamSeed = deriveSeed(ctx.seed, `${entity.id}\u0000${name}`);
  const random = new Random(streamSeed);
  const hashSeed = deriveSeed(streamSeed, 'hash');
  const personSeed = deriveSeed(ctx.seed, `${entity.id}\u0000person`);
  const g = attribute.generator;
  const cardinality = attribute.cardinality !== undefined && attribute.cardinality >= 1 ? Math.floor(attribute.cardinality) : undefined;
  const distribution: Distribution | undefined = g?.distribution;
  const codes = (): Codes => (cardinality === undefined ? null : drawCodes(rows, new Ranks(distribution, cardinality), random));
  const byK = <C extends Column & { readonly codes: Codes }>(column: C, isInjective = true): C => identifyByK(column, cardinality ?? rows, isInjective);

  if (type !== 'S' && type !== 'N' && type !== 'B' && type !== 'BOOL') {
    return new DocumentColumn(name, type, documentFor(type, Math.round(finite(attribute.averageSizeBytes, DEFAULT_VALUE_BYTES[type])), random));
  }

  let kind: Kind = g?.kind ?? kindFromName(name);
  if (kind === 'ref') {
    const target = g?.entity !== undefined ? resolveRef(g.entity, name) : undefined;
    if (target && target.rows > 0) {
      const span = Math.min(cardinality ?? target.rows, target.rows);
      const isNewest = distribution?.kind === 'today';
      const targetRows = drawCodes(rows, new Ranks(distribution, span), random, isNewest ? target.rows - 1 : undefined);
      return new RefColumn(name, type, target.column, targetRows);
    }
    kind = g?.kind === 'ref' ? kindFromName(name) : kind;
    if (kind === 'ref') kind = 'plain';
  }

  const pool = (values: readonly SampleValue[], weights?: readonly number[]): Column => {
    const kept = cardinality !== undefined ? values.slice(0, Math.max(1, cardinality)) : values;
    if (kept.length <= 1) return new PoolColumn(name, type, kept.length === 0 ? [''] : kept, null);
    const ranks = distribution
      ? new Ranks(distribution, kept.length)
      : weights && weights.length === values.length
        ? new Ranks(undefined, kept.length, createAliasSampler(weights.slice(0, kept.length)))
        : new Ranks(undefined, kept.length);
    const store = kept.length <= 256 ? new Uint8Array(rows) : kept.length <= 65_536 ? new Uint16Array(rows) : new Uint32Array(rows);
    fillRanks(store, ranks, random);
    return new PoolColumn(name, type, kept, store);
  };

  if (type === 'BOOL') {
    if (kind === 'constant') return pool([g?.value === 'true']);
    if (kind === 'enum' && g?.values && g.values.length > 0) return pool(g.values.map((v) => v === 'true'), g.weights);
    return pool([true, false]);
  }
  if (type === 'B') {
    if (kind === 'constant' && g?.value !== undefined && base64DecodedLength(g.value) !== undefined) return pool([g.value]);
    if (kind === 'enum' && g?.values && g.values.length > 0 && g.values.every((v) => base64DecodedLength(v) !== undefined)) return pool(g.values, g.weights);
    const length = Math.max(1, Math.round(finite(g?.length ?? attribute.averageSizeBytes, 16)));
    return byK(new BinaryColumn(name, hashSeed, length, codes()));
  }

  const isNumber = type === 'N';
  const time = (isTimestamp: boolean): Column => {
    const low = Math.max(0, Math.floor(finite(g?.min, 0)));
    const high = Math.max(low, Math.floor(finite(g?.max, 364)));
    const days = high - low + 1;
    const newest = ctx.today - low;
    const oldestSecond = (newest - days + 1) * DAY_SECONDS;
    const end = (newest + 1) * DAY_SECONDS - 1;
    // Epoch seconds of the window in 32 bits while they fit (until 2038), half the memory of doubles.
    const secondsArray = (): Int32Array | Float64Array => (oldestSecond - DAY_SECONDS >= -(2 ** 31) && end < 2 ** 31 ? new Int32Array(rows) : new Float64Array(rows));
    if (isTimestamp && cardinality !== undefined) {
      const times = secondsArray();
      fillInstants(times, end, (days * DAY_SECONDS) / cardinality, new Ranks(distribution, cardinality), random);
      return new TimeColumn(name, isNumber ? 'N' : 'S', true, times, oldestSecond, days * DAY_SECONDS);
    }
    const ranks = new Ranks(distribution, Math.min(days, cardinality ?? days));
    if (!isTimestamp) {
      const dayNumbers = new Int32Array(rows);
      fillDays(dayNumbers, newest, ranks, random);
      return new TimeColumn(name, isNumber ? 'N' : 'S', false, dayNumbers, newest - days + 1, days);
    }
    const times = secondsArray();
    fillSeconds(times, newest, ranks, random);
    return new TimeColumn(name, isNumber ? 'N' : 'S', true, times, oldestSecond, days * DAY_SECONDS);
  };
  const numbers = (min: number, max: number, hasDecimals: boolean): Column => {
    const decimals = hasDecimals || !Number.isInteger(min) || !Number.isInteger(max) ? 2 : 0;
    const scale = 10 ** decimals;
    const low = Math.ceil(min * scale);
    const high = Math.max(low, Math.floor(max * scale));
    const span = high - low + 1;
    const count = Math.min(span, cardinality ?? span);
    const units = new Float64Array(rows);
    fillUnits(units, low, span, count, new Ranks(distribution, count), random);
    return new NumberColumn(name, isNumber ? 'N' : 'S', units, decimals, low, span);
  };

  switch (kind) {
    case 'id': {
      if (isNumber) return byK(new SequenceNumberColumn(name, codes()));
      // The width the previews and the simulator's keys use: for the design's count, not the sample's.
      const width = Math.max(idDigits(attribute, entity.itemCount), digitCount(cardinality ?? rows));
      return byK(new IdColumn(name, g?.prefix ?? idPrefix(name, entity.name), width, codes()));
    }
    case 'uuid':
      return isNumber ? byK(new SequenceNumberColumn(name, codes())) : byK(new UuidColumn(name, hashSeed, codes()));
    case 'name':
    case 'email':
      if (isNumber) return byK(new SequenceNumberColumn(name, codes()));
      // One person per k across the entity's name and email attributes: row 5's email is row 5's name.
      return kind === 'email' ? byK(new PersonColumn(name, true, personSeed, codes())) : new PersonColumn(name, false, personSeed, codes());
    case 'date':
      return time(false);
    case 'timestamp':
      return time(true);
    case 'number':
      return numbers(finite(g?.min, 1), finite(g?.max, 100), false);
    case 'money':
      return numbers(1, 500, true);
    case 'quantity':
      return numbers(1, 5, false);
    case 'rating':
      return numbers(1, 5, false);
    case 'enum': {
      const values = g?.values && g.values.length > 0 ? g.values : STATUSES;
      const typed = isNumber ? values.map((v, i) => (Number.isFinite(Number(v)) && v.trim() !== '' ? Number(v) : i + 1)) : values;
      return pool(typed, g?.values && g.values.length > 0 ? g.weights : undefined);
    }
    case 'constant': {
      const v = g?.value ?? '';
      return pool([isNumber ? (Number.isFinite(Number(v)) && v.trim() !== '' ? Number(v) : 0) : v]);
    }
    case 'text': {
      if (isNumber) return byK(new SequenceNumberColumn(name, codes()));
      const length = Math.max(0, Math.round(finite(g?.length ?? attribute.averageSizeBytes, 24)));
      const { pool: words, starts } = wordPool(random, length);
      const chosen = new Uint32Array(rows);
      for (let i = 0; i < rows; i += 1) chosen[i] = starts[random.int(starts.length)] as number;
      return new TextColumn(name, words, chosen, length);
    }
    case 'userName':
      if (isNumber) return byK(new SequenceNumberColumn(name, codes()));
      return byK(new FormatColumn(name, (k) => `${(FIRST_NAMES[hash2(hashSeed, k) % FIRST_NAMES.length] as string).toLowerCase()}${k + 1}`, codes()), false);
    case 'phone':
      if (isNumber) return byK(new SequenceNumberColumn(name, codes()));
      return byK(new FormatColumn(name, (k) => `+1-555-${padNumber(hash2(hashSeed, k) % 10_000, 4)}`, codes()), false);
    case 'sku':
      if (isNumber) return byK(new SequenceNumberColumn(name, codes()));
      return byK(new IdColumn(name, 'SKU-', 5, codes()));
    case 'url':
      if (isNumber) return byK(new SequenceNumberColumn(name, codes()));
      return byK(new IdColumn(name, `https://example.com/${wordsOf(name)[0] ?? 'item'}/`, 1, codes()));
    case 'plain':
      if (isNumber) return byK(new SequenceNumberColumn(name, codes()));
      return byK(new IdColumn(name, `${name}-`, 1, codes()));
    default: {
      const list = POOLS[kind];
      if (isNumber || !list) return byK(new SequenceNumberColumn(name, codes()));
      return pool(list);
    }
  }
}
