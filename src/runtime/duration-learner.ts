// What each set's pods take, learned from the pod informer's deltas (controller/learned-durations.ts says what
// is measured) and handed to the planner in the observed state (observe.ts), so the planner stays a function of
// what was observed and `now`. The simulator runs this runtime, so a simulation learns the same way.
// - start: creation → Ready, once per pod (its first Ready seen), for the pod's controller;
// - termination: deletion requested → the delete delta, for a pod seen terminating.
// Only the last KEPT_PODS of each are kept, so that a set whose pods got slower is judged by what they take now;
// their log-normal moments (controller/learned-durations.ts) are kept up to date as each is learned or dropped,
// so a band costs O(1) per pod learned.
// A controller restart loses nothing that matters: the informer's first list adds every pod again, so the
// starts of the set's Ready pods are learned anew from their creation and Ready timestamps (a pod whose
// readiness flapped since counts from its last Ready transition, a longer start: the band only widens).
// Terminations are seen only as they end: until one is, the band has none (the auto deadline takes the grace
// period).

import type { Instant, KubeObject, Pod } from '../api/types.js';
import { deletionRequestedAt, NO_MOMENTS, startSecondsOf, withDuration, type LogMoments, type ObservedDurations } from '../controller/model/learned-durations.js';
import type { Clock } from './clock.js';
import type { Informer } from './informer.js';
import { controllerRefOf } from './set-targets.js';

/** Pods kept per set and kind of duration. */
export const KEPT_PODS = 100;

interface Learned {
  /** Seconds by pod UID, in the order learned. */
  start: Map<string, number>;
  termination: number[];
  moments: { start: LogMoments; termination: LogMoments };
  /** What `of` last handed out, kept until something is learned (the planner memoises its band by it). */
  view?: ObservedDurations;
}

export class DurationLearner {
  /** By the controller's UID. */
  private readonly bySet = new Map<string, Learned>();

  constructor(
    private readonly pods: Informer<Pod>,
    private readonly clock: Clock,
  ) {}

  /** Learns from the pod informer's deltas; call before it starts. Returns the remover. */
  register(): () => void {
    return this.pods.addHandler({
      onAdd: (p) => this.sawPod(p),
      onUpdate: (_a, b) => this.sawPod(b),
      onDelete: (p) => this.sawGone(p),
    });
  }

  /** What the set's pods took, for the planner (undefined: nothing learned). */
  of(set: KubeObject): ObservedDurations | undefined {
    const learned = this.bySet.get(set.metadata.uid ?? '');
    if (learned === undefined) return undefined;
    learned.view ??= { start: [...learned.start.values()], termination: [...learned.termination], moments: learned.moments };
    return learned.view;
  }

  /** Drops what was learned for a set that is gone. */
  forget(set: KubeObject): void {
    this.bySet.delete(set.metadata.uid ?? '');
  }

  private learned(pod: Pod): Learned | undefined {
    const uid = controllerRefOf(pod)?.uid;
    if (uid === undefined) return undefined;
    let learned = this.bySet.get(uid);
    if (learned === undefined) this.bySet.set(uid, (learned = { start: new Map(), termination: [], moments: { start: NO_MOMENTS, termination: NO_MOMENTS } }));
    return learned;
  }

  private sawPod(pod: Pod): void {
    const seconds = startSecondsOf(pod);
    const uid = pod.metadata.uid ?? '';
    if (seconds === undefined) return;
    const learned = this.learned(pod);
    if (learned === undefined || learned.start.has(uid)) return;
    learned.start.set(uid, seconds);
    delete learned.view;
    let start = withDuration(learned.moments.start, seconds);
    if (learned.start.size > KEPT_PODS) {
      const [oldest, dropped] = learned.start.entries().next().value as [string, number];
      learned.start.delete(oldest);
      start = withDuration(start, dropped, -1);
    }
    learned.moments = { ...learned.moments, start };
  }

  private sawGone(pod: Pod): void {
    const requested: Instant | undefined = deletionRequestedAt(pod);
    const learned = requested === undefined ? undefined : this.learned(pod);
    if (learned === undefined || requested === undefined) return;
    const seconds = Math.max(0, this.clock.now() - requested) / 1000;
    learned.termination.push(seconds);
    delete learned.view;
    let termination = withDuration(learned.moments.termination, seconds);
    if (learned.termination.length > KEPT_PODS) termination = withDuration(termination, learned.termination.shift() as number, -1);
    learned.moments = { ...learned.moments, termination };
  }
}
