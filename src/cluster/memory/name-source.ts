// Deterministic identities: UIDs from a counter, generateName suffixes from the injected
// seeded PRNG, with the alphabet and length of apiserver's `names.SimpleNameGenerator`.

import { createRandom } from '../../runtime/random.js';

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

/** A fixed seed when no `random` is injected, so runs stay reproducible. */
export function defaultRandom(seed = 1): () => number {
  return createRandom(seed);
}
