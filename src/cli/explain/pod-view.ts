// One line of truth per pod for `why` and `rollout status --watch`: a short state word, since when the pod
// has been in it, and whether it is on the update revision. Pure: `now` is a value.

import { fromTimestamp, type Instant, type Pod } from '../../api/types.js';
import {
  isPodAvailable,
  isPodReady,
  isTerminating,
  podAvailableAt,
  podPhase,
  podRevision,
  readyCondition,
} from '../../controller/pod-state.js';

export interface PodState {
  /** Ready, NotReady, Pending, ContainerCreating, ImagePullBackOff, CrashLoopBackOff, Terminating, Failed, … */
  state: string;
  /** When the pod entered `state` (undefined when the pod does not say). */
  since?: Instant;
  ready: boolean;
  available: boolean;
  /** Ready but minReadySeconds not yet over: when it becomes available. */
  availableAt?: Instant;
}

/** The first waiting reason of an init container, else of a container (ContainerCreating, ImagePullBackOff, …). */
export function waitingReason(pod: Pod): string | undefined {
  const init = pod.status?.initContainerStatuses;
  const statuses = [...(Array.isArray(init) ? (init as unknown[]) : []), ...(pod.status?.containerStatuses ?? [])];
  for (const s of statuses as ({ state?: { waiting?: { reason?: string } } } | null)[]) {
    const reason = s?.state?.waiting?.reason;
    if (reason) return reason;
  }
  return undefined;
}

/** Deletion was requested at deletionTimestamp − grace period. */
function terminatingSince(pod: Pod): Instant | undefined {
  const at = fromTimestamp(pod.metadata.deletionTimestamp);
  return at === undefined ? undefined : at - (pod.metadata.deletionGracePeriodSeconds ?? 0) * 1000;
}

function stateWord(pod: Pod): string {
  if (isTerminating(pod)) return 'Terminating';
  const phase = podPhase(pod);
  if (phase === 'Failed' || phase === 'Succeeded') return phase;
  if (isPodReady(pod) && phase === 'Running') return 'Ready';
  const waiting = waitingReason(pod);
  if (waiting) return waiting;
  if (phase === 'Running') return 'NotReady';
  return phase || 'Pending';
}

export function podState(pod: Pod, minReadySeconds: number, now: Instant): PodState {
  const state = stateWord(pod);
  const ready = state === 'Ready';
  const available = ready && isPodAvailable(pod, minReadySeconds, now);
  const transition = fromTimestamp(readyCondition(pod)?.lastTransitionTime);
  const since =
    state === 'Terminating'
      ? terminatingSince(pod)
      : (transition ?? fromTimestamp(pod.status?.startTime) ?? fromTimestamp(pod.metadata.creationTimestamp));
  const out: PodState = { state, ready, available };
  if (since !== undefined) out.since = since;
  const at = podAvailableAt(pod, minReadySeconds);
  if (ready && !available && at !== undefined) out.availableAt = at;
  return out;
}

export type RevisionMark = 'new' | 'old';

/** `new` when the pod is on the update revision. */
export const revisionMark = (pod: Pod, updateRevision: string): RevisionMark => (podRevision(pod) === updateRevision ? 'new' : 'old');
