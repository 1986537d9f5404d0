import { describe, expect, it } from 'vitest';
import { hashFraction } from '../hash/index.ts';
import { DigitKeyHasher, utf8Bytes } from './key-hash.ts';

/** The key's text as the store renders it: head, the number zero-padded, tail, ".shard". */
const render = (head: string, width: number, n: number, tail: string, shard: number): string =>
  `${head}${String(n).padStart(width, '0')}${tail}${shard === 0 ? '' : `.${shard}`}`;

describe('hashing a key from its literal prefix and its digits', () => {
  const heads = ['', 'USER#', 'USER#u-', 'ÜSER#ü-', 'Ω#', '€#', '😀#', 'lone\ud800#', 'x'.repeat(300)];
  const numbers = [0, 1, 9, 10, 42, 99, 100, 123_456, 999_999, 1_000_000, 4_294_967_296, 2 ** 53 - 1];
  const widths = [1, 2, 6, 7, 12, 18];
  const tails = ['', '#', '#PROFILE', 'é'];
  const shards = [0, 1, 9, 10, 250];

  it('gives the same fraction as hashing the rendered text, for every head, width, number, tail and shard', () => {
    let checked = 0;
    for (const head of heads)
      for (const width of widths)
        for (const tail of tails) {
          const hasher = new DigitKeyHasher(head, width, tail);
          for (const n of numbers)
            for (const shard of shards) {
              expect(hasher.fraction(n, shard), render(head, width, n, tail, shard)).toBe(hashFraction(render(head, width, n, tail, shard)));
              checked += 1;
            }
        }
    // 9 heads × 6 widths × 4 tails × 12 numbers × 5 shards.
    expect(checked).toBe(12_960);
  });

  it('agrees over a run of consecutive ids, as a sample numbers them', () => {
    const hasher = new DigitKeyHasher('ACCOUNT#o-', 6, '');
    for (let n = 1; n <= 20_000; n += 1) expect(hasher.fraction(n, 0)).toBe(hashFraction(`ACCOUNT#o-${String(n).padStart(6, '0')}`));
  });
});

describe('utf8Bytes', () => {
  it('encodes 1-, 2-, 3- and 4-byte characters, and a lone surrogate as U+FFFD', () => {
    // A = 41; é = U+00E9 = C3 A9; € = U+20AC = E2 82 AC; 😀 = U+1F600 = F0 9F 98 80; lone D800 → EF BF BD.
    expect(utf8Bytes('Aé€😀\ud800')).toEqual([0x41, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80, 0xef, 0xbf, 0xbd]);
  });
});
