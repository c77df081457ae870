// The status subresource (upstream ValidateStatefulSetStatusUpdate): counters non-negative and consistent,
// collisionCount never decremented, metadata unchanged where immutable; and the JSON types of a stored status.

import type { FieldIssue } from '../errors.js';
import type { StatefulSet } from '../types.js';
import { child, index, invalid, IssueList, NEGATIVE } from './field.js';
import { isAbsent } from './json.js';
import { validateObjectMetaUpdate } from './metadata.js';
import { arrayAt, asObject, int32At, int64At, objectAt, stringAt } from './values.js';

const PATH = 'status';
const COUNTERS = ['replicas', 'readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas'] as const;
const NOT_ABOVE_REPLICAS = 'cannot be greater than status.replicas';
const STRINGS = ['currentRevision', 'updateRevision', 'selector', 'abortedRevision', 'lastAvailableRevision', 'observedRolloutRetry'] as const;
const CONDITION_STRINGS = ['type', 'status', 'reason', 'message', 'lastTransitionTime', 'lastUpdateTime'] as const;

/** Each item of a status list (conditions, volumeClaimTemplates) an object, its `strings` strings and `ints` int32s. */
function validateItems(value: unknown, path: string, strings: readonly string[], ints: readonly string[], out: IssueList): void {
  for (const [i, item] of (arrayAt(value, path, out) ?? []).entries()) {
    if (out.full) return;
    const o = objectAt(item, index(path, i), out) ?? {};
    for (const f of strings) stringAt(o[f], child(index(path, i), f), out);
    for (const f of ints) int32At(o[f], child(index(path, i), f), out);
  }
}

/**
 * The JSON types of a status: what the API server's decoder (apps/v1) or the CRD's schema refuses in any
 * other type, so a stored status never holds another. The planner reads a stored status only once these
 * hold (as it reads the spec once validation holds).
 */
export function validateStatusTypes(value: unknown, out: IssueList): void {
  const status = objectAt(value, PATH, out) ?? {};
  for (const field of COUNTERS) int32At(status[field], child(PATH, field), out);
  int64At(status.observedGeneration, child(PATH, 'observedGeneration'), out);
  int32At(status.collisionCount, child(PATH, 'collisionCount'), out);
  for (const field of STRINGS) stringAt(status[field], child(PATH, field), out);
  validateItems(status.conditions, child(PATH, 'conditions'), CONDITION_STRINGS, [], out);
  validateItems(status.volumeClaimTemplates, child(PATH, 'volumeClaimTemplates'), ['name', 'totalCapacity'], ['compatible', 'updating', 'overSized'], out);
}

const integer = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) ? v : undefined);

// upstream: apps/validation ValidateStatefulSetStatus
function validateStatus(value: unknown, out: IssueList): void {
  validateStatusTypes(value, out);
  const status = asObject(value) ?? {};
  const n: Record<string, number> = {};
  for (const field of COUNTERS) {
    const v = integer(status[field]) ?? 0;
    if (v < 0) out.add(invalid(child(PATH, field), v, NEGATIVE));
    n[field] = v;
  }
  const generation = integer(status.observedGeneration);
  if (generation !== undefined && generation < 0) out.add(invalid(child(PATH, 'observedGeneration'), generation, NEGATIVE));
  const collisions = integer(status.collisionCount);
  if (collisions !== undefined && collisions < 0) out.add(invalid(child(PATH, 'collisionCount'), collisions, NEGATIVE));
  const replicas = n.replicas ?? 0;
  for (const field of ['readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas']) {
    if ((n[field] ?? 0) > replicas) out.add(invalid(child(PATH, field), n[field], NOT_ABOVE_REPLICAS));
  }
  if ((n.availableReplicas ?? 0) > (n.readyReplicas ?? 0)) {
    out.add(invalid(child(PATH, 'availableReplicas'), n.availableReplicas, 'cannot be greater than status.readyReplicas'));
  }
}

/**
 * Validates a status write of `next` (any JSON) over the stored `prev`. Never throws. Only status and the
 * immutable metadata are looked at: the status strategy keeps the stored spec.
 */
// upstream: apps/validation ValidateStatefulSetStatusUpdate
export function validateStatefulSetStatusUpdate(next: unknown, prev: StatefulSet): FieldIssue[] {
  const out = new IssueList();
  const root = asObject(next) ?? {};
  validateStatus(root.status, out);
  validateObjectMetaUpdate(root.metadata, asObject(prev)?.metadata, out);
  const now = asObject(root.status)?.collisionCount;
  const before = asObject(asObject(prev)?.status)?.collisionCount;
  // upstream IsDecremented: a set counter may not go down or be cleared
  const decremented = typeof before === 'number' && (isAbsent(now) || (typeof now === 'number' && now < before));
  if (decremented) out.add(invalid(child(PATH, 'collisionCount'), typeof now === 'number' ? now : 0, 'cannot be decremented'));
  return out.items;
}
