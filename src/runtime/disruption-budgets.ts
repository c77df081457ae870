// PodDisruptionBudgets for sets with rollingUpdate.respectPodDisruptionBudgets: which budgets a set's sync
// reads (those selecting one of its pods, with every pod of the namespace they select and the process's
// disruptions in flight under them), and which set keys a
// budget's change brings back to sync (its status moves as the disruption controller counts the pods again).

import { controllerRefOf } from '../api/controller-ref.js';
import type { Pod, PodDisruptionBudget, StatefulSet } from '../api/types.js';
import { budgetSelects } from '../controller/budget-pods.js';
import { respectsBudgets } from '../controller/disruption-budget.js';
import type { ObservedDisruptionBudget } from '../controller/plan-types.js';
import type { InFlightDisruptions } from './in-flight-disruptions.js';
import type { Informer } from './informer.js';
import type { SetTargets } from './set-targets.js';

/**
 * The budgets of the set's namespace that select one of its pods, in name order, each with the pods it selects
 * and, with the process's ledger, the disruptions this process made under it that the caches do not show yet.
 */
export function budgetsOf(set: StatefulSet, budgets: Informer<PodDisruptionBudget>, pods: Informer<Pod>, ledger?: InFlightDisruptions): ObservedDisruptionBudget[] {
  const ns = set.metadata.namespace ?? '';
  const own = (p: Pod): boolean => controllerRefOf(p)?.uid === set.metadata.uid;
  const out: ObservedDisruptionBudget[] = [];
  // the cache lists by name
  for (const budget of budgets.list(ns)) {
    const selects = budgetSelects(budget);
    const selected = pods.list(ns, (p) => selects(p.metadata.labels));
    if (!selected.some(own)) continue;
    const inFlight = ledger?.inFlight(budget) ?? [];
    out.push(inFlight.length > 0 ? { budget, pods: selected, inFlight } : { budget, pods: selected });
  }
  return out;
}

/** Keys of the sets of the budget's namespace that respect budgets. */
export function keysForBudget(targets: SetTargets, budget: PodDisruptionBudget): string[] {
  return targets
    .setsIn(budget.metadata.namespace)
    .filter(({ set }) => respectsBudgets(set))
    .map(({ key }) => key);
}
