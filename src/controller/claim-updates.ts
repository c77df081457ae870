// volumeClaimUpdatePolicy: InPlace (KEP-4650, an apps.ordinal.dev/v1 extension). The claim templates are part
// of the revision, and a replica moves to a new revision claims first: its existing claims are brought to
// the revision's templates by server-side apply (labels, annotations, a larger storage request,
// volumeAttributesClassName, and the revision label that records it), then, once no claim is resizing, the
// pod is relabelled when its pod template did not change, or replaced when it did. KEP-4650's invariant: a pod at revision A has its
// claims at revision A. A claim whose fixed fields differ from the template is left alone (KEP-4650 does
// not patch claims that differ from their template); with OnDelete every claim is left alone, as upstream.

import { claimRequest, classAllowsExpansion, hasClaimCondition, Labels, type PersistentVolumeClaim, type Pod, type StatefulSet } from '../api/types.js';
import { largerQuantity } from '../api/validation/quantity.js';
import { claimNameFor, claimTemplates } from './claim-identity.js';
import { fixedFieldsMatch, isResizing } from './claim-template-status.js';
import type { Action, Blocker } from './plan-types.js';
import { parentNameAndOrdinal, podRevision } from './pod-state.js';
import type { SyncContext } from './sync-context.js';

const claimRevision = (c: PersistentVolumeClaim): string => c.metadata.labels?.[Labels.revisionHash] ?? '';
const isDeleting = (c: PersistentVolumeClaim): boolean => Boolean(c.metadata.deletionTimestamp);

/** The set as of `revision` (the current or the update one), or undefined for any other. */
export function setAtRevision(ctx: SyncContext, revision: string): StatefulSet | undefined {
  if (revision === ctx.updateRevision) return ctx.updateSet;
  if (revision === ctx.currentRevision) return ctx.currentSet;
  return undefined;
}

/**
 * What the controller applies (server-side apply, its own field manager) to bring a claim to the template of
 * `revision`: the template's labels and annotations with the set's selector labels and the revision label,
 * the larger of the template's and the claim's storage request (never shrinking; named every time, since
 * what an apply leaves out that it applied before is removed), and volumeAttributesClassName (the claim's
 * own when the template has none: a class is never unset). Users' own labels and annotations stay theirs.
 */
function claimApply(set: StatefulSet, template: PersistentVolumeClaim, claim: PersistentVolumeClaim, revision: string): PersistentVolumeClaim {
  const labels = { ...template.metadata?.labels, ...set.spec.selector?.matchLabels, [Labels.revisionHash]: revision };
  const annotations = template.metadata?.annotations;
  const storage = largerQuantity(claimRequest(claim), claimRequest(template));
  const vac = template.spec?.volumeAttributesClassName ?? claim.spec?.volumeAttributesClassName;
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: claim.metadata.name ?? '', namespace: claim.metadata.namespace ?? '', labels, ...(annotations ? { annotations } : {}) },
    spec: { ...(storage === undefined ? {} : { resources: { requests: { storage } } }), ...(vac === undefined ? {} : { volumeAttributesClassName: vac }) },
  };
}

/** The class name when the claim cannot grow because its StorageClass (observed) does not allow expansion. */
function refusingClass(ctx: SyncContext, claim: PersistentVolumeClaim): string | undefined {
  if (ctx.storageClasses === undefined) return undefined;
  const name = claim.spec?.storageClassName ?? '';
  return classAllowsExpansion(ctx.storageClasses.get(name)) ? undefined : name;
}

/** The pod's claims brought to a revision: the applies, or why the replica cannot have them. */
export interface ClaimPatches {
  actions: Action[];
  refused?: Blocker;
}

/**
 * patchClaim actions (server-side applies) for the pod's claims that exist and are not yet at `revision`;
 * none when one of them must grow and its StorageClass does not allow it (the API server would refuse it:
 * the replica stays where it is, and says why, rather than failing every sync).
 */
export function claimPatches(ctx: SyncContext, pod: Pod, revision: string): ClaimPatches {
  const set = setAtRevision(ctx, revision);
  if (!ctx.inPlace || set === undefined) return { actions: [] };
  const ordinal = parentNameAndOrdinal(pod.metadata.name).ordinal;
  const podName = pod.metadata.name ?? '';
  const actions: Action[] = [];
  for (const template of claimTemplates(set)) {
    const name = claimNameFor(set, template, ordinal);
    const claim = ctx.claims.get(name);
    if (claim === undefined || isDeleting(claim) || claimRevision(claim) === revision || !fixedFieldsMatch(claim, template)) continue;
    const applied = claimApply(set, template, claim, revision);
    const request = claimRequest(applied);
    const growsTo = request !== undefined && request !== claimRequest(claim) ? request : undefined;
    const storageClass = growsTo === undefined ? undefined : refusingClass(ctx, claim);
    if (storageClass !== undefined) return { actions: [], refused: { kind: 'claimExpansionRefused', pod: podName, claim: name, storageClass, request: growsTo ?? '' } };
    actions.push({ kind: 'patchClaim', batch: 0, name, podName, claim: applied, ...(growsTo === undefined ? {} : { growsTo }) });
  }
  return { actions };
}

/** A claim of a replica that is resizing: whether it waits only for the pod to restart (offline expansion), or failed. */
export interface ResizingClaim {
  claim: string;
  offline: boolean;
  /** The failure the resize reports (ControllerResizeError / NodeResizeError, or an infeasible resize). */
  failed?: string;
}

const RESIZE_ERRORS = ['ControllerResizeError', 'NodeResizeError'];
const INFEASIBLE = ['ControllerResizeInfeasible', 'NodeResizeInfeasible'];

/** What the claim's resize reports as a failure, if anything. */
export function resizeFailure(claim: PersistentVolumeClaim): string | undefined {
  const error = (claim.status?.conditions ?? []).find((c) => RESIZE_ERRORS.includes(c.type) && c.status === 'True');
  if (error !== undefined) return error.message || error.type;
  const allocated = (claim.status?.['allocatedResourceStatuses'] as Record<string, string> | undefined)?.['storage'];
  return allocated !== undefined && INFEASIBLE.includes(allocated) ? allocated : undefined;
}

/** The first of the pod's claims that is resizing; worked out once per pod and sync (the budget asks for every slot, often). */
export function resizingClaim(ctx: SyncContext, pod: Pod): ResizingClaim | undefined {
  if (!ctx.inPlace) return undefined;
  const memo = (ctx.memo.resizing ??= new Map<string, ResizingClaim | null>());
  const podName = pod.metadata.name ?? '';
  const known = memo.get(podName);
  if (known !== undefined) return known ?? undefined;
  const ordinal = parentNameAndOrdinal(podName).ordinal;
  let found: ResizingClaim | null = null;
  for (const template of claimTemplates(ctx.set)) {
    const claim = ctx.claims.get(claimNameFor(ctx.set, template, ordinal));
    if (claim === undefined || !isResizing(claim)) continue;
    const failed = resizeFailure(claim);
    found = { claim: claim.metadata.name ?? '', offline: hasClaimCondition(claim, 'FileSystemResizePending'), ...(failed === undefined ? {} : { failed }) };
    break;
  }
  memo.set(podName, found);
  return found ?? undefined;
}

/** The blocker a replica whose claim is resizing reports. */
export function resizingBlocker(pod: string, r: ResizingClaim): Blocker {
  if (r.failed !== undefined) return { kind: 'claimResizeFailed', pod, claim: r.claim, message: r.failed };
  return { kind: 'claimResizing', pod, claim: r.claim, waitingForPodRestart: r.offline };
}

/** The pod's template is the update revision's: moving it to the update revision needs only its label. */
export function onlyLabelChanges(ctx: SyncContext, pod: Pod): boolean {
  const at = setAtRevision(ctx, podRevision(pod));
  return ctx.inPlace && at !== undefined && JSON.stringify(at.spec.template) === JSON.stringify(ctx.updateSet.spec.template);
}

/** The replica of an old pod chosen for update, under InPlace: its claims first, then the pod (relabelled or replaced). */
export type InPlaceStep = { kind: 'patchClaims'; actions: Action[] } | { kind: 'wait'; blocker: Blocker } | { kind: 'relabel'; action: Action } | { kind: 'replace' };

// KEP-4650 ("When updating volumeClaimTemplates along with pod template")
export function inPlaceStep(ctx: SyncContext, pod: Pod, recreatesOffline: boolean): InPlaceStep {
  const patches = claimPatches(ctx, pod, ctx.updateRevision);
  if (patches.refused !== undefined) return { kind: 'wait', blocker: patches.refused };
  if (patches.actions.length > 0) return { kind: 'patchClaims', actions: patches.actions };
  const resizing = resizingClaim(ctx, pod);
  const podName = pod.metadata.name ?? '';
  // a failed resize is never "fixed" by restarting the pod: nothing is deleted for it
  if (resizing !== undefined && (resizing.failed !== undefined || !(resizing.offline && recreatesOffline))) {
    return { kind: 'wait', blocker: resizingBlocker(podName, resizing) };
  }
  if (resizing === undefined && onlyLabelChanges(ctx, pod)) {
    const ordinal = parentNameAndOrdinal(podName).ordinal;
    return { kind: 'relabel', action: { kind: 'relabelPod', batch: 0, name: podName, uid: pod.metadata.uid ?? '', ordinal, revision: ctx.updateRevision } };
  }
  return { kind: 'replace' };
}
