// apps.ordinal.dev/v1: what an update may change in spec.volumeClaimTemplates (after KEP-4650). The list
// keeps its templates (same names, same order); in each, metadata.labels, metadata.annotations,
// spec.volumeAttributesClassName and spec.resources.requests.storage may change, the storage only upward;
// everything else stays immutable, as in apps/v1. Claims that already exist are not changed by this: a new
// claim (a scale-up, or a claim deleted with its pod) is created from the template as it is then.

import { child, forbidden, index, invalid, IMMUTABLE, key, type IssueList } from './field.js';
import { deepEqual, isObject, type JsonObject } from './json.js';
import { compareQuantities, validateQuantity } from './quantity.js';

const PATH = 'spec.volumeClaimTemplates';

/** Claim templates per apps.ordinal.dev/v1 set: the CRD's update rules compare them, and CEL's cost budget needs a bound. */
export const MAX_CLAIM_TEMPLATES = 16;

export const CLAIM_TEMPLATES_FIXED =
  'claim templates may not be added, removed, renamed or reordered; only metadata.labels, metadata.annotations, ' +
  'spec.resources.requests.storage (grow only) and spec.volumeAttributesClassName of a template may change';

export const CLAIMS_ONLY_GROW = 'claims only grow; to shrink one, delete the claim and its pod, and the controller creates both again from the template';
const shrinkDetail = (previous: unknown): string => `may not be less than the previous value ${String(previous)}: ${CLAIMS_ONLY_GROW}`;

const objectOf = (v: unknown): JsonObject => (isObject(v) ? v : {});
const nameOf = (t: unknown): unknown => objectOf(objectOf(t).metadata).name;
const storageOf = (spec: JsonObject): unknown => objectOf(objectOf(spec.resources).requests).storage;

/** `obj` without the keys in `drop` (one level). */
function without(obj: JsonObject, drop: readonly string[]): JsonObject {
  return Object.fromEntries(Object.entries(obj).filter(([k]) => !drop.includes(k)));
}

/** Immutable keys of `next` and `prev` (one level, after `drop`) that differ, each reported at its own path. */
function compareFixed(next: JsonObject, prev: JsonObject, drop: readonly string[], path: string, out: IssueList): void {
  const a = without(next, drop);
  const b = without(prev, drop);
  for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
    if (!deepEqual(a[k] ?? null, b[k] ?? null)) out.add(invalid(child(path, k), a[k] ?? null, IMMUTABLE));
  }
}

/** One template against its stored version. */
function validateTemplateUpdate(next: JsonObject, prev: JsonObject, path: string, out: IssueList): void {
  compareFixed(without(next, ['metadata', 'spec']), without(prev, ['metadata', 'spec']), [], path, out);
  compareFixed(objectOf(next.metadata), objectOf(prev.metadata), ['labels', 'annotations'], child(path, 'metadata'), out);
  const spec = objectOf(next.spec);
  const oldSpec = objectOf(prev.spec);
  const specPath = child(path, 'spec');
  compareFixed(spec, oldSpec, ['resources', 'volumeAttributesClassName'], specPath, out);
  const resources = objectOf(spec.resources);
  const oldResources = objectOf(oldSpec.resources);
  const resourcesPath = child(specPath, 'resources');
  compareFixed(resources, oldResources, ['requests'], resourcesPath, out);
  compareFixed(objectOf(resources.requests), objectOf(oldResources.requests), ['storage'], child(resourcesPath, 'requests'), out);
  const storage = storageOf(spec);
  const previous = storageOf(oldSpec);
  const storagePath = key(child(resourcesPath, 'requests'), 'storage');
  if (previous === undefined || storage === previous) return;
  if (storage === undefined) return out.add(invalid(storagePath, null, IMMUTABLE));
  // a changed value is validated as on create (templates are otherwise not re-validated on update)
  const before = out.items.length;
  validateQuantity(storage, storagePath, out);
  if (out.items.length > before) return;
  if (compareQuantities(String(storage), String(previous)) === -1) out.add(forbidden(storagePath, shrinkDetail(previous)));
}

// KEP-4650 (sig-apps, "Update volumeClaimTemplates"): the fields a claim may change in place
export function validateClaimTemplatesUpdate(next: unknown, prev: unknown, out: IssueList): void {
  const templates = Array.isArray(next) ? next : [];
  const old = Array.isArray(prev) ? prev : [];
  if (templates.length !== old.length || templates.some((t, i) => !deepEqual(nameOf(t), nameOf(old[i])))) {
    if (!deepEqual(next ?? null, prev ?? null)) out.add(forbidden(PATH, CLAIM_TEMPLATES_FIXED));
    return;
  }
  templates.forEach((t, i) => validateTemplateUpdate(objectOf(t), objectOf(old[i]), index(PATH, i), out));
}
