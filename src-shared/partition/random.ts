/**
 * The simulator's only source of randomness, injected so a run is reproducible for its seed:
 * mulberry32, a small 32-bit generator that is fast and good enough for arrival noise.
 */

/** Returns uniform numbers in [0, 1). */
export type Random = () => number;

/** A seeded generator: the same seed gives the same sequence on every platform. */
export function createRandom(seed: number): Random {
  let state = (Number.isFinite(seed) ? Math.trunc(seed) : 0) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A standard normal draw (Box–Muller), clamped to ±4 so one draw cannot produce a negative rate. */
export function normal(random: Random): number {
  const u = Math.max(random(), 1e-12);
  const v = random();
  const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  return Math.max(-4, Math.min(4, z));
}
