import { describe, expect, it } from 'vitest';
import { equalRangeStarts, hashFraction, partitionAt, placeKeyColumns, placeKeys } from './hash.ts';

const MASK = 0xffffffffffffffffn;

/** The reference: FNV-1a 64-bit and fmix64 with BigInt and TextEncoder, to check the 32-bit-halves version against. */
function fnv1a64(key: string): bigint {
  let h = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(key)) {
    h ^= BigInt(byte);
    h = (h * 0x100000001b3n) & MASK;
  }
  return h;
}

function fmix64(k: bigint): bigint {
  k ^= k >> 33n;
  k = (k * 0xff51afd7ed558ccdn) & MASK;
  k ^= k >> 33n;
  k = (k * 0xc4ceb9fe1a85ec53n) & MASK;
  k ^= k >> 33n;
  return k;
}

const referenceFraction = (key: string) => Number(fmix64(fnv1a64(key)) >> 11n) / 2 ** 53;

describe('hashFraction (FNV-1a 64-bit over UTF-8, fmix64-finalized)', () => {
  it.each([
    ['', 0xcbf29ce484222325n],
    ['a', 0xaf63dc4c8601ec8cn],
    ['foobar', 0x85944171f73967e8n],
  ])('builds on the published FNV-1a 64-bit value of %j', (key, expected) => {
    expect(fnv1a64(key)).toBe(expected);
    expect(hashFraction(key)).toBeCloseTo(Number(fmix64(expected)) / 2 ** 64, 15);
  });

  it.each(['USER#u-1001', 'STATUS#PENDING', 'José', '日本', '😀 emoji', 'lone \ud800 surrogate', 'x'.repeat(300)])('matches the BigInt reference for %j', (key) => {
    expect(hashFraction(key)).toBeCloseTo(referenceFraction(key), 12);
  });

  it('stays inside [0, 1)', () => {
    for (let i = 0; i < 2000; i += 1) {
      const f = hashFraction(`k${i}`);
      expect(f).toBeGreaterThanOrEqual(0);
      expect(f).toBeLessThan(1);
    }
  });
});

describe('partition ranges', () => {
  it('finds the partition whose range holds a position', () => {
    const starts = equalRangeStarts(4);
    expect(starts).toEqual([0, 0.25, 0.5, 0.75]);
    expect([0, 0.2499, 0.25, 0.6, 0.9999].map((x) => partitionAt(starts, x))).toEqual([0, 0, 1, 2, 3]);
    expect(partitionAt([0, 0.1, 0.1000001, 0.7], 0.10000005)).toBe(1);
  });

  it('places keys with the same hash as the simulator, adding items and bytes per partition', () => {
    const keys = Array.from({ length: 10_000 }, (_, i) => ({ partitionKey: `USER#u-${i}`, items: 2, bytes: 300 }));
    const placed = placeKeys(keys, 8);
    expect(placed.items.reduce((a, b) => a + b, 0)).toBe(20_000);
    expect(placed.keys.reduce((a, b) => a + b, 0)).toBe(10_000);
    // A uniform hash spreads 10,000 keys within a few percent of 1,250 per partition.
    for (const k of placed.keys) expect(Math.abs(k - 1250)).toBeLessThan(150);
    const one = keys[0]!;
    expect(placed.keys[Math.floor(hashFraction(one.partitionKey) * 8)]).toBeGreaterThan(0);
  });

  it('places key columns exactly as it places key objects', () => {
    const keys = Array.from({ length: 5000 }, (_, i) => `ORDER#o-${i}`);
    const objects = placeKeys(keys.map((partitionKey, i) => ({ partitionKey, items: 1 + (i % 3), bytes: 100 * (1 + (i % 3)) })), 16);
    const columns = placeKeyColumns({ keys, itemsPerKey: keys.map((_, i) => 1 + (i % 3)), bytesPerKey: keys.map((_, i) => 100 * (1 + (i % 3))) }, 16);
    expect(columns.items).toEqual(objects.items);
    expect(columns.bytes).toEqual(objects.bytes);
    expect(columns.partitionOfKey[7]).toBe(Math.floor(hashFraction('ORDER#o-7') * 16));
  });
});
