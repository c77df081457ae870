// Per-StatefulSet bookkeeping the simulator updates after every write that touches a set or its pods:
// whether it is converged (and since when all sets are), and the most ordinals without an available pod
// seen at any instant since the set first converged (`maxUnavailableObserved`). Initial creation is not
// counted: every ordinal starts without a pod, which says nothing about a rollout's budget. It also keeps
// the run's rollouts (rollout-tracker.ts).

import type { Instant, Pod, StatefulSet } from '../api/types.js';
import { unavailableOrdinals } from '../controller/checks/invariants.js';
import { convergence, podList, type PodsOfSet } from './converged.js';
import { ConvergenceMemo } from './convergence-memo.js';
import { RolloutTracker } from './rollout-tracker.js';
import type { WorkCounters } from '../runtime/work-counters.js';

interface SetTrack {
  converged: boolean;
  /** Why not converged (worked out when asked). */
  reason: () => string | undefined;
  /** Undefined until the set first converges. */
  maxUnavailable: number | undefined;
}

export class SetTracker {
  private readonly tracks = new Map<string, SetTrack>();
  private readonly memos = new Map<string, ConvergenceMemo>();
  private notConverged = 0;
  /** When every set last became converged; null while one is not. */
  allConvergedSince: Instant | null;
  readonly rollouts = new RolloutTracker();

  constructor(
    start: Instant,
    private readonly counters?: WorkCounters,
  ) {
    this.allConvergedSince = start;
  }

  /**
   * Re-evaluates one set (undefined: it was deleted). `unavailable` is unavailableOrdinals(set, pods, now),
   * when the caller keeps it incrementally; `changed` the keys of its pods written since the last update, when
   * the caller knows them and passes the live map of its pods (only those are read again).
   */
  update(key: string, set: StatefulSet | undefined, pods: PodsOfSet, now: Instant, unavailable?: () => number, changed?: readonly string[]): void {
    const before = this.tracks.get(key);
    if (before && !before.converged) this.notConverged--;
    if (!set) {
      this.tracks.delete(key);
      this.memos.delete(key);
      this.rollouts.remove(key);
      this.afterChange(now);
      return;
    }
    const c = this.convergence(key, set, pods, now, changed);
    const track: SetTrack = { converged: c.converged, reason: c.reason, maxUnavailable: before?.maxUnavailable };
    const unavailableNow = unavailable ?? (() => unavailableOrdinals(set, podList(pods), now));
    if (c.converged && track.maxUnavailable === undefined) track.maxUnavailable = 0;
    if (track.maxUnavailable !== undefined) track.maxUnavailable = Math.max(track.maxUnavailable, unavailableNow());
    this.rollouts.update(key, set, pods, now, c.converged, unavailableNow);
    if (!track.converged) this.notConverged++;
    this.tracks.set(key, track);
    this.afterChange(now);
  }

  private convergence(key: string, set: StatefulSet, pods: PodsOfSet, now: Instant, changed: readonly string[] | undefined): { converged: boolean; reason: () => string | undefined } {
    if (Array.isArray(pods)) {
      const c = convergence(set, pods, now, this.counters);
      return { converged: c.converged, reason: () => c.reason };
    }
    const live = pods as ReadonlyMap<string, Pod>;
    let memo = this.memos.get(key);
    if (memo === undefined) {
      memo = new ConvergenceMemo(this.counters);
      this.memos.set(key, memo);
    }
    const converged = memo.converged(set, live, now, changed);
    // the live map is as it is now until the next write of the set or its pods, which updates the track again
    let reason: { text: string | undefined } | undefined;
    const m = memo;
    return { converged, reason: () => (converged ? undefined : (reason ??= { text: m.reason(set, live, now) }).text) };
  }

  private afterChange(now: Instant): void {
    if (this.notConverged === 0 && this.allConvergedSince === null) this.allConvergedSince = now;
    if (this.notConverged > 0) this.allConvergedSince = null;
  }

  allConverged(): boolean {
    return this.notConverged === 0;
  }

  isConverged(key: string): boolean {
    return this.tracks.get(key)?.converged ?? false;
  }

  /** Why `key` (or, without a key, the first unconverged set in key order) is not converged. */
  reason(key?: string): string | undefined {
    if (key !== undefined) {
      // (a converged set's reason reads "does not exist", as it always has: callers ask only while it is not)
      return this.tracks.get(key)?.reason() ?? `${key} does not exist`;
    }
    const keys = [...this.tracks.keys()].sort();
    for (const k of keys) if (!this.tracks.get(k)!.converged) return this.tracks.get(k)!.reason();
    return undefined;
  }

  maxUnavailable(key: string): number | undefined {
    return this.tracks.get(key)?.maxUnavailable;
  }
}
