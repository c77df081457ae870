// The registry strategy of StatefulSets (pkg/registry/apps/statefulset/strategy.go):
// what the API server does to an object between defaulting and validation. All functions return new
// objects and never mutate their inputs; malformed input passes through for validation to report.

import type { Features } from './features.js';
import type { StatefulSet, StatefulSetStatus } from './types.js';
import { cloneJson, deepEqual, isAbsent, isObject, type JsonObject } from './validation/json.js';

const rollingUpdateOf = (set: unknown): JsonObject | undefined => {
  const strategy = isObject(set) && isObject(set.spec) ? set.spec.updateStrategy : undefined;
  return isObject(strategy) && isObject(strategy.rollingUpdate) ? strategy.rollingUpdate : undefined;
};

// upstream: registry/apps/statefulset/strategy.go maxUnavailableInUse
const maxUnavailableInUse = (set: StatefulSet | undefined): boolean => !isAbsent(rollingUpdateOf(set)?.maxUnavailable);

/**
 * Clears fields of disabled gates unless the stored object already uses them: `rollingUpdate.maxUnavailable`
 * when MaxUnavailableStatefulSet is off. (Recreate and EnforcedRollingUpdate are gated by validation.)
 */
// upstream: registry/apps/statefulset/strategy.go dropStatefulSetDisabledFields
export function dropStatefulSetDisabledFields(next: StatefulSet, prev: StatefulSet | undefined, features: Features): void {
  if (features.MaxUnavailableStatefulSet || maxUnavailableInUse(prev)) return;
  const rollingUpdate = rollingUpdateOf(next);
  if (rollingUpdate) delete rollingUpdate.maxUnavailable;
}

/** A freshly created set's status: Go's zero StatefulSetStatus as the API server stores it. */
export const emptyStatus = (): StatefulSetStatus => ({ replicas: 0, availableReplicas: 0 });

function metadataOf(set: StatefulSet): JsonObject {
  if (!isObject(set.metadata)) (set as JsonObject).metadata = {};
  return set.metadata as JsonObject;
}

/**
 * Create: status cleared, generation 1, disabled fields dropped. Accepts `(next, features)` or
 * `(next, undefined, features)` (the create form of `(next, prev | undefined, features)`).
 */
// upstream: registry/apps/statefulset/strategy.go PrepareForCreate
export function prepareForCreate(next: StatefulSet, ...rest: [features: Features] | [prev: undefined, features: Features]): StatefulSet {
  const features = rest.length === 2 ? rest[1] : rest[0];
  if (!isObject(next)) return next;
  const out = cloneJson(next);
  out.status = emptyStatus();
  metadataOf(out).generation = 1;
  dropStatefulSetDisabledFields(out, undefined, features);
  return out;
}

/**
 * Update of the main resource: status kept from `prev` (spec writes cannot change it), disabled fields
 * dropped unless `prev` uses them, and generation = prev's + 1 iff the spec changed (metadata-only changes
 * keep it).
 */
// upstream: registry/apps/statefulset/strategy.go PrepareForUpdate
export function prepareForUpdate(next: StatefulSet, prev: StatefulSet, features: Features): StatefulSet {
  if (!isObject(next)) return next;
  const out = cloneJson(next);
  const old = isObject(prev) ? prev : undefined;
  if (old && !isAbsent(old.status)) out.status = cloneJson(old.status);
  else delete out.status;
  dropStatefulSetDisabledFields(out, old, features);
  const oldGeneration = isObject(old?.metadata) ? old.metadata.generation : undefined;
  const changed = !deepEqual(out.spec, old?.spec);
  const generation = typeof oldGeneration === 'number' ? oldGeneration + (changed ? 1 : 0) : changed ? 1 : undefined;
  if (generation === undefined) delete metadataOf(out).generation;
  else metadataOf(out).generation = generation;
  return out;
}

/**
 * Update of the status subresource: only `status` is taken from `next`; spec and metadata stay as stored
 * (upstream also resets metadata, see ResetObjectMetaForStatus). `resourceVersion` of `next` is kept for the
 * caller's precondition check.
 */
// upstream: registry/apps/statefulset/strategy.go statefulSetStatusStrategy.PrepareForUpdate
export function prepareForStatusUpdate(next: StatefulSet, prev: StatefulSet): StatefulSet {
  if (!isObject(next) || !isObject(prev)) return next;
  const out = cloneJson(prev);
  if (isAbsent(next.status)) delete out.status;
  else out.status = cloneJson(next.status);
  const rv = isObject(next.metadata) ? next.metadata.resourceVersion : undefined;
  if (rv !== undefined) metadataOf(out).resourceVersion = rv;
  return out;
}
