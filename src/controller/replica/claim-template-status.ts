// status.volumeClaimTemplates of an apps.ordinal.dev/v1 set (KEP-4650): per claim template, how the claims of
// the replicas in range stand against it. After a template edit this says how many claims still have the old
// size; during an expansion, how many are resizing.

import { claimCapacity, claimRequest, hasClaimCondition, type PersistentVolumeClaim, type StatefulSet, type VolumeClaimTemplateStatus } from '../../api/types.js';
import { compareQuantities, sumQuantities } from '../../api/validation/quantity.js';
import { claimOrdinal, claimTemplates } from '../model/claim-identity.js';


const includes = (have: Record<string, string> | undefined, want: Record<string, string> | undefined): boolean =>
  Object.entries(want ?? {}).every(([k, v]) => have?.[k] === v);

const FIXED_FIELDS = ['accessModes', 'storageClassName', 'volumeMode'] as const;

/** A field the claim cannot change in place (one the template sets) that differs from the template's: which, and both values. */
export function fixedFieldMismatch(claim: PersistentVolumeClaim, template: PersistentVolumeClaim): { field: string; want: string; have: string } | undefined {
  for (const f of FIXED_FIELDS) {
    const want = template.spec?.[f];
    if (want === undefined) continue;
    const have = JSON.stringify(claim.spec?.[f] ?? null);
    if (have !== JSON.stringify(want)) return { field: `spec.${f}`, want: JSON.stringify(want), have };
  }
  return undefined;
}

/** The fields a claim cannot change in place (those the template sets) match the template's. */
export const fixedFieldsMatch = (claim: PersistentVolumeClaim, template: PersistentVolumeClaim): boolean => fixedFieldMismatch(claim, template) === undefined;

/** The claim's expansion is under way: a request above its capacity, or a resize condition. */
export function isResizing(claim: PersistentVolumeClaim): boolean {
  const request = claimRequest(claim);
  const capacity = claimCapacity(claim);
  if (request !== undefined && capacity !== undefined && compareQuantities(request, capacity) === 1) return true;
  return hasClaimCondition(claim, 'Resizing') || hasClaimCondition(claim, 'FileSystemResizePending');
}

/**
 * KEP-4650's "compatible": the fields the template sets match, its labels and annotations are on the claim,
 * the claim's capacity reaches the template's request, and its current volumeAttributesClass is the template's.
 */
// KEP-4650 (sig-apps, "What PVC is compatible")
export function isCompatible(claim: PersistentVolumeClaim, template: PersistentVolumeClaim): boolean {
  if (!fixedFieldsMatch(claim, template)) return false;
  if (!includes(claim.metadata.labels, template.metadata?.labels) || !includes(claim.metadata.annotations, template.metadata?.annotations)) return false;
  const capacity = claimCapacity(claim);
  const request = claimRequest(template);
  if (request !== undefined && (capacity === undefined || compareQuantities(capacity, request) === -1)) return false;
  const vac = template.spec?.volumeAttributesClassName;
  return vac === undefined || claim.status?.['currentVolumeAttributesClassName'] === vac;
}

/** The template's claims among `claims` (`<template>-<set>-<ordinal>`) whose ordinal is `inRange`. */
function claimsOf(set: StatefulSet, template: PersistentVolumeClaim, claims: Iterable<PersistentVolumeClaim>, inRange: (ordinal: number) => boolean): PersistentVolumeClaim[] {
  return [...claims].filter((c) => {
    const ordinal = claimOrdinal(set, template, c.metadata.name ?? '');
    return ordinal !== undefined && inRange(ordinal);
  });
}

/** One entry per template, over the observed claims of the replicas `inRange` (iterating claims, not ordinals: replicas may be huge). */
export function claimTemplateStatus(set: StatefulSet, claims: ReadonlyMap<string, PersistentVolumeClaim>, inRange: (ordinal: number) => boolean): VolumeClaimTemplateStatus[] {
  return claimTemplates(set).map((template) => {
    const found = claimsOf(set, template, claims.values(), inRange);
    const request = claimRequest(template);
    const capacities = found.flatMap((c) => claimCapacity(c) ?? []);
    const total = sumQuantities(capacities);
    return {
      name: template.metadata?.name ?? '',
      compatible: found.filter((c) => isCompatible(c, template)).length,
      updating: found.filter(isResizing).length,
      overSized: request === undefined ? 0 : capacities.filter((c) => compareQuantities(c, request) === 1).length,
      ...(total !== undefined ? { totalCapacity: total } : {}),
    };
  });
}
