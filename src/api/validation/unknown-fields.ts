// Strict field validation: kube-apiserver under `fieldValidation=Strict` (kubectl's default) refuses an
// object with a field its schema does not declare, with a 400 BadRequest naming every such field:
//   StatefulSet in version "v1" cannot be handled as a StatefulSet: strict decoding error: unknown field "spec.replicaz"
// The known fields are those of api/schema (the CRD's own schema, so both APIs and the CRD agree; its pod
// spec and StorageClass are Kubernetes' own, generated from its OpenAPI). Below a node marked
// x-kubernetes-preserve-unknown-fields (the claim selector and data sources, a quantity) only the fields the
// schema lists are looked into; everything else there is kept as written, unchecked.

import { Resources, type Resource } from '../client.js';
import { StrictDecodingError } from '../errors.js';
import { k8sSchema, POD_DISRUPTION_BUDGET, STORAGE_CLASS } from '../schema/k8s-schema.js';
import type { Schema } from '../schema/schema-dsl.js';
import { statefulSetSchema } from '../schema/statefulset-schema.js';
import { child, index, key, MAX_ISSUES } from './field.js';
import { isObject } from './json.js';

// `constructor`, `__proto__`, `toString`… are looked up as own properties only, so they are unknown too
const declared = (schema: Schema, name: string): Schema | undefined =>
  schema.properties && Object.hasOwn(schema.properties, name) ? schema.properties[name] : undefined;

function walk(value: unknown, schema: Schema, path: string, out: string[]): void {
  if (Array.isArray(value)) {
    if (schema.items) for (let i = 0; i < value.length && out.length < MAX_ISSUES; i++) walk(value[i], schema.items, index(path, i), out);
    return;
  }
  if (!isObject(value) || (!schema.properties && !schema.additionalProperties)) return;
  for (const name of Object.keys(value)) {
    if (out.length >= MAX_ISSUES) return;
    const known = declared(schema, name);
    if (known) walk(value[name], known, child(path, name), out);
    else if (schema.additionalProperties) walk(value[name], schema.additionalProperties, key(path, name), out);
    else if (!schema['x-kubernetes-preserve-unknown-fields']) out.push(child(path, name));
  }
}

/** The paths of the fields of `value` that `schema` does not declare (at most MAX_ISSUES), in document order. */
export function unknownFields(value: unknown, schema: Schema): string[] {
  const out: string[] = [];
  walk(value, schema, '', out);
  return out;
}

/** The API server's message for a strict decoding failure. */
// upstream: runtime.NewStrictDecodingError, wrapped by the handlers' "cannot be handled as a" decode error
export function strictDecodingMessage(kind: string, version: string, fields: readonly string[]): string {
  const list = fields.map((f) => `unknown field ${JSON.stringify(f)}`).join(', ');
  return `${kind} in version ${JSON.stringify(version)} cannot be handled as a ${kind}: strict decoding error: ${list}`;
}

/** The schema of each kind whose fields are checked: StatefulSets of either API, StorageClasses, PodDisruptionBudgets. */
export function knownFieldsSchema(res: Resource): Schema | undefined {
  if (res.kind === 'StatefulSet' && (res.group === 'apps' || res.group === 'apps.ordinal.dev')) return statefulSetSchema;
  if (res.kind === Resources.storageClasses.kind && res.group === Resources.storageClasses.group) return k8sSchema(STORAGE_CLASS);
  if (res.kind === Resources.podDisruptionBudgets.kind && res.group === Resources.podDisruptionBudgets.group) return k8sSchema(POD_DISRUPTION_BUDGET);
  return undefined;
}

/** Throws StrictDecodingError (400) when an object of `res` has a field its schema does not know. */
export function checkKnownFields(res: Resource, obj: unknown): void {
  const schema = knownFieldsSchema(res);
  const fields = schema === undefined ? [] : unknownFields(obj, schema);
  if (fields.length > 0) throw new StrictDecodingError(strictDecodingMessage(res.kind, res.version, fields), fields);
}
