// StatefulSet update validation (upstream 1.37 ValidateStatefulSetUpdate): the spec rules again (serviceName
// syntax and claim templates are not re-checked, so old objects stay updatable), the gate transition rules,
// and the immutable fields (apps.ordinal.dev/v1: claim templates may grow, claim-template-update.ts).
//
// Since 1.37 (PR #138080) upstream reports each immutable field on its own — `spec.serviceName: Invalid
// value: "b": field is immutable` — instead of the older single Forbidden at `spec` ("updates to statefulset
// spec for fields other than ... are forbidden"). Ordinal follows 1.37.

import type { FieldIssue } from '../errors.js';
import type { Features } from '../features.js';
import type { StatefulSet } from '../types.js';
import type { SpecContext } from './context.js';
import { child, IMMUTABLE, index, invalid, IssueList, notFound } from './field.js';
import { deepEqual, type JsonObject } from './json.js';
import { validateObjectMetaUpdate } from './metadata.js';
import { validatePodSpec } from './pod-template.js';
import { claimNames } from './claims.js';
import { validateClaimTemplatesUpdate } from './claim-template-update.js';
import { isOrdinalObject, validateStatefulSetSpec } from './statefulset.js';
import { asObject, asString } from './values.js';

/** Spec fields that may never change, with the zero value an absent field has in Go. */
export const IMMUTABLE_SPEC_FIELDS: ReadonlyArray<[field: string, zero: unknown]> = [
  ['selector', null],
  ['volumeClaimTemplates', null],
  ['serviceName', ''],
  ['podManagementPolicy', ''],
];

// upstream: apps/validation ValidateStatefulSetUpdate (ValidateImmutableField per field)
function validateImmutableFields(spec: JsonObject, old: JsonObject, ordinal: boolean, out: IssueList): void {
  for (const [field, zero] of IMMUTABLE_SPEC_FIELDS) {
    // apps.ordinal.dev/v1 lets claim templates grow and relabel, and come and go under InPlace (claim-template-update.ts)
    if (ordinal && field === 'volumeClaimTemplates') {
      validateClaimTemplatesUpdate(spec[field], old[field], spec.volumeClaimUpdatePolicy === 'InPlace', out);
      validateRemovedClaimMounts(spec, old, out);
      continue;
    }
    const now = spec[field] ?? zero;
    if (!deepEqual(now, old[field] ?? zero)) out.add(invalid(`spec.${field}`, now, IMMUTABLE));
  }
}

/**
 * A container's volumeMount of a claim template the update removes, when no pod volume has its name: the
 * pods of the new revision would have no such volume (upstream's pod validation: `Not found`). Mounts of
 * other names are left to the pod's own validation, as on create.
 */
function validateRemovedClaimMounts(spec: JsonObject, old: JsonObject, out: IssueList): void {
  const kept = claimNames(spec.volumeClaimTemplates);
  const removed = [...claimNames(old.volumeClaimTemplates)].filter((n) => !kept.has(n));
  if (removed.length === 0) return;
  const podSpec = asObject(asObject(spec.template)?.spec) ?? {};
  const volumes = new Set((Array.isArray(podSpec.volumes) ? podSpec.volumes : []).map((v) => asObject(v)?.name));
  for (const list of ['containers', 'initContainers']) {
    const containers = Array.isArray(podSpec[list]) ? podSpec[list] : [];
    containers.forEach((c, i) => {
      const mounts = asObject(c)?.volumeMounts;
      (Array.isArray(mounts) ? mounts : []).forEach((m, j) => {
        const name = asObject(m)?.name;
        if (typeof name === 'string' && removed.includes(name) && !volumes.has(name)) out.add(notFound(child(index(child(index(`spec.template.spec.${list}`, i), 'volumeMounts'), j), 'name'), name));
      });
    });
  }
}

/** Ratcheting: the pod-template subset applies on update only if the stored template passed it. */
function podTemplateWasValid(oldSpec: JsonObject): boolean {
  const probe = new IssueList(1);
  const podSpec = asObject(asObject(oldSpec.template)?.spec) ?? {};
  validatePodSpec(podSpec, claimNames(oldSpec.volumeClaimTemplates), probe);
  return probe.items.length === 0;
}

/**
 * Validates `next` (any JSON) as an update of the stored `prev`. Never throws; at most MAX_ISSUES issues.
 * Gated strategy types (Recreate, EnforcedRollingUpdate) may be kept when their gate is off, not adopted.
 */
export function validateStatefulSetUpdate(next: unknown, prev: StatefulSet, features: Features): FieldIssue[] {
  const out = new IssueList();
  const root = asObject(next) ?? {};
  const old = asObject(prev) ?? {};
  const oldSpec = asObject(old.spec) ?? {};
  validateObjectMetaUpdate(root.metadata, old.metadata, out);
  const ctx: SpecContext = {
    features,
    ordinal: isOrdinalObject(root),
    create: false,
    prevType: asString(asObject(oldSpec.updateStrategy)?.type),
    podTemplate: podTemplateWasValid(oldSpec),
  };
  validateStatefulSetSpec(root.spec, ctx, out);
  validateImmutableFields(asObject(root.spec) ?? {}, oldSpec, ctx.ordinal, out);
  return out.items;
}
