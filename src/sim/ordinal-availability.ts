// unavailableOrdinals (src/controller/checks/invariants.ts) kept up to date pod by pod for one set, so the
// simulator's per-write maxUnavailableObserved costs O(pods written), not O(pods of the set). A pod that
// is Ready but not yet available after minReadySeconds waits in `later` until the time it will be.

import type { Instant, Pod, StatefulSet } from '../api/types.js';
import { isRunningAndReady, isTerminating, parentNameAndOrdinal, podAvailableAt } from '../controller/model/pod-state.js';
import { minReadySecondsOf, slotCountOf, startOrdinal } from '../controller/model/spec.js';

interface Spec {
  namespace: string;
  name: string;
  start: number;
  count: number;
  minReadySeconds: number;
}

const specOf = (set: StatefulSet): Spec => ({
  namespace: set.metadata.namespace ?? '',
  name: set.metadata.name ?? '',
  start: startOrdinal(set),
  count: slotCountOf(set),
  minReadySeconds: minReadySecondsOf(set),
});

const sameSpec = (a: Spec, b: Spec): boolean =>
  a.namespace === b.namespace && a.name === b.name && a.start === b.start && a.count === b.count && a.minReadySeconds === b.minReadySeconds;

/** When `pod` counts for its ordinal: now ('ok'), from an instant on, or not (undefined). */
function availableFrom(spec: Spec, pod: Pod): { ordinal: number; at: Instant } | undefined {
  const { parent, ordinal } = parentNameAndOrdinal(pod.metadata.name);
  if (parent !== spec.name || (pod.metadata.namespace ?? '') !== spec.namespace) return undefined;
  if (ordinal < spec.start || ordinal - spec.start >= spec.count) return undefined;
  if (isTerminating(pod) || !isRunningAndReady(pod)) return undefined;
  if (spec.minReadySeconds <= 0) return { ordinal, at: Number.NEGATIVE_INFINITY };
  const at = podAvailableAt(pod, spec.minReadySeconds);
  return at === undefined ? undefined : { ordinal, at };
}

export class OrdinalAvailability {
  private spec: Spec | undefined;
  private now: Instant = Number.NEGATIVE_INFINITY;
  /** Pods counted (available at `now`) per ordinal. */
  private readonly okByOrdinal = new Map<number, number>();
  /** Per pod key: the pod as counted, and whether it is counted yet. */
  private readonly pods = new Map<string, { pod: Pod; ordinal: number; at: Instant; counted: boolean }>();
  /** Pods not yet available, by the instant they will be (ascending; entries of replaced pods are skipped). */
  private later: { at: Instant; key: string; pod: Pod }[] = [];
  private laterSorted = true;

  /** A pod of the set was written (`pod` undefined: it left the set or was deleted). */
  apply(key: string, pod: Pod | undefined): void {
    if (this.spec === undefined) return; // nothing computed yet: the first query builds from scratch
    this.drop(key);
    if (pod !== undefined) this.add(key, pod);
  }

  /**
   * In-range ordinals without an available, non-terminating pod at `now`, or whose claims keep the replica
   * unavailable (`held`, InPlace) (= unavailableOrdinals).
   */
  unavailableOrdinals(set: StatefulSet, pods: () => Iterable<[string, Pod]>, now: Instant, held: ReadonlySet<number> = new Set()): number {
    const spec = specOf(set);
    if (this.spec === undefined || !sameSpec(this.spec, spec) || now < this.now) this.rebuild(spec, pods(), now);
    this.advance(now);
    let down = spec.count - this.okByOrdinal.size;
    for (const o of held) if (this.okByOrdinal.has(o)) down++;
    return down;
  }

  private rebuild(spec: Spec, pods: Iterable<[string, Pod]>, now: Instant): void {
    this.spec = spec;
    this.now = now;
    this.okByOrdinal.clear();
    this.pods.clear();
    this.later = [];
    for (const [key, pod] of pods) this.add(key, pod);
  }

  private add(key: string, pod: Pod): void {
    const from = availableFrom(this.spec!, pod);
    if (from === undefined) return;
    const entry = { pod, ordinal: from.ordinal, at: from.at, counted: false };
    this.pods.set(key, entry);
    if (from.at <= this.now) this.count(entry);
    else {
      this.later.push({ at: from.at, key, pod });
      this.laterSorted = false;
    }
  }

  private drop(key: string): void {
    const entry = this.pods.get(key);
    if (entry === undefined) return;
    this.pods.delete(key);
    if (!entry.counted) return;
    const n = (this.okByOrdinal.get(entry.ordinal) ?? 0) - 1;
    if (n > 0) this.okByOrdinal.set(entry.ordinal, n);
    else this.okByOrdinal.delete(entry.ordinal);
  }

  private count(entry: { ordinal: number; counted: boolean }): void {
    entry.counted = true;
    this.okByOrdinal.set(entry.ordinal, (this.okByOrdinal.get(entry.ordinal) ?? 0) + 1);
  }

  private advance(now: Instant): void {
    this.now = now;
    if (this.later.length === 0) return;
    if (!this.laterSorted) {
      this.later.sort((a, b) => a.at - b.at);
      this.laterSorted = true;
    }
    let i = 0;
    for (; i < this.later.length && this.later[i]!.at <= now; i++) {
      const { key, pod } = this.later[i]!;
      const entry = this.pods.get(key);
      if (entry !== undefined && entry.pod === pod && !entry.counted) this.count(entry);
    }
    if (i > 0) this.later = this.later.slice(i);
  }
}
