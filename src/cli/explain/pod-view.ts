// One line of truth per pod for `why` and `rollout status --watch`: a short state word, since when the pod
// has been in it, and whether it is on the update revision. Pure: `now` is a value.

import type { Instant, Pod } from '../../api/types.js';
import {
  isPodAvailable,
  isPodReady,
  isTerminating,
  podAvailableAt,
  podPhase,
  podRevision,
  stateSince,
  waitingStates,
} from '../../controller/model/pod-state.js';

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

function stateWord(pod: Pod): string {
  if (isTerminating(pod)) return 'Terminating';
  const phase = podPhase(pod);
  if (phase === 'Failed' || phase === 'Succeeded') return phase;
  if (isPodReady(pod) && phase === 'Running') return 'Ready';
  const waiting = waitingStates(pod)[0]?.reason;
  if (waiting) return waiting;
  if (phase === 'Running') return 'NotReady';
  return phase || 'Pending';
}

export function podState(pod: Pod, minReadySeconds: number, now: Instant): PodState {
  const state = stateWord(pod);
  const ready = state === 'Ready';
  const available = ready && isPodAvailable(pod, minReadySeconds, now);
  const since = stateSince(pod);
  const out: PodState = { state, ready, available };
  if (since !== undefined) out.since = since;
  const at = podAvailableAt(pod, minReadySeconds);
  if (ready && !available && at !== undefined) out.availableAt = at;
  return out;
}

export type RevisionMark = 'new' | 'old';

/** `new` when the pod is on the update revision. */
export const revisionMark = (pod: Pod, updateRevision: string): RevisionMark => (podRevision(pod) === updateRevision ? 'new' : 'old');
