// The CRD's pod spec: Kubernetes' own PodSpec schema (k8s-schema.ts) with the rule table of
// validation/template-rules.ts turned into CEL on the nodes it names, and the table's bounds as maxItems /
// maxProperties, so the CRD refuses at the door, at the field's path, what the controller's validation
// refuses. Only the CRD's copy carries them: the strict field check reads the shared schema for names only.

import { RULE_SCOPES, TEMPLATE_BOUNDS, type FieldRule, type FieldType } from '../validation/template-rules.js';
import { k8sSchema, POD_SPEC } from './k8s-schema.js';
import type { CelRule, Schema } from './schema-dsl.js';

/** The node at a scope-style place (`containers[].ports[]`, `resources.requests`, '' for `root`). */
function nodeAt(root: Schema, at: string): Schema {
  let node = root;
  for (const part of at ? at.split('.') : []) {
    const name = part.endsWith('[]') ? part.slice(0, -2) : part;
    const prop = node.properties?.[name];
    if (prop === undefined) throw new Error(`template rules: no field ${name} in ${at}`);
    node = part.endsWith('[]') ? (prop.items ?? prop) : prop;
    if (part.endsWith('[]') && prop.items === undefined) throw new Error(`template rules: ${name} in ${at} is not a list`);
  }
  return node;
}

const addRules = (node: Schema, rules: CelRule[]): void => {
  if (rules.length) node['x-kubernetes-validations'] = [...(node['x-kubernetes-validations'] ?? []), ...rules];
};

const ZERO_TEST: Record<Exclude<FieldType, 'quantity'>, (e: string) => string> = {
  string: (e) => `size(${e}) != 0`,
  list: (e) => `size(${e}) != 0`,
  integer: (e) => `${e} != 0`,
};

/** Required, as a rule on the field's parent (a rule on the field itself does not run when it is absent). */
function requiredRule(parent: Schema, field: string, type: FieldType): CelRule {
  const test = ZERO_TEST[type as keyof typeof ZERO_TEST](`self.${field}`);
  // the schema already requires a field it lists, so the rule need only refuse its zero value
  const rule = parent.required?.includes(field) ? `!has(self.${field}) || ${test}` : `has(self.${field}) && ${test}`;
  return { rule, message: 'must not be empty', fieldPath: `.${field}`, reason: 'FieldValueRequired' };
}

/** The kind's rules pass for Go's zero value, which the controller treats as unset too. */
function guarded(type: FieldType, rule: string): string {
  if (type === 'string') return `self == '' || (${rule})`;
  if (type === 'integer') return `self == 0 || (${rule})`;
  return rule;
}

function attach(scopeNode: Schema, r: FieldRule): void {
  if (r.required && !r.defaulted) addRules(scopeNode, [requiredRule(scopeNode, r.field, r.type)]);
  if (!r.kind) return;
  const field = nodeAt(scopeNode, r.field);
  const target = r.eachValue ? field.additionalProperties : field;
  if (target === undefined) throw new Error(`template rules: ${r.field} is not a map`);
  Object.assign(target, r.kind.schema ?? {});
  addRules(target, r.kind.cel.map((c) => ({ ...c, rule: guarded(r.type, c.rule) })));
}

/** core/v1 PodSpec with the template rules and bounds (a copy: the shared schema is left as it is). */
export function templatePodSpecSchema(): Schema {
  // a copy by value: the shared schema reuses one Container node for containers and initContainers
  const spec = JSON.parse(JSON.stringify(k8sSchema(POD_SPEC))) as Schema;
  for (const scope of RULE_SCOPES) {
    for (const at of scope.at) for (const r of scope.rules) attach(nodeAt(spec, at), r);
  }
  for (const { at, max } of TEMPLATE_BOUNDS) {
    const node = nodeAt(spec, at);
    if (node.type === 'array') node.maxItems = max;
    else node.maxProperties = max;
  }
  return spec;
}
