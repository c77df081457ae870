// The claim writes around one pod: create missing claims before the pod (or before a storage repair), and
// fix owner references for the retention policy (§2.4–2.5).

import { Labels, type PersistentVolumeClaim, type Pod } from '../../api/types.js';
import { claimNamesForOrdinal, claimsFollowRetention, claimsForOrdinal, hasUnexpectedController, isClaimOwnerUpToDate, withRetentionOwnerRefs } from '../model/claim-identity.js';
import { setAtRevision, type SyncContext } from '../rollout/sync-context.js';
import type { Action, PlannedEvent } from '../model/plan-types.js';
import { parentNameAndOrdinal, podRevision } from '../model/pod-state.js';

export interface ClaimCreation {
  actions: Action[];
  /** A claim of the pod exists but is being deleted: upstream's "pvc … is being deleted" error. */
  deleting?: string;
}

const isDeleting = (c: PersistentVolumeClaim): boolean => Boolean(c.metadata.deletionTimestamp);

/**
 * createClaim actions for the pod's missing claims. New claims get the retention policy's owner references
 * right away (upstream adds them on a later sync with an extra claim and pod update; the end state is equal).
 */
// upstream: stateful_pod_control.go createPersistentVolumeClaims
export function createMissingClaims(ctx: SyncContext, pod: Pod): ClaimCreation {
  const podName = pod.metadata.name ?? '';
  const out: ClaimCreation = { actions: [] };
  const ordinal = parentNameAndOrdinal(podName).ordinal;
  // InPlace: a claim is created from the templates of its pod's revision, and records that revision; a
  // template only another revision has (added above a partition, or removed) neither is created nor blocks
  const revision = podRevision(pod);
  const source = ctx.rollout.knobs.claimsInPlace ? (setAtRevision(ctx, revision) ?? ctx.set) : ctx.set;
  const names = claimNamesForOrdinal(source, ordinal);
  if (names.every((n) => ctx.claims.has(n) && !isDeleting(ctx.claims.get(n) as PersistentVolumeClaim))) return out;
  for (const claim of claimsForOrdinal(source, ordinal)) {
    const existing = ctx.claims.get(claim.metadata.name ?? '');
    if (existing === undefined) {
      const labelled = ctx.rollout.knobs.claimsInPlace ? { ...claim, metadata: { ...claim.metadata, labels: { ...claim.metadata.labels, [Labels.revisionHash]: revision } } } : claim;
      out.actions.push({ kind: 'createClaim', batch: 0, claim: withRetentionOwnerRefs(labelled, ctx.set, pod), podName });
    } else if (isDeleting(existing) && out.deleting === undefined) {
      out.deleting = existing.metadata.name ?? '';
    }
  }
  return out;
}

export interface ClaimRefFixes {
  actions: Action[];
  events: PlannedEvent[];
}

const conflictEvent = (ctx: SyncContext, claim: string, pod: string): PlannedEvent => ({
  type: 'Warning',
  reason: 'FailedUpdate',
  message:
    `update Claim ${claim} for Pod ${pod} in StatefulSet ${ctx.set.metadata.name ?? ''} failed error: ` +
    `PersistentVolumeClaim ${claim} has a conflicting OwnerReference that acts as a manging controller, ` +
    'the retention policy is ignored for this claim',
});

/** updateClaim actions for the pod's existing claims whose owner references do not follow the policy. */
// upstream: stateful_pod_control.go UpdatePodClaimForRetentionPolicy
export function fixClaimOwnerRefs(ctx: SyncContext, pod: Pod): ClaimRefFixes {
  const podName = pod.metadata.name ?? '';
  const out: ClaimRefFixes = { actions: [], events: [] };
  for (const name of claimNamesForOrdinal(ctx.set, parentNameAndOrdinal(podName).ordinal)) {
    const claim = ctx.claims.get(name);
    if (claim === undefined || isClaimOwnerUpToDate(claim, ctx.updateSet, pod)) continue;
    if (hasUnexpectedController(claim, ctx.updateSet, pod)) out.events.push(conflictEvent(ctx, claim.metadata.name ?? '', podName));
    out.actions.push({ kind: 'updateClaim', batch: 0, claim: withRetentionOwnerRefs(claim, ctx.updateSet, pod), podName });
  }
  return out;
}

/** Whether every existing claim of the pod follows the policy (missing claims count as matching). */
// upstream: stateful_pod_control.go ClaimsMatchRetentionPolicy
export function claimsMatchRetentionPolicy(ctx: SyncContext, pod: Pod): boolean {
  return claimsFollowRetention(ctx.updateSet, ctx.claims, pod);
}
