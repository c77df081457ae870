// The Recreate strategy (KEP-3541 final design): delete every pod that is
// not on the update revision (in range and condemned, stuck or not), wait until all of them are gone,
// and only then let the ordinary replica pass create the new pods per podManagementPolicy.

import type { Pod } from '../../api/types.js';
import type { Item } from '../model/batches.js';
import { listed } from '../model/blockers.js';
import { onlyLabelChanges } from './claim-updates.js';
import { isOld, type SyncContext } from '../rollout/sync-context.js';
import type { Blocker } from '../model/plan-types.js';
import { isTerminating, podOrdinal } from '../model/pod-state.js';
import { mergeAscending } from '../model/merge.js';
import { admitted, type Admit } from './proposal.js';

export interface RecreateDecision {
  /** Deletions of old pods in slow-start batches (upstream runs them through runForAll/slowStartBatch). */
  deletions: Item[];
  /** Old-revision pods that exist (terminating or not). */
  oldPods: Pod[];
  blockers: Blocker[];
  /** No old pod remains: the shared loop may create pods. */
  proceed: boolean;
}

// upstream: stateful_set_control.go recreateDeleteAndWait (PR #137187)
export function planRecreate(ctx: SyncContext, admit: Admit): RecreateDecision {
  // a pod that already runs the new pod template (the change touched only claim templates) is never deleted:
  // its claims are updated and it is relabelled (KEP-4650: "if pod is not changed, update the PVC only")
  const oldPods = oldPodsOf(ctx).filter((p) => isTerminating(p) || !onlyLabelChanges(ctx, p));
  if (oldPods.length === 0) return { deletions: [], oldPods, blockers: [], proceed: true };
  const active = oldPods.filter((p) => !isTerminating(p));
  const deletions: Item[] = active.map((pod, position) => ({
    position,
    steps: [admitted(admit, { cause: 'recreate', pod, ordinal: podOrdinal(pod), disruption: { via: 'delete' }, charge: 'none' })],
  }));
  const names = oldPods.map((p) => p.metadata.name ?? '');
  return { deletions, oldPods, blockers: [{ kind: 'waitingForTermination', pods: listed(names) }], proceed: false };
}

/** Pods not on the update revision: in range ascending, then the condemned ones (highest ordinal first). */
function oldPodsOf(ctx: SyncContext): Pod[] {
  const { slots } = ctx;
  const index = slots.index;
  const others = index.revisions().filter((r) => r !== ctx.updateRevision);
  const inRange = [...mergeAscending(...others.map((r) => slots.ascending(index.onRevision(r))))].map((i) => slots.pod(i) as Pod);
  return [...inRange, ...slots.condemned.filter((p) => isOld(ctx, p))];
}
