// Splitting the set's pods into the ordinal range (`replicas`, by index) and `condemned` (valid ordinals
// outside it), with work bounded by the number of pods that exist: missing slots are never materialised
// (spec.replicas may be 2^31−1), only counted or built one at a time when a creation is planned.

import type { Pod, StatefulSet } from '../api/types.js';
import { podOrdinal } from './pod-state.js';
import { slotCountOf, startOrdinal } from './spec.js';

export interface Slots {
  start: number;
  /** Number of slots, i.e. spec.replicas (capped at the int32 ordinal range). */
  count: number;
  /** In-range pods by index (ordinal − start); the later of two pods for one slot wins, as upstream. */
  byIndex: Map<number, Pod>;
  /** Occupied indices, ascending. */
  indices: number[];
  /** Out-of-range pods, highest ordinal first. */
  condemned: Pod[];
}

// upstream: stateful_set_control.go updateStatefulSet (the replicas/condemned split)
export function partitionPods(set: StatefulSet, pods: readonly Pod[]): Slots {
  const start = startOrdinal(set);
  const count = slotCountOf(set);
  const byIndex = new Map<number, Pod>();
  const condemned: Pod[] = [];
  for (const pod of pods) {
    const ordinal = podOrdinal(pod);
    if (ordinal < 0) continue;
    if (ordinal >= start && ordinal - start < count) byIndex.set(ordinal - start, pod);
    else condemned.push(pod);
  }
  condemned.sort((a, b) => podOrdinal(b) - podOrdinal(a));
  const indices = [...byIndex.keys()].sort((a, b) => a - b);
  return { start, count, byIndex, indices, condemned };
}

/** Existing in-range pods and condemned pods: what status is computed over. */
export function existingPods(slots: Slots): Pod[] {
  return [...slots.indices.map((i) => slots.byIndex.get(i) as Pod), ...slots.condemned];
}

/** The lowest index without a pod, or undefined when every slot is occupied. */
export function firstMissingIndex(slots: Slots): number | undefined {
  let expected = 0;
  for (const i of slots.indices) {
    if (i !== expected) return expected;
    expected++;
  }
  return expected < slots.count ? expected : undefined;
}

/** Missing indices in ascending order, lazily (bounded by what the caller consumes). */
export function* missingIndices(slots: Slots, from = 0): Generator<number> {
  let next = from;
  for (const i of slots.indices) {
    if (i < next) continue;
    for (; next < i; next++) yield next;
    next = i + 1;
  }
  for (; next < slots.count; next++) yield next;
}

export type FirstUnavailable = { kind: 'slot'; index: number } | { kind: 'condemned'; pod: Pod } | undefined;

export interface Unavailability {
  /** In-range slots that are missing or unavailable (the rolling-update budget's `unavailablePods`). */
  inRange: number;
  /** The same plus unavailable condemned pods (upstream's logged `unavailable` count). */
  total: number;
  firstUnavailable: FirstUnavailable;
}

/** Counts unavailable slots and finds firstUnavailablePod: lowest in-range index, else lowest condemned ordinal. */
// upstream: stateful_set_control.go updateStatefulSet (unavailable / firstUnavailablePod)
export function unavailability(slots: Slots, isDown: (pod: Pod) => boolean): Unavailability {
  let inRange = slots.count - slots.indices.length;
  let first: FirstUnavailable;
  const missing = firstMissingIndex(slots);
  for (const i of slots.indices) {
    if (!isDown(slots.byIndex.get(i) as Pod)) continue;
    inRange++;
    if (first === undefined) first = { kind: 'slot', index: i };
  }
  if (missing !== undefined && (first === undefined || (first.kind === 'slot' && missing < first.index))) {
    first = { kind: 'slot', index: missing };
  }
  let total = inRange;
  for (let k = slots.condemned.length - 1; k >= 0; k--) {
    const pod = slots.condemned[k] as Pod;
    if (!isDown(pod)) continue;
    total++;
    if (first === undefined) first = { kind: 'condemned', pod };
  }
  return { inRange, total, firstUnavailable: first };
}
