// volumeClaimUpdatePolicy: InPlace (KEP-4650, an apps.ordinal.dev/v1 extension): the one owner of what a
// replica's claims say about it. The claim templates are part of the revision, and KEP-4650's invariant holds:
// a replica at revision A has its claims at revision A (their `controller-revision-hash` label). A replica
// moves to a new revision in one of two ways, decided by its pod template alone:
// - the pod template did not change: its claims are brought to the revision's templates by server-side apply
//   (labels, annotations, a larger storage request, volumeAttributesClassName, the revision label), then, once
//   no claim is resizing, the pod is relabelled ("if pod is not changed, update the PVC only");
// - it changed: the pod is replaced, and its claims are brought to the template together with creating the
//   new pod (so an offline expansion finishes when that pod starts).
// A claim that cannot be made compatible (a class that refuses expansion, other fixed fields) holds the
// rolling update at its replica until the user acts, but never the creation of a pod. With OnDelete every
// claim is left alone, as upstream.

import { ClaimAnnotations, fromTimestamp, toTimestamp, type Pod, type StatefulSet } from '../../api/types.js';
import { carriesClaimTemplates } from '../../api/revision/hash.js';
import { claimNameFor, claimTemplates, claimVolumesMatch } from '../model/claim-identity.js';
import { claimRevision, type ReplicaClaims, type ResizingClaim } from '../replica/claim-state.js';
import type { Action, Blocker } from '../model/plan-types.js';
import { isTerminating, parentNameAndOrdinal, podRevision } from '../model/pod-state.js';
import type { Proposal } from './proposal.js';
import { claimApply, claimPatches, replicaClaims } from '../rollout/claim-apply.js';
import { setAtRevision, type SyncContext } from '../rollout/sync-context.js';

/**
 * Records, on each claim whose expansion the controller asked for and has seen finish, when that was: the
 * same apply as the one that grew it, plus `resized-at`. Nothing to record for a claim of an unknown revision.
 */
export function recordResizes(ctx: SyncContext, pod: Pod, c: ReplicaClaims): Action[] {
  const podName = pod.metadata.name ?? '';
  const ordinal = parentNameAndOrdinal(podName).ordinal;
  return c.unrecorded.flatMap((claim): Action[] => {
    const set = setAtRevision(ctx, claimRevision(claim));
    const template = set === undefined ? undefined : claimTemplates(set).find((t) => claimNameFor(set, t, ordinal) === claim.metadata.name);
    if (set === undefined || template === undefined) return [];
    const marks = { [ClaimAnnotations.resizeRequestedAt]: claim.metadata.annotations?.[ClaimAnnotations.resizeRequestedAt] ?? '', [ClaimAnnotations.resizedAt]: toTimestamp(ctx.now) };
    return [{ kind: 'patchClaim', batch: 0, name: claim.metadata.name ?? '', podName, claim: claimApply(set, template, claim, claimRevision(claim), marks) }];
  });
}

/** The blocker a replica whose claim is resizing reports. */
export function resizingBlocker(pod: string, r: ResizingClaim): Blocker {
  if (r.failed !== undefined) return { kind: 'claimResizeFailed', pod, claim: r.claim, message: r.failed };
  return { kind: 'claimResizing', pod, claim: r.claim, waitingForPodRestart: r.offline };
}

/**
 * The pod already runs the update revision's pod template and mounts the claims of its templates, and the two
 * revisions differ only in claim templates: moving it needs its label (and its claims), never a restart.
 * Decided by the pod template and the pod's claim volumes: a template added or removed changes the pod's
 * volumes, so the pod is replaced. Revisions that never carried claim templates (every apps/v1 set) keep
 * upstream's replace.
 */
export function onlyLabelChanges(ctx: SyncContext, pod: Pod): boolean {
  const revision = podRevision(pod);
  const at = setAtRevision(ctx, revision);
  if (at === undefined) return false;
  const own = ctx.revisions.get(revision);
  const update = ctx.revisions.get(ctx.updateRevision);
  const claimsInvolved = ctx.rollout.knobs.claimsInPlace || (own !== undefined && carriesClaimTemplates(own)) || (update !== undefined && carriesClaimTemplates(update));
  return claimsInvolved && sameTemplate(ctx, revision, at) && claimVolumesMatch(ctx.updateSet, pod);
}

function sameTemplate(ctx: SyncContext, revision: string, at: StatefulSet): boolean {
  const memo = (ctx.memo.sameTemplate ??= new Map<string, boolean>());
  let same = memo.get(revision);
  if (same === undefined) {
    same = at.spec.template === ctx.updateSet.spec.template || JSON.stringify(at.spec.template) === JSON.stringify(ctx.updateSet.spec.template);
    memo.set(revision, same);
  }
  return same;
}

/** How an old pod chosen for update (or a replica whose claims lag) moves to the update revision. */
export type UpdateStep =
  | { kind: 'patchClaims'; actions: Action[] }
  | { kind: 'wait'; blocker: Blocker }
  | { kind: 'relabel'; action: Action }
  /** Delete the pod; `forClaims`: only to finish an offline expansion (its template is unchanged). */
  | { kind: 'replace'; forClaims: boolean }
  /** Nothing to do for it this sync (a replica already on the update revision). */
  | { kind: 'none' };

const relabel = (ctx: SyncContext, pod: Pod): UpdateStep => {
  if (podRevision(pod) === ctx.updateRevision) return { kind: 'none' };
  const name = pod.metadata.name ?? '';
  return { kind: 'relabel', action: { kind: 'relabelPod', batch: 0, name, uid: pod.metadata.uid ?? '', ordinal: parentNameAndOrdinal(name).ordinal, revision: ctx.updateRevision } };
};

/**
 * `restartsOffline`: the strategy restarts a pod to finish an offline expansion (EnforcedRollingUpdate,
 * Recreate); RollingUpdate waits for someone to delete it.
 */
// KEP-4650 ("When to update PVCs")
export function updateStep(ctx: SyncContext, pod: Pod, restartsOffline: boolean): UpdateStep {
  const keepsPod = podRevision(pod) === ctx.updateRevision || onlyLabelChanges(ctx, pod);
  if (!ctx.rollout.knobs.claimsInPlace) return keepsPod ? relabel(ctx, pod) : { kind: 'replace', forClaims: false };
  const patches = claimPatches(ctx, pod, ctx.updateRevision);
  // a replica whose claims cannot follow is not touched: the user decides (nothing is deleted for it)
  if (patches.blocked !== undefined) return { kind: 'wait', blocker: patches.blocked };
  if (!keepsPod) return { kind: 'replace', forClaims: false };
  if (patches.actions.length > 0) return { kind: 'patchClaims', actions: patches.actions };
  const claims = replicaClaims(ctx, pod);
  const podName = pod.metadata.name ?? '';
  if (claims.resizing !== undefined) {
    // a failed resize is never "fixed" by restarting the pod: nothing is deleted for it
    const restart = claims.resizing.failed === undefined && claims.resizing.offline && restartsOffline;
    return restart ? { kind: 'replace', forClaims: true } : { kind: 'wait', blocker: resizingBlocker(podName, claims.resizing) };
  }
  return relabel(ctx, pod);
}

/**
 * A pod the rollout created on the update revision whose claim's expansion ended after it had mounted it, and
 * now waits for a restart to grow its file system (offline expansion): proposed for a restart, under every
 * strategy. The replica is unavailable already (its claim is resizing), so this costs no budget. (A pod the
 * rollout keeps, on the old revision, is restarted for its claims only by EnforcedRollingUpdate and Recreate:
 * updateStep.)
 */
export function restartForClaims(ctx: SyncContext, pod: Pod, claims: ReplicaClaims): Proposal | undefined {
  const resizing = claims.resizing;
  if (podRevision(pod) !== ctx.updateRevision || isTerminating(pod) || resizing === undefined || !resizing.offline || resizing.failed !== undefined) return undefined;
  // a pod created once the storage side had finished mounts the grown volume: its start ends the expansion
  const created = fromTimestamp(pod.metadata.creationTimestamp);
  if (created === undefined || resizing.offlineSince === undefined || created >= resizing.offlineSince) return undefined;
  return { cause: 'claimRestart', pod, ordinal: parentNameAndOrdinal(pod.metadata.name).ordinal, disruption: { via: 'delete' }, charge: 'free' };
}
