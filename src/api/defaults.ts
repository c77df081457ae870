// StatefulSet defaulting as kube-apiserver applies it (apps/v1 SetObjectDefaults_StatefulSet), plus the
// defaults of Ordinal's extensions for apps.ordinal.dev/v1 objects. Defaulting never mutates its input and
// never throws: a field of the wrong type is left alone for validation to report.

import type { Features } from './features.js';
import { applyClaimDefaults, applyPodSpecDefaults } from './pod-defaults.js';
import { ORDINAL_V1, type StatefulSet } from './types.js';
import { cloneJson, isAbsent, isEmptyString, isObject, type JsonObject } from './validation/json.js';

/** Ordinal's default for `spec.progressDeadlineSeconds` (as Deployments). */
export const DEFAULT_PROGRESS_DEADLINE_SECONDS = 600;

const objectAt = (obj: JsonObject, k: string): JsonObject | undefined => (isObject(obj[k]) ? (obj[k] as JsonObject) : undefined);

/** Creates `obj[k] = {}` when absent; returns the object there, or undefined when it holds another type. */
function ensureObject(obj: JsonObject, k: string): JsonObject | undefined {
  if (isAbsent(obj[k])) obj[k] = {};
  return objectAt(obj, k);
}

/** Steps 1–3: podManagementPolicy, the strategy type, and the rollingUpdate fields. */
// upstream: apps/v1/defaults.go SetDefaults_StatefulSet
function defaultUpdateStrategy(spec: JsonObject, features: Features): void {
  if (isEmptyString(spec.podManagementPolicy)) spec.podManagementPolicy = 'OrderedReady';
  const strategy = ensureObject(spec, 'updateStrategy');
  if (!strategy) return;
  if (isEmptyString(strategy.type)) {
    strategy.type = 'RollingUpdate';
    // only an implicit type gets a rollingUpdate block; an explicit `type: RollingUpdate` keeps it nil
    if (isAbsent(strategy.rollingUpdate)) strategy.rollingUpdate = {};
  }
  const rollingUpdate = objectAt(strategy, 'rollingUpdate');
  if (strategy.type !== 'RollingUpdate' || !rollingUpdate) return;
  if (isAbsent(rollingUpdate.partition)) rollingUpdate.partition = 0;
  if (features.MaxUnavailableStatefulSet && isAbsent(rollingUpdate.maxUnavailable)) rollingUpdate.maxUnavailable = 1;
}

/** Steps 4–6: the PVC retention policy (StatefulSetAutoDeletePVC is GA), replicas, revisionHistoryLimit. */
// upstream: apps/v1/defaults.go SetDefaults_StatefulSet
function defaultCounts(spec: JsonObject): void {
  const policy = ensureObject(spec, 'persistentVolumeClaimRetentionPolicy');
  if (policy && isEmptyString(policy.whenDeleted)) policy.whenDeleted = 'Retain';
  if (policy && isEmptyString(policy.whenScaled)) policy.whenScaled = 'Retain';
  if (isAbsent(spec.replicas)) spec.replicas = 1;
  // Go's encoder writes these non-omitempty fields, so the real server always returns them.
  if (isAbsent(spec.serviceName)) spec.serviceName = '';
  const ordinals = objectAt(spec, 'ordinals');
  if (ordinals && isAbsent(ordinals.start)) ordinals.start = 0;
  if (isAbsent(spec.revisionHistoryLimit)) spec.revisionHistoryLimit = 10;
}

/** apps.ordinal.dev/v1 only: batchStartPolicy, podUpdatePolicy, inPlaceUpdateStrategy.gracePeriodSeconds, onFailure, progressDeadlineSeconds, volumeClaimUpdatePolicy and the enforcedRollingUpdate block. */
function defaultExtensions(spec: JsonObject): void {
  const strategy = objectAt(spec, 'updateStrategy');
  const rollingUpdate = strategy && objectAt(strategy, 'rollingUpdate');
  if (rollingUpdate && isEmptyString(rollingUpdate.batchStartPolicy)) rollingUpdate.batchStartPolicy = 'Ordered';
  if (rollingUpdate && isEmptyString(rollingUpdate.podUpdatePolicy)) rollingUpdate.podUpdatePolicy = 'Recreate';
  if (rollingUpdate && isEmptyString(rollingUpdate.onFailure)) rollingUpdate.onFailure = 'Halt';
  const inPlace = rollingUpdate && objectAt(rollingUpdate, 'inPlaceUpdateStrategy');
  if (inPlace && isAbsent(inPlace.gracePeriodSeconds)) inPlace.gracePeriodSeconds = 0;
  if (isAbsent(spec.progressDeadlineSeconds)) spec.progressDeadlineSeconds = DEFAULT_PROGRESS_DEADLINE_SECONDS;
  if (isAbsent(spec.volumeClaimUpdatePolicy)) spec.volumeClaimUpdatePolicy = 'OnDelete';
  if (strategy?.type !== 'EnforcedRollingUpdate') return;
  const enforced = ensureObject(strategy, 'enforcedRollingUpdate');
  if (enforced && isAbsent(enforced.partition)) enforced.partition = 0;
  if (enforced && isAbsent(enforced.maxUnavailable)) enforced.maxUnavailable = 1;
  if (enforced && isEmptyString(enforced.onFailure)) enforced.onFailure = 'Halt';
}

/**
 * The pod template's PodSpec and every volumeClaimTemplate get core defaults (part of the revision hash).
 * apps/v1 also stamps `apiVersion: v1, kind: PersistentVolumeClaim` on each claim template, as the API
 * server's conversion does on every read (issue #87583); a CRD stores claim templates as written.
 */
// upstream: apps/v1/zz_generated.defaults.go SetObjectDefaults_StatefulSet, conversion.go Convert_apps_StatefulSetSpec_To_v1_StatefulSetSpec
function defaultNested(spec: JsonObject, native: boolean): void {
  const template = ensureObject(spec, 'template');
  const podSpec = template && ensureObject(template, 'spec');
  if (podSpec) applyPodSpecDefaults(podSpec);
  if (!Array.isArray(spec.volumeClaimTemplates)) return;
  for (const claim of spec.volumeClaimTemplates) {
    if (!isObject(claim)) continue;
    applyClaimDefaults(claim);
    if (native) Object.assign(claim, { apiVersion: 'v1', kind: 'PersistentVolumeClaim' });
  }
}

/**
 * A defaulted copy of `set`, in upstream's order (§1.4 steps 1–6, then the pod template and claim templates);
 * for `apiVersion: apps.ordinal.dev/v1` also the extension defaults. apps/v1 objects never get extension
 * defaults. `maxUnavailable` is defaulted only when the MaxUnavailableStatefulSet gate is on.
 */
export function defaultStatefulSet(set: StatefulSet, features: Features): StatefulSet {
  if (!isObject(set)) return set;
  const out = cloneJson(set) as StatefulSet & JsonObject;
  if (isAbsent(out.spec)) (out as JsonObject).spec = {};
  const spec = objectAt(out, 'spec');
  if (!spec) return out;
  defaultUpdateStrategy(spec, features);
  defaultCounts(spec);
  const ordinal = out.apiVersion === ORDINAL_V1;
  if (ordinal) defaultExtensions(spec);
  defaultNested(spec, !ordinal);
  return out;
}
