// What a phase proposes when it wants a pod to go down: the pod, why (its cause), and how (deleted, patched in
// place, or its claims grown). Phases propose; the admission (admission/admission.ts) disposes — it applies
// every rule in one order and is the only place that turns a proposal into an action.

import type { Pod } from '../../api/types.js';
import type { Action, DisruptionWaitCause, InPlacePatch, PlannedEvent, ResizePatch } from '../model/plan-types.js';

/**
 * Why a phase proposes a disruption (model/plan-types.ts DisruptionWaitCause lists the same names): `failed` —
 * the replica pass replaces a Failed or Succeeded pod (upstream §3.4); `condemned` — scale-down (§3.5);
 * `recreate` — Recreate deletes every pod of another revision first (§3.8); `update` — the rolling update
 * deletes an old pod, patches it in place, or grows its claims (InPlace); `forced` — EnforcedRollingUpdate
 * replaces a stuck old pod; `rollback` — onFailure: Rollback brings a pod back; `inPlaceFallback` — a pod moving
 * in place whose resize does not proceed is recreated (InPlaceIfPossible); `inPlaceOvertaken` — a pod moving in
 * place that a newer revision overtook and that cannot follow in place; `claimRestart` — an updated pod
 * restarted to finish its claim's offline expansion (InPlace claims); `drained` — the in-place restart (or, when
 * the revision it now goes to cannot be reached in place, the recreation) of a pod whose drain is over
 * (inPlaceUpdateStrategy). Which rules apply to each is one table
 * (admission/disruption-rules.ts).
 */
export type DisruptionCause = DisruptionWaitCause;

/** How the proposal takes its pod down. */
export type Disruption =
  | { via: 'delete' }
  /** The pod's images and template metadata patched to `revision` (new cpu/memory through pods/resize). */
  | { via: 'inPlace'; revision: string; patch: InPlacePatch; resize?: ResizePatch }
  /** The replica's claims brought to the update revision (a larger request: it is unavailable while they grow). */
  | { via: 'claims'; patches: Action[] };

/**
 * What the update budget charges (admission's budget rule): `free` — the replica is unavailable already (its
 * pod down, or moving in place); `slot` — an available replica, one of maxUnavailable − unavailable; `spent` —
 * a replica the budget already counts as unavailable, disrupted again (allowed while the budget is not
 * overdrawn); `none` — a cause the budget does not govern.
 */
export type Charge = 'free' | 'slot' | 'spent' | 'none';

export interface Proposal {
  cause: DisruptionCause;
  pod: Pod;
  ordinal: number;
  disruption: Disruption;
  charge: Charge;
  /** EnforcedRollingUpdate: seconds a stuck pod had been unavailable (statefulset_stuck_pod_duration_seconds). */
  stuckSeconds?: number;
  /** Recorded when it is admitted (e.g. InPlaceFallback). */
  event?: PlannedEvent;
}

/** Which rule of the admission refused a proposal. */
export type Refusal = 'held' | 'halted' | 'budget' | 'disruptionBudget' | 'preUpdateHook' | 'draining';

export type Verdict = { admitted: true; actions: Action[] } | { admitted: false; refusal: Refusal };

/** The admission as the phases see it (admission/admission.ts): every disruption goes through `admit`. */
export interface Admit {
  admit(p: Proposal): Verdict;
}

/**
 * The actions of a disruption no rule holds back (a failed pod's replacement, a scale-down, Recreate): the
 * admission still builds them, so there is one builder of each.
 */
export function admitted(admit: Admit, p: Proposal): Action[] {
  const verdict = admit.admit(p);
  if (!verdict.admitted) throw new Error(`a ${p.cause} disruption of ${p.pod.metadata.name ?? ''} was refused (${verdict.refusal}): no rule may hold it`);
  return verdict.actions;
}
