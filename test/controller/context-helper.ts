// Builds a SyncContext directly, for tests that call one phase the way upstream's tests call
// updateStatefulSetAfterInvariantEstablished (an update revision named '' makes every pod old).

import type { Instant, Pod, StatefulSet } from '../../src/api/types.js';
import { type SyncContext } from '../../src/controller/rollout/sync-context.js';
import { newSyncContext } from '../../src/controller/rollout/new-sync-context.js';
import { partitionPods } from '../../src/controller/replica/replicas.js';
import { effectiveStrategy } from '../../src/controller/rollout/effective-strategy.js';
import { PlannerCache } from '../../src/controller/rollout/planner-cache.js';
import { Admission } from '../../src/controller/admission/admission.js';
import { walkUpdate } from '../../src/controller/admission/update-walk.js';
import { features, revisionName, T0 } from './fixtures.js';

export function contextFor(set: StatefulSet, pods: Pod[], opts: { updateRevision?: string; now?: Instant } = {}): SyncContext {
  return newSyncContext({
    set,
    currentSet: set,
    updateSet: set,
    currentRevision: revisionName(set),
    updateRevision: opts.updateRevision ?? '',
    now: opts.now ?? T0,
    features,
    strategy: effectiveStrategy(set, features),
    slots: partitionPods(set, pods),
    claims: [],
    cache: new PlannerCache(),
  });
}

/**
 * The maxUnavailable update walk (admission/update-walk.ts) of `ctx`'s pod management policy, as upstream's tests call
 * updateStatefulSetAfterInvariantEstablished: the indices it deletes, in order, and the unavailable count it read.
 */
export function updateDeletions(ctx: SyncContext): { victims: { index: number }[]; unavailablePods?: number } {
  // upstream's function, whatever the strategy: OrderedReady's budget or Parallel's two phases
  const kind = ctx.monotonic ? 'ordered' : 'downFirst';
  const walked = walkUpdate(ctx, kind, new Admission(ctx));
  const victims = walked.items.flatMap((i) => i.steps.flat()).flatMap((a) => (a.kind === 'deletePod' ? [{ index: a.ordinal - ctx.slots.start }] : []));
  return { victims, ...(walked.unavailablePods !== undefined ? { unavailablePods: walked.unavailablePods } : {}) };
}
