// PersistentVolumeClaims of a set's pods: names, the claims a pod needs,
// and the owner references the retention policy asks for. The controller never deletes a claim; the
// garbage collector does, through these references.

import type { OwnerReference, PersistentVolumeClaim, Pod, StatefulSet } from '../../api/types.js';
import { parentNameAndOrdinal } from './pod-state.js';
import { retentionPolicyOf, setTypeOf, slotCountOf, startOrdinal } from './spec.js';

interface TypedName {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
}

export function claimTemplates(set: StatefulSet): PersistentVolumeClaim[] {
  return Array.isArray(set.spec.volumeClaimTemplates) ? set.spec.volumeClaimTemplates : [];
}

// upstream: stateful_set_utils.go getPersistentVolumeClaimName
export function claimNameFor(set: StatefulSet, template: PersistentVolumeClaim, ordinal: number): string {
  return `${template.metadata.name ?? ''}-${set.metadata.name ?? ''}-${ordinal}`;
}

/**
 * The volumes of `pod` that mount its ordinal's claim of a template of that name (`<volume>-<set>-<ordinal>`),
 * by name: the claim templates the pod was created with, whatever the set's templates are now.
 */
export function mountedClaimTemplates(set: StatefulSet, pod: Pod): Set<string> {
  const ordinal = parentNameAndOrdinal(pod.metadata.name).ordinal;
  const prefix = `-${set.metadata.name ?? ''}-${ordinal}`;
  return new Set((pod.spec.volumes ?? []).filter((v) => v.persistentVolumeClaim?.claimName === `${v.name}${prefix}`).map((v) => v.name));
}

/**
 * The pod mounts the claims of exactly `set`'s templates (in any order): it can run `set`'s revision without
 * new volumes. A pod of a revision with other templates (one added or removed under volumeClaimUpdatePolicy
 * InPlace) must be replaced: a pod's volumes never change.
 */
export function claimVolumesMatch(set: StatefulSet, pod: Pod): boolean {
  const mounted = mountedClaimTemplates(set, pod);
  const names = new Set(claimTemplates(set).map((t) => t.metadata.name ?? ''));
  return mounted.size === names.size && [...names].every((n) => mounted.has(n));
}

const ORDINAL_TEXT = /^(0|[1-9][0-9]*)$/;

/** The ordinal whose claim of `template` is called `claimName`, or undefined when the template would not name it. */
export function claimOrdinal(set: StatefulSet, template: PersistentVolumeClaim, claimName: string): number | undefined {
  const prefix = `${template.metadata.name ?? ''}-${set.metadata.name ?? ''}-`;
  const rest = claimName.slice(prefix.length);
  return claimName.startsWith(prefix) && ORDINAL_TEXT.test(rest) ? Number(rest) : undefined;
}

/** Names of the claims the pod with `ordinal` mounts, in template order (cheap: no copies). */
export function claimNamesForOrdinal(set: StatefulSet, ordinal: number): string[] {
  return claimTemplates(set).map((t) => claimNameFor(set, t, ordinal));
}

/** The claims the pod with `ordinal` mounts, in template order: template + name, namespace, selector labels. */
// upstream: stateful_set_utils.go getPersistentVolumeClaims
export function claimsForOrdinal(set: StatefulSet, ordinal: number): PersistentVolumeClaim[] {
  const selectorLabels = set.spec.selector?.matchLabels;
  return claimTemplates(set).map((template) => {
    const { status: _status, ...rest } = structuredClone(template);
    const labels = rest.metadata.labels ? { ...rest.metadata.labels, ...selectorLabels } : selectorLabels && { ...selectorLabels };
    const metadata = { ...rest.metadata, name: claimNameFor(set, template, ordinal), namespace: set.metadata.namespace };
    if (labels) metadata.labels = labels;
    else delete metadata.labels;
    return { ...rest, apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata };
  });
}

const setOwner = (set: StatefulSet): TypedName => ({ ...setTypeOf(set), name: set.metadata.name ?? '', uid: set.metadata.uid ?? '' });
const podOwner = (pod: Pod): TypedName => ({ apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name ?? '', uid: pod.metadata.uid ?? '' });
const refs = (claim: PersistentVolumeClaim): OwnerReference[] => claim.metadata.ownerReferences ?? [];

// upstream: stateful_set_utils.go matchesRef
const matchesRef = (ref: OwnerReference, o: TypedName): boolean =>
  ref.apiVersion === o.apiVersion && ref.kind === o.kind && ref.name === o.name;

// upstream: stateful_set_utils.go hasOwnerRef
const hasOwnerRef = (claim: PersistentVolumeClaim, o: TypedName): boolean => refs(claim).some((r) => r.uid === o.uid);

/** The first reference naming the object (by apiVersion, kind, name) has another UID: a previous incarnation. */
// upstream: stateful_set_utils.go hasStaleOwnerRef
export function hasStaleOwnerRef(claim: PersistentVolumeClaim, o: TypedName): boolean {
  const ref = refs(claim).find((r) => matchesRef(r, o));
  return ref !== undefined && ref.uid !== o.uid;
}

// upstream: stateful_set_utils.go podInOrdinalRange
export function podInOrdinalRange(pod: Pod, set: StatefulSet): boolean {
  const ordinal = parentNameAndOrdinal(pod.metadata.name).ordinal;
  const start = startOrdinal(set);
  return ordinal >= start && ordinal < start + slotCountOf(set);
}

const isRetainRetain = (set: StatefulSet): boolean => {
  const p = retentionPolicyOf(set);
  return p.whenScaled === 'Retain' && p.whenDeleted === 'Retain';
};

/** Another controller manages the claim (only a problem when the policy deletes anything). */
// upstream: stateful_set_utils.go hasUnexpectedController
export function hasUnexpectedController(claim: PersistentVolumeClaim, set: StatefulSet, pod: Pod): boolean {
  if (isRetainRetain(set)) return false;
  const s = setOwner(set);
  const p = podOwner(pod);
  return refs(claim).some((r) => {
    if (matchesRef(r, s)) return r.uid !== s.uid;
    if (matchesRef(r, p)) return r.uid !== p.uid;
    return r.controller === true;
  });
}

// upstream: stateful_set_utils.go hasNonControllerOwner
const hasNonControllerOwner = (claim: PersistentVolumeClaim, set: StatefulSet, pod: Pod): boolean =>
  refs(claim).some((r) => (r.uid === (set.metadata.uid ?? '') || r.uid === (pod.metadata.uid ?? '')) && r.controller !== true);

/** Which owners the policy wants on a claim of `pod`: the set (live claims) and/or the pod (condemned claims). */
function wantedOwners(set: StatefulSet, pod: Pod): { set: boolean; pod: boolean } {
  const p = retentionPolicyOf(set);
  const scaledDown = !podInOrdinalRange(pod, set);
  const deleteOnDelete = p.whenDeleted === 'Delete' && (p.whenScaled === 'Retain' || p.whenScaled === 'Delete');
  const deleteOnScale = p.whenScaled === 'Delete' && (p.whenDeleted === 'Retain' || p.whenDeleted === 'Delete');
  return { set: deleteOnDelete && !(deleteOnScale && scaledDown), pod: deleteOnScale && scaledDown };
}

/** Whether the claim's owner references already follow the retention policy (or must be left alone). */
// upstream: stateful_set_utils.go isClaimOwnerUpToDate
export function isClaimOwnerUpToDate(claim: PersistentVolumeClaim, set: StatefulSet, pod: Pod): boolean {
  if (refs(claim).length === 0) {
    const want = wantedOwners(set, pod);
    return !want.set && !want.pod;
  }
  const s = setOwner(set);
  const p = podOwner(pod);
  if (hasStaleOwnerRef(claim, s) || hasStaleOwnerRef(claim, p)) return true;
  if (hasUnexpectedController(claim, set, pod)) return !(hasOwnerRef(claim, s) || hasOwnerRef(claim, p));
  if (hasNonControllerOwner(claim, set, pod)) return false;
  const want = wantedOwners(set, pod);
  return hasOwnerRef(claim, s) === want.set && hasOwnerRef(claim, p) === want.pod;
}

const controllerRef = (o: TypedName): OwnerReference => ({ ...o, controller: true, blockOwnerDeletion: true });

/** The claim with our references scrubbed and re-added as controller references per the policy. */
// upstream: stateful_set_utils.go updateClaimOwnerRefForSetAndPod
export function withRetentionOwnerRefs(claim: PersistentVolumeClaim, set: StatefulSet, pod: Pod): PersistentVolumeClaim {
  const s = setOwner(set);
  const p = podOwner(pod);
  const unexpected = hasUnexpectedController(claim, set, pod);
  let next = refs(claim).filter((r) => !matchesRef(r, s) && !matchesRef(r, p));
  if (!unexpected) {
    const want = wantedOwners(set, pod);
    if (want.pod && !next.some((r) => r.uid === p.uid)) next = [...next, controllerRef(p)];
    if (want.set && !next.some((r) => r.uid === s.uid)) next = [...next, controllerRef(s)];
  }
  const { ownerReferences: _old, ...rest } = claim.metadata;
  return { ...claim, metadata: next.length === 0 ? rest : { ...rest, ownerReferences: next } };
}

/**
 * The name of a claim whose owner reference names a previous pod with this name (its GC is pending), which
 * blocks creating the pod this sync; undefined when none. Only with `whenScaled: Delete`.
 */
// upstream: stateful_pod_control.go PodClaimIsStale
export function staleClaimOf(set: StatefulSet, pod: Pod, claims: ReadonlyMap<string, PersistentVolumeClaim>): string | undefined {
  if (retentionPolicyOf(set).whenScaled === 'Retain') return undefined;
  const p = podOwner(pod);
  const ordinal = parentNameAndOrdinal(pod.metadata.name).ordinal;
  for (const t of claimTemplates(set)) {
    const existing = claims.get(claimNameFor(set, t, ordinal));
    if (existing !== undefined && hasStaleOwnerRef(existing, p)) return existing.metadata.name;
  }
  return undefined;
}

/** claimsMatchRetentionPolicy for `set` and its observed claims by name. */
export function claimsFollowRetention(set: StatefulSet, claims: ReadonlyMap<string, PersistentVolumeClaim>, pod: Pod): boolean {
  const ordinal = parentNameAndOrdinal(pod.metadata.name).ordinal;
  return claimNamesForOrdinal(set, ordinal).every((name) => {
    const claim = claims.get(name);
    return claim === undefined || isClaimOwnerUpToDate(claim, set, pod);
  });
}
