// The set's ordinal range over its replica index: the pods in range (by index = ordinal − start) and the
// condemned ones outside it, with work bounded by what the caller asks about — missing slots are never
// materialised (spec.replicas may be 2^31−1), and the classes of the index (replica-index.ts) say which slots
// need a look without visiting the others.

import type { PersistentVolumeClaim, Pod, StatefulSet } from '../../api/types.js';
import type { OrdinalSet } from '../model/ordinal-set.js';
import type { PodFacts } from './pod-facts.js';
import { ReplicaIndex } from './replica-index.js';
import { slotCountOf, startOrdinal } from '../model/spec.js';

export class Slots {
  private condemnedPods: Pod[] | undefined;

  /** `count`: spec.replicas capped at the int32 ordinal range. */
  constructor(
    readonly index: ReplicaIndex,
    readonly start: number,
    readonly count: number,
  ) {}

  /** The pod at index `i` (ordinal start + i); of two pods for one slot the later name wins, as upstream. */
  pod(i: number): Pod | undefined {
    return this.index.member(this.start + i)?.pod;
  }

  facts(i: number): PodFacts | undefined {
    return this.index.member(this.start + i);
  }

  /** How many slots hold a pod. */
  get existing(): number {
    return this.index.ordinals.count(this.start, this.start + this.count);
  }

  /** Indices holding a pod, ascending (every pod in range: for the few readers that need them all). */
  *indices(): Generator<number> {
    for (const o of this.index.ordinals.ascending(this.start, this.start + this.count)) yield o - this.start;
  }

  /** Indices in [from, to) of a class of the index, ascending. */
  *ascending(set: OrdinalSet, from = 0, to = this.count): Generator<number> {
    for (const o of set.ascending(this.start + from, this.start + Math.min(to, this.count))) yield o - this.start;
  }

  /** Indices in [from, to) of a class of the index, descending. */
  *descending(set: OrdinalSet, from = 0, to = this.count): Generator<number> {
    for (const o of set.descending(this.start + from, this.start + Math.min(to, this.count))) yield o - this.start;
  }

  /** Members of a class in [from, to). */
  countOf(set: OrdinalSet, from = 0, to = this.count): number {
    return set.count(this.start + from, this.start + Math.min(to, this.count));
  }

  /** Out-of-range pods, highest ordinal first (of one ordinal, in name order). */
  get condemned(): Pod[] {
    this.condemnedPods ??= this.readCondemned();
    return this.condemnedPods;
  }

  private readCondemned(): Pod[] {
    const { index, start, count } = this;
    // the common case: every pod in range, none shadowed
    if (index.ordinals.size === this.existing && index.shadowedMembers().length === 0) return [];
    const out: PodFacts[] = [];
    for (const o of index.ordinals.descending(start + count)) out.push(index.member(o) as PodFacts);
    for (const o of index.ordinals.descending(Number.NEGATIVE_INFINITY, start)) out.push(index.member(o) as PodFacts);
    const shadowed = index.shadowedMembers().filter((f) => !this.inRange(f.ordinal));
    if (shadowed.length > 0) {
      out.push(...shadowed);
      out.sort((a, b) => b.ordinal - a.ordinal || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    }
    return out.map((f) => f.pod);
  }

  inRange(ordinal: number): boolean {
    return ordinal >= this.start && ordinal - this.start < this.count;
  }
}

/** The slots of `set` over its index. */
// upstream: stateful_set_control.go updateStatefulSet (the replicas/condemned split)
export function slotsOf(set: StatefulSet, index: ReplicaIndex): Slots {
  return new Slots(index, startOrdinal(set), slotCountOf(set));
}

/** The slots of `set` over a list of its (claimed) pods and its claims, for `why` and tests. */
export function partitionPods(set: StatefulSet, pods: readonly Pod[], claims: readonly PersistentVolumeClaim[] = []): Slots {
  return slotsOf(set, ReplicaIndex.of(set, pods, claims));
}

/** The lowest index in [from, count) without a pod, or undefined when every slot from there on is occupied. */
export function firstMissingIndex(slots: Slots, from = 0): number | undefined {
  if (from >= slots.count) return undefined;
  const gap = slots.index.ordinals.firstGap(slots.start + from, slots.start + slots.count);
  return gap === undefined ? undefined : gap - slots.start;
}

/** Missing indices in ascending order, lazily (bounded by what the caller consumes). */
export function* missingIndices(slots: Slots, from = 0): Generator<number> {
  for (let i = firstMissingIndex(slots, from); i !== undefined; i = firstMissingIndex(slots, i + 1)) yield i;
}

/** Missing indices in [from, to) in descending order, lazily. */
export function* missingDescending(slots: Slots, from: number, to: number): Generator<number> {
  for (let i = lastMissingIndex(slots, from, to); i !== undefined; i = lastMissingIndex(slots, from, i)) yield i;
}

function lastMissingIndex(slots: Slots, from: number, to: number): number | undefined {
  const hi = Math.min(to, slots.count);
  if (hi <= from) return undefined;
  const gap = slots.index.ordinals.lastGap(slots.start + from, slots.start + hi);
  return gap === undefined ? undefined : gap - slots.start;
}

/** Every existing in-range pod, then the condemned ones: what status is computed over. */
export function existingPods(slots: Slots): Pod[] {
  return [...[...slots.indices()].map((i) => slots.pod(i) as Pod), ...slots.condemned];
}

export type FirstUnavailable = { kind: 'slot'; index: number } | { kind: 'condemned'; pod: Pod } | undefined;

export interface Unavailability {
  /** In-range slots that are missing or unavailable (the rolling-update budget's `unavailablePods`). */
  inRange: number;
  /** The same plus unavailable condemned pods (upstream's logged `unavailable` count). */
  total: number;
  firstUnavailable: FirstUnavailable;
}

/**
 * Counts unavailable slots and finds firstUnavailablePod: lowest in-range index, else lowest condemned ordinal.
 * `down`: the in-range indices that are unavailable, ascending (a class of the index merged with what the time
 * or the claims add); `isDown` judges a condemned pod.
 */
// upstream: stateful_set_control.go updateStatefulSet (unavailable / firstUnavailablePod)
export function unavailability(slots: Slots, down: { count: number; first: number | undefined }, isDown: (pod: Pod) => boolean): Unavailability {
  const inRange = slots.count - slots.existing + down.count;
  const missing = firstMissingIndex(slots);
  const firstIndex = missing === undefined ? down.first : down.first === undefined ? missing : Math.min(missing, down.first);
  let first: FirstUnavailable = firstIndex === undefined ? undefined : { kind: 'slot', index: firstIndex };
  let total = inRange;
  const condemned = slots.condemned;
  for (let k = condemned.length - 1; k >= 0; k--) {
    const pod = condemned[k] as Pod;
    if (!isDown(pod)) continue;
    total++;
    if (first === undefined) first = { kind: 'condemned', pod };
  }
  return { inRange, total, firstUnavailable: first };
}
