// Builds a SyncContext directly, for tests that call one phase the way upstream's tests call
// updateStatefulSetAfterInvariantEstablished (an update revision named '' makes every pod old).

import type { Instant, Pod, StatefulSet } from '../../src/api/types.js';
import { newSyncContext, type SyncContext } from '../../src/controller/rollout/sync-context.js';
import { partitionPods } from '../../src/controller/replica/replicas.js';
import { effectiveStrategy } from '../../src/controller/rollout/effective-strategy.js';
import { PlannerCache } from '../../src/controller/rollout/planner-cache.js';
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
