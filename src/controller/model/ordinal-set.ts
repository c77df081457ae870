// A set of ordinals kept sorted, for the replica index's classes (pods on a revision, pods that are down,
// pods that need the replica pass): membership changes cost a binary search and a splice, and the planner
// reads ranges, counts and the first or last member without scanning the set.

/** The index of the first element ≥ x in the sorted array `a`. */
function lowerBound(a: readonly number[], x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((a[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class OrdinalSet {
  private readonly items: number[] = [];

  get size(): number {
    return this.items.length;
  }

  has(x: number): boolean {
    const i = lowerBound(this.items, x);
    return this.items[i] === x;
  }

  add(x: number): void {
    const i = lowerBound(this.items, x);
    if (this.items[i] !== x) this.items.splice(i, 0, x);
  }

  delete(x: number): void {
    const i = lowerBound(this.items, x);
    if (this.items[i] === x) this.items.splice(i, 1);
  }

  clear(): void {
    this.items.length = 0;
  }

  /** Adds or removes `x`. */
  set(x: number, member: boolean): void {
    if (member) this.add(x);
    else this.delete(x);
  }

  /** Members in [lo, hi). */
  count(lo: number, hi: number): number {
    return hi <= lo ? 0 : lowerBound(this.items, hi) - lowerBound(this.items, lo);
  }

  /** The smallest member ≥ x. */
  first(x = Number.NEGATIVE_INFINITY): number | undefined {
    return this.items[lowerBound(this.items, x)];
  }

  /** The largest member < x. */
  last(x = Number.POSITIVE_INFINITY): number | undefined {
    const i = lowerBound(this.items, x) - 1;
    return i >= 0 ? this.items[i] : undefined;
  }

  /** The smallest x in [lo, hi) that is not a member. */
  firstGap(lo: number, hi: number): number | undefined {
    const base = lowerBound(this.items, lo);
    let a = base;
    let b = lowerBound(this.items, hi);
    const end = b;
    // items[p] − (p − base) grows with p: find the first position where a member is missing before it
    while (a < b) {
      const mid = (a + b) >>> 1;
      if ((this.items[mid] as number) > lo + (mid - base)) b = mid;
      else a = mid + 1;
    }
    const x = lo + (a - base);
    return a < end || x < hi ? x : undefined;
  }

  /** The largest x in [lo, hi) that is not a member. */
  lastGap(lo: number, hi: number): number | undefined {
    const base = lowerBound(this.items, lo);
    const end = lowerBound(this.items, hi);
    let a = base;
    let b = end;
    // members from position p up are hi − (end − p), …, hi − 1 exactly when p is at or past the top block
    while (a < b) {
      const mid = (a + b) >>> 1;
      if ((this.items[mid] as number) === hi - (end - mid)) b = mid;
      else a = mid + 1;
    }
    const x = hi - (end - a) - 1;
    return x >= lo ? x : undefined;
  }

  /** Members in [lo, hi), ascending. */
  *ascending(lo = Number.NEGATIVE_INFINITY, hi = Number.POSITIVE_INFINITY): Generator<number> {
    for (let i = lowerBound(this.items, lo); i < this.items.length; i++) {
      const x = this.items[i] as number;
      if (x >= hi) return;
      yield x;
    }
  }

  /** Members in [lo, hi), descending. */
  *descending(lo = Number.NEGATIVE_INFINITY, hi = Number.POSITIVE_INFINITY): Generator<number> {
    for (let i = lowerBound(this.items, hi) - 1; i >= 0; i--) {
      const x = this.items[i] as number;
      if (x < lo) return;
      yield x;
    }
  }
}
