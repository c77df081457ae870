// Seeded randomness for the simulator: every random choice of a run comes from the
// scenario's `seed`, so the same file and seed give a byte-identical timeline.

import { createRandom, type Random } from '../runtime/random.js';

export { createRandom, type Random };

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
