// The CEL rules of the CRD, with upstream's messages where a rule mirrors an upstream check. The pod
// template's per-field rules are not here but in validation/template-rules.ts, one table that both the
// controller's validation and the CRD (schema/template-schema.ts) are generated from. Left to the
// controller's validateStatefulSet, which reports it as a Warning event and a condition: names that must be
// unique in a list (a CEL rule cannot name the item it finds), and feature-gated strategies.
// test/deploy/crd-validation.test.ts and template-contract.test.ts check both agree.

import { CLAIM_TEMPLATE_FIELDS, CLAIM_TEMPLATES_FIXED, CLAIMS_ONLY_GROW } from '../validation/claim-template-update.js';
import { SELECTOR_MISMATCH } from '../validation/selector.js';
import { NON_NEGATIVE, type CelRule } from './schema-dsl.js';

export const NON_NEGATIVE_RULE: CelRule = { rule: 'self >= 0', message: NON_NEGATIVE };

export const PERCENT_MESSAGE =
  "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%', or '93%', regex used for validation is '[0-9]+%')";

export const PROGRESS_DEADLINE_MESSAGE = 'must be an integer or "auto"';

/** spec.progressDeadlineSeconds: an int32 (the cross-field rule below bounds it), or `auto`. */
export const PROGRESS_DEADLINE_RULES: CelRule[] = [
  { rule: "type(self) == int ? self >= -2147483648 && self <= 2147483647 : self == 'auto'", message: PROGRESS_DEADLINE_MESSAGE },
];

/** validateRollingUpdateStatefulSet's maxUnavailable checks, for an int-or-string `self`. */
export const MAX_UNAVAILABLE_RULES: CelRule[] = [
  { rule: 'type(self) == string || self >= 0', message: NON_NEGATIVE },
  { rule: "type(self) == int || self.matches('^[0-9]+%$')", message: PERCENT_MESSAGE },
  { rule: "type(self) == int ? self != 0 : !self.matches('^0+%$')", message: 'cannot be 0' },
  { rule: "type(self) == int || !self.matches('^[0-9]+%$') || self.matches('^0*([0-9]{1,2}|100)%$')", message: 'must not be greater than 100%' },
];

const DNS1123_LABEL = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$';
export const DNS1123_LABEL_MESSAGE =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

/** A DNS-1123 label, as upstream requires of the set's name and serviceName. */
export function dns1123Label(expr: string, fieldPath?: string): CelRule[] {
  // A root rule cannot point fieldPath into metadata (kube-apiserver then prints `<nil>` as the path), so
  // such a message names its field itself.
  const named = (message: string): string => (fieldPath ? message : `${expr.replace(/^self\./, '')}: ${message}`);
  const at = fieldPath ? { fieldPath } : {};
  return [
    { rule: `size(${expr}) <= 63`, message: named('must be no more than 63 characters'), ...at },
    { rule: `${expr}.matches('${DNS1123_LABEL}')`, message: named(DNS1123_LABEL_MESSAGE), ...at },
  ];
}

/**
 * Reported at the immutable field itself, as Ordinal's validateStatefulSetUpdate does (1.37's declarative
 * immutability), rather than upstream's hand-written Forbidden at `spec`.
 */
export const IMMUTABLE_MESSAGE = 'field is immutable';

/** Transition rule on an immutable field's own node (cost bounded by that field). */
export const IMMUTABLE: CelRule = { rule: 'self == oldSelf', message: IMMUTABLE_MESSAGE };

const claimName = (v: string): string => `${v}.?metadata.?name.orValue('')`;
const claimSpec = (v: string, path: string): string => `${v}.?spec.${path.split('.').map((f) => `?${f}`).join('.')}`;
/** Claim template spec fields that never change, with the zero value an absent field reads as (objects: compared as optionals). */
const FIXED_CLAIM_SPEC: ReadonlyArray<[path: string, zero?: string]> = [
  ['accessModes', '[]'],
  ['selector'],
  ['volumeName', "''"],
  ['storageClassName', "''"],
  ['volumeMode', "''"],
  ['dataSource'],
  ['dataSourceRef'],
  ['resources.limits'],
];
const storageOf = (v: string): string => claimSpec(v, 'resources.requests.storage');
/** `t` and `o` (a template and its stored version, matched by name) agree in the spec fields that never change. */
const sameFixedFields = (t: string, o: string): string =>
  [
    ...FIXED_CLAIM_SPEC.map(([f, zero]) => (zero === undefined ? `${claimSpec(t, f)} == ${claimSpec(o, f)}` : `${claimSpec(t, f)}.orValue(${zero}) == ${claimSpec(o, f)}.orValue(${zero})`)),
    `${storageOf(t)}.hasValue() == ${storageOf(o)}.hasValue()`,
  ].join(' && ');

const bothTemplates = '!has(oldObject.spec.volumeClaimTemplates) || !has(object.spec.volumeClaimTemplates) || ';
/** Every pair of a template and its stored version, matched by name (16 × 16 at most), satisfies `holds(t, o)`. */
const byName = (holds: (t: string, o: string) => string): string =>
  `${bothTemplates}object.spec.volumeClaimTemplates.all(t, oldObject.spec.volumeClaimTemplates.all(o, ${claimName('o')} != ${claimName('t')} || (${holds('t', 'o')})))`;

/**
 * apps.ordinal.dev/v1 claim template updates, as validation/claim-template-update.ts checks them, as an
 * admission policy expression on `object` / `oldObject`: per template matched by name, only labels,
 * annotations, volumeAttributesClassName and the storage request change. In the CRD's own CEL this pairing
 * exceeds the estimated cost budget more than a hundredfold (its estimate cannot bound the selector and data
 * source objects it compares); an admission policy is held to a cost limit when it runs instead. Left to the
 * controller's validation: the template's other metadata and request keys besides storage, which no claim uses,
 * two templates of one name, and an added template's own fields (checked as on create). Whether templates may
 * come and go is CLAIM_TEMPLATE_LIST, in the CRD (it needs volumeClaimUpdatePolicy).
 */
export const CLAIM_FIXED_FIELDS = {
  expression: byName(sameFixedFields),
  message: `spec.volumeClaimTemplates: ${IMMUTABLE_MESSAGE}: ${CLAIM_TEMPLATE_FIELDS}`,
};

const templateNames = (v: string): string => `(has(${v}.volumeClaimTemplates) ? ${v}.volumeClaimTemplates.map(t, ${claimName('t')}) : [])`;

/** On `spec`: templates are added, removed, renamed or reordered only under volumeClaimUpdatePolicy InPlace (the new spec's). */
export const CLAIM_TEMPLATE_LIST: CelRule = {
  rule: `(has(self.volumeClaimUpdatePolicy) && self.volumeClaimUpdatePolicy == 'InPlace') || ${templateNames('self')} == ${templateNames('oldSelf')}`,
  message: CLAIM_TEMPLATES_FIXED,
  fieldPath: '.volumeClaimTemplates',
  reason: 'FieldValueForbidden',
};

const quantityText = (v: string): string => `string(${storageOf(v)}.value())`;

/** The claim templates' storage requests do not decrease (the same policy: comparing quantities exceeds the CRD's budget too). */
export const CLAIM_STORAGE_GROWS = {
  expression: byName((t, o) =>
    [`!${storageOf(t)}.hasValue()`, `!${storageOf(o)}.hasValue()`, `!isQuantity(${quantityText(t)})`, `!isQuantity(${quantityText(o)})`, `quantity(${quantityText(t)}).compareTo(quantity(${quantityText(o)})) >= 0`].join(' || '),
  ),
  message: `spec.volumeClaimTemplates: a template's spec.resources.requests[storage] may not decrease: ${CLAIMS_ONLY_GROW}`,
};

/** A field that may not appear or disappear on update; `dflt` is what absence means after defaulting. */
function samePresence(field: string, dflt: string): CelRule {
  const val = (o: string) => `(has(${o}.${field}) && ${o}.${field} != '' ? ${o}.${field} : '${dflt}')`;
  return { rule: `${val('self')} == ${val('oldSelf')}`, message: IMMUTABLE_MESSAGE, fieldPath: `.${field}` };
}

/** A template without a spec has no containers (the pod spec's own rule does not run on an absent spec). */
export const TEMPLATE_SPEC_REQUIRED: CelRule = { rule: 'has(self.spec)', message: 'must not be empty', fieldPath: '.spec.containers', reason: 'FieldValueRequired' };

/** The template's label `key` (an optional string). */
const templateLabel = (key: string): string => `self.template.?metadata.?labels[?${key}]`;

/**
 * The selector matches the template's labels (upstream's LabelSelectorAsSelector(...).Matches), as
 * statefulset.ts validateTemplate checks it. A selector that cannot be converted is refused by its own rules.
 */
export const SELECTOR_MATCHES_TEMPLATE: CelRule = {
  rule:
    '!has(self.selector) || !has(self.template) || (' +
    `(!has(self.selector.matchLabels) || self.selector.matchLabels.all(k, ${templateLabel('k')}.hasValue() && ${templateLabel('k')}.value() == self.selector.matchLabels[k])) && ` +
    '(!has(self.selector.matchExpressions) || self.selector.matchExpressions.all(e, ' +
    `e.operator == 'In' ? ${templateLabel('e.key')}.hasValue() && has(e.values) && ${templateLabel('e.key')}.value() in e.values : ` +
    `e.operator == 'NotIn' ? !${templateLabel('e.key')}.hasValue() || !has(e.values) || !(${templateLabel('e.key')}.value() in e.values) : ` +
    `e.operator == 'Exists' ? ${templateLabel('e.key')}.hasValue() : !${templateLabel('e.key')}.hasValue())))`,
  message: SELECTOR_MISMATCH,
  fieldPath: '.template.metadata.labels',
};

/** Rules on `spec` itself: cross-field checks and the presence half of immutability. */
export const SPEC_RULES: CelRule[] = [
  SELECTOR_MATCHES_TEMPLATE,
  samePresence('serviceName', ''),
  samePresence('podManagementPolicy', 'OrderedReady'),
  CLAIM_TEMPLATE_LIST,
  {
    rule: '!has(self.progressDeadlineSeconds) || type(self.progressDeadlineSeconds) == string || self.progressDeadlineSeconds > (has(self.minReadySeconds) ? self.minReadySeconds : 0)',
    message: 'must be greater than minReadySeconds',
    fieldPath: '.progressDeadlineSeconds',
  },
];

export const UPDATE_STRATEGY_TYPES = ['RollingUpdate', 'OnDelete', 'Recreate', 'EnforcedRollingUpdate'];

export const UPDATE_STRATEGY_RULES: CelRule[] = [
  {
    // Reported at spec.updateStrategy like upstream's classic "must be 'RollingUpdate' or 'OnDelete'".
    // Feature-gated types (Recreate, EnforcedRollingUpdate) are accepted here; the controller checks its gates.
    rule: `!has(self.type) || self.type in ['', ${UPDATE_STRATEGY_TYPES.map((t) => `'${t}'`).join(', ')}]`,
    message: `must be ${UPDATE_STRATEGY_TYPES.slice(0, -1).map((t) => `'${t}'`).join(', ')} or '${UPDATE_STRATEGY_TYPES.at(-1)}'`,
  },
  {
    rule: "!has(self.rollingUpdate) || !has(self.type) || self.type == '' || self.type == 'RollingUpdate'",
    message: "only allowed for updateStrategy 'RollingUpdate'",
    fieldPath: '.rollingUpdate',
  },
  {
    rule: "!has(self.enforcedRollingUpdate) || (has(self.type) && self.type == 'EnforcedRollingUpdate')",
    message: "only allowed for updateStrategy 'EnforcedRollingUpdate'",
    fieldPath: '.enforcedRollingUpdate',
  },
];

export const SELECTOR_RULES: CelRule[] = [
  {
    rule: '(has(self.matchLabels) && size(self.matchLabels) > 0) || (has(self.matchExpressions) && size(self.matchExpressions) > 0)',
    message: 'empty selector is invalid for statefulset',
  },
];

export const REQUIREMENT_RULES: CelRule[] = [
  {
    rule: "!(self.operator in ['In', 'NotIn']) || (has(self.values) && size(self.values) > 0)",
    message: "must be specified when `operator` is 'In' or 'NotIn'",
    fieldPath: '.values',
  },
  {
    rule: "!(self.operator in ['Exists', 'DoesNotExist']) || !has(self.values) || size(self.values) == 0",
    message: "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
    fieldPath: '.values',
  },
];

/** ValidateStatefulSetStatus / ValidateStatefulSetStatusUpdate. */
export const STATUS_RULES: CelRule[] = [
  ...(['readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas'] as const).map((f) => ({
    rule: `!has(self.${f}) || self.${f} <= (has(self.replicas) ? self.replicas : 0)`,
    message: 'cannot be greater than status.replicas',
    fieldPath: `.${f}`,
  })),
  {
    rule: '!has(self.availableReplicas) || self.availableReplicas <= (has(self.readyReplicas) ? self.readyReplicas : 0)',
    message: 'cannot be greater than status.readyReplicas',
    fieldPath: '.availableReplicas',
  },
];

export const COLLISION_COUNT_RULE: CelRule = { rule: 'self >= oldSelf', message: 'cannot be decremented' };

export const NOT_SUPPORTED_ACTIVE_DEADLINE: CelRule = {
  rule: '!has(self.activeDeadlineSeconds)',
  message: 'activeDeadlineSeconds in StatefulSet is not Supported',
  fieldPath: '.activeDeadlineSeconds',
  reason: 'FieldValueForbidden',
};
