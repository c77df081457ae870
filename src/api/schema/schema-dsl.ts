// Small builders for the CRD's structural OpenAPI v3 schema, so spec-schema.ts reads like the apps/v1
// types it mirrors. `rule()` attaches CEL `x-kubernetes-validations`.

export interface CelRule {
  rule: string;
  message: string;
  /** JSONPath-like path relative to the node, e.g. `.rollingUpdate`, for where the error is reported. */
  fieldPath?: string;
  reason?: 'FieldValueInvalid' | 'FieldValueForbidden' | 'FieldValueRequired' | 'FieldValueDuplicate';
}

export interface Schema {
  type?: 'object' | 'array' | 'string' | 'integer' | 'boolean' | 'number';
  format?: string;
  description?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema;
  items?: Schema;
  required?: string[];
  enum?: string[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  maxItems?: number;
  maxProperties?: number;
  minProperties?: number;
  'x-kubernetes-int-or-string'?: true;
  'x-kubernetes-preserve-unknown-fields'?: true;
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
  'x-kubernetes-list-type'?: 'atomic' | 'map' | 'set';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-validations'?: CelRule[];
}

/** Upstream's message for every "≥ 0" field (apimachinery `ValidateNonnegativeField`). */
export const NON_NEGATIVE = 'must be greater than or equal to 0';

export const describe = (s: Schema, description: string): Schema => ({ description, ...s });

export const rules = (s: Schema, ...validations: CelRule[]): Schema => ({
  ...s,
  'x-kubernetes-validations': [...(s['x-kubernetes-validations'] ?? []), ...validations],
});

export const str = (description: string, extra: Partial<Schema> = {}): Schema => ({ type: 'string', description, ...extra });

export const bool = (description: string): Schema => ({ type: 'boolean', description });

/** An int32 field; `nonNegative` adds upstream's "≥ 0" rule with its message (CEL, not `minimum`, for the wording). */
export function int32(description: string, opts: { nonNegative?: boolean; default?: number } = {}): Schema {
  const s: Schema = { type: 'integer', format: 'int32', description, minimum: -2147483648, maximum: 2147483647 };
  if (opts.default !== undefined) s.default = opts.default;
  return opts.nonNegative ? rules(s, { rule: 'self >= 0', message: NON_NEGATIVE }) : s;
}

/**
 * The schema with every `format: int32` integer bounded by minimum/maximum instead: kube-apiserver reports a
 * value out of an int32 format's range without a field path (`<nil>: Invalid value: "": Checked value must be
 * of type integer with format int32 in spec.replicas`), and out of the bounds at the field.
 */
export function int32Bounded(s: Schema): Schema {
  const out: Schema = { ...s };
  if (s.type === 'integer' && s.format === 'int32') {
    delete out.format;
    out.minimum ??= -2147483648;
    out.maximum ??= 2147483647;
  }
  if (s.properties) out.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, int32Bounded(v)]));
  if (s.items) out.items = int32Bounded(s.items);
  if (s.additionalProperties) out.additionalProperties = int32Bounded(s.additionalProperties);
  return out;
}

export const int64 = (description: string): Schema => ({ type: 'integer', format: 'int64', description });

export const obj = (description: string, properties: Record<string, Schema>, extra: Partial<Schema> = {}): Schema => ({
  type: 'object',
  description,
  properties,
  ...extra,
});

export const stringMap = (description: string): Schema => ({ type: 'object', description, additionalProperties: { type: 'string' } });

export const list = (description: string, items: Schema, extra: Partial<Schema> = {}): Schema => ({ type: 'array', description, items, ...extra });

/** An object kept as written: for the pod template and claim templates, whose full schema is impractical. */
export const opaque = (description: string, properties: Record<string, Schema> = {}): Schema => ({
  type: 'object',
  description,
  'x-kubernetes-preserve-unknown-fields': true,
  ...(Object.keys(properties).length ? { properties } : {}),
});

export const intOrString = (description: string): Schema => ({ 'x-kubernetes-int-or-string': true, description });
