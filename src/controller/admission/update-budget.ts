// The update budget, decided here and nowhere else: of maxUnavailable (resolved from the field and the
// MaxUnavailableStatefulSet gate in effective-strategy.ts), how many in-range slots are already unavailable
// and how many available pods an update may still take down. Upstream works it out in
// updateStatefulSetAfterInvariantEstablished; the invariant checker (invariants.ts) recomputes it on its own
// on purpose, to catch this function being wrong.

import type { Pod } from '../../api/types.js';
import { downIndices, slotUnavailability, type SyncContext } from '../rollout/sync-context.js';

export interface UpdateBudget {
  maxUnavailable: number;
  /** In-range slots missing or unavailable, below the partition included (statefulset_unavailable_replicas). */
  unavailable: number;
  /** Available pods the update may still delete; zero or less means none. */
  remaining: number;
}

/**
 * The budget of this sync. `exclude` leaves out unavailable pods that do not count against it
 * (EnforcedRollingUpdate: old pods it would replace anyway).
 */
export function updateBudget(ctx: SyncContext, exclude?: (index: number, pod: Pod) => boolean): UpdateBudget {
  let down: number;
  if (exclude === undefined) down = slotUnavailability(ctx).inRange;
  else {
    down = ctx.slots.count - ctx.slots.existing;
    for (const i of downIndices(ctx)) if (!exclude(i, ctx.slots.pod(i) as Pod)) down++;
  }
  return { maxUnavailable: ctx.strategy.maxUnavailable, unavailable: down, remaining: ctx.strategy.maxUnavailable - down };
}
