// The StatefulSet registry strategy for both apps/v1 and apps.ordinal.dev/v1: strict decoding (unknown
// fields are refused, as kube-apiserver does under fieldValidation=Strict, kubectl's default), defaulting,
// status and generation rules, disabled-field dropping, then validation.

import type { Resource } from '../../api/client.js';
import { InvalidError } from '../../api/errors.js';
import type { Features } from '../../api/features.js';
import { defaultStatefulSet } from '../../api/defaults.js';
import { prepareForCreate, prepareForUpdate } from '../../api/strategy.js';
import type { StatefulSet } from '../../api/types.js';
import {
  checkKnownFields,
  formatInvalid,
  validateStatefulSet,
  validateStatefulSetStatusUpdate,
  validateStatefulSetUpdate,
} from '../../api/validation/index.js';
import type { WriteMode } from './admission.js';

export const isStatefulSetResource = (res: Resource): boolean =>
  res.plural === 'statefulsets' && (res.group === 'apps' || res.group === 'apps.ordinal.dev');

function reject(res: Resource, set: StatefulSet, issues: ReturnType<typeof validateStatefulSet>): void {
  if (issues.length > 0) throw new InvalidError(formatInvalid(res.kind, res.group, set.metadata.name ?? '', issues), issues);
}

// upstream: pkg/registry/apps/statefulset/strategy.go PrepareForCreate, Validate
export function admitStatefulSetCreate(res: Resource, set: StatefulSet, features: Features): StatefulSet {
  checkKnownFields(res, set);
  const prepared = prepareForCreate(defaultStatefulSet(set, features), undefined, features);
  reject(res, prepared, validateStatefulSet(prepared, features));
  return prepared;
}

// upstream: pkg/registry/apps/statefulset/strategy.go PrepareForUpdate, ValidateUpdate (and the status strategy)
export function admitStatefulSetUpdate(
  res: Resource,
  next: StatefulSet,
  prev: StatefulSet,
  mode: WriteMode,
  features: Features,
): StatefulSet {
  checkKnownFields(res, next);
  if (mode === 'status') {
    const stored = res.group === 'apps' ? withAppsV1Conditions(next) : next;
    reject(res, stored, validateStatefulSetStatusUpdate(stored, prev));
    return stored;
  }
  const prepared = prepareForUpdate(defaultStatefulSet(next, features), prev, features);
  reject(res, prepared, validateStatefulSetUpdate(prepared, prev, features));
  return prepared;
}

/** apps/v1's StatefulSetCondition has no lastUpdateTime (apps.ordinal.dev/v1's has): kube-apiserver drops it. */
function withAppsV1Conditions(set: StatefulSet): StatefulSet {
  const conditions = set.status?.conditions;
  if (!Array.isArray(conditions) || !conditions.some((c) => c?.lastUpdateTime !== undefined)) return set;
  return { ...set, status: { ...set.status, conditions: conditions.map(({ lastUpdateTime: _dropped, ...c }) => c) } as StatefulSet['status'] };
}
