// The status to write when only some actions succeeded (upstream-statefulset.md §9.E
// NewRevisionDeletePodFailure, §9.H): the plan's status is optimistic, so undo what did not happen.

import type { StatefulSetStatus } from '../api/types.js';
import type { Action, Plan } from './plan-types.js';

// finalizeBatches numbers batches densely, so with no revision or adoption write the first pod batch is
// batch 0 too: the kind, not only the batch, says which failure ends the sync before status is computed
const SYNC_PREAMBLE: ReadonlySet<Action['kind']> = new Set(['createRevision', 'updateRevision', 'adoptRevision', 'adoptPod', 'releasePod']);
const isRevisionOrAdoption = (a: Action): boolean => a.batch === 0 && SYNC_PREAMBLE.has(a.kind);

/**
 * The status for a sync in which exactly `executed` actions succeeded:
 * - a batch-0 failure (adoption or the revision write) ends upstream's sync before any status is computed,
 *   so the status observed at the start is returned unchanged;
 * - otherwise the plan's status, with currentReplicas raised back for every update deletion that did not
 *   happen (upstream decrements it per successful deletion only).
 */
export function settleStatus(plan: Plan, executed: ReadonlySet<Action>): StatefulSetStatus {
  if (plan.actions.some((a) => isRevisionOrAdoption(a) && !executed.has(a))) {
    return structuredClone(plan.previousStatus ?? plan.status);
  }
  const undone = plan.actions.filter((a) => a.kind === 'deletePod' && a.decrementsCurrentReplicas === true && !executed.has(a)).length;
  if (undone === 0) return plan.status;
  return { ...plan.status, currentReplicas: (plan.status.currentReplicas ?? 0) + undone };
}
