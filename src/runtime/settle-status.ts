// The status to write after a sync, decided once (upstream's TestStatefulSetControl
// NewRevisionDeletePodFailure): the plan's status is optimistic, and its actions say what to undo.

import type { StatefulSetStatus } from '../api/types.js';
import { inconsistentStatus } from '../controller/plan/status-counters.js';
import type { Action, Plan } from '../controller/model/plan-types.js';

/**
 * The status to write for a sync in which exactly `executed` actions succeeded, or undefined when nothing is
 * to be written:
 * - an `endsSyncOnFailure` action failed (adoption or the revision write): upstream's sync ended before any
 *   status was computed, so nothing is written;
 * - otherwise the plan's status, with currentReplicas raised back for every update deletion that did not
 *   happen (upstream decrements it per successful deletion only), written when the planner found it changed
 *   (`plan.statusChanged`) or when the undone deletions leave it different from the stored one.
 */
export function settleStatus(plan: Plan, executed: ReadonlySet<Action>): StatefulSetStatus | undefined {
  if (plan.actions.some((a) => a.endsSyncOnFailure === true && !executed.has(a))) return undefined;
  const undone = plan.actions.filter((a) => a.kind === 'deletePod' && a.decrementsCurrentReplicas === true && !executed.has(a)).length;
  if (undone === 0) return plan.statusChanged ? plan.status : undefined;
  const settled = { ...plan.status, currentReplicas: (plan.status.currentReplicas ?? 0) + undone };
  return plan.statusChanged || inconsistentStatus(plan.previousStatus, settled) ? settled : undefined;
}
