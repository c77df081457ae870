// The shape of the Kubernetes types generated into k8s-openapi.ts (scripts/k8s-openapi.ts trims Kubernetes'
// OpenAPI v3 to it), and the types built by hand instead of from the data.

/** The Kubernetes release whose OpenAPI the definitions come from. */
export const KUBERNETES_VERSION = 'v1.37.2';

/** An OpenAPI schema trimmed to its structure; `ref` names another definition. */
export interface K8sDefinition {
  type?: 'object' | 'array' | 'string' | 'integer' | 'boolean' | 'number';
  format?: string;
  properties?: Record<string, K8sDefinition>;
  items?: K8sDefinition;
  additionalProperties?: K8sDefinition;
  required?: string[];
  ref?: string;
}

export const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
export const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
export const INT_OR_STRING = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';

/** Not generated: ObjectMeta has its own schema (object-meta-schema.ts), the two unions no structural type. */
export const BY_HAND: ReadonlySet<string> = new Set([OBJECT_META, QUANTITY, INT_OR_STRING]);
