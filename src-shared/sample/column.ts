/**
 * A column of generated values: the base every column kind extends (`column-kinds.ts`), holding one
 * attribute's values for all the items of an entity in compact form and turning a row into its
 * value, its text in a key template and its size in bytes, without building DynamoDB JSON. Which
 * kind an attribute gets, and how its values are drawn, is `columns.ts`.
 */
import { base64DecodedLength, type AttributeValue } from '../capacity/index.ts';
import { utf8ByteLength } from '../model/index.ts';
import type { AttributeType } from '../model/index.ts';
import { normalizeSeed } from './random.ts';
import { numberBytes } from './sizes.ts';
import type { SampleValue } from './types.ts';

export const DAY_SECONDS = 86_400;
export const DAY_MS = DAY_SECONDS * 1000;

const ZEROS = '000000000000000000000000000000000000000';
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** What a column needs to know about the run. */
export interface ColumnContext {
  seed: number;
  /** Today as a day number (days since 1970-01-01, UTC). */
  today: number;
}

/** The day sample dates end on unless `today` is given: fixed, so that a seed gives the same items on any day. */
export const DEFAULT_SAMPLE_TODAY = '2026-03-14';

/** The column context a sample uses for a seed and a "today" (`yyyy-mm-dd`; `DEFAULT_SAMPLE_TODAY` when it does not parse). */
export function sampleContext(seed: number, today = DEFAULT_SAMPLE_TODAY): ColumnContext {
  const todayMs = Date.parse(`${today}T00:00:00Z`);
  return { seed: normalizeSeed(seed), today: Math.floor((Number.isFinite(todayMs) ? todayMs : Date.parse(`${DEFAULT_SAMPLE_TODAY}T00:00:00Z`)) / DAY_MS) };
}

/** Bytes DynamoDB stores for a scalar value of an attribute of `type` (docs/dynamodb-rules.md §1.1). */
export function scalarValueBytes(type: AttributeType, v: SampleValue): number {
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
export type Codes = Uint32Array | null;

/** Value index of `row`: its code, or the row itself when there are no codes. */
export const at = (codes: Codes, row: number): number => (codes === null ? row : (codes[row] as number));

/** Gives a column whose values are a function of k (`codes`, or the row) the identity k. */
export function identifyByK<C extends Column & { readonly codes: Codes }>(column: C, bound: number, isInjective: boolean): C {
  column.identityBound = bound;
  column.isInjective = isInjective;
  column.identity = (row: number): number => at(column.codes, row);
  column.identityCodes = column.codes;
  return column;
}

/** `n` zero-padded to `width` digits. */
export const padNumber = (n: number, width: number): string => {
  const s = String(n);
  return s.length >= width ? s : ZEROS.slice(0, width - s.length) + s;
};

/** Bytes as base64 text, as DynamoDB JSON writes B values. */
export function toBase64(bytes: readonly number[]): string {
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
