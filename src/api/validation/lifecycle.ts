// spec.lifecycle (apps.ordinal.dev/v1 only): the preUpdate hook. In an apps/v1 object it is Forbidden, as every
// extension field. The CRD schema (schema/lifecycle-schema.ts) says the same.

import { HOOK_FAILURE_POLICIES, LIFECYCLE_STATE_LABEL } from '../types.js';
import { EXTENSION_ONLY } from './context.js';
import { child, forbidden, invalid, key, notSupported, required, tooMany, type IssueList } from './field.js';
import { isAbsent, type JsonObject } from './json.js';
import { isQualifiedName, isValidLabelValue } from './names.js';
import { validateHttpTarget } from './rollout-steps.js';
import { int32At, objectAt, stringAt, stringMapAt } from './values.js';

export const LIFECYCLE_PATH = 'spec.lifecycle';
const HOOK_PATH = child(LIFECYCLE_PATH, 'preUpdate');
/** The CRD's bound on labelsHandler entries (lifecycle-schema.ts). */
export const MAX_HANDLER_LABELS = 16;
export const ONE_HANDLER = 'exactly one of http and labelsHandler';
export const AT_LEAST_ONE_SECOND = 'must be greater than or equal to 1';
export const OWN_LABEL = `must not be ${LIFECYCLE_STATE_LABEL}: the controller sets it`;

/** apps/v1: the field is Forbidden. */
export function forbidLifecycle(spec: JsonObject, out: IssueList): void {
  if (!isAbsent(spec.lifecycle)) out.add(forbidden(LIFECYCLE_PATH, EXTENSION_ONLY));
}

function secondsAt(v: unknown, path: string, out: IssueList): void {
  const n = int32At(v, path, out);
  if (n !== undefined && n < 1) out.add(invalid(path, n, AT_LEAST_ONE_SECOND));
}

function validateHttp(v: unknown, path: string, out: IssueList): void {
  const http = objectAt(v, path, out);
  if (http === undefined) return;
  validateHttpTarget(http, path, out);
  secondsAt(http.timeoutSeconds, child(path, 'timeoutSeconds'), out);
}

function validateLabelsHandler(v: unknown, path: string, out: IssueList): void {
  const labels = stringMapAt(v, path, out);
  if (labels === undefined) return;
  const keys = Object.keys(labels);
  if (keys.includes(LIFECYCLE_STATE_LABEL)) out.add(invalid(path, labels, OWN_LABEL));
  if (Object.keys(v as object).length === 0) out.add(required(path, 'at least one label'));
  if (keys.length > MAX_HANDLER_LABELS) out.add(tooMany(path, keys.length, MAX_HANDLER_LABELS));
  for (const k of keys) {
    for (const msg of isQualifiedName(k)) out.add(invalid(key(path, k), k, msg));
    for (const msg of isValidLabelValue(labels[k] ?? '')) out.add(invalid(key(path, k), labels[k], msg));
  }
}

/** apps.ordinal.dev/v1: spec.lifecycle.preUpdate's handler, timeout and failure policy. */
export function validateLifecycle(spec: JsonObject, out: IssueList): void {
  if (isAbsent(spec.lifecycle)) return;
  const lifecycle = objectAt(spec.lifecycle, LIFECYCLE_PATH, out);
  if (lifecycle === undefined || isAbsent(lifecycle.preUpdate)) return;
  const hook = objectAt(lifecycle.preUpdate, HOOK_PATH, out);
  if (hook === undefined) return;
  const has = { http: !isAbsent(hook.http), labels: !isAbsent(hook.labelsHandler) };
  if (has.http === has.labels) out.add(invalid(HOOK_PATH, hook, ONE_HANDLER));
  if (has.http) validateHttp(hook.http, child(HOOK_PATH, 'http'), out);
  if (has.labels) validateLabelsHandler(hook.labelsHandler, child(HOOK_PATH, 'labelsHandler'), out);
  secondsAt(hook.timeoutSeconds, child(HOOK_PATH, 'timeoutSeconds'), out);
  const policyPath = child(HOOK_PATH, 'failurePolicy');
  const policy = stringAt(hook.failurePolicy, policyPath, out);
  if (policy !== undefined && !(HOOK_FAILURE_POLICIES as readonly string[]).includes(policy)) out.add(notSupported(policyPath, policy, HOOK_FAILURE_POLICIES));
}
