// ObjectMeta rules: name syntax, labels and annotations (apimachinery ValidateObjectMeta and friends).
// Not checked: ownerReferences, finalizers, managedFields, and a required namespace (the namespace comes
// from the request path, so manifests without one are fine).

import { child, IMMUTABLE, invalid, required, tooLong, type IssueList } from './field.js';
import { deepEqual, isEmptyString, utf8Length } from './json.js';
import { isQualifiedName, isValidLabelValue, nameIsDNSLabel } from './names.js';
import { asObject, objectAt, stringAt, stringMapAt } from './values.js';

/** Upstream's TotalAnnotationSizeLimitB. */
export const TOTAL_ANNOTATION_SIZE = 256 * 1024;

// upstream: apis/meta/v1/validation ValidateLabelName
export function validateLabelName(name: string, path: string, out: IssueList): void {
  for (const msg of isQualifiedName(name)) out.add(invalid(path, name, msg));
}

/** Keys are visited in sorted order so the issue list is deterministic (Go ranges over the map randomly). */
// upstream: apis/meta/v1/validation ValidateLabels
export function validateLabels(value: unknown, path: string, out: IssueList): Record<string, string> | undefined {
  const labels = stringMapAt(value, path, out);
  if (!labels) return undefined;
  for (const k of Object.keys(labels).sort()) {
    if (out.full) break;
    validateLabelName(k, path, out);
    for (const msg of isValidLabelValue(labels[k] ?? '')) out.add(invalid(path, labels[k], msg));
  }
  return labels;
}

// upstream: core/validation ValidateAnnotations
export function validateAnnotations(value: unknown, path: string, out: IssueList): void {
  const annotations = stringMapAt(value, path, out);
  if (!annotations) return;
  let size = 0;
  for (const k of Object.keys(annotations).sort()) {
    size += utf8Length(k) + utf8Length(annotations[k] ?? '');
    if (out.full) continue;
    // annotation keys are qualified names, case-insensitively
    for (const msg of isQualifiedName(k.toLowerCase())) out.add(invalid(path, k, msg));
  }
  if (size > TOTAL_ANNOTATION_SIZE) out.add(tooLong(path, TOTAL_ANNOTATION_SIZE));
}

/** Name (or generateName) as a DNS-1123 label, namespace syntax, labels and annotations. */
// upstream: core/validation ValidateObjectMeta (with ValidateStatefulSetName = NameIsDNSLabel)
export function validateObjectMeta(value: unknown, out: IssueList): void {
  const path = 'metadata';
  const meta = objectAt(value, path, out) ?? {};
  const name = stringAt(meta.name, child(path, 'name'), out);
  const generateName = stringAt(meta.generateName, child(path, 'generateName'), out);
  if (name) {
    for (const msg of nameIsDNSLabel(name, false)) out.add(invalid(child(path, 'name'), name, msg));
  } else if (generateName) {
    for (const msg of nameIsDNSLabel(generateName, true)) out.add(invalid(child(path, 'generateName'), generateName, msg));
  } else if (isEmptyString(meta.name) && isEmptyString(meta.generateName)) {
    out.add(required(child(path, 'name'), 'name or generateName is required'));
  }
  const namespace = stringAt(meta.namespace, child(path, 'namespace'), out);
  if (namespace) for (const msg of nameIsDNSLabel(namespace, false)) out.add(invalid(child(path, 'namespace'), namespace, msg));
  validateLabels(meta.labels, child(path, 'labels'), out);
  validateAnnotations(meta.annotations, child(path, 'annotations'), out);
}

/**
 * Update: name, namespace and uid are immutable; labels and annotations re-validated. An absent namespace or
 * uid means "unchanged" (the API server fills them from the request path and the stored object). The name
 * itself is not re-validated, so sets created under the old DNS-subdomain rule stay updatable.
 */
// upstream: core/validation ValidateObjectMetaUpdate (with rest.BeforeUpdate filling uid and namespace)
export function validateObjectMetaUpdate(next: unknown, prev: unknown, out: IssueList): void {
  const path = 'metadata';
  const meta = objectAt(next, path, out) ?? {};
  const old = asObject(prev) ?? {};
  for (const field of ['name', 'namespace', 'uid']) {
    if (field !== 'name' && isEmptyString(meta[field])) continue;
    const now = meta[field] ?? '';
    if (!deepEqual(now, old[field] ?? '')) out.add(invalid(child(path, field), now, IMMUTABLE));
  }
  validateLabels(meta.labels, child(path, 'labels'), out);
  validateAnnotations(meta.annotations, child(path, 'annotations'), out);
}
