// The status subresource (upstream ValidateStatefulSetStatusUpdate): counters non-negative and consistent,
// collisionCount never decremented, metadata unchanged where immutable.

import type { FieldIssue } from '../errors.js';
import type { StatefulSet } from '../types.js';
import { child, invalid, IssueList, NEGATIVE } from './field.js';
import { isAbsent } from './json.js';
import { validateObjectMetaUpdate } from './metadata.js';
import { asObject, int32At, int64At, objectAt } from './values.js';

const PATH = 'status';
const COUNTERS = ['replicas', 'readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas'] as const;
const NOT_ABOVE_REPLICAS = 'cannot be greater than status.replicas';

// upstream: apps/validation ValidateStatefulSetStatus
function validateStatus(value: unknown, out: IssueList): void {
  const status = objectAt(value, PATH, out) ?? {};
  const n: Record<string, number> = {};
  for (const field of COUNTERS) {
    const v = int32At(status[field], child(PATH, field), out) ?? 0;
    if (v < 0) out.add(invalid(child(PATH, field), v, NEGATIVE));
    n[field] = v;
  }
  const generation = int64At(status.observedGeneration, child(PATH, 'observedGeneration'), out);
  if (generation !== undefined && generation < 0) out.add(invalid(child(PATH, 'observedGeneration'), generation, NEGATIVE));
  const collisions = int32At(status.collisionCount, child(PATH, 'collisionCount'), out);
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
