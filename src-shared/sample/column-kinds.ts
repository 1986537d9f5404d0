/**
 * The column kinds (`columns.ts` picks one per attribute and draws its codes or values): ids and
 * sequence numbers, uuids, people's names and emails, values from a small list, numbers, dates and
 * timestamps, text, binary values, any text made from k, references into another entity's column,
 * and the placeholder of a list, map, set or NULL. Each keeps its rows compact and computes sizes
 * without rendering where it can; the hot ones add their bytes in a loop of their own.
 */
import { attributeValueBytes, type AttributeValue } from '../capacity/index.ts';
import { utf8ByteLength, FIRST_NAMES, LAST_NAMES } from '../model/index.ts';
import type { AttributeType } from '../model/index.ts';
import { at, Column, DAY_MS, DAY_SECONDS, padNumber, scalarValueBytes, toBase64, type Codes } from './column.ts';
import { hash2 } from './random.ts';
import { digitCount, numberBytes, scaledNumberBytes } from './sizes.ts';
import type { SampleValue } from './types.ts';

const HEX = '0123456789abcdef';

/** Ids: `prefix` and k + 1 zero-padded to `width` digits (`u-000001`). */
export class IdColumn extends Column {
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

/** Numbers k + 1: ids, and the other kinds of an N attribute whose values are unique per k. */
export class SequenceNumberColumn extends Column {
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

/** Version-4-shaped uuids hashed from (seed, k). */
export class UuidColumn extends Column {
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
export class PersonColumn extends Column {
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
export class PoolColumn extends Column {
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
export class NumberColumn extends Column {
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
export class TimeColumn extends Column {
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
export class TextColumn extends Column {
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
export class BinaryColumn extends Column {
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
export class FormatColumn extends Column {
  constructor(name: string, readonly format: (k: number) => string, readonly codes: Codes) {
    super(name, 'S');
  }
  override value(row: number): string {
    return this.format(at(this.codes, row));
  }
}

/** A reference: the target column's value at a drawn row of the target entity. */
export class RefColumn extends Column {
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
export class DocumentColumn extends Column {
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
