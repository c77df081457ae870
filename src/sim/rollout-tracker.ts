// The rollouts of a run, as the simulator sees them: each change of a set's spec after its creation, from the
// write that changed it to the set's next convergence, with the lowest availability on the way. Availability
// is the simulator's: in-range ordinals with an available pod that is not terminating (unavailableOrdinals),
// so it drops when a pod's deletion is requested, not when the status counters catch up. A rollout that
// onFailure: Rollback aborts ends when the way back does (converged.ts); from the abort on, the way back's
// own lowest availability is kept too. The summary record,
// the text timeline, the demo, the HTML report and the forecast all read these, so they measure a rollout
// one way.

import type { Instant, StatefulSet } from '../api/types.js';
import { isRollingBack } from '../controller/rollout/rollback.js';
import { slotCountOf } from '../controller/model/spec.js';
import type { PodsOfSet } from './converged.js';
import { secondsSince, type RolloutSummary } from './timeline.js';

interface OpenRollout {
  key: string;
  namespace: string;
  name: string;
  generation: number;
  start: Instant;
  end?: Instant;
  replacedAt?: Instant;
  revision: string | null;
  lowest: { available: number; of: number; at: Instant };
  /** From the first write that showed the rollout aborted: its instant and the way back's lowest availability. */
  aborted?: { at: Instant; lowest: { available: number; of: number; at: Instant } };
  /** UIDs of the set's pods when the change was written. */
  before: Set<string>;
  deleted: number;
  created: number;
}

const uids = (pods: PodsOfSet): Set<string> => new Set(Array.from(pods.values(), (p) => p.metadata.uid ?? ''));

/** Pods gone since the change, and pods there now that were not. */
function countPods(r: OpenRollout, pods: PodsOfSet): void {
  const after = uids(pods);
  r.deleted = [...r.before].filter((uid) => !after.has(uid)).length;
  r.created = [...after].filter((uid) => !r.before.has(uid)).length;
}

export class RolloutTracker {
  private readonly generations = new Map<string, number>();
  private readonly open = new Map<string, OpenRollout>();
  private readonly all: OpenRollout[] = [];

  /**
   * A write touched the set `key` (or one of its pods). `converged` is the set's Converged now; `unavailable`
   * its unavailableOrdinals, called only while a rollout of the set is open.
   */
  update(key: string, set: StatefulSet, pods: PodsOfSet, now: Instant, converged: boolean, unavailable: () => number): void {
    const generation = set.metadata.generation ?? 0;
    const seen = this.generations.get(key);
    this.generations.set(key, generation);
    if (seen !== undefined && generation > seen) this.begin(key, set, pods, now, generation);
    const r = this.open.get(key);
    if (r === undefined) return;
    // a status written for an older spec judges the rollout before this one (its abort is not this one's)
    const observed = (set.status?.observedGeneration ?? 0) >= generation;
    if (observed) r.revision = set.status?.updateRevision ?? r.revision;
    const available = slotCountOf(set) - unavailable();
    if (available < r.lowest.available) r.lowest = { available, of: slotCountOf(set), at: now };
    if (r.aborted === undefined && observed && isRollingBack(set.status)) r.aborted = { at: now, lowest: { available, of: slotCountOf(set), at: now } };
    if (r.aborted !== undefined && available < r.aborted.lowest.available) r.aborted.lowest = { available, of: slotCountOf(set), at: now };
    if (converged) this.close(key, r, pods, (x) => (x.end = now));
  }

  /** The set was deleted: its open rollout ends unconverged. */
  remove(key: string): void {
    this.generations.delete(key);
    this.open.delete(key);
  }

  private begin(key: string, set: StatefulSet, pods: PodsOfSet, now: Instant, generation: number): void {
    const previous = this.open.get(key);
    if (previous !== undefined) this.close(key, previous, pods, (x) => (x.replacedAt = now));
    const of = slotCountOf(set);
    const r: OpenRollout = {
      key,
      namespace: set.metadata.namespace ?? 'default',
      name: set.metadata.name ?? '',
      generation,
      start: now,
      revision: null,
      lowest: { available: of, of, at: now },
      before: uids(pods),
      deleted: 0,
      created: 0,
    };
    this.open.set(key, r);
    this.all.push(r);
  }

  private close(key: string, r: OpenRollout, pods: PodsOfSet, mark: (r: OpenRollout) => void): void {
    mark(r);
    countPods(r, pods);
    this.open.delete(key);
  }

  /** Every rollout so far, in the order they started (`podsOf`: a set's pods now, for those still open); times in seconds since `epoch`. */
  summaries(epoch: Instant, podsOf: (key: string) => PodsOfSet): RolloutSummary[] {
    for (const r of this.open.values()) countPods(r, podsOf(r.key));
    const t = (at: Instant | undefined) => (at === undefined ? null : secondsSince(epoch, at));
    return this.all.map((r) => ({
      namespace: r.namespace,
      name: r.name,
      generation: r.generation,
      revision: r.revision,
      startedAt: secondsSince(epoch, r.start),
      convergedAt: t(r.end),
      replacedAt: t(r.replacedAt),
      podsDeleted: r.deleted,
      podsCreated: r.created,
      lowestAvailable: { replicas: r.lowest.available, of: r.lowest.of, at: secondsSince(epoch, r.lowest.at) },
      ...(r.aborted === undefined
        ? {}
        : { aborted: { at: secondsSince(epoch, r.aborted.at), lowestAvailable: { replicas: r.aborted.lowest.available, of: r.aborted.lowest.of, at: secondsSince(epoch, r.aborted.lowest.at) } } }),
    }));
  }
}
