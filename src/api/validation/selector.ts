// spec.selector: syntax (ValidateLabelSelector), non-emptiness, and conversion to requirements
// (LabelSelectorAsSelector) for the template-labels check.

import { selectorRequirements, type Requirement } from '../labels.js';
import { child, forbidden, index, invalid, required, tooMany, type IssueList } from './field.js';
import { isAbsent, isObject } from './json.js';
import { validateLabelName, validateLabels } from './metadata.js';
import { isValidLabelValue, LABEL_VALUE_MAX } from './names.js';
import { arrayAt, objectAt, stringAt, typeIssue } from './values.js';

const PATH = 'spec.selector';

/**
 * apps.ordinal.dev/v1 only: bounds of the selector, far above what a selector needs, within which the CRD's
 * CEL check that it matches the template's labels fits kube-apiserver's cost budget. Label values are at
 * most 63 characters anyway.
 */
export const SELECTOR_BOUNDS = { matchLabels: 64, matchExpressions: 64, values: 64, valueLength: LABEL_VALUE_MAX } as const;

/** SELECTOR_BOUNDS on spec.selector (its syntax is validateSelector's). */
export function validateSelectorBounds(value: unknown, out: IssueList): void {
  if (!isObject(value)) return;
  const labels = isObject(value.matchLabels) ? Object.keys(value.matchLabels).length : 0;
  if (labels > SELECTOR_BOUNDS.matchLabels) out.add(tooMany(child(PATH, 'matchLabels'), labels, SELECTOR_BOUNDS.matchLabels));
  const expressions = Array.isArray(value.matchExpressions) ? value.matchExpressions : [];
  if (expressions.length > SELECTOR_BOUNDS.matchExpressions) out.add(tooMany(child(PATH, 'matchExpressions'), expressions.length, SELECTOR_BOUNDS.matchExpressions));
  expressions.forEach((e, i) => {
    const values = isObject(e) && Array.isArray(e.values) ? e.values : [];
    if (values.length > SELECTOR_BOUNDS.values) out.add(tooMany(child(index(child(PATH, 'matchExpressions'), i), 'values'), values.length, SELECTOR_BOUNDS.values));
  });
}

/** Upstream's message when the selector does not match the template's labels. */
export const SELECTOR_MISMATCH = '`selector` does not match template `labels`';

// upstream: apis/meta/v1/validation ValidateLabelSelectorRequirement
function validateRequirement(value: unknown, path: string, out: IssueList): void {
  const expr = objectAt(value, path, out);
  if (!expr) return;
  const operator = isAbsent(expr.operator) ? '' : stringAt(expr.operator, child(path, 'operator'), out);
  const values = arrayAt(expr.values, child(path, 'values'), out) ?? [];
  if (operator === 'In' || operator === 'NotIn') {
    if (values.length === 0) out.add(required(child(path, 'values'), "must be specified when `operator` is 'In' or 'NotIn'"));
  } else if (operator === 'Exists' || operator === 'DoesNotExist') {
    if (values.length > 0) out.add(forbidden(child(path, 'values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
  } else if (operator !== undefined) {
    out.add(invalid(child(path, 'operator'), operator, 'not a valid selector operator'));
  }
  const key = isAbsent(expr.key) ? '' : stringAt(expr.key, child(path, 'key'), out);
  if (key !== undefined) validateLabelName(key, child(path, 'key'), out);
  values.forEach((v, i) => {
    const at = index(child(path, 'values'), i);
    if (typeof v !== 'string') out.add(typeIssue(at, v, 'string'));
    else for (const msg of isValidLabelValue(v)) out.add(invalid(at, v, msg));
  });
}

/**
 * Validates the selector and returns its requirements: `null` for a missing selector (which matches nothing,
 * so the template check fails too, as upstream), `'invalid'` when it cannot be converted.
 */
// upstream: apps/validation ValidateStatefulSetSpec (selector part)
export function validateSelector(value: unknown, out: IssueList): Requirement[] | null | 'invalid' {
  if (isAbsent(value)) {
    out.add(required(PATH));
    return null;
  }
  const sel = objectAt(value, PATH, out);
  if (!sel) return 'invalid';
  validateLabels(sel.matchLabels, child(PATH, 'matchLabels'), out);
  const expressions = arrayAt(sel.matchExpressions, child(PATH, 'matchExpressions'), out) ?? [];
  for (let i = 0; i < expressions.length && !out.full; i++) {
    validateRequirement(expressions[i], index(child(PATH, 'matchExpressions'), i), out);
  }
  const labelCount = isObject(sel.matchLabels) ? Object.keys(sel.matchLabels).length : 0;
  if (labelCount + expressions.length === 0) out.add(invalid(PATH, sel, 'empty selector is invalid for statefulset'));
  try {
    return selectorRequirements(sel);
  } catch {
    out.add(invalid(PATH, sel, ''));
    return 'invalid';
  }
}
