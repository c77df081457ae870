// Kubernetes types as structural schemas, built from the definitions generated out of Kubernetes' OpenAPI
// (k8s-openapi.ts, `npm run k8s-openapi`): the pod template of both StatefulSet APIs (and so of the CRD),
// StorageClass and PodDisruptionBudget, for the strict field check and the CRD's schema.

import { INT_OR_STRING, OBJECT_META, QUANTITY, type K8sDefinition } from './k8s-definition.js';
import { K8S_DEFINITIONS } from './k8s-openapi.js';
import { objectMetaSchema } from './object-meta-schema.js';
import type { Schema } from './schema-dsl.js';

export const POD_SPEC = 'io.k8s.api.core.v1.PodSpec';
export const STORAGE_CLASS = 'io.k8s.api.storage.v1.StorageClass';
export const POD_DISRUPTION_BUDGET = 'io.k8s.api.policy.v1.PodDisruptionBudget';

/**
 * A resource quantity is a string or a JSON number (`cpu: 0.5`, which apps/v1 accepts); no structural type
 * holds both (int-or-string refuses 0.5), so it is any value, and validation checks it.
 */
const QUANTITY_SCHEMA: Schema = { 'x-kubernetes-preserve-unknown-fields': true };
const INT_OR_STRING_SCHEMA: Schema = { 'x-kubernetes-int-or-string': true };

const built = new Map<string, Schema>();

function toSchema(d: K8sDefinition): Schema {
  if (d.ref !== undefined) return k8sSchema(d.ref);
  const s: Schema = {};
  if (d.type) s.type = d.type;
  if (d.format) s.format = d.format;
  if (d.properties) s.properties = Object.fromEntries(Object.entries(d.properties).map(([k, v]) => [k, toSchema(v)]));
  if (d.items) s.items = toSchema(d.items);
  if (d.additionalProperties) s.additionalProperties = toSchema(d.additionalProperties);
  if (d.required) s.required = d.required;
  return s;
}

/** The structural schema of a Kubernetes type (e.g. `io.k8s.api.core.v1.PodSpec`), its references inlined. */
export function k8sSchema(name: string): Schema {
  if (name === OBJECT_META) return objectMetaSchema;
  if (name === QUANTITY) return QUANTITY_SCHEMA;
  if (name === INT_OR_STRING) return INT_OR_STRING_SCHEMA;
  let s = built.get(name);
  if (s === undefined) {
    const d = K8S_DEFINITIONS[name];
    if (d === undefined) throw new Error(`no Kubernetes type ${name} in k8s-openapi.ts (npm run k8s-openapi generates it)`);
    built.set(name, (s = toSchema(d)));
  }
  return s;
}
