// The PodDisruptionBudget registry rules the simulation depends on: policy/v1 validation of the spec (what a
// budget counts, its selector), as kube-apiserver runs it on create and update.

import type { FieldIssue } from '../../api/errors.js';
import { selectorRequirements } from '../../api/labels.js';
import type { PodDisruptionBudget } from '../../api/types.js';
import { child, IssueList, invalid, NEGATIVE, notSupported } from '../../api/validation/field.js';
import { isAbsent } from '../../api/validation/json.js';
import { isValidPercent } from '../../api/validation/names.js';

const UNHEALTHY_POLICIES = ['AlwaysAllow', 'IfHealthyBudget'] as const;

// upstream: pkg/apis/apps/validation ValidatePositiveIntOrPercent, IsNotMoreThan100Percent
function validateIntOrPercent(v: unknown, path: string, out: IssueList): void {
  if (typeof v === 'string') {
    for (const msg of isValidPercent(v)) out.add(invalid(path, v, msg));
    if (isValidPercent(v).length === 0 && Number(v.slice(0, -1)) > 100) out.add(invalid(path, v, 'must not be greater than 100%'));
  } else if (typeof v === 'number' && Number.isInteger(v)) {
    if (v < 0) out.add(invalid(path, v, NEGATIVE));
  } else out.add(invalid(path, v, "must be an integer or percentage (e.g '5%%')"));
}

/** The spec's issues (empty when valid). */
// upstream: pkg/apis/policy/validation ValidatePodDisruptionBudgetSpec
export function validateBudget(budget: PodDisruptionBudget): FieldIssue[] {
  const out = new IssueList();
  const spec = budget.spec ?? {};
  if (!isAbsent(spec.minAvailable) && !isAbsent(spec.maxUnavailable)) out.add(invalid('spec', spec, 'minAvailable and maxUnavailable cannot be both set'));
  for (const f of ['minAvailable', 'maxUnavailable'] as const) if (!isAbsent(spec[f])) validateIntOrPercent(spec[f], child('spec', f), out);
  try {
    selectorRequirements(spec.selector);
  } catch (e) {
    out.add(invalid(child('spec', 'selector'), spec.selector, (e as Error).message));
  }
  const policy = spec.unhealthyPodEvictionPolicy;
  if (!isAbsent(policy) && !(UNHEALTHY_POLICIES as readonly unknown[]).includes(policy)) out.add(notSupported(child('spec', 'unhealthyPodEvictionPolicy'), policy, UNHEALTHY_POLICIES));
  return out.items;
}
