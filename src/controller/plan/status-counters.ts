// Status counters: computed from scratch every sync, the optimistic
// currentReplicas decrement of update deletions, the completion promotion, and the write decision.

import { selectorToString } from '../../api/labels.js';
import { ORDINAL_V1, type Condition, type Instant, type Pod, type StatefulSet, type StatefulSetStatus, type VolumeClaimTemplateStatus } from '../../api/types.js';
import { isRunningAndAvailable, isRunningAndReady, isTerminating, podRevision } from '../model/pod-state.js';
import { replicasOf } from '../model/spec.js';

export interface ReplicaCounts {
  replicas: number;
  readyReplicas: number;
  availableReplicas: number;
  currentReplicas: number;
  updatedReplicas: number;
}

/** What a replica's claims add to its pod's state (InPlace, KEP-4650); absent: nothing. */
export interface ClaimView {
  /** No claim is expanding. */
  ready(pod: Pod): boolean;
  /** Ready for minReadySeconds since the last expansion ended. */
  available(pod: Pod): boolean;
  /** The claims are not at the pod's revision yet: the replica is not counted on it. */
  lagging(pod: Pod): boolean;
}

/** Counts over existing pods (every observed pod is created: the API server sets a phase). */
// upstream: stateful_set_control.go computeReplicaStatus
export function computeReplicaStatus(
  pods: readonly Pod[],
  minReadySeconds: number,
  currentRevision: string,
  updateRevision: string,
  now: Instant,
  claims?: ClaimView,
): ReplicaCounts {
  const c: ReplicaCounts = { replicas: 0, readyReplicas: 0, availableReplicas: 0, currentReplicas: 0, updatedReplicas: 0 };
  for (const pod of pods) {
    c.replicas++;
    if (isRunningAndReady(pod) && (claims?.ready(pod) ?? true)) {
      c.readyReplicas++;
      if (isRunningAndAvailable(pod, minReadySeconds, now) && (claims?.available(pod) ?? true)) c.availableReplicas++;
    }
    if (isTerminating(pod)) continue;
    const revision = podRevision(pod);
    if (revision === currentRevision) c.currentReplicas++;
    if (revision === updateRevision && !(claims?.lagging(pod) ?? false)) c.updatedReplicas++;
  }
  return c;
}

export interface StatusInput {
  set: StatefulSet;
  counts: ReplicaCounts;
  currentRevision: string;
  updateRevision: string;
  collisionCount: number;
}

export function newStatus(input: StatusInput): StatefulSetStatus {
  const selector = scaleSelector(input.set);
  return {
    observedGeneration: input.set.metadata.generation ?? 0,
    ...input.counts,
    currentRevision: input.currentRevision,
    updateRevision: input.updateRevision,
    collisionCount: input.collisionCount,
    ...(selector === undefined ? {} : { selector }),
  };
}

/**
 * The CRD's scale subresource reads the selector from `.status.selector` (apps/v1 computes it), so HPA
 * can scale an apps.ordinal.dev/v1 set. apps/v1 status has no such field.
 */
function scaleSelector(set: StatefulSet): string | undefined {
  if (set.apiVersion !== ORDINAL_V1 || set.spec.selector === undefined) return undefined;
  try {
    return selectorToString(set.spec.selector);
  } catch {
    return undefined;
  }
}

/**
 * When every replica is updated and ready, the update revision becomes the current one. Applies to every
 * strategy (#136833 made OnDelete converge too). Availability is not required, as upstream (#136831).
 */
// upstream: stateful_set_utils.go completeUpdate (completeRollingUpdate before 1.37)
export function completeUpdate(set: StatefulSet, status: StatefulSetStatus): StatefulSetStatus {
  const replicas = replicasOf(set);
  if (status.updatedReplicas === replicas && status.readyReplicas === replicas && status.replicas === replicas) {
    return { ...status, currentReplicas: status.updatedReplicas, currentRevision: status.updateRevision };
  }
  return status;
}

const n = (v: number | undefined): number => v ?? 0;

// upstream: stateful_set_utils.go inconsistentStatus
export function inconsistentStatus(stored: StatefulSetStatus | undefined, next: StatefulSetStatus): boolean {
  const s = stored ?? { replicas: 0 };
  return (
    n(next.observedGeneration) > n(s.observedGeneration) ||
    n(next.replicas) !== n(s.replicas) ||
    n(next.currentReplicas) !== n(s.currentReplicas) ||
    n(next.readyReplicas) !== n(s.readyReplicas) ||
    n(next.updatedReplicas) !== n(s.updatedReplicas) ||
    (next.currentRevision ?? '') !== (s.currentRevision ?? '') ||
    n(next.availableReplicas) !== n(s.availableReplicas) ||
    (next.updateRevision ?? '') !== (s.updateRevision ?? '') ||
    (next.selector ?? '') !== (s.selector ?? '')
  );
}

const sameCondition = (a: Condition, b: Condition): boolean =>
  a.type === b.type &&
  a.status === b.status &&
  (a.reason ?? '') === (b.reason ?? '') &&
  (a.message ?? '') === (b.message ?? '') &&
  (a.lastTransitionTime ?? '') === (b.lastTransitionTime ?? '') &&
  (a.lastUpdateTime ?? '') === (b.lastUpdateTime ?? '');

const list = (c: readonly Condition[] | undefined): Condition[] => (Array.isArray(c) ? c.filter((x) => x !== null && typeof x === 'object') : []);

/** The same conditions in any order (a set has a handful: each is looked for among the others). */
export function conditionsEqual(a: readonly Condition[] | undefined, b: readonly Condition[] | undefined): boolean {
  const x = list(a);
  const y = list(b);
  if (x.length !== y.length) return false;
  const unmatched = [...y];
  return x.every((c) => {
    const k = unmatched.findIndex((d) => sameCondition(c, d));
    if (k < 0) return false;
    unmatched.splice(k, 1);
    return true;
  });
}

/**
 * Whether to write: upstream's inconsistentStatus, plus collisionCount (upstream leaves a raised count
 * unwritten until another field changes) and conditions. `quietConditions` suppresses a write whose only
 * change would be adding conditions to a converged set that has none (a steady-state sync of a
 * set converged by kube-controller-manager makes zero writes).
 */
const claimStatusKey = (list: readonly VolumeClaimTemplateStatus[] | undefined): string =>
  JSON.stringify((Array.isArray(list) ? list : []).map((t) => [t?.name, t?.compatible, t?.updating, t?.overSized, t?.totalCapacity]));

/** onFailure: Rollback's record (controller/rollback.ts). */
const ABORT_FIELDS = ['abortedRevision', 'lastAvailableRevision', 'observedRolloutRetry'] as const;

/** rollingUpdate.steps and paused (controller/rollout-steps.ts), field by field. */
const stepStatusKey = (s: StatefulSetStatus | undefined): string => {
  const a = s?.stepAnalysis;
  const pauses = Array.isArray(s?.pauseConditions) ? s.pauseConditions.map((p) => `${p?.reason}@${p?.since}`).sort() : [];
  return JSON.stringify([s?.currentStepIndex, s?.currentStepState, s?.currentStepSince, s?.stepRevision, a?.successful, a?.failed, a?.lastCheckTime, a?.message, pauses]);
};

export function statusChanged(stored: StatefulSetStatus | undefined, next: StatefulSetStatus, quietConditions: boolean): boolean {
  if (inconsistentStatus(stored, next)) return true;
  // field by field: the API server returns a custom resource's keys in its own order
  if (claimStatusKey(stored?.volumeClaimTemplates) !== claimStatusKey(next.volumeClaimTemplates)) return true;
  if (n(stored?.collisionCount) !== n(next.collisionCount)) return true;
  if (ABORT_FIELDS.some((f) => (stored?.[f] ?? '') !== (next[f] ?? ''))) return true;
  if (stepStatusKey(stored) !== stepStatusKey(next)) return true;
  if (conditionsEqual(stored?.conditions, next.conditions)) return false;
  return !(quietConditions && list(stored?.conditions).length === 0);
}
