// inPlaceUpdateStrategy: the pods whose readiness gate's condition is not True (the index's `gated` class),
// every sync, whatever the rest of it does — the controller owns the condition (model/readiness-gate.ts):
// - no condition yet (a pod just created with the gate): written True, so the kubelet counts it Ready once its
//   containers are;
// - False, on the revision it should be at (its restart is done and it was relabelled; or a rollback or the
//   partition re-targeted it to its own revision), or pods no longer move in place: written True again;
// - False, still to move (draining): its in-place restart is proposed (cause `drained`): the admission
//   (admission.ts) sends it once the drain's gracePeriodSeconds have passed. A revision it cannot reach in
//   place recreates it (InPlaceIfPossible); under InPlaceOnly the condition goes back to True and the update
//   walk halts at the pod, as for any pod that cannot move in place.
// A pod moving in place (patched, restarting) is the in-place pass's (pod-in-place.ts): its condition stays
// False until it is relabelled.

import type { Pod } from '../../api/types.js';
import type { Action } from '../model/plan-types.js';
import { podOrdinal, podRevision } from '../model/pod-state.js';
import { gateCondition, gateState } from '../model/readiness-gate.js';
import { usesInPlaceUpdates, type SyncContext } from '../rollout/sync-context.js';
import { destination, moveStep, type InPlaceNext } from './pod-in-place.js';

const setTrue = (ctx: SyncContext, pod: Pod): Action => ({
  kind: 'setPodCondition',
  batch: 0,
  name: pod.metadata.name ?? '',
  uid: pod.metadata.uid ?? '',
  ordinal: podOrdinal(pod),
  condition: gateCondition(true, ctx.now),
});

/** One gated pod's next step: its condition written True, its restart (or recreation) proposed, or nothing. */
function drainNext(ctx: SyncContext, pod: Pod): InPlaceNext | undefined {
  const gate = gateState(pod);
  if (gate === undefined || gate.status === 'True') return undefined;
  if (gate.status === 'absent') return { action: setTrue(ctx, pod) };
  const want = destination(ctx, pod);
  if (!usesInPlaceUpdates(ctx) || podRevision(pod) === want) return { action: setTrue(ctx, pod) };
  const step = moveStep(ctx, pod, podRevision(pod), want);
  if (step?.kind === 'wait') return { action: setTrue(ctx, pod) };
  const disruption = step?.kind === 'patch' ? { via: 'inPlace' as const, ...step.move } : { via: 'delete' as const };
  return { proposal: { cause: 'drained', pod, ordinal: podOrdinal(pod), disruption, charge: 'none' } };
}

/** The gated pods' steps, in pod order (not those moving in place: the in-place pass has them). */
export function drainPass(ctx: SyncContext): InPlaceNext[] {
  const { slots } = ctx;
  const index = slots.index;
  const out: InPlaceNext[] = [];
  for (const o of index.gated.ascending(slots.start, slots.start + slots.count)) {
    if (index.moving.has(o)) continue;
    const pod = index.member(o)?.pod;
    const next = pod === undefined ? undefined : drainNext(ctx, pod);
    if (next !== undefined) out.push(next);
  }
  return out;
}
