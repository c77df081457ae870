// apps.ordinal.dev/v1: what an update may change in spec.volumeClaimTemplates (after KEP-4650). A template
// that keeps its name (matched by name, not by index) may change metadata.labels, metadata.annotations,
// spec.volumeAttributesClassName and spec.resources.requests.storage, the storage only upward; everything else
// stays immutable, as in apps/v1. Templates may be added, removed, renamed (one removed, one added) or
// reordered only when the updated spec has volumeClaimUpdatePolicy: InPlace: the templates are then part of the
// revision, so the change is a new revision that replaces the pods in rollout order (and `rollout undo` takes it
// back). With OnDelete the list stays as it is (same names, same order), so revision names stay upstream's.

import { child, duplicate, forbidden, index, invalid, IMMUTABLE, key, type IssueList } from './field.js';
import { deepEqual, isObject, type JsonObject } from './json.js';
import { validateAddedClaimTemplate } from './claims.js';
import { compareQuantities, validateQuantity } from './quantity.js';

const PATH = 'spec.volumeClaimTemplates';

/** Claim templates per apps.ordinal.dev/v1 set: the CRD's update rules compare them, and CEL's cost budget needs a bound. */
export const MAX_CLAIM_TEMPLATES = 16;

/** What a template that keeps its name may change. */
export const CLAIM_TEMPLATE_FIELDS =
  'only metadata.labels, metadata.annotations, spec.resources.requests.storage (grow only) and spec.volumeAttributesClassName of a template may change';

/** Why a changed list of templates is refused under OnDelete. */
export const CLAIM_TEMPLATES_FIXED =
  'claim templates may be added, removed, renamed or reordered only with spec.volumeClaimUpdatePolicy: InPlace ' +
  '(the change is then a new revision that replaces the pods in rollout order); set it in the same update, or keep the templates by name and order';

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

/** The templates keep their names and their order. */
const sameList = (templates: unknown[], old: unknown[]): boolean => templates.length === old.length && templates.every((t, i) => deepEqual(nameOf(t), nameOf(old[i])));

/**
 * KEP-4650 (sig-apps, "Update volumeClaimTemplates"): the fields a claim may change in place, per template
 * matched by name; `inPlace`: the updated spec has volumeClaimUpdatePolicy InPlace, so templates may come and
 * go (a new one is validated as on create).
 */
export function validateClaimTemplatesUpdate(next: unknown, prev: unknown, inPlace: boolean, out: IssueList): void {
  const templates = Array.isArray(next) ? next : [];
  const old = Array.isArray(prev) ? prev : [];
  const changed = !sameList(templates, old);
  if (!inPlace && changed) {
    if (!deepEqual(next ?? null, prev ?? null)) out.add(forbidden(PATH, CLAIM_TEMPLATES_FIXED));
    return;
  }
  templates.forEach((t, i) => {
    const before = old.find((o) => deepEqual(nameOf(o), nameOf(t)));
    // two templates of one name would be one pod volume (matched by name, they would also share the old one)
    if (changed && templates.slice(0, i).some((o) => deepEqual(nameOf(o), nameOf(t)))) out.add(duplicate(child(index(PATH, i), 'metadata.name'), nameOf(t)));
    else if (before === undefined) validateAddedClaimTemplate(t, index(PATH, i), out);
    else validateTemplateUpdate(objectOf(t), objectOf(before), index(PATH, i), out);
  });
}
