// Pod predicates of upstream's stateful_set_utils.go and podutil, shared by the planner, the simulator,
// `why` and the invariant checkers. Availability takes `now` as a value.

import { fromTimestamp, Labels, PodAnnotations, type Instant, type Pod, type PodCondition, type StatefulSet } from '../../api/types.js';

const INT32_MAX = 2147483647;
const statefulPodName = /^(.*)-([0-9]+)$/;

export interface ParentAndOrdinal {
  /** Parsed parent set name; '' when the name does not look like `<set>-<n>`. */
  parent: string;
  /** Parsed ordinal; -1 when absent or not an int32. */
  ordinal: number;
}

/**
 * Go's regexp `(.*)-([0-9]+)$` and strconv.ParseInt(…, 10, 32) on the pod name. The planner reads a pod's
 * parsed name from its facts (pod-facts.ts), worked out once per pod object by the controller's own cache.
 */
// upstream: stateful_set_utils.go getParentNameAndOrdinal
export function parentNameAndOrdinal(name: string | undefined): ParentAndOrdinal {
  const m = statefulPodName.exec(name ?? '');
  if (m === null) return { parent: '', ordinal: -1 };
  const digits = m[2] ?? '';
  const n = Number(digits);
  return { parent: m[1] ?? '', ordinal: digits.length <= 12 && n <= INT32_MAX ? n : -1 };
}

/** The ordinal in the pod's name, or -1. */
// upstream: stateful_set_utils.go getOrdinal
export function podOrdinal(pod: Pod): number {
  return parentNameAndOrdinal(pod.metadata.name).ordinal;
}

// upstream: stateful_set_utils.go isMemberOf
export function isMemberOf(set: StatefulSet, pod: Pod): boolean {
  return parentNameAndOrdinal(pod.metadata.name).parent === set.metadata.name;
}

/** Value of the `controller-revision-hash` label ('' when absent). */
// upstream: stateful_set_utils.go getPodRevision
export function podRevision(pod: Pod): string {
  return pod.metadata.labels?.[Labels.revisionHash] ?? '';
}

/** The revision a pod is being moved to in place (podUpdatePolicy), while the kubelet has not reported its new images. */
export function inPlaceTarget(pod: Pod): string | undefined {
  return pod.metadata.annotations?.[PodAnnotations.inPlaceUpdateRevision];
}

export function podPhase(pod: Pod): string {
  return pod.status?.phase ?? '';
}

export function readyCondition(pod: Pod): PodCondition | undefined {
  const conditions = pod.status?.conditions;
  return Array.isArray(conditions) ? conditions.find((c) => c?.type === 'Ready') : undefined;
}

// upstream: pkg/api/v1/pod IsPodReady
export function isPodReady(pod: Pod): boolean {
  return readyCondition(pod)?.status === 'True';
}

// upstream: stateful_set_utils.go isRunningAndReady
export function isRunningAndReady(pod: Pod): boolean {
  return podPhase(pod) === 'Running' && isPodReady(pod);
}

// upstream: stateful_set_utils.go isTerminating
export function isTerminating(pod: Pod): boolean {
  return typeof pod.metadata.deletionTimestamp === 'string' && pod.metadata.deletionTimestamp !== '';
}

/** Every waiting container state of the pod, init containers first (reason and message). */
export function waitingStates(pod: Pod): { reason: string; message: string }[] {
  const init = pod.status?.initContainerStatuses;
  const statuses = [...(Array.isArray(init) ? (init as unknown[]) : []), ...(pod.status?.containerStatuses ?? [])];
  const out: { reason: string; message: string }[] = [];
  for (const s of statuses as ({ state?: { waiting?: { reason?: string; message?: string } } } | null)[]) {
    const w = s?.state?.waiting;
    if (w?.reason) out.push({ reason: w.reason, message: w.message ?? '' });
  }
  return out;
}

/**
 * When the pod entered its current state, for "time in state": the deletion request (deletionTimestamp −
 * grace period) of a terminating pod, else Ready's last transition, else its start, else its creation.
 */
export function stateSince(pod: Pod): Instant | undefined {
  if (isTerminating(pod)) {
    const at = fromTimestamp(pod.metadata.deletionTimestamp);
    return at === undefined ? undefined : at - (pod.metadata.deletionGracePeriodSeconds ?? 0) * 1000;
  }
  return fromTimestamp(readyCondition(pod)?.lastTransitionTime) ?? fromTimestamp(pod.status?.startTime) ?? fromTimestamp(pod.metadata.creationTimestamp);
}

export const isFailed = (pod: Pod): boolean => podPhase(pod) === 'Failed';
export const isSucceeded = (pod: Pod): boolean => podPhase(pod) === 'Succeeded';
export const isPending = (pod: Pod): boolean => podPhase(pod) === 'Pending';

/**
 * When a Ready pod is (or was) first available: Ready's lastTransitionTime + minReadySeconds. Undefined when
 * the pod is not Ready, or when minReadySeconds > 0 and the transition time is missing (never available).
 */
export function podAvailableAt(pod: Pod, minReadySeconds: number): Instant | undefined {
  const ready = readyCondition(pod);
  if (ready?.status !== 'True') return undefined;
  const since = fromTimestamp(ready.lastTransitionTime);
  if (minReadySeconds <= 0) return since ?? Number.NEGATIVE_INFINITY;
  return since === undefined ? undefined : since + minReadySeconds * 1000;
}

/** Ready for at least minReadySeconds at `now` (boundary included, as newer podutil does). */
// upstream: pkg/api/v1/pod IsPodAvailable
export function isPodAvailable(pod: Pod, minReadySeconds: number, now: Instant): boolean {
  if (minReadySeconds <= 0) return isPodReady(pod); // no timestamp to parse: the common case stays cheap
  const at = podAvailableAt(pod, minReadySeconds);
  return at !== undefined && at <= now;
}

// upstream: stateful_set_utils.go isRunningAndAvailable
export function isRunningAndAvailable(pod: Pod, minReadySeconds: number, now: Instant): boolean {
  return isRunningAndReady(pod) && isPodAvailable(pod, minReadySeconds, now);
}

/** Not Running∧Ready∧available, or terminating (#130909's notion, used for every budget and gate). */
// upstream: stateful_set_utils.go isUnavailable
export function isUnavailable(pod: Pod, minReadySeconds: number, now: Instant): boolean {
  return !isRunningAndAvailable(pod, minReadySeconds, now) || isTerminating(pod);
}

/** Container waiting reasons that mean "will not become Ready without a change" (EnforcedRollingUpdate). */
export const STUCK_WAITING_REASONS: ReadonlySet<string> = new Set([
  'CrashLoopBackOff',
  'ImagePullBackOff',
  'ErrImagePull',
  'ErrImageNeverPull',
  'InvalidImageName',
  'CreateContainerConfigError',
  'CreateContainerError',
  'RunContainerError',
]);

/** A failure state the pod cannot leave by itself: phase Failed or a stuck container reason; else undefined. */
export function stuckReason(pod: Pod): string | undefined {
  if (isFailed(pod)) return 'Failed';
  const init = pod.status?.initContainerStatuses;
  const statuses: unknown[] = [...(Array.isArray(init) ? init : []), ...(pod.status?.containerStatuses ?? [])];
  for (const s of statuses as ({ state?: { waiting?: { reason?: string } } } | null)[]) {
    const reason = s?.state?.waiting?.reason;
    if (reason !== undefined && STUCK_WAITING_REASONS.has(reason)) return reason;
  }
  return undefined;
}

/** A short human description of a pod's state for blockers and events. */
export function describePodState(pod: Pod): string {
  if (isTerminating(pod)) return 'Terminating';
  const stuck = stuckReason(pod);
  if (stuck !== undefined) return stuck;
  const phase = podPhase(pod) || 'Unknown';
  return isPodReady(pod) ? phase : `${phase}, not Ready`;
}
