// `rollout status` under inPlaceUpdateStrategy.gracePeriodSeconds: a pod still on an old revision, not yet
// patched, whose readiness gate's condition is False drains before its in-place restart. The pod's condition
// says since when, so `rollout status` says so without the planner.

import { Labels, PodAnnotations, type Instant, type Pod, type StatefulSet } from '../../api/types.js';
import { gateState } from '../../controller/model/readiness-gate.js';
import { drainSecondsOf } from '../../controller/model/spec.js';

/** The first pod that drains before its in-place restart, in words; undefined when none does. */
export function drainWait(set: StatefulSet, pods: readonly Pod[], now: Instant): string | undefined {
  const grace = drainSecondsOf(set);
  const revision = set.status?.updateRevision;
  if (grace === 0 || revision === undefined) return undefined;
  for (const pod of pods) {
    const gate = gateState(pod);
    if (gate?.status !== 'False' || pod.metadata.labels?.[Labels.revisionHash] === revision || pod.metadata.annotations?.[PodAnnotations.inPlaceUpdateRevision] !== undefined) continue;
    const seconds = Number.isFinite(gate.since) ? Math.max(0, Math.floor((now - gate.since) / 1000)) : grace;
    return `Waiting for ${pod.metadata.name ?? ''} to drain before its in-place restart: NotReady for ${Math.min(seconds, grace)}s of ${grace}s...`;
  }
  return undefined;
}
