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

import {
  ClaimAnnotations,
  claimRequest,
  classAllowsExpansion,
  Labels,
  toTimestamp,
  type Instant,
  type PersistentVolumeClaim,
  type Pod,
  type StatefulSet,
} from '../../api/types.js';
import { carriesClaimTemplates } from '../../api/revision/hash.js';
import { largerQuantity } from '../../api/validation/quantity.js';
import { claimNameFor, claimTemplates } from '../model/claim-identity.js';
import { fixedFieldMismatch } from '../replica/claim-template-status.js';
import { claimRevision, claimsAvailableFrom, claimsReadiness, isClaimDeleting, type ClaimsReadiness, type ResizingClaim } from '../replica/claim-state.js';
import type { Action, Blocker } from '../model/plan-types.js';
import { parentNameAndOrdinal, podRevision } from '../model/pod-state.js';
import { setAtRevision, type SyncContext } from '../rollout/sync-context.js';

/**
 * What the controller applies (server-side apply, its own field manager) to bring a claim to the template of
 * a revision: the template's labels and annotations with the set's selector labels and the revision label,
 * the larger of the template's and the claim's storage request (never shrinking; named every time, since
 * what an apply leaves out that it applied before is removed), volumeAttributesClassName (the claim's own
 * when the template has none: a class is never unset), and the controller's own resize annotations.
 * Users' own labels and annotations stay theirs.
 */
function claimApply(set: StatefulSet, template: PersistentVolumeClaim, claim: PersistentVolumeClaim, revision: string, marks: Record<string, string>): PersistentVolumeClaim {
  const labels = { ...template.metadata?.labels, ...set.spec.selector?.matchLabels, [Labels.revisionHash]: revision };
  const annotations = { ...template.metadata?.annotations, ...marks };
  const storage = largerQuantity(claimRequest(claim), claimRequest(template));
  const vac = template.spec?.volumeAttributesClassName ?? claim.spec?.volumeAttributesClassName;
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: claim.metadata.name ?? '', namespace: claim.metadata.namespace ?? '', labels, ...(Object.keys(annotations).length > 0 ? { annotations } : {}) },
    spec: { ...(storage === undefined ? {} : { resources: { requests: { storage } } }), ...(vac === undefined ? {} : { volumeAttributesClassName: vac }) },
  };
}

/** The class name when the claim cannot grow because its StorageClass (observed) does not allow expansion. */
function refusingClass(ctx: SyncContext, claim: PersistentVolumeClaim): string | undefined {
  if (ctx.storageClasses === undefined) return undefined;
  const name = claim.spec?.storageClassName ?? '';
  return classAllowsExpansion(ctx.storageClasses.get(name)) ? undefined : name;
}

/** The pod's claims brought to a revision: the applies that can be made, and why one of them cannot. */
export interface ClaimPatches {
  actions: Action[];
  /** A claim the controller cannot make compatible (claimExpansionRefused or claimIncompatible). */
  blocked?: Blocker;
}

/**
 * patchClaim actions (server-side applies) for the pod's claims that exist and are not yet at `revision`.
 * A claim that must grow through a StorageClass that does not allow it (the API server would refuse it), or
 * whose fixed fields differ from the template, is not patched: `blocked` says which and why.
 */
export function claimPatches(ctx: SyncContext, pod: Pod, revision: string): ClaimPatches {
  const set = setAtRevision(ctx, revision);
  if (!ctx.inPlace || set === undefined) return { actions: [] };
  const podName = pod.metadata.name ?? '';
  const ordinal = parentNameAndOrdinal(podName).ordinal;
  const out: ClaimPatches = { actions: [] };
  for (const template of claimTemplates(set)) {
    const name = claimNameFor(set, template, ordinal);
    const claim = ctx.claims.get(name);
    if (claim === undefined || isClaimDeleting(claim) || claimRevision(claim) === revision) continue;
    const mismatch = fixedFieldMismatch(claim, template);
    if (mismatch !== undefined) {
      out.blocked ??= { kind: 'claimIncompatible', pod: podName, claim: name, ...mismatch };
      continue;
    }
    const grows = largerQuantity(claimRequest(claim), claimRequest(template)) !== claimRequest(claim);
    const storageClass = grows ? refusingClass(ctx, claim) : undefined;
    const applied = claimApply(set, template, claim, revision, grows && ctx.minReadySeconds > 0 ? { [ClaimAnnotations.resizeRequestedAt]: toTimestamp(ctx.now) } : {});
    const request = claimRequest(applied) ?? '';
    if (storageClass !== undefined) {
      out.blocked ??= { kind: 'claimExpansionRefused', pod: podName, claim: name, storageClass, request };
      continue;
    }
    out.actions.push({ kind: 'patchClaim', batch: 0, name, podName, claim: applied, ...(grows ? { growsTo: request } : {}) });
  }
  return out;
}

/** What a replica's claims say about it (InPlace), worked out once per pod and sync. */
export interface ReplicaClaims extends ClaimsReadiness {
  /** Its claims are not at the pod's revision and can be, or must grow and cannot: the replica does not count as on that revision yet. */
  lagging: boolean;
}

const NONE: ReplicaClaims = Object.freeze({ unrecorded: [], lagging: false });

/** The replica's claims, worked out once per pod and sync (the budget asks for every slot, often). */
export function replicaClaims(ctx: SyncContext, pod: Pod): ReplicaClaims {
  if (!ctx.inPlace) return NONE;
  const memo = (ctx.memo.replicaClaims ??= new Map<Pod, ReplicaClaims>());
  let known = memo.get(pod);
  if (known === undefined) {
    known = readReplicaClaims(ctx, pod);
    memo.set(pod, known);
  }
  return known;
}

function readReplicaClaims(ctx: SyncContext, pod: Pod): ReplicaClaims {
  const ordinal = parentNameAndOrdinal(pod.metadata.name).ordinal;
  // the replica's record has read its claims (replica.ts); a pod that holds no slot (shadowed) is read here
  const member = ctx.slots.index.member(ordinal);
  const readiness = member?.pod === pod && member.claims !== undefined ? member.claims : claimsReadiness(claimTemplates(ctx.set).flatMap((t) => ctx.claims.get(claimNameFor(ctx.set, t, ordinal)) ?? []), ctx.minReadySeconds);
  // a claim that differs in a fixed field never had the template's revision (it predates the set): it holds
  // the update of its replica (updateStep), not the count of a replica created on it
  const toPodRevision = claimPatches(ctx, pod, podRevision(pod));
  return { ...readiness, lagging: toPodRevision.actions.length > 0 || toPodRevision.blocked?.kind === 'claimExpansionRefused' };
}

/** The claims are ready: none is expanding (readyReplicas). */
export const claimsReady = (c: ReplicaClaims): boolean => c.resizing === undefined;

/** The claims have been ready for minReadySeconds (availableReplicas, the update budget). */
export const claimsAvailable = (ctx: SyncContext, c: ReplicaClaims): boolean => claimsAvailableFrom(c, ctx.minReadySeconds) <= ctx.now;

/** When the claims become available with no new event (minReadySeconds after the recorded end of an expansion). */
export function claimsAvailableAt(ctx: SyncContext, c: ReplicaClaims): Instant | undefined {
  const at = claimsAvailableFrom(c, ctx.minReadySeconds);
  return at > ctx.now && Number.isFinite(at) ? at : undefined;
}

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
 * The pod already runs the update revision's pod template, and the two revisions differ only in claim
 * templates: moving it needs its label (and its claims), never a restart. Decided by the pod template alone;
 * revisions that never carried claim templates (every apps/v1 set) keep upstream's replace.
 */
export function onlyLabelChanges(ctx: SyncContext, pod: Pod): boolean {
  const revision = podRevision(pod);
  const at = setAtRevision(ctx, revision);
  if (at === undefined) return false;
  const own = ctx.revisions.get(revision);
  const update = ctx.revisions.get(ctx.updateRevision);
  const claimsInvolved = ctx.inPlace || (own !== undefined && carriesClaimTemplates(own)) || (update !== undefined && carriesClaimTemplates(update));
  return claimsInvolved && sameTemplate(ctx, revision, at);
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
  if (!ctx.inPlace) return keepsPod ? relabel(ctx, pod) : { kind: 'replace', forClaims: false };
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
