// The replica pass (upstream processReplica over `replicas`): replace finished pods, create missing ones,
// keep claims, gate OrderedReady on readiness and availability, repair identity and storage.

import type { Pod } from '../../api/types.js';
import type { Steps } from '../model/batches.js';
import * as block from '../model/blockers.js';
import { staleClaimOf } from '../model/claim-identity.js';
import { isOld, placeholderPod, type SyncContext } from '../rollout/sync-context.js';
import { passCheck } from './enforced-rolling-update.js';
import { identityMatches, repairPod, storageMatches } from '../model/identity.js';
import type { Action, Blocker, PlannedEvent } from '../model/plan-types.js';
import { claimsMatchRetentionPolicy, createMissingClaims, fixClaimOwnerRefs } from './pod-claims.js';
import { isFailed, isPending, isRunningAndAvailable, isRunningAndReady, isSucceeded, isTerminating, podRevision, stuckReason } from '../model/pod-state.js';
import { claimPatches } from '../rollout/claim-apply.js';
import { admitted, type Admit } from './proposal.js';

export interface ReplicaOutcome {
  steps: Steps;
  /** Why the (OrderedReady) pass ends at this pod; Parallel ignores it, as upstream ignores shouldExit. */
  stop?: Blocker;
  events: PlannedEvent[];
  created: boolean;
}

const outcome = (steps: Steps, stop?: Blocker, events: PlannedEvent[] = [], created = false): ReplicaOutcome => ({
  steps,
  events,
  created,
  ...(stop ? { stop } : {}),
});

/** The deletion of a finished (failed) or condemned pod: no rule holds it (upstream deletes them without asking). */
export const deletion = (admit: Admit, pod: Pod, ordinal: number, cause: 'failed' | 'condemned'): Action[] =>
  admitted(admit, { cause, pod, ordinal, disruption: { via: 'delete' }, charge: 'none' });

/** Claims, then the pod, then owner references of claims that already existed (CreateStatefulPod). */
// upstream: stateful_set_control.go processReplica (not created) + stateful_pod_control.go CreateStatefulPod
export function createReplica(ctx: SyncContext, index: number): ReplicaOutcome {
  const pod = placeholderPod(ctx, index);
  const name = pod.metadata.name ?? '';
  const stale = staleClaimOf(ctx.set, pod, ctx.claims);
  if (stale !== undefined) return outcome([], { kind: 'staleClaim', pod: name, claim: stale });
  const claims = createMissingClaims(ctx, pod);
  if (claims.deleting !== undefined) return outcome([claims.actions], { kind: 'claimDeleting', pod: name, claim: claims.deleting });
  const refs = fixClaimOwnerRefs(ctx, pod);
  const create: Action = { kind: 'createPod', batch: 0, pod, ordinal: ctx.slots.start + index };
  // InPlace: claims that exist are brought to the new pod's revision together with its creation (KEP-4650),
  // but neither a failed update nor a claim that cannot follow keeps the pod from being created
  const patches = claimPatches(ctx, pod, podRevision(pod)).actions.map((a): Action => ({ ...a, continuesOnFailure: true }));
  return outcome([[...claims.actions, ...patches], [create], refs.actions], block.creating(pod), refs.events, true);
}

/**
 * OrderedReady's gate: a pod must be Running, Ready and available before the next ordinal is touched
 * (EnforcedRollingUpdate: unless passCheck lets the pass go past it).
 */
function monotonicGate(ctx: SyncContext, index: number, pod: Pod): Blocker | undefined {
  if (isTerminating(pod)) return block.terminating(pod);
  if (passCheck(ctx, index, pod).passed !== undefined) return undefined;
  if (!isRunningAndReady(pod)) {
    const stuckOld = ctx.strategy.kind === 'RollingUpdate' && isOld(ctx, pod) && index >= ctx.strategy.partition && stuckReason(pod);
    return stuckOld ? block.stuckOld(pod) : block.notRunningAndReady(pod);
  }
  if (!isRunningAndAvailable(pod, ctx.minReadySeconds, ctx.now)) return block.notAvailable(pod, ctx.minReadySeconds);
  return undefined;
}

/** Identity, storage and claim ownerRefs; the pod is written only when its identity or storage changes. */
// upstream: stateful_set_control.go processReplica (invariants) + stateful_pod_control.go UpdateStatefulPod
function repairReplica(ctx: SyncContext, pod: Pod, ordinal: number): ReplicaOutcome {
  const podOk = identityMatches(ctx.updateSet, pod) && storageMatches(ctx.updateSet, pod);
  if (podOk && claimsMatchRetentionPolicy(ctx, pod)) return outcome([]);
  const repaired = repairPod(ctx.updateSet, pod);
  const claims = storageMatches(ctx.updateSet, pod) ? { actions: [] } : createMissingClaims(ctx, repaired);
  if ('deleting' in claims && claims.deleting !== undefined) {
    return outcome([claims.actions], { kind: 'claimDeleting', pod: pod.metadata.name ?? '', claim: claims.deleting });
  }
  const refs = fixClaimOwnerRefs(ctx, repaired);
  const update: Action[] = podOk ? [] : [{ kind: 'updatePod', batch: 0, pod: repaired, ordinal }];
  return outcome([claims.actions, refs.actions, update], undefined, refs.events);
}

// upstream: stateful_set_control.go processReplica
export function processReplica(ctx: SyncContext, index: number, pod: Pod | undefined, admit: Admit): ReplicaOutcome {
  if (pod === undefined) return createReplica(ctx, index);
  const ordinal = ctx.slots.start + index;
  if (isFailed(pod) || isSucceeded(pod)) {
    // a replacement is created on a later sync, once the finished pod is gone from the API
    return outcome(isTerminating(pod) ? [] : [deletion(admit, pod, ordinal, 'failed')], block.notRunningAndReady(pod));
  }
  const steps: Steps = [];
  if (isPending(pod)) {
    const claims = createMissingClaims(ctx, pod);
    steps.push(claims.actions);
    if (claims.deleting !== undefined) return outcome(steps, { kind: 'claimDeleting', pod: pod.metadata.name ?? '', claim: claims.deleting });
  }
  const gate = ctx.monotonic ? monotonicGate(ctx, index, pod) : undefined;
  if (gate !== undefined) return outcome(steps, gate);
  const repair = repairReplica(ctx, pod, ordinal);
  return outcome([...steps, ...repair.steps], repair.stop, repair.events);
}
