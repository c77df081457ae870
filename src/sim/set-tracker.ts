// Per-StatefulSet bookkeeping the simulator updates after every write that touches a set or its pods:
// whether it is converged (and since when all sets are), and the most ordinals without an available pod
// seen at any instant since the set first converged (`maxUnavailableObserved`). Initial creation is not
// counted: every ordinal starts without a pod, which says nothing about a rollout's budget. It also keeps
// the run's rollouts (rollout-tracker.ts).

import type { Instant, StatefulSet } from '../api/types.js';
import { unavailableOrdinals } from '../controller/invariants.js';
import { convergence, podList, type PodsOfSet } from './converged.js';
import { RolloutTracker } from './rollout-tracker.js';
import type { WorkCounters } from '../runtime/work-counters.js';

interface SetTrack {
  converged: boolean;
  reason: string | undefined;
  /** Undefined until the set first converges. */
  maxUnavailable: number | undefined;
}

export class SetTracker {
  private readonly tracks = new Map<string, SetTrack>();
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
   * when the caller keeps it incrementally.
   */
  update(key: string, set: StatefulSet | undefined, pods: PodsOfSet, now: Instant, unavailable?: () => number): void {
    const before = this.tracks.get(key);
    if (before && !before.converged) this.notConverged--;
    if (!set) {
      this.tracks.delete(key);
      this.rollouts.remove(key);
      this.afterChange(now);
      return;
    }
    const c = convergence(set, pods, now, this.counters);
    const track: SetTrack = { converged: c.converged, reason: c.reason, maxUnavailable: before?.maxUnavailable };
    const unavailableNow = unavailable ?? (() => unavailableOrdinals(set, podList(pods), now));
    if (c.converged && track.maxUnavailable === undefined) track.maxUnavailable = 0;
    if (track.maxUnavailable !== undefined) track.maxUnavailable = Math.max(track.maxUnavailable, unavailableNow());
    this.rollouts.update(key, set, pods, now, c.converged, unavailableNow);
    if (!track.converged) this.notConverged++;
    this.tracks.set(key, track);
    this.afterChange(now);
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
    if (key !== undefined) return this.tracks.get(key)?.reason ?? `${key} does not exist`;
    const keys = [...this.tracks.keys()].sort();
    for (const k of keys) if (!this.tracks.get(k)!.converged) return this.tracks.get(k)!.reason;
    return undefined;
  }

  maxUnavailable(key: string): number | undefined {
    return this.tracks.get(key)?.maxUnavailable;
  }
}
