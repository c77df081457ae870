// What moving one replica the rolling update chose to the update revision takes: a disruption (its pod deleted
// or patched in place, its claims grown), a relabel (nothing changes for the pod: no disruption), a wait (it
// cannot move), or nothing. The update walk (admission/update-walk.ts) proposes the disruptions.

import type { Pod } from '../../api/types.js';
import type { Action, Blocker, PlannedEvent } from '../model/plan-types.js';
import { stuckSince } from '../rollout/safety-halt.js';
import { isOld, type SyncContext } from '../rollout/sync-context.js';
import { updateStep } from './claim-updates.js';
import { isStuck } from '../rollout/safety-halt.js';
import { inPlaceStep } from './pod-in-place.js';
import type { Disruption, DisruptionCause } from './proposal.js';

export type UpdateMove =
  | { kind: 'disrupt'; cause: DisruptionCause; disruption: Disruption; stuckSeconds?: number; event?: PlannedEvent }
  | { kind: 'relabel'; action: Action }
  | { kind: 'wait'; blocker: Blocker }
  | { kind: 'none' };

const stuckSeconds = (pod: Pod, now: number): number => {
  const since = stuckSince(pod);
  return since === undefined ? 0 : Math.max(0, (now - since) / 1000);
};

/** The cause of an update disruption: a rollback's way back, EnforcedRollingUpdate replacing a stuck old pod, or the update. */
function causeOf(ctx: SyncContext, pod: Pod, forClaims: boolean): DisruptionCause {
  if (ctx.rollback !== undefined) return 'rollback';
  return !forClaims && ctx.strategy.kind === 'EnforcedRollingUpdate' && isOld(ctx, pod) && isStuck(ctx, pod) ? 'forced' : 'update';
}

/** How the replica of `pod` moves to the update revision (pod-in-place.ts, then claim-updates.ts). */
export function updateMove(ctx: SyncContext, pod: Pod): UpdateMove {
  const inPlace = inPlaceStep(ctx, pod);
  if (inPlace?.kind === 'patch') return { kind: 'disrupt', cause: causeOf(ctx, pod, false), disruption: { via: 'inPlace', ...inPlace.move } };
  // a pod without the drain's readiness gate is recreated, and comes back with it
  if (inPlace?.kind === 'recreate') return { kind: 'disrupt', cause: causeOf(ctx, pod, false), disruption: { via: 'delete' }, event: inPlace.event };
  if (inPlace !== undefined) return inPlace;
  const step = updateStep(ctx, pod, ctx.strategy.kind !== 'RollingUpdate');
  switch (step.kind) {
    case 'patchClaims':
      return { kind: 'disrupt', cause: causeOf(ctx, pod, true), disruption: { via: 'claims', patches: step.actions } };
    case 'relabel':
      return { kind: 'relabel', action: step.action };
    case 'wait':
      return { kind: 'wait', blocker: step.blocker };
    case 'none':
      return { kind: 'none' };
    case 'replace': {
      const cause = causeOf(ctx, pod, step.forClaims);
      return { kind: 'disrupt', cause, disruption: { via: 'delete' }, ...(cause === 'forced' ? { stuckSeconds: stuckSeconds(pod, ctx.now) } : {}) };
    }
  }
}
