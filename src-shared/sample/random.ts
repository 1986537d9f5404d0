/**
 * Seeded randomness for sample data: the sfc32 generator (Chris Doty-Humphrey's Small Fast Chaotic
 * PRNG, 128-bit state, passes PractRand to 2^41+ bytes), seeded through splitmix32; a stateless
 * 32-bit mixer for values that must be reproducible from a row number alone (uuids, shard suffixes);
 * and samplers over ranks 0 … n−1 (rank 0 is the most popular, or the newest, value).
 *
 * The same seed always gives the same sequence, on every platform: only 32-bit integer arithmetic
 * (`Math.imul`, shifts) and IEEE doubles are used.
 */
import { rankShare } from '../model/index.ts';
import type { Distribution } from '../model/index.ts';

const TWO_POW_32 = 4_294_967_296;

/** lowbias32 (Chris Wellons' hash prospector): a fast, well-mixing bijection on 32-bit integers. */
export function mix32(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

/** A 32-bit hash of a seed and a counter: the same `(seed, n)` always gives the same number. */
export function hash2(seed: number, n: number): number {
  return mix32((seed ^ mix32((n + 0x9e3779b9) | 0)) >>> 0);
}

/** FNV-1a over the UTF-16 units of `text`, mixed with `seed`: stream seeds from names. */
export function deriveSeed(seed: number, text: string): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return mix32(h >>> 0);
}

/**
 * Turns any seed the user may type (negative, fractional, beyond 32 bits) into a 32-bit seed. Safe
 * integers in 0 … 2^32−1 map to themselves.
 */
export function normalizeSeed(seed: number): number {
  if (Number.isInteger(seed) && seed >= 0 && seed < TWO_POW_32) return seed;
  return deriveSeed(0, String(seed));
}

/**
 * sfc32, seeded from one 32-bit number via splitmix32. The state is four 32-bit words in one typed
 * array (a, b, c, d): values above 2^30 do not fit V8's small integers, and fields would box them.
 */
export class Random {
  readonly #state = new Int32Array(4);

  constructor(seed: number) {
    let s = seed >>> 0;
    const splitmix32 = (): number => {
      s = (s + 0x9e3779b9) | 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    const state = this.#state;
    for (let i = 0; i < 4; i += 1) state[i] = splitmix32();
    // The first outputs of a fresh sfc32 state correlate with the seed; the reference code skips 12.
    for (let i = 0; i < 12; i += 1) this.nextUint32();
  }

  /** A uniform integer in 0 … 2^32−1. */
  nextUint32(): number {
    const state = this.#state;
    const a = state[0]!;
    const b = state[1]!;
    const c = state[2]!;
    const d = state[3]!;
    const t = (((a + b) | 0) + d) | 0;
    state[3] = (d + 1) | 0;
    state[0] = b ^ (b >>> 9);
    state[1] = (c + (c << 3)) | 0;
    state[2] = (((c << 21) | (c >>> 11)) + t) | 0;
    return t >>> 0;
  }

  /** A uniform double in [0, 1), with 32 bits of resolution. */
  next(): number {
    return this.nextUint32() / TWO_POW_32;
  }

  /** A uniform integer in 0 … n−1 (n ≥ 1; the bias is below n / 2^32, nil for sample sizes). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
}

/** Draws a rank in 0 … n−1. */
export type RankSampler = (random: Random) => number;

/**
 * Walker's alias method (Vose's construction): O(n) setup, O(1) per draw, for picking index i with
 * probability weights[i] / Σ weights. Non-finite and negative weights count as 0; when every weight
 * is 0 the indexes are equally likely.
 */
export function createAliasSampler(weights: readonly number[]): RankSampler {
  const n = weights.length;
  if (n <= 1) return () => 0;
  const clean = weights.map((w) => (Number.isFinite(w) && w > 0 ? w : 0));
  const total = clean.reduce((s, w) => s + w, 0);
  const scaled = clean.map((w) => (total > 0 ? (w * n) / total : 1));
  const probability = new Float64Array(n);
  const alias = new Uint32Array(n);
  const small: number[] = [];
  const large: number[] = [];
  scaled.forEach((p, i) => (p < 1 ? small : large).push(i));
  while (small.length > 0 && large.length > 0) {
    const s = small.pop() as number;
    const l = large.pop() as number;
    probability[s] = scaled[s] as number;
    alias[s] = l;
    scaled[l] = (scaled[l] as number) + (scaled[s] as number) - 1;
    (scaled[l] as number) < 1 ? small.push(l) : large.push(l);
  }
  // Leftovers are 1 up to rounding.
  for (const i of large) probability[i] = 1;
  for (const i of small) probability[i] = 1;
  return (random) => {
    const x = random.next() * n;
    const i = Math.floor(x);
    return x - i < (probability[i] as number) ? i : (alias[i] as number);
  };
}

/**
 * Zipf's law over ranks 0 … n−1 with exponent s > 0: rank r (1-based k = r + 1) has probability
 * k^−s / H(n, s). Sampled by rejection-inversion (Hörmann & Derflinger 1996, as in Apache Commons
 * RNG): O(1) memory and expected O(1) time per draw for any n, so n = 10^6 costs nothing to set up.
 */
export function createZipfSampler(n: number, exponent: number): RankSampler {
  if (n <= 1) return () => 0;
  const s = exponent;
  const helper1 = (x: number): number => (Math.abs(x) > 1e-8 ? Math.log1p(x) / x : 1 - x * (0.5 - x * (1 / 3 - 0.25 * x)));
  const helper2 = (x: number): number => (Math.abs(x) > 1e-8 ? Math.expm1(x) / x : 1 + x * 0.5 * (1 + x * (1 / 3) * (1 + 0.25 * x)));
  const h = (x: number): number => Math.exp(-s * Math.log(x));
  const hIntegral = (x: number): number => {
    const logX = Math.log(x);
    return helper2((1 - s) * logX) * logX;
  };
  const hIntegralInverse = (x: number): number => {
    let t = x * (1 - s);
    if (t < -1) t = -1; // rounding may push t just below −1
    return Math.exp(helper1(t) * x);
  };
  const hIntegralX1 = hIntegral(1.5) - 1;
  const hIntegralN = hIntegral(n + 0.5);
  const squeeze = 2 - hIntegralInverse(hIntegral(2.5) - h(2));
  return (random) => {
    for (;;) {
      const u = hIntegralN + random.next() * (hIntegralX1 - hIntegralN);
      const x = hIntegralInverse(u);
      let k = Math.floor(x + 0.5);
      if (k < 1) k = 1;
      else if (k > n) k = n;
      if (k - x <= squeeze || u >= hIntegral(k + 0.5) - h(k)) return k - 1;
    }
  };
}

/** One hot rank: rank 0 with probability `share`, the other n − 1 ranks equally likely otherwise. */
export function createHotKeySampler(n: number, share: number): RankSampler {
  if (n <= 1) return () => 0;
  const p = Math.min(1, Math.max(0, share));
  return (random) => (random.next() < p ? 0 : 1 + random.int(n - 1));
}

/**
 * Time-based ranks for stored sample data, rank 0 = the newest period ("today"), rank n − 1 the
 * oldest. The write rate is taken to grow linearly over the window, so period r holds a share
 * (n − r) / (n (n + 1) / 2): today is the heaviest, n times the oldest, and takes 2 / (n + 1) of
 * all items (6.5% of 30 days). (The partition simulator's "today" traffic is different: there every
 * new write goes to today's key.) Sampled by inverting the triangular CDF: O(1).
 */
export function createTodaySampler(n: number): RankSampler {
  if (n <= 1) return () => 0;
  const total = (n * (n + 1)) / 2;
  return (random) => {
    // Period p = 0 (oldest) … n−1 (newest) has weight p + 1; CDF(p) = (p + 1)(p + 2) / 2 / total.
    const target = random.next() * total;
    let p = Math.ceil((Math.sqrt(1 + 8 * target) - 1) / 2) - 1;
    if (p < 0) p = 0;
    // Correct floating-point misses of the closed form by one step either way.
    if (((p + 1) * (p + 2)) / 2 <= target) p += 1;
    else if (p > 0 && (p * (p + 1)) / 2 > target) p -= 1;
    if (p > n - 1) p = n - 1;
    return n - 1 - p;
  };
}

/** A sampler of ranks 0 … n−1 for a distribution (uniform when none is given). */
export function createRankSampler(distribution: Distribution | undefined, n: number): RankSampler {
  const size = Math.max(1, Math.floor(n));
  switch (distribution?.kind) {
    case 'zipf':
      return createZipfSampler(size, distribution.exponent);
    case 'hotKey':
      return createHotKeySampler(size, distribution.share);
    case 'today':
      return createTodaySampler(size);
    default:
      return size === 1 ? () => 0 : (random) => random.int(size);
  }
}

/** The probability of rank r under a distribution over n ranks: one rule, in the value model. */
export const rankProbability = rankShare;
