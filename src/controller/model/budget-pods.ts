// Which pods a PodDisruptionBudget selects (as the eviction handler looks budgets up) and which of them
// kube-controller-manager's disruption controller counts as healthy; shared by the planner's budget check
// (disruption-budget.ts) and the simulated disruption controller.

import { requirementMatches, selectorRequirements } from '../../api/labels.js';
import { fromTimestamp, type Instant, type Pod, type PodDisruptionBudget } from '../../api/types.js';
import { isPodReady, isTerminating } from './pod-state.js';

/** How long a pod the eviction handler recorded in status.disruptedPods is expected to be deleted within. */
// upstream: pkg/controller/disruption/disruption.go DeletionTimeout
export const DELETION_TIMEOUT_MS = 2 * 60 * 1000;

export type Matcher = (labels: Readonly<Record<string, string>> | undefined) => boolean;

/** policy/v1: a nil or invalid selector selects nothing, an empty one every pod of the namespace. */
// upstream: client-go listers/policy/v1 GetPodPodDisruptionBudgets
export function budgetSelects(budget: PodDisruptionBudget): Matcher {
  try {
    const reqs = selectorRequirements(budget.spec?.selector);
    if (reqs === null) return () => false;
    return (labels) => reqs.every((r) => requirementMatches(r, labels ?? {}));
  } catch {
    return () => false;
  }
}

/** Ready, not terminating and not just evicted (in status.disruptedPods): what the disruption controller counts as healthy. */
// upstream: pkg/controller/disruption/disruption.go countHealthyPods
export function isBudgetHealthy(pod: Pod, disruptedPods: Readonly<Record<string, string>> | undefined, now: Instant): boolean {
  if (isTerminating(pod) || !isPodReady(pod)) return false;
  const evicted = fromTimestamp(disruptedPods?.[pod.metadata.name ?? '']);
  return evicted === undefined || evicted + DELETION_TIMEOUT_MS <= now;
}
