// volumeClaimUpdatePolicy InPlace (KEP-4650): what bringing a replica's claims to a revision takes — the
// server-side apply of each claim the controller owns, or why it cannot be made — and what a replica's claims
// say about it in this sync (its readiness from the replica record, and whether they lag its pod's revision, so
// the replica still moves). The rollout reads `lagging` to know which replicas are still to update; the phases
// (claim-updates.ts) build the updates from `claimPatches`.

import { ClaimAnnotations, claimRequest, classAllowsExpansion, Labels, toTimestamp, type PersistentVolumeClaim, type Pod, type StatefulSet } from '../../api/types.js';
import { largerQuantity } from '../../api/validation/quantity.js';
import { claimNameFor, claimTemplates } from '../model/claim-identity.js';
import type { Action, Blocker } from '../model/plan-types.js';
import { parentNameAndOrdinal, podRevision } from '../model/pod-state.js';
import { fixedFieldMismatch } from '../replica/claim-template-status.js';
import { claimRevision, claimsReadiness, isClaimDeleting, type ReplicaClaims } from '../replica/claim-state.js';
import { isOld, setAtRevision, type SyncContext } from './sync-context.js';

/**
 * What the controller applies (server-side apply, its own field manager) to bring a claim to the template of
 * a revision: the template's labels and annotations with the set's selector labels and the revision label,
 * the larger of the template's and the claim's storage request (never shrinking; named every time, since
 * what an apply leaves out that it applied before is removed), volumeAttributesClassName (the claim's own
 * when the template has none: a class is never unset), and the controller's own resize annotations.
 * Users' own labels and annotations stay theirs.
 */
export function claimApply(set: StatefulSet, template: PersistentVolumeClaim, claim: PersistentVolumeClaim, revision: string, marks: Record<string, string>): PersistentVolumeClaim {
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
  if (!ctx.rollout.knobs.claimsInPlace || set === undefined) return { actions: [] };
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

const NONE: ReplicaClaims = Object.freeze({ unrecorded: [], lagging: false });

/** The replica's claims, worked out once per pod and sync (the budget asks for every slot, often). */
export function replicaClaims(ctx: SyncContext, pod: Pod): ReplicaClaims {
  if (!ctx.rollout.knobs.claimsInPlace) return NONE;
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

/** The replica still has to move to the update revision: its pod is old, or (InPlace) its claims lag its pod. */
export const needsUpdate = (ctx: SyncContext, pod: Pod): boolean => isOld(ctx, pod) || replicaClaims(ctx, pod).lagging;
