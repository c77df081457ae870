// StatefulSet create validation and the spec rules shared with update (upstream
// pkg/apis/apps/validation ValidateStatefulSet / ValidateStatefulSetSpec), in upstream's order.
// Validation expects a defaulted object, as the API server validates after defaulting.

import type { FieldIssue } from '../errors.js';
import type { Features } from '../features.js';
import { requirementMatches, type Requirement } from '../labels.js';
import { ORDINAL_V1 } from '../types.js';
import { claimNames, validateClaimTemplates } from './claims.js';
import type { SpecContext } from './context.js';
import { validateExtensions } from './extensions.js';
import { child, forbidden, invalid, IssueList, NEGATIVE, notSupported, required } from './field.js';
import { isAbsent, isEmptyString, type JsonObject } from './json.js';
import { validateAnnotations, validateLabels, validateObjectMeta } from './metadata.js';
import { isDNS1123Label } from './names.js';
import { validatePodSpec } from './pod-template.js';
import { SELECTOR_MISMATCH, validateSelector } from './selector.js';
import { validateUpdateStrategy } from './update-strategy.js';
import { asObject, int32At, objectAt, stringAt } from './values.js';

const POD_MANAGEMENT_POLICIES = ['OrderedReady', 'Parallel'];
const RETENTION_POLICIES = ['Retain', 'Delete'];

/** An object at `path`; an absent one reads as `{}` (Go's zero struct), a mistyped one as undefined. */
const structAt = (v: unknown, path: string, out: IssueList): JsonObject | undefined =>
  objectAt(v, path, out) ?? (isAbsent(v) ? {} : undefined);

function validatePodManagementPolicy(spec: JsonObject, out: IssueList): void {
  const path = 'spec.podManagementPolicy';
  const policy = stringAt(spec.podManagementPolicy, path, out);
  if (isEmptyString(spec.podManagementPolicy)) out.add(required(path));
  else if (policy !== undefined && !POD_MANAGEMENT_POLICIES.includes(policy)) {
    out.add(invalid(path, policy, "must be 'OrderedReady' or 'Parallel'"));
  }
}

// upstream: apps/validation ValidatePersistentVolumeClaimRetentionPolicy
function validateRetentionPolicy(spec: JsonObject, out: IssueList): void {
  const path = 'spec.persistentVolumeClaimRetentionPolicy';
  const policy = objectAt(spec.persistentVolumeClaimRetentionPolicy, path, out);
  for (const field of policy ? ['whenDeleted', 'whenScaled'] : []) {
    const at = child(path, field);
    const value = isAbsent(policy?.[field]) ? '' : stringAt(policy?.[field], at, out);
    if (value !== undefined && !RETENTION_POLICIES.includes(value)) out.add(notSupported(at, value, RETENTION_POLICIES));
  }
}

function nonNegative(value: unknown, path: string, out: IssueList): void {
  const n = int32At(value, path, out);
  if (n !== undefined && n < 0) out.add(invalid(path, n, NEGATIVE));
}

/** replicas, minReadySeconds, ordinals.start ≥ 0; revisionHistoryLimit is any int32 (negative keeps all). */
function validateCounts(spec: JsonObject, out: IssueList): void {
  nonNegative(spec.replicas, 'spec.replicas', out);
  nonNegative(spec.minReadySeconds, 'spec.minReadySeconds', out);
  const ordinals = objectAt(spec.ordinals, 'spec.ordinals', out);
  if (ordinals) nonNegative(ordinals.start, 'spec.ordinals.start', out);
  int32At(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit', out);
}

/** A DNS-1123 label when set; checked on create only (existing sets with other names stay updatable). */
function validateServiceName(spec: JsonObject, ctx: SpecContext, out: IssueList): void {
  const name = stringAt(spec.serviceName, 'spec.serviceName', out);
  if (ctx.create && name) for (const msg of isDNS1123Label(name)) out.add(invalid('spec.serviceName', name, msg));
}

function templateLabels(meta: JsonObject): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const [k, v] of Object.entries(asObject(meta.labels) ?? {})) {
    if (typeof v === 'string') Object.defineProperty(labels, k, { value: v, enumerable: true });
  }
  return labels;
}

// upstream: apps/validation ValidatePodTemplateSpecForStatefulSet (+ the restartPolicy/activeDeadlineSeconds rules)
function validateTemplate(spec: JsonObject, selector: Requirement[] | null | 'invalid', ctx: SpecContext, out: IssueList): void {
  const template = structAt(spec.template, 'spec.template', out);
  if (!template) return;
  const meta = structAt(template.metadata, 'spec.template.metadata', out) ?? {};
  const matchesEverything = Array.isArray(selector) && selector.length === 0;
  if (selector !== 'invalid' && !matchesEverything) {
    const labels = templateLabels(meta);
    if (!selector?.every((r) => requirementMatches(r, labels))) {
      out.add(invalid('spec.template.metadata.labels', meta.labels ?? null, SELECTOR_MISMATCH));
    }
  }
  validateLabels(meta.labels, 'spec.template.labels', out);
  validateAnnotations(meta.annotations, 'spec.template.annotations', out);
  const podSpec = structAt(template.spec, 'spec.template.spec', out);
  if (!podSpec) return;
  if (ctx.podTemplate) validatePodSpec(podSpec, claimNames(spec.volumeClaimTemplates), out);
  const restartPath = 'spec.template.spec.restartPolicy';
  const restart = isAbsent(podSpec.restartPolicy) ? '' : stringAt(podSpec.restartPolicy, restartPath, out);
  if (restart !== undefined && restart !== 'Always') out.add(notSupported(restartPath, restart, ['Always']));
  if (!isAbsent(podSpec.activeDeadlineSeconds)) {
    out.add(forbidden('spec.template.spec.activeDeadlineSeconds', 'activeDeadlineSeconds in StatefulSet is not Supported'));
  }
}

/** Every spec rule, in upstream's order, then Ordinal's extension rules. */
// upstream: apps/validation ValidateStatefulSetSpec
export function validateStatefulSetSpec(value: unknown, ctx: SpecContext, out: IssueList): void {
  const spec = structAt(value, 'spec', out);
  if (!spec) return;
  validatePodManagementPolicy(spec, out);
  validateUpdateStrategy(spec, ctx, out);
  validateRetentionPolicy(spec, out);
  if (ctx.create) validateClaimTemplates(spec.volumeClaimTemplates, out);
  validateCounts(spec, out);
  validateServiceName(spec, ctx, out);
  const selector = validateSelector(spec.selector, out);
  validateTemplate(spec, selector, ctx, out);
  validateExtensions(spec, ctx, out);
}

export const isOrdinalObject = (obj: unknown): boolean => asObject(obj)?.apiVersion === ORDINAL_V1;

/**
 * Create validation of any JSON value: metadata then spec. Never throws; at most MAX_ISSUES issues, each with
 * upstream's path, type and message. An empty list means valid.
 */
// upstream: apps/validation ValidateStatefulSet
export function validateStatefulSet(obj: unknown, features: Features): FieldIssue[] {
  const out = new IssueList();
  const root = asObject(obj) ?? {};
  validateObjectMeta(root.metadata, out);
  const ctx: SpecContext = { features, ordinal: isOrdinalObject(root), create: true, podTemplate: true };
  validateStatefulSetSpec(root.spec, ctx, out);
  return out.items;
}
