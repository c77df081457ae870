// The status to write when only some actions succeeded (upstream's TestStatefulSetControl
// NewRevisionDeletePodFailure): the plan's status is optimistic, and its actions say what to undo.

import type { StatefulSetStatus } from '../api/types.js';
import type { Action, Plan } from '../controller/plan-types.js';

/**
 * The status for a sync in which exactly `executed` actions succeeded:
 * - an `endsSyncOnFailure` action failed (adoption or the revision write): upstream's sync ended before any
 *   status was computed, so the status observed at the start is returned unchanged;
 * - otherwise the plan's status, with currentReplicas raised back for every update deletion that did not
 *   happen (upstream decrements it per successful deletion only).
 */
export function settleStatus(plan: Plan, executed: ReadonlySet<Action>): StatefulSetStatus {
  if (plan.actions.some((a) => a.endsSyncOnFailure === true && !executed.has(a))) {
    return structuredClone(plan.previousStatus ?? plan.status);
  }
  const undone = plan.actions.filter((a) => a.kind === 'deletePod' && a.decrementsCurrentReplicas === true && !executed.has(a)).length;
  if (undone === 0) return plan.status;
  return { ...plan.status, currentReplicas: (plan.status.currentReplicas ?? 0) + undone };
}
