// The rollouts of a run, as the simulator sees them: each new update revision (a template change) or scale of a
// set after its creation, from the write that changed it to the set's next convergence, with the lowest
// availability on the way. Other spec changes (a pause, a resume, a strategy edit) bump the generation too, but
// belong to the rollout under way (its user pauses summed), or to none. Availability
// is the simulator's: in-range ordinals with an available pod that is not terminating (unavailableOrdinals),
// so it drops when a pod's deletion is requested, not when the status counters catch up. A rollout that
// onFailure: Rollback aborts ends when the way back does (converged.ts); from the abort on, the way back's
// own lowest availability is kept too. The summary record,
// the text timeline, the demo, the HTML report and the forecast all read these, so they measure a rollout
// one way.

import { revisionData } from '../api/revision/hash.js';
import type { Instant, StatefulSet } from '../api/types.js';
import { podRevision } from '../controller/pod-state.js';
import { isRollingBack } from '../controller/rollback.js';
import { slotCountOf } from '../controller/spec.js';
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
  /** The user's pause (spec paused: true): since when it holds now, and how long it held before. */
  pausedSince?: Instant;
  pausedMs: number;
  /**
   * Open again after it converged, for a spec change of the same revision (a lowered partition, a resume): what
   * it was then, kept if the change moves no pod.
   */
  reopened?: { pods: string; end: Instant | undefined; pausedMs: number };
}

/** What a rollout rolls to: the revision's data (the template; claim templates too under InPlace), and the size. */
interface Target {
  data: string | undefined;
  replicas: number | undefined;
}

const targetOf = (set: StatefulSet): Target => {
  const template: unknown = set.spec?.template;
  // a template that is no object is invalid (the controller refuses it): no revision to compare
  const valid = typeof template === 'object' && template !== null && !Array.isArray(template);
  return { data: valid ? revisionData(set) : undefined, replicas: set.spec?.replicas };
};

/** The user's pause of the rollout (kubectl ordinal rollout pause): spec paused of either rolling block. */
const isUserPaused = (set: StatefulSet): boolean => {
  const s = set.spec?.updateStrategy;
  return s?.rollingUpdate?.paused === true || s?.enforcedRollingUpdate?.paused === true;
};

const uids = (pods: PodsOfSet): Set<string> => new Set(Array.from(pods.values(), (p) => p.metadata.uid ?? ''));
/** Each pod and its revision: what a rollout changes (a pod replaced, or updated in place). */
const podsAndRevisions = (pods: PodsOfSet): string =>
  Array.from(pods.values(), (p) => `${p.metadata.uid ?? ''}=${podRevision(p) ?? ''}`)
    .sort()
    .join(' ');

/** Pods gone since the change, and pods there now that were not. */
function countPods(r: OpenRollout, pods: PodsOfSet): void {
  const after = uids(pods);
  r.deleted = [...r.before].filter((uid) => !after.has(uid)).length;
  r.created = [...after].filter((uid) => !r.before.has(uid)).length;
}

export class RolloutTracker {
  private readonly generations = new Map<string, number>();
  /** What each set's spec last rolled to. */
  private readonly targets = new Map<string, Target>();
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
    if (seen === undefined || generation > seen) this.specChanged(key, set, pods, now, generation, seen === undefined);
    const r = this.open.get(key);
    if (r === undefined) return;
    this.followPause(r, isUserPaused(set), now);
    // a status written for an older spec judges the rollout before this one (its abort is not this one's)
    const observed = (set.status?.observedGeneration ?? 0) >= generation;
    if (observed) r.revision = set.status?.updateRevision ?? r.revision;
    const available = slotCountOf(set) - unavailable();
    if (available < r.lowest.available) r.lowest = { available, of: slotCountOf(set), at: now };
    if (r.aborted === undefined && observed && isRollingBack(set.status)) r.aborted = { at: now, lowest: { available, of: slotCountOf(set), at: now } };
    if (r.aborted !== undefined && available < r.aborted.lowest.available) r.aborted.lowest = { available, of: slotCountOf(set), at: now };
    if (converged) this.close(key, r, pods, (x) => this.converged(x, pods, now));
  }

  /** It converged at `now`; reopened, the change it was reopened for moved no pod: it ended when it did before. */
  private converged(r: OpenRollout, pods: PodsOfSet, now: Instant): void {
    const before = r.reopened;
    delete r.reopened;
    if (before !== undefined && before.pods === podsAndRevisions(pods)) {
      r.end = before.end;
      r.pausedMs = before.pausedMs;
      delete r.pausedSince;
      return;
    }
    r.end = now;
  }

  /** The set was deleted: its open rollout ends unconverged. */
  remove(key: string): void {
    this.generations.delete(key);
    this.targets.delete(key);
    this.open.delete(key);
  }

  /** A new spec: a new rollout when it rolls to another revision or size than the one under way (or, none under way, than the last). */
  private specChanged(key: string, set: StatefulSet, pods: PodsOfSet, now: Instant, generation: number, created: boolean): void {
    const target = targetOf(set);
    const last = this.targets.get(key);
    this.targets.set(key, target);
    if (created) return;
    const open = this.open.get(key);
    const same = last !== undefined && target.data !== undefined && target.data === last.data;
    if (same && open !== undefined) return;
    if (same && target.replicas === last.replicas) return this.reopen(key, pods);
    this.begin(key, set, pods, now, generation);
  }

  /** The set's last rollout, converged on the same revision, goes on (until it converges again). */
  private reopen(key: string, pods: PodsOfSet): void {
    const r = this.all.findLast((x) => x.key === key);
    if (r === undefined || r.end === undefined) return;
    r.reopened = { pods: podsAndRevisions(pods), end: r.end, pausedMs: r.pausedMs };
    delete r.end;
    this.open.set(key, r);
  }

  private followPause(r: OpenRollout, paused: boolean, now: Instant): void {
    if (paused && r.pausedSince === undefined) r.pausedSince = now;
    if (!paused && r.pausedSince !== undefined) {
      r.pausedMs += now - r.pausedSince;
      delete r.pausedSince;
    }
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
      pausedMs: 0,
    };
    this.open.set(key, r);
    this.all.push(r);
  }

  private close(key: string, r: OpenRollout, pods: PodsOfSet, mark: (r: OpenRollout) => void): void {
    mark(r);
    countPods(r, pods);
    this.followPause(r, false, r.end ?? r.replacedAt ?? r.start);
    this.open.delete(key);
  }

  /** Every rollout so far, in the order they started (`podsOf`: a set's pods now, for those still open, at `end`); times in seconds since `epoch`. */
  summaries(epoch: Instant, end: Instant, podsOf: (key: string) => PodsOfSet): RolloutSummary[] {
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
      ...(r.pausedMs > 0 || r.pausedSince !== undefined ? { pausedSeconds: (r.pausedMs + (r.pausedSince !== undefined ? end - r.pausedSince : 0)) / 1000 } : {}),
      ...(r.aborted === undefined
        ? {}
        : { aborted: { at: secondsSince(epoch, r.aborted.at), lowestAvailable: { replicas: r.aborted.lowest.available, of: r.aborted.lowest.of, at: secondsSince(epoch, r.aborted.lowest.at) } } }),
    }));
  }
}
