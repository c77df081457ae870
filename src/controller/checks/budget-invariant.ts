// The plan checker for PodDisruptionBudgets (respectPodDisruptionBudgets), judged as the eviction handler
// judges one eviction at a time, over every pod each budget selects — the other sets' pods included — and
// every disruption of the instant: this plan's, and those this process made that the pods do not show yet
// (`inFlight`). Independent of the planner's ledger (admission/disruption-budget.ts), so a ledger that forgets
// a set, a cause or a concurrent deletion is caught.

import type { Features } from '../../api/features.js';
import type { Instant, Pod } from '../../api/types.js';
import { budgetSelects, isBudgetHealthy } from '../model/budget-pods.js';
import type { Action, ObservedDisruptionBudget, Plan } from '../model/plan-types.js';
import { respectsBudgets } from '../model/spec.js';
import { isDrainedPod } from '../model/readiness-gate.js';
import { observedPods } from '../replica/replica-index.js';
import type { ObservedState } from '../replica/observed-state.js';
import { effectiveStrategy } from '../rollout/effective-strategy.js';

/** Deletions a budget never governs (upstream deletes these without asking): failed pods, scale-down, Recreate. */
const UNGOVERNED: ReadonlySet<string> = new Set(['failed', 'condemned', 'recreate']);

/**
 * The pod names this plan disrupts for an update: budget-governed deletions, in-place patches (a restart) of
 * pods that were not drained, and drains (inPlaceUpdateStrategy: the drain is the restart's disruption).
 */
function disrupted(actions: readonly Action[], pods: ReadonlyMap<string, Pod>): Set<string> {
  const out = new Set<string>();
  for (const a of actions) {
    if (a.kind === 'deletePod' && !UNGOVERNED.has(a.cause)) out.add(a.name);
    else if (a.kind === 'setPodCondition' && a.drain !== undefined) out.add(a.name);
    else if (a.kind === 'patchPod') {
      const pod = pods.get(a.name);
      if (pod === undefined || !isDrainedPod(pod)) out.add(a.name);
    }
  }
  return out;
}

function breaches({ budget, pods, inFlight = [] }: ObservedDisruptionBudget, planned: ReadonlySet<string>, now: Instant): string[] {
  const selects = budgetSelects(budget);
  const status = budget.status;
  const name = `PodDisruptionBudget ${budget.metadata.name ?? ''}`;
  const gone = new Set(inFlight);
  const ours = pods.filter((p) => planned.has(p.metadata.name ?? '') && selects(p.metadata.labels));
  // the eviction handler lets an unhealthy pod go; a healthy one spends a disruption and a healthy pod
  const healthyOurs = ours.filter((p) => !gone.has(p.metadata.name ?? '') && isBudgetHealthy(p, status?.disruptedPods, now));
  if (healthyOurs.length === 0) return [];
  const names = healthyOurs.map((p: Pod) => p.metadata.name ?? '').join(', ');
  if (status === undefined || (status.observedGeneration ?? 0) < (budget.metadata.generation ?? 0)) return [`disrupted ${names} while ${name} has no current status`];
  const healthy = pods.filter((p) => !gone.has(p.metadata.name ?? '') && isBudgetHealthy(p, status.disruptedPods, now)).length;
  const unrecorded = inFlight.filter((n) => status.disruptedPods?.[n] === undefined).length;
  const allowed = (status.disruptionsAllowed ?? 0) - unrecorded;
  const out: string[] = [];
  if (healthyOurs.length > allowed) out.push(`disrupted ${healthyOurs.length} healthy pods (${names}) while ${name} allowed ${Math.max(0, allowed)}`);
  if (healthy - healthyOurs.length < (status.desiredHealthy ?? 0)) out.push(`disrupted ${names}, leaving ${name} ${healthy - healthyOurs.length} healthy pods, below its desiredHealthy ${status.desiredHealthy ?? 0}`);
  return out;
}

/**
 * respectPodDisruptionBudgets: the plan's update disruptions (deletions, in-place restarts, claim restarts) of
 * healthy pods fit every budget selecting them — its disruptionsAllowed after the disruptions in flight, and
 * its desiredHealthy counted over all the pods it selects — and none goes while a budget's status is not current.
 */
export function disruptionBudgetsRespected(observed: ObservedState, plan: Plan, now: Instant, features: Features): string[] {
  const set = observed.set;
  if (!respectsBudgets(set) || effectiveStrategy(set, features).kind !== 'RollingUpdate') return [];
  const planned = disrupted(plan.actions, new Map(observedPods(observed).map((p) => [p.metadata.name ?? '', p])));
  if (planned.size === 0) return [];
  return (observed.disruptionBudgets ?? []).flatMap((b) => breaches(b, planned, now));
}
