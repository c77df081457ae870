// Merging sorted sequences of ordinals (classes of the replica index, lists the time adds) without
// materialising the larger ones: the consumer stops when it has what it needs.

/** The union of ascending sequences, ascending, each value once. */
export function* mergeAscending(...sources: Iterable<number>[]): Generator<number> {
  yield* merge(sources, (a, b) => a < b);
}

/** The union of descending sequences, descending, each value once. */
export function* mergeDescending(...sources: Iterable<number>[]): Generator<number> {
  yield* merge(sources, (a, b) => a > b);
}

function* merge(sources: Iterable<number>[], before: (a: number, b: number) => boolean): Generator<number> {
  const its = sources.map((s) => s[Symbol.iterator]());
  const heads = its.map((it) => it.next());
  let last: number | undefined;
  for (;;) {
    let pick = -1;
    for (let k = 0; k < heads.length; k++) {
      const h = heads[k] as IteratorResult<number>;
      if (h.done === true) continue;
      if (pick < 0 || before(h.value, (heads[pick] as IteratorYieldResult<number>).value)) pick = k;
    }
    if (pick < 0) return;
    const value = (heads[pick] as IteratorYieldResult<number>).value;
    heads[pick] = (its[pick] as Iterator<number>).next();
    if (value === last) continue;
    last = value;
    yield value;
  }
}
