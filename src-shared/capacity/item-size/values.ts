import { trimEnd } from '../../text/index.ts';
/**
 * DynamoDB JSON, the shared vocabulary of sizing and parsing: attribute value types, and the text
 * encodings of numbers (decimal strings) and binaries (base64) split into what both depend on.
 */

/**
 * One attribute value in DynamoDB JSON (the wire format of the API and of `aws dynamodb` CLI
 * output). Numbers are decimal strings; binaries are base64 strings.
 */
export type AttributeValue =
  | { S: string }
  | { N: string }
  | { B: string }
  | { BOOL: boolean }
  | { NULL: true }
  | { SS: string[] }
  | { NS: string[] }
  | { BS: string[] }
  | { L: AttributeValue[] }
  | { M: Record<string, AttributeValue> };

/** The type descriptors of DynamoDB JSON. */
export type AttributeValueType = 'S' | 'N' | 'B' | 'BOOL' | 'NULL' | 'SS' | 'NS' | 'BS' | 'L' | 'M';

/** An item: attribute name → value. */
export type Item = Record<string, AttributeValue>;

/** Every type descriptor, in the order `attributeValueType` tries them. */
export const TYPES: readonly AttributeValueType[] = ['S', 'N', 'B', 'BOOL', 'NULL', 'SS', 'NS', 'BS', 'L', 'M'];

/** The type descriptor of a value (`S`, `N`, `L`, …). */
export function attributeValueType(v: AttributeValue): AttributeValueType {
  for (const t of TYPES) if (Object.hasOwn(v, t)) return t;
  throw new Error('attributeValueType: not an attribute value.');
}

// ---------------------------------------------------------------------------------------------
// Numbers

/** A decimal number split into what its stored size depends on. */
export interface DecimalParts {
  isNegative: boolean;
  /** Significant digits, leading and trailing zeros removed; `''` for zero. */
  digits: string;
  /** Power of ten of the first significant digit (`12.3` → 1, `0.05` → -2); 0 for zero. */
  exponent: number;
}

const DECIMAL = /^([+-]?)(?:(\d+)(?:\.(\d*))?|\.(\d+))(?:[eE]([+-]?\d+))?$/;

/**
 * Splits a decimal string (`-12.30`, `1e3`, `.5`) into sign, significant digits and exponent, or
 * returns undefined when it is not a decimal number. Accepts what DynamoDB's number parser accepts,
 * as far as dynalite's (big.js) does, plus a leading `+`.
 */
export function parseDecimal(n: string): DecimalParts | undefined {
  const m = DECIMAL.exec(n);
  if (!m) return undefined;
  const whole = m[2] ?? '';
  const fraction = m[3] ?? m[4] ?? '';
  const all = whole + fraction;
  const first = all.search(/[1-9]/);
  if (first < 0) return { isNegative: false, digits: '', exponent: 0 };
  const power = m[5] === undefined ? 0 : Number(m[5]);
  return {
    isNegative: m[1] === '-',
    digits: trimEnd(all.slice(first), '0'),
    exponent: whole.length - 1 - first + power,
  };
}

/** The canonical text of a number (for spotting duplicates in a number set: `1.0` and `1` are one). */
export function canonicalNumber(p: DecimalParts): string {
  return p.digits === '' ? '0' : `${p.isNegative ? '-' : ''}${p.digits}e${p.exponent}`;
}

// ---------------------------------------------------------------------------------------------
// Base64

const BASE64_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/**
 * The number of bytes a base64 string decodes to, or undefined when it is not canonical padded
 * base64 (length a multiple of 4, only `A–Z a–z 0–9 + /`, at most two `=` at the end, unused bits
 * zero). DynamoDB stores and counts the decoded bytes.
 */
export function base64DecodedLength(s: string): number | undefined {
  if (s.length % 4 !== 0) return undefined;
  const padding = s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0;
  const body = s.length - padding;
  for (let i = 0; i < body; i += 1) {
    if (BASE64_DIGITS.indexOf(s.charAt(i)) < 0) return undefined;
  }
  if (padding > 0) {
    // The last digit before the padding carries 4 (==) or 2 (=) bits that decode to nothing; a
    // canonical encoder writes them as zeros.
    const last = BASE64_DIGITS.indexOf(s.charAt(body - 1));
    if ((last & (padding === 2 ? 0b1111 : 0b11)) !== 0) return undefined;
  }
  return (s.length / 4) * 3 - padding;
}
