import { describe, expect, it } from 'vitest';
import {
  createAliasSampler,
  createHotKeySampler,
  createRankSampler,
  createTodaySampler,
  createZipfSampler,
  deriveSeed,
  normalizeSeed,
  Random,
  rankProbability,
  type RankSampler,
} from './random.ts';

function shares(sample: RankSampler, n: number, draws: number, seed = 7): number[] {
  const random = new Random(seed);
  const counts = new Array<number>(n).fill(0);
  let outOfRange = 0;
  for (let i = 0; i < draws; i += 1) {
    const r = sample(random);
    if (r >= 0 && r < n && Number.isInteger(r)) counts[r]! += 1;
    else outOfRange += 1;
  }
  expect(outOfRange).toBe(0);
  return counts.map((c) => c / draws);
}

describe('Random (sfc32)', () => {
  it('gives the same sequence for the same seed and another for another seed', () => {
    const a = new Random(42);
    const b = new Random(42);
    const c = new Random(43);
    const seqA = Array.from({ length: 8 }, () => a.nextUint32());
    expect(Array.from({ length: 8 }, () => b.nextUint32())).toEqual(seqA);
    expect(Array.from({ length: 8 }, () => c.nextUint32())).not.toEqual(seqA);
  });

  it('draws doubles in [0, 1) with a mean near ½', () => {
    const random = new Random(1);
    let sum = 0;
    let outside = 0;
    for (let i = 0; i < 100_000; i += 1) {
      const x = random.next();
      if (!(x >= 0 && x < 1)) outside += 1;
      sum += x;
    }
    expect(outside).toBe(0);
    expect(sum / 100_000).toBeCloseTo(0.5, 2);
  });

  it('maps any typed seed to 32 bits, keeping small whole seeds as they are', () => {
    expect(normalizeSeed(12)).toBe(12);
    for (const s of [-1, 1.5, 2 ** 40, Number.MAX_SAFE_INTEGER]) {
      const n = normalizeSeed(s);
      expect(Number.isInteger(n) && n >= 0 && n < 2 ** 32).toBe(true);
    }
    expect(deriveSeed(1, 'a')).not.toBe(deriveSeed(1, 'b'));
    expect(deriveSeed(1, 'a')).toBe(deriveSeed(1, 'a'));
  });
});

describe('samplers', () => {
  it('Zipf s = 1 over 1,000 ranks: rank 1 takes 1 / H(1000) ≈ 13.4% of 200,000 draws', () => {
    const n = 1000;
    const got = shares(createZipfSampler(n, 1), n, 200_000);
    const theory = rankProbability({ kind: 'zipf', exponent: 1 }, n, 0);
    expect(theory).toBeCloseTo(0.1336, 3);
    expect(Math.abs(got[0]! - theory)).toBeLessThan(0.005);
    expect(Math.abs(got[1]! - theory / 2)).toBeLessThan(0.004);
    expect(Math.abs(got[9]! - theory / 10)).toBeLessThan(0.002);
  });

  it.each([0.5, 1.5, 2.5])('Zipf s = %f matches theory for the top ranks', (s) => {
    const n = 50;
    const got = shares(createZipfSampler(n, s), n, 100_000, 3);
    for (const r of [0, 1, 4]) expect(Math.abs(got[r]! - rankProbability({ kind: 'zipf', exponent: s }, n, r))).toBeLessThan(0.006);
  });

  it('Zipf over a million ranks needs no setup table and stays in range', () => {
    const sample = createZipfSampler(1_000_000, 1.1);
    const random = new Random(5);
    let top = 0;
    let outside = 0;
    for (let i = 0; i < 50_000; i += 1) {
      const r = sample(random);
      if (!(r >= 0 && r < 1_000_000)) outside += 1;
      if (r === 0) top += 1;
    }
    expect(outside).toBe(0);
    expect(Math.abs(top / 50_000 - rankProbability({ kind: 'zipf', exponent: 1.1 }, 1_000_000, 0))).toBeLessThan(0.01);
  });

  it('one hot key takes its share; the rest spread evenly', () => {
    const got = shares(createHotKeySampler(10, 0.9), 10, 100_000);
    expect(Math.abs(got[0]! - 0.9)).toBeLessThan(0.005);
    for (let r = 1; r < 10; r += 1) expect(Math.abs(got[r]! - 0.1 / 9)).toBeLessThan(0.003);
  });

  it('weighted choice (alias method) follows the weights, ignoring zero and bad weights', () => {
    const got = shares(createAliasSampler([3, 2, 10, 80, 5, 0, Number.NaN]), 7, 200_000);
    const expected = [0.03, 0.02, 0.1, 0.8, 0.05, 0, 0];
    expected.forEach((p, i) => expect(Math.abs(got[i]! - p)).toBeLessThan(0.004));
  });

  it('weighted choice with all weights zero is uniform', () => {
    const got = shares(createAliasSampler([0, 0, 0, 0]), 4, 40_000);
    for (const p of got) expect(Math.abs(p - 0.25)).toBeLessThan(0.01);
  });

  it('"today" makes the newest period (rank 0) the heaviest: share (n − r) / (n(n+1)/2)', () => {
    const n = 30;
    const got = shares(createTodaySampler(n), n, 200_000);
    for (const r of [0, 1, 15, 29]) expect(Math.abs(got[r]! - rankProbability({ kind: 'today' }, n, r))).toBeLessThan(0.003);
    expect(got[0]).toBeGreaterThan(got[29]! * 10);
  });

  it('uniform ranks are equally likely; a single rank is always 0', () => {
    const got = shares(createRankSampler(undefined, 5), 5, 50_000);
    for (const p of got) expect(Math.abs(p - 0.2)).toBeLessThan(0.01);
    const random = new Random(1);
    for (const d of [undefined, { kind: 'zipf', exponent: 1 } as const, { kind: 'hotKey', share: 0.5 } as const, { kind: 'today' } as const]) {
      expect(createRankSampler(d, 1)(random)).toBe(0);
    }
  });
});
