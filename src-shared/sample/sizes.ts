/**
 * Fast sizes of generated values, equal to what `capacity/item-size.ts` computes from DynamoDB JSON
 * (tested against it) but without building the JSON or parsing decimal strings per value.
 */
import { numberValueBytes } from '../capacity/index.ts';

/** 10^1 … 10^15, for counting digits by comparison. */
const POWERS_OF_TEN = Array.from({ length: 15 }, (_, i) => 10 ** (i + 1));

/** Decimal digits of a non-negative safe integer (1 for 0). */
export function digitCount(n: number): number {
  // By comparison with powers of ten (no division), up to 15 digits; larger numbers by division.
  let d = 1;
  while (d <= 15 && n >= POWERS_OF_TEN[d - 1]!) d += 1;
  if (d <= 15) return d;
  n = Math.floor(n / 1e15);
  d = 16;
  while (n >= 10) {
    n = Math.floor(n / 10);
    d += 1;
  }
  return d;
}

/**
 * Bytes DynamoDB stores for the number `units / 10^decimals` (docs/dynamodb-rules.md §1.2, as `numberValueBytes`): 1 for
 * zero, else 1 + ceil(significant digits / 2), + 1 when the digit count and the exponent are both
 * even, + 1 when negative. `units` must be a safe integer.
 */
export function scaledNumberBytes(units: number, decimals: number): number {
  if (units === 0) return 1;
  const isNegative = units < 0;
  let a = Math.abs(units);
  const length = digitCount(a);
  let trailing = 0;
  while (a % 10 === 0) {
    a /= 10;
    trailing += 1;
  }
  const digits = length - trailing;
  const exponent = length - 1 - decimals;
  const misaligned = digits % 2 === 0 && exponent % 2 === 0 ? 1 : 0;
  return 1 + Math.ceil(digits / 2) + misaligned + (isNegative ? 1 : 0);
}

/** Bytes DynamoDB stores for a JS number written as `String(x)`. */
export function numberBytes(x: number): number {
  if (Number.isSafeInteger(x)) return scaledNumberBytes(x, 0);
  return numberValueBytes(String(x));
}
