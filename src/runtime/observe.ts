// The planner's input, read from the informer caches (never from the API): what upstream's sync gathers
// from its listers before calling UpdateStatefulSet.

import { defaultStatefulSet } from '../api/defaults.js';
import { defaultFeatures, type Features } from '../api/features.js';
import { selectorMatches } from '../api/labels.js';
import type { ControllerRevision, PersistentVolumeClaim, Pod, StatefulSet } from '../api/types.js';
import type { ObservedState } from '../controller/plan-types.js';
import type { Informer } from './informer.js';
import { controllerRefOf } from './set-targets.js';

export interface Caches {
  pods: Informer<Pod>;
  claims: Informer<PersistentVolumeClaim>;
  revisions: Informer<ControllerRevision>;
}

/** Controlled by the set, or by no controller at all (an adoption candidate). */
const ownedOrOrphan = (set: StatefulSet) => (obj: Pod | ControllerRevision) => {
  const ref = controllerRefOf(obj);
  return ref === undefined || ref.uid === set.metadata.uid;
};

/** Claim names the set's templates produce: `<template>-<set>-<ordinal>`. */
const claimPrefixes = (set: StatefulSet): string[] =>
  (set.spec.volumeClaimTemplates ?? []).map((t) => `${t.metadata.name ?? ''}-${set.metadata.name ?? ''}-`);

/**
 * Cached objects are never mutated, so the defaulted copy of one cached set is reused by every sync until
 * the set changes: the planner's memoised revision work (api/revision/hash.ts) is keyed by its identity.
 */
const defaultedSets = new WeakMap<StatefulSet, { features: Features; set: StatefulSet }>();

function defaulted(stored: StatefulSet, features: Features): StatefulSet {
  const known = defaultedSets.get(stored);
  if (known !== undefined && known.features === features) return known.set;
  const set = defaultStatefulSet(stored, features);
  defaultedSets.set(stored, { features, set });
  return set;
}

/**
 * The set is defaulted here because a CRD stores the pod template as written (kube-apiserver applies core
 * pod defaults only to apps/v1): without this, the revision hash of the same template would differ between
 * apps/v1 and apps.ordinal.dev/v1 and moving a set between them would roll its pods. Idempotent on apps/v1.
 */
// upstream: stateful_set.go sync (getPodsForStatefulSet, ListControllerRevisions, the PVC lister)
export function observe(stored: StatefulSet, caches: Caches, features: Features = defaultFeatures()): ObservedState {
  const set = defaulted(stored, features);
  const ns = set.metadata.namespace ?? '';
  const prefixes = claimPrefixes(set);
  const owned = ownedOrOrphan(set);
  return {
    set,
    pods: caches.pods.list(ns, owned),
    claims: prefixes.length === 0 ? [] : caches.claims.list(ns, (c) => prefixes.some((p) => c.metadata.name?.startsWith(p))),
    revisions: caches.revisions.list(ns, (r) =>
      controllerRefOf(r) === undefined ? selectorMatches(set.spec.selector, r.metadata.labels) : owned(r),
    ),
  };
}
