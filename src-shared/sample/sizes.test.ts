import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { numberValueBytes } from '../capacity/index.ts';
import { digitCount, numberBytes, scaledNumberBytes } from './sizes.ts';

describe('number sizes without parsing', () => {
  it.each([0, 1, 9, 10, 99, 100, 123, 1000, 1200, -1, -10, -123456, 12345678, 2 ** 53 - 1])('%d takes as many bytes as numberValueBytes says', (n) => {
    expect(scaledNumberBytes(n, 0)).toBe(numberValueBytes(String(n)));
    expect(numberBytes(n)).toBe(numberValueBytes(String(n)));
  });

  it.each([
    [1050, 2, '10.5'],
    [1, 2, '0.01'],
    [100, 2, '1'],
    [-1999, 2, '-19.99'],
    [12345, 2, '123.45'],
  ])('%d cents (%d decimals) are as large as %s', (units, decimals, text) => {
    expect(scaledNumberBytes(units, decimals)).toBe(numberValueBytes(text));
  });

  it('agrees with numberValueBytes for any safe integer and any cent amount', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (n) => scaledNumberBytes(n, 0) === numberValueBytes(String(n))),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), (units) => scaledNumberBytes(units, 2) === numberValueBytes(String(units / 100))),
      { numRuns: 2000 },
    );
  });

  it('counts decimal digits', () => {
    expect([0, 9, 10, 999_999, 1_000_000].map(digitCount)).toEqual([1, 1, 2, 6, 7]);
  });
});
