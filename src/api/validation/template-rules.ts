// The pod template's per-field rules as one table, read by both sides of the API server's door: the
// controller's validation (pod-template.ts applies each scope's rules to every object of that scope) and the
// CRD (schema/template-schema.ts turns each rule into CEL on the same node), so a rule added here is checked
// by both or neither. Cross-field rules (unique names, volumes replaced by claims) stay in pod-template.ts.
//
// The CRD holds CEL rules under lists only within kube-apiserver's estimated cost budget, which needs bounds
// on those lists: TEMPLATE_BOUNDS, which the controller also checks for apps.ordinal.dev/v1 objects.

import { child, key, required, tooMany, type IssueList } from './field.js';
import { dns1123Label, dns1123Subdomain, oneOf, portName, portNumber, quantity, type FieldKind } from './field-rules.js';
import { isAbsent, isObject, type JsonObject } from './json.js';
import { int32At, objectAt, stringAt } from './values.js';

/** The JSON type of a field: its zero value (absent, "", 0, []) means unset, as in Go. */
export type FieldType = 'string' | 'integer' | 'list' | 'quantity';

export interface FieldRule {
  /** The field, relative to the scope's object (`resources.requests`). */
  field: string;
  type: FieldType;
  /** Unset is a Required issue. */
  required?: true;
  /**
   * Core defaulting sets it (pod-defaults.ts), so it is Required only of a defaulted template: the controller,
   * which validates after defaulting, checks it; the CRD, which stores templates as written, does not.
   */
  defaulted?: true;
  /** The check of a set value (of every value of the map, when `eachValue`). */
  kind?: FieldKind;
  /** The field is a map (a ResourceList): every value is checked, reported at `field[name]`. */
  eachValue?: true;
}

/** A kind of object in the pod spec and the rules of its fields. */
export interface RuleScope {
  name: string;
  /** Its places, relative to spec.template.spec: '' is the pod spec, `[]` every item of a list. */
  at: readonly string[];
  rules: readonly FieldRule[];
}

export const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'] as const;
export const PORT_PROTOCOLS = ['SCTP', 'TCP', 'UDP'] as const;
export const TERMINATION_MESSAGE_POLICIES = ['File', 'FallbackToLogsOnError'] as const;
export const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'] as const;

// upstream: core/validation ValidatePodSpec (subset)
export const POD_SPEC_SCOPE: RuleScope = {
  name: 'pod spec',
  at: [''],
  rules: [
    { field: 'containers', type: 'list', required: true },
    { field: 'dnsPolicy', type: 'string', kind: oneOf(DNS_POLICIES) },
    { field: 'serviceAccountName', type: 'string', kind: dns1123Subdomain },
  ],
};

// upstream: core/validation validateContainerCommon (subset)
export const CONTAINER_SCOPE: RuleScope = {
  name: 'container',
  at: ['containers[]', 'initContainers[]'],
  rules: [
    { field: 'name', type: 'string', required: true, kind: dns1123Label },
    { field: 'image', type: 'string', required: true },
    { field: 'imagePullPolicy', type: 'string', required: true, defaulted: true, kind: oneOf(PULL_POLICIES) },
    { field: 'terminationMessagePolicy', type: 'string', kind: oneOf(TERMINATION_MESSAGE_POLICIES) },
    { field: 'resources.requests', type: 'quantity', kind: quantity, eachValue: true },
    { field: 'resources.limits', type: 'quantity', kind: quantity, eachValue: true },
  ],
};

// upstream: core/validation validateContainerPorts (all but duplicate names)
export const PORT_SCOPE: RuleScope = {
  name: 'container port',
  at: ['containers[].ports[]', 'initContainers[].ports[]'],
  rules: [
    { field: 'containerPort', type: 'integer', required: true, kind: portNumber },
    { field: 'hostPort', type: 'integer', kind: portNumber },
    { field: 'protocol', type: 'string', required: true, defaulted: true, kind: oneOf(PORT_PROTOCOLS) },
    { field: 'name', type: 'string', kind: portName },
  ],
};

// upstream: core/validation ValidateEnv (names required)
export const ENV_SCOPE: RuleScope = {
  name: 'environment variable',
  at: ['containers[].env[]', 'initContainers[].env[]'],
  rules: [{ field: 'name', type: 'string', required: true }],
};

// upstream: core/validation ValidateVolumeMounts (name and mountPath required)
export const VOLUME_MOUNT_SCOPE: RuleScope = {
  name: 'volume mount',
  at: ['containers[].volumeMounts[]', 'initContainers[].volumeMounts[]'],
  rules: [
    { field: 'name', type: 'string', required: true },
    { field: 'mountPath', type: 'string', required: true },
  ],
};

// upstream: core/validation ValidateVolumes (names)
export const VOLUME_SCOPE: RuleScope = {
  name: 'volume',
  at: ['volumes[]'],
  rules: [{ field: 'name', type: 'string', required: true, kind: dns1123Label }],
};

export const RULE_SCOPES: readonly RuleScope[] = [POD_SPEC_SCOPE, CONTAINER_SCOPE, PORT_SCOPE, ENV_SCOPE, VOLUME_MOUNT_SCOPE, VOLUME_SCOPE];

/**
 * apps.ordinal.dev/v1 only: the most items (maxItems) or entries (maxProperties) of the template's lists and
 * maps that hold rules, far above what a pod needs; without them kube-apiserver estimates the rules' cost for
 * 3 MiB of containers and refuses the CRD.
 */
export const TEMPLATE_BOUNDS: ReadonlyArray<{ at: string; max: number }> = [
  { at: 'containers', max: 64 },
  { at: 'initContainers', max: 64 },
  { at: 'volumes', max: 256 },
  { at: 'containers[].ports', max: 256 },
  { at: 'initContainers[].ports', max: 256 },
  { at: 'containers[].env', max: 256 },
  { at: 'initContainers[].env', max: 256 },
  { at: 'containers[].volumeMounts', max: 256 },
  { at: 'initContainers[].volumeMounts', max: 256 },
  { at: 'containers[].resources.requests', max: 32 },
  { at: 'containers[].resources.limits', max: 32 },
  { at: 'initContainers[].resources.requests', max: 32 },
  { at: 'initContainers[].resources.limits', max: 32 },
];

/** The value at a dotted path, read without reporting (the caller's walk reports mistyped objects). */
function valueAt(obj: JsonObject, field: string): unknown {
  let v: unknown = obj;
  for (const part of field.split('.')) v = isObject(v) ? v[part] : undefined;
  return v;
}

/** Reads the field as its type, reporting a mistyped value; undefined when unset (absent or zero) or mistyped. */
function typedAt(v: unknown, type: FieldType, path: string, out: IssueList): unknown {
  if (type === 'string') return stringAt(v, path, out) || undefined;
  if (type === 'integer') return int32At(v, path, out) || undefined;
  // a mistyped list is reported by the walk that visits its items
  if (type === 'list') return Array.isArray(v) && v.length > 0 ? v : undefined;
  return isAbsent(v) ? undefined : v;
}

/** The scope's rules on one object of it at `path` (e.g. `spec.template.spec.containers[0]`). */
export function applyFieldRules(scope: RuleScope, obj: JsonObject, path: string, out: IssueList): void {
  for (const rule of scope.rules) {
    const at = child(path, rule.field);
    const raw = valueAt(obj, rule.field);
    if (rule.eachValue) {
      const map = objectAt(raw, at, out) ?? {};
      for (const name of Object.keys(map).sort()) if (rule.kind) out.add(...rule.kind.check(map[name], key(at, name)));
      continue;
    }
    const value = typedAt(raw, rule.type, at, out);
    if (value !== undefined) out.add(...(rule.kind?.check(value, at) ?? []));
    else if (rule.required && (isAbsent(raw) || raw === '' || raw === 0 || (Array.isArray(raw) && raw.length === 0))) out.add(required(at));
  }
}

/** Every object at a scope-style place (`containers[].ports`) under `root`, with its path. */
function placesOf(root: JsonObject, at: string, path: string): Array<{ value: unknown; path: string }> {
  let places: Array<{ value: unknown; path: string }> = [{ value: root, path }];
  for (const part of at.split('.')) {
    const list = part.endsWith('[]');
    const name = list ? part.slice(0, -2) : part;
    places = places.flatMap((p) => {
      const v = isObject(p.value) ? p.value[name] : undefined;
      const at = child(p.path, name);
      return list ? (Array.isArray(v) ? v.map((item, i) => ({ value: item, path: `${at}[${i}]` })) : []) : [{ value: v, path: at }];
    });
  }
  return places;
}

/** TEMPLATE_BOUNDS on `spec.template.spec` (apps.ordinal.dev/v1 objects). */
export function validateTemplateBounds(podSpec: JsonObject, out: IssueList): void {
  for (const { at, max } of TEMPLATE_BOUNDS) {
    for (const { value, path } of placesOf(podSpec, at, 'spec.template.spec')) {
      const size = Array.isArray(value) ? value.length : isObject(value) ? Object.keys(value).length : 0;
      if (size > max) out.add(tooMany(path, size, max));
    }
  }
}
