// Seeded randomness: every random choice in the runtime, the in-memory cluster and the
// simulator comes from an injected `() => number`; this is the one PRNG behind them.

export type Random = () => number;

/** mulberry32: a small 32-bit PRNG with a full 2^32 period; returns floats in [0, 1). */
export function createRandom(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
