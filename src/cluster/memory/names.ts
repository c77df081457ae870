// Deterministic identities (style.md T8): UIDs from a counter, generateName suffixes from the injected
// seeded PRNG, with the alphabet and length of apiserver's `names.SimpleNameGenerator`.

const ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const SUFFIX_LENGTH = 5;
const MAX_PREFIX = 63 - SUFFIX_LENGTH;

export interface NameSource {
  nextUid(): string;
  generateName(prefix: string): string;
}

export function createNameSource(random: () => number): NameSource {
  let uids = 0;
  return {
    nextUid() {
      uids++;
      return `00000000-0000-4000-8000-${uids.toString(16).padStart(12, '0')}`;
    },
    generateName(prefix) {
      let suffix = '';
      for (let i = 0; i < SUFFIX_LENGTH; i++) suffix += ALPHABET[Math.floor(random() * ALPHABET.length)] ?? 'x';
      return prefix.slice(0, MAX_PREFIX) + suffix;
    },
  };
}

/** mulberry32 with a fixed seed: the default when no `random` is injected, so runs stay reproducible. */
export function defaultRandom(seed = 1): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
