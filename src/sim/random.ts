// Seeded randomness for the simulator (style.md T8): every random choice of a run comes from the
// scenario's `seed`, so the same file and seed give a byte-identical timeline.

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

/**
 * A seed for one named consumer (cluster, controller, faults, ...), so adding random draws to one
 * subsystem does not shift the numbers another one sees. FNV-1a over the label, mixed with the seed.
 */
export function deriveSeed(seed: number, label: string): number {
  let h = 0x811c9dc5 ^ (seed >>> 0);
  for (let i = 0; i < label.length; i++) {
    h ^= label.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** A PRNG for one named consumer of a run (see deriveSeed). */
export function randomFor(seed: number, label: string): Random {
  return createRandom(deriveSeed(seed, label));
}
