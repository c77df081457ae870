// Which rules of the admission (admission.ts) apply to which cause of a disruption: one table, read by the one
// function that admits every proposal. The order is fixed: holds → update order → budget → PodDisruptionBudgets.
// - holds: the user's pause and a failed step (rollout.ts) hold every update, and every disruption that
//   finishes one (an in-place fallback, a claim restart); EnforcedRollingUpdate still replaces broken old pods
//   while paused (as Deployments and Kruise do), and scaling and failed pods go on, as upstream. The safety
//   halt holds what would delete an old pod: updates, forced replacements, a way back's deletions.
// - update order: the walk (update-walk.ts) offers candidates in update order (ordinal, zone, priority, the
//   step's partition); a disruption of a pod already moving has had its turn.
// - budget: what the proposal's `charge` says (proposal.ts); failed pods, scale-down and Recreate take none, as
//   upstream.
// - PodDisruptionBudgets (respectPodDisruptionBudgets): every disruption of an update, an in-place restart and a
//   claim restart included; never scale-down or a failed pod (upstream deletes those without asking).
// - the preUpdate hook (spec.lifecycle.preUpdate, pre-update-hook.ts): what moves a pod to the update revision
//   — an update deletion or in-place patch, an in-place fallback or move on, a claim restart — waits until the
//   pod's hook passed; a growth of claims alone restarts nothing and does not wait. Failed pods, scale-down,
//   Recreate, forced replacements and a rollback's way back do not call it: they replace what is broken or
//   undo a failure, and a hook that could hold them would keep the set broken.
// - drained (inPlaceUpdateStrategy): the in-place restart of a pod whose drain is over. The drain was the
//   disruption, admitted by every rule; the restart follows it whatever arrives meanwhile (a pause, a step,
//   the budget, a PodDisruptionBudget): the pod is out of traffic already. A new revision's hook is called.

import type { DeleteCause } from '../model/plan-types.js';
import type { DisruptionCause } from '../proposals/proposal.js';

export interface DisruptionRules {
  /** Held by the user's pause and by a failed step. */
  held: boolean;
  /** Held by the safety halt. */
  halted: boolean;
  /** Waits for PodDisruptionBudgets (when the set respects them). */
  budgets: boolean;
  /** The cause its deletion reports (events, metrics, `why`, the checks). */
  deleteCause: DeleteCause;
  /** Upstream counts an update deletion out of currentReplicas at once (undone if it fails). */
  decrementsCurrent: boolean;
  /** Waits for the pod's preUpdate hook (spec.lifecycle), unless it only grows the pod's claims. */
  hooked: boolean;
}

export const DISRUPTION_RULES: Readonly<Record<DisruptionCause, DisruptionRules>> = {
  failed: { held: false, halted: false, budgets: false, deleteCause: 'failed', decrementsCurrent: false, hooked: false },
  condemned: { held: false, halted: false, budgets: false, deleteCause: 'condemned', decrementsCurrent: false, hooked: false },
  recreate: { held: false, halted: false, budgets: false, deleteCause: 'recreate', decrementsCurrent: false, hooked: false },
  update: { held: true, halted: true, budgets: true, deleteCause: 'update', decrementsCurrent: true, hooked: true },
  forced: { held: false, halted: true, budgets: true, deleteCause: 'forced', decrementsCurrent: true, hooked: false },
  rollback: { held: false, halted: true, budgets: true, deleteCause: 'rollback', decrementsCurrent: true, hooked: false },
  inPlaceFallback: { held: true, halted: false, budgets: true, deleteCause: 'update', decrementsCurrent: false, hooked: true },
  inPlaceOvertaken: { held: true, halted: false, budgets: true, deleteCause: 'update', decrementsCurrent: false, hooked: true },
  claimRestart: { held: true, halted: false, budgets: true, deleteCause: 'update', decrementsCurrent: false, hooked: true },
  drained: { held: false, halted: false, budgets: false, deleteCause: 'update', decrementsCurrent: false, hooked: true },
};
