// Reading a (defaulted, validated) StatefulSet spec the way the controller needs it, with the API defaults
// applied again here so that a half-defaulted object (e.g. from a test or an older server) still plans.

import type { LabelSelector, PodUpdatePolicy, StatefulSet } from '../../api/types.js';

export const INT32_MAX = 2147483647;

/** Deployment's default, used for our Progressing condition when the field is absent (apps/v1 objects). */
export const DEFAULT_PROGRESS_DEADLINE_SECONDS = 600;

const nonNegativeInt = (v: unknown, fallback: number): number =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : fallback;

/** spec.replicas (nil ⇒ 1). */
export function replicasOf(set: StatefulSet): number {
  return Math.min(nonNegativeInt(set.spec.replicas, 1), INT32_MAX);
}

/** spec.ordinals.start (nil ⇒ 0). */
// upstream: stateful_set_utils.go getStartOrdinal
export function startOrdinal(set: StatefulSet): number {
  return nonNegativeInt(set.spec.ordinals?.start, 0);
}

/**
 * How many ordinals of the range [start, start + replicas) can exist: ordinals above int32 cannot be parsed
 * back from a pod name (upstream would create such a pod and then ignore it forever), so the range stops there.
 */
export function slotCountOf(set: StatefulSet): number {
  return Math.max(0, Math.min(replicasOf(set), INT32_MAX + 1 - startOrdinal(set)));
}

export function minReadySecondsOf(set: StatefulSet): number {
  return nonNegativeInt(set.spec.minReadySeconds, 0);
}

/** OrderedReady (monotonic) unless the policy is Parallel. */
export function isParallel(set: StatefulSet): boolean {
  return set.spec.podManagementPolicy === 'Parallel';
}

/** spec.updateStrategy.type (empty ⇒ RollingUpdate, the API default). */
export function declaredStrategy(set: StatefulSet): string {
  return set.spec.updateStrategy?.type || 'RollingUpdate';
}

export interface RetentionPolicy {
  whenDeleted: string;
  whenScaled: string;
}

// upstream: stateful_set_utils.go getPersistentVolumeClaimRetentionPolicy
export function retentionPolicyOf(set: StatefulSet): RetentionPolicy {
  const p = set.spec.persistentVolumeClaimRetentionPolicy;
  return { whenDeleted: p?.whenDeleted || 'Retain', whenScaled: p?.whenScaled || 'Retain' };
}

/** 600, or minReadySeconds + 600 when that is longer, since a deadline must exceed minReadySeconds (as validation requires when it is set). */
export function defaultProgressDeadlineSeconds(minReadySeconds: number): number {
  return minReadySeconds >= DEFAULT_PROGRESS_DEADLINE_SECONDS ? minReadySeconds + DEFAULT_PROGRESS_DEADLINE_SECONDS : DEFAULT_PROGRESS_DEADLINE_SECONDS;
}

/** The pod template's terminationGracePeriodSeconds (nil ⇒ 30, the pod default). */
export const terminationGraceSecondsOf = (set: StatefulSet): number => nonNegativeInt(set.spec.template.spec?.terminationGracePeriodSeconds, 30);

export function selectorOf(set: StatefulSet): LabelSelector {
  return set.spec.selector ?? {};
}

/** The set's own apiVersion/kind (native apps/v1 or our CRD): owner references must name it exactly. */
export function setTypeOf(set: StatefulSet): { apiVersion: string; kind: string } {
  return { apiVersion: set.apiVersion || 'apps/v1', kind: set.kind || 'StatefulSet' };
}

export const setName = (set: StatefulSet): string => set.metadata.name ?? '';

/** RollingUpdate's podUpdatePolicy (Recreate for every other strategy, and when unset). */
export function podUpdatePolicyOf(set: StatefulSet): PodUpdatePolicy {
  const strategy = set.spec.updateStrategy;
  const policy = strategy?.rollingUpdate?.podUpdatePolicy;
  const rolling = (strategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
  return rolling && (policy === 'InPlaceIfPossible' || policy === 'InPlaceOnly') ? policy : 'Recreate';
}

/** Whether the set's update disruptions wait on PodDisruptionBudgets (rollingUpdate.respectPodDisruptionBudgets). */
export const respectsBudgets = (set: StatefulSet): boolean => set.spec.updateStrategy?.rollingUpdate?.respectPodDisruptionBudgets === true;

/**
 * rollingUpdate.inPlaceUpdateStrategy.gracePeriodSeconds, in effect only while pods move in place
 * (podUpdatePolicy InPlaceIfPossible/InPlaceOnly under RollingUpdate); 0 otherwise, and when unset.
 */
export function drainSecondsOf(set: StatefulSet): number {
  if (podUpdatePolicyOf(set) === 'Recreate') return 0;
  const grace = set.spec.updateStrategy?.rollingUpdate?.inPlaceUpdateStrategy?.gracePeriodSeconds;
  return typeof grace === 'number' && Number.isInteger(grace) && grace > 0 ? grace : 0;
}
