// Ordinals keyed by an instant (when a Ready pod becomes available, when a grown claim has been ready for
// minReadySeconds), sorted by that instant: the members still in the future at `now` are a suffix, so "who
// is not available yet" costs a binary search and the length of the answer.

import type { Instant } from '../../api/types.js';

interface Entry {
  at: Instant;
  ordinal: number;
}

/** The index of the first entry with `at` > t (or ≥ t when `inclusive`). */
function bound(a: readonly Entry[], t: Instant, inclusive: boolean): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const at = (a[mid] as Entry).at;
    if (at < t || (!inclusive && at === t)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class TimedSet {
  private readonly entries: Entry[] = [];
  private readonly byOrdinal = new Map<number, Instant>();

  /** Sets (or, with undefined, removes) the instant of `ordinal`. */
  set(ordinal: number, at: Instant | undefined): void {
    const before = this.byOrdinal.get(ordinal);
    if (before === at) return;
    if (before !== undefined) {
      let i = bound(this.entries, before, true);
      while ((this.entries[i] as Entry).ordinal !== ordinal) i++;
      this.entries.splice(i, 1);
      this.byOrdinal.delete(ordinal);
    }
    if (at === undefined) return;
    this.entries.splice(bound(this.entries, at, false), 0, { at, ordinal });
    this.byOrdinal.set(ordinal, at);
  }

  clear(): void {
    this.entries.length = 0;
    this.byOrdinal.clear();
  }

  get(ordinal: number): Instant | undefined {
    return this.byOrdinal.get(ordinal);
  }

  /** Ordinals whose instant is after `now`, ascending by ordinal. */
  after(now: Instant): number[] {
    const out: number[] = [];
    for (let i = bound(this.entries, now, false); i < this.entries.length; i++) out.push((this.entries[i] as Entry).ordinal);
    return out.sort((a, b) => a - b);
  }

  /** How many instants are after `now`. */
  countAfter(now: Instant): number {
    return this.entries.length - bound(this.entries, now, false);
  }

  /** The earliest instant after `now`. */
  nextAfter(now: Instant): Instant | undefined {
    return this.entries[bound(this.entries, now, false)]?.at;
  }

  /** The latest instant (for "the last progress any pod recorded"). */
  latest(): Instant | undefined {
    return this.entries[this.entries.length - 1]?.at;
  }
}
