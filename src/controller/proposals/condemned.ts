// Scale-down (upstream fixPodClaim + processCondemned): condemned pods, highest ordinal first. OrderedReady
// deletes one per sync and only when it is healthy or the first unavailable pod; Parallel deletes all;
// EnforcedRollingUpdate deletes without waiting for predecessors (KEP-3541's first design).

import type { Pod } from '../../api/types.js';
import type { Item } from '../model/batches.js';
import * as block from '../model/blockers.js';
import type { SyncContext } from '../rollout/sync-context.js';
import type { Blocker, PlannedEvent } from '../model/plan-types.js';
import { fixClaimOwnerRefs } from './pod-claims.js';
import { isRunningAndAvailable, isRunningAndReady, isTerminating, podOrdinal } from '../model/pod-state.js';
import type { FirstUnavailable } from '../replica/replicas.js';
import { deletion } from './process-replica.js';
import type { Admit } from './proposal.js';

export interface CondemnedResult {
  claimItems: Item[];
  deleteItems: Item[];
  blockers: Blocker[];
  events: PlannedEvent[];
  stopped: boolean;
}

/** Owner references of condemned pods' claims (whenScaled: Delete hands them to the pod before it goes). */
// upstream: stateful_set_control.go updateStatefulSet (fixPodClaim over condemned)
function claimFixes(ctx: SyncContext): { items: Item[]; events: PlannedEvent[] } {
  const items: Item[] = [];
  const events: PlannedEvent[] = [];
  ctx.slots.condemned.forEach((pod, position) => {
    const fix = fixClaimOwnerRefs(ctx, pod);
    items.push({ position, steps: [fix.actions] });
    events.push(...fix.events);
  });
  return { items, events };
}

const isFirstUnavailable = (first: FirstUnavailable, pod: Pod): boolean => first?.kind === 'condemned' && first.pod === pod;

/** Why OrderedReady may not delete this condemned pod yet; undefined when it may. */
// upstream: stateful_set_control.go processCondemned
function condemnedGate(ctx: SyncContext, pod: Pod, first: FirstUnavailable): Blocker | undefined {
  if (isTerminating(pod)) return block.terminating(pod);
  if (ctx.strategy.kind === 'EnforcedRollingUpdate' || isFirstUnavailable(first, pod)) return undefined;
  if (!isRunningAndReady(pod)) return block.notRunningAndReady(pod);
  if (!isRunningAndAvailable(pod, ctx.minReadySeconds, ctx.now)) return block.notAvailable(pod, ctx.minReadySeconds);
  return undefined;
}

function monotonicDeletes(ctx: SyncContext, first: FirstUnavailable, admit: Admit): { items: Item[]; blocker?: Blocker } {
  const pod = ctx.slots.condemned[0];
  if (pod === undefined) return { items: [] };
  const gate = condemnedGate(ctx, pod, first);
  if (gate !== undefined) return { items: [], blocker: gate };
  // one deletion per sync; the next waits for this pod to be gone
  return { items: [{ position: 0, steps: [deletion(admit, pod, podOrdinal(pod), 'condemned')] }] };
}

function parallelDeletes(ctx: SyncContext, admit: Admit): Item[] {
  return ctx.slots.condemned.flatMap((pod, position) => (isTerminating(pod) ? [] : [{ position, steps: [deletion(admit, pod, podOrdinal(pod), 'condemned')] }]));
}

export function condemnedPass(ctx: SyncContext, first: FirstUnavailable, admit: Admit): CondemnedResult {
  const fixes = claimFixes(ctx);
  if (!ctx.monotonic) {
    return { claimItems: fixes.items, deleteItems: parallelDeletes(ctx, admit), blockers: [], events: fixes.events, stopped: false };
  }
  const deletes = monotonicDeletes(ctx, first, admit);
  return {
    claimItems: fixes.items,
    deleteItems: deletes.items,
    blockers: deletes.blocker ? [deletes.blocker] : [],
    events: fixes.events,
    stopped: ctx.slots.condemned.length > 0,
  };
}
