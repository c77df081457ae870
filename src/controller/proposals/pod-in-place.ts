// podUpdatePolicy InPlaceIfPossible / InPlaceOnly (an apps.ordinal.dev/v1 extension, OpenKruise's names): a
// replica whose new revision changes only its containers' images, their cpu/memory (same QoS class), its labels
// and its annotations is patched instead of recreated, keeping its uid, node, IP and volumes. The patch names
// the revision in an annotation and leaves the pod's revision label alone: from then on the replica counts as
// unavailable; new cpu/memory go through the pods/resize subresource (KEP-1287). Once the kubelet reports
// every container's new image and resources the pod is relabelled (the annotation removed) and the rolling
// update treats it like a recreated pod: unavailable until Ready for minReadySeconds. A resize the kubelet
// finds Infeasible (or kube-apiserver refuses), or leaves Deferred for DEFERRED_RESIZE_TIMEOUT_MS, recreates
// the pod (InPlaceIfPossible) or halts the rollout (InPlaceOnly). The revision stays the truth: a pod recreated
// later comes from its revision's template, and revision names are untouched.

import { containerResources, cpuMemoryOnly, podQOSClass, removedResources, sameCpuMemory } from '../../api/pod-resources.js';
import { Labels, PodAnnotations, RESTARTED_AT_ANNOTATION, type Container, type Instant, type Pod, type PodTemplateSpec, type StatefulSet } from '../../api/types.js';
import { claimTemplates, claimVolumesMatch } from '../model/claim-identity.js';
import { onlyLabelChanges } from './claim-updates.js';
import type { Action, Blocker, InPlacePatch, PlannedEvent, ResizePatch } from '../model/plan-types.js';
import { inPlaceFallbackEvent, noGateFallbackEvent } from '../model/event-texts.js';
import { GATE_FIELD, hasDrainGate, isDrainedPod } from '../model/readiness-gate.js';
import { drainSecondsOf } from '../model/spec.js';
import type { Proposal } from './proposal.js';
import { inPlaceTarget, podOrdinal, podRevision } from '../model/pod-state.js';
import { setAtRevision, usesInPlaceUpdates, type SyncContext } from '../rollout/sync-context.js';
import { containersNotReported, pendingResize, type PendingResize } from '../replica/in-place-state.js';

const TEMPLATE = 'spec.template';
const CLAIMS_FIELD = 'spec.volumeClaimTemplates';

/** Fields of `a` and `b` (objects) that differ, but for `except`, as paths under `path`. */
function differingKeys(a: object, b: object, path: string, except: readonly string[]): string[] {
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(x), ...Object.keys(y)].filter((k) => !except.includes(k)));
  return [...keys].filter((k) => JSON.stringify(x[k]) !== JSON.stringify(y[k])).map((k) => `${path}.${k}`);
}

/** The container's resources change only in cpu and memory, removing no request or limit: the pods/resize subresource takes it. */
function resizable(from: Container, to: Container): boolean {
  const a = containerResources(from);
  const b = containerResources(to);
  const only = (c: Container): Container => ({ name: c.name, resources: c['resources'] });
  return cpuMemoryOnly(only(to), only(from)) && removedResources(b.requests, a.requests).length === 0 && removedResources(b.limits, a.limits).length === 0;
}

/**
 * The containers' fields other than their images and resizable resources that differ (the list itself when
 * containers were added, removed or renamed); resources that change the pod's QoS class cannot be resized.
 */
function containerFields(from: PodTemplateSpec, to: PodTemplateSpec, path: string): string[] {
  const a = from.spec?.containers ?? [];
  const b = to.spec?.containers ?? [];
  if (a.length !== b.length || a.some((c, i) => c.name !== b[i]?.name)) return [path];
  const sameQOS = from.spec === undefined || to.spec === undefined || podQOSClass(from.spec) === podQOSClass(to.spec);
  return a.flatMap((c, i) => {
    const next = b[i] as Container;
    const resources = JSON.stringify(c['resources']) !== JSON.stringify(next['resources']) && !(sameQOS && resizable(c, next)) ? [`${path}[${i}].resources`] : [];
    return [...differingKeys(c, next, `${path}[${i}]`, ['image', 'resources']), ...resources];
  });
}

/**
 * What keeps a pod of `from` from moving to `to` in place: the pod template's fields other than its labels,
 * its annotations, its containers' images and their resizable cpu/memory that differ, and
 * (volumeClaimUpdatePolicy InPlace, whose claims move with their replica's revision) the claim templates.
 * Empty when the move can be made in place.
 */
export function notInPlaceFields(ctx: SyncContext, from: StatefulSet, to: StatefulSet): string[] {
  const a: PodTemplateSpec = from.spec.template;
  const b: PodTemplateSpec = to.spec.template;
  const out = [
    ...differingKeys(a.metadata ?? {}, b.metadata ?? {}, `${TEMPLATE}.metadata`, ['labels', 'annotations']),
    ...differingKeys(a.spec ?? {}, b.spec ?? {}, `${TEMPLATE}.spec`, ['containers']),
    ...containerFields(a, b, `${TEMPLATE}.spec.containers`),
  ];
  if (ctx.rollout.knobs.claimsInPlace && JSON.stringify(claimTemplates(from)) !== JSON.stringify(claimTemplates(to))) out.push(CLAIMS_FIELD);
  if (restartedAt(from) !== restartedAt(to)) out.push(RESTART_FIELD);
  return out;
}

/** kubectl's restart stamp of a template: a restart is a new pod for every ordinal, never an in-place patch. */
const restartedAt = (set: StatefulSet): string | undefined => set.spec.template.metadata?.annotations?.[RESTARTED_AT_ANNOTATION];
const RESTART_FIELD = `${TEMPLATE}.metadata.annotations[${RESTARTED_AT_ANNOTATION}]`;

/** Merge-patch changes that bring `current` from the `from` template's entries to the `to` template's (users' own entries stay). */
function mapChanges(from: Record<string, string> | undefined, to: Record<string, string> | undefined, current: Record<string, string> | undefined): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const k of Object.keys(from ?? {})) if (to?.[k] === undefined && current?.[k] !== undefined) out[k] = null;
  for (const [k, v] of Object.entries(to ?? {})) if (current?.[k] !== v) out[k] = v;
  return out;
}


/** What moving a pod in place sends: the merge patch, and new cpu/memory through pods/resize (the admission builds the action). */
export interface InPlaceMove {
  revision: string;
  patch: InPlacePatch;
  resize?: ResizePatch;
}

/** The in-place move of `pod` (running `from`'s template) to `to`'s, at `revision`. */
function inPlaceMove(pod: Pod, from: StatefulSet, to: StatefulSet, revision: string): InPlaceMove {
  const a = from.spec.template;
  const b = to.spec.template;
  const images = new Map((b.spec?.containers ?? []).map((c) => [c.name, c.image]));
  const labels = mapChanges(a.metadata?.labels, b.metadata?.labels, pod.metadata.labels);
  delete labels[Labels.revisionHash]; // moved by the relabel, once the kubelet reports the images
  const uid = pod.metadata.uid ?? '';
  const refused: Record<string, null> = pod.metadata.annotations?.[PodAnnotations.resizeRefused] === undefined ? {} : { [PodAnnotations.resizeRefused]: null };
  const containers: Container[] = pod.spec.containers.map((c) => ({ ...c, image: images.get(c.name) ?? c.image }));
  const patch: InPlacePatch = {
    metadata: {
      uid,
      labels,
      annotations: { ...mapChanges(a.metadata?.annotations, b.metadata?.annotations, pod.metadata.annotations), ...refused, [PodAnnotations.inPlaceUpdateRevision]: revision },
    },
    spec: { containers },
  };
  // the resources as the pod has them (a resize is not undone by the patch), the template's where they changed
  const resources = new Map((b.spec?.containers ?? []).map((c) => [c.name, c['resources']]));
  const resized: Container[] = containers.map((c) => ({ ...c, resources: resources.get(c.name) }));
  const changed = resized.some((c, i) => JSON.stringify(c['resources']) !== JSON.stringify(containers[i]?.['resources']));
  return { revision, patch, ...(changed ? { resize: { metadata: { uid }, spec: { containers: resized } } } : {}) };
}

/**
 * How an old pod chosen for update moves in place; undefined when podUpdatePolicy leaves it to the recreate
 * path; `recreate`: it could move in place but has no readiness gate for the drain (InPlaceIfPossible).
 */
export type InPlaceStep = { kind: 'patch'; move: InPlaceMove } | { kind: 'wait'; blocker: Blocker } | { kind: 'recreate'; event: PlannedEvent } | { kind: 'none' };

export function moveStep(ctx: SyncContext, pod: Pod, fromRevision: string, toRevision: string): InPlaceStep | undefined {
  const from = setAtRevision(ctx, fromRevision);
  const to = setAtRevision(ctx, toRevision);
  if (from === undefined || to === undefined) return undefined;
  const fields = notInPlaceFields(ctx, from, to);
  // a template added or removed: the pod's claim volumes are not `to`'s, and volumes never change in place
  if (ctx.rollout.knobs.claimsInPlace && !fields.includes(CLAIMS_FIELD) && !claimVolumesMatch(to, pod)) fields.push(CLAIMS_FIELD);
  if (fields.length === 0) return { kind: 'patch', move: inPlaceMove(pod, from, to, toRevision) };
  // a restart recreates the pod under every podUpdatePolicy (InPlaceOnly included): that is what it asks for
  if (ctx.rollout.knobs.podUpdatePolicy !== 'InPlaceOnly' || fields.includes(RESTART_FIELD)) return undefined;
  return { kind: 'wait', blocker: { kind: 'inPlaceUpdateImpossible', pod: pod.metadata.name ?? '', ordinal: podOrdinal(pod), fields } };
}

/**
 * The in-place step of a pod the rolling update chose: none while it is already moving (inPlacePass owns it),
 * a patch when its template's change allows one, InPlaceOnly's halt when it does not (undefined: the usual
 * step, claim-updates.ts updateStep, which recreates it or moves its claims).
 */
export function inPlaceStep(ctx: SyncContext, pod: Pod): InPlaceStep | undefined {
  if (!usesInPlaceUpdates(ctx)) return undefined;
  if (inPlaceTarget(pod) !== undefined) return { kind: 'none' };
  // on the update revision already (its claims lag), or only its claim templates changed: claim-updates.ts
  if (podRevision(pod) === ctx.updateRevision || onlyLabelChanges(ctx, pod)) return undefined;
  // draining (its gate False): the drain pass owns it (drain-pass.ts)
  if (isDrainedPod(pod)) return { kind: 'none' };
  const step = moveStep(ctx, pod, podRevision(pod), ctx.updateRevision);
  return step?.kind === 'patch' && drainSecondsOf(ctx.set) > 0 && !hasDrainGate(pod) ? gatelessStep(ctx, pod) : step;
}

/**
 * A pod that must drain before its in-place restart but was created without the readiness gate (before the
 * drain was set): recreated (InPlaceIfPossible: it comes back with the gate), or the rollout halts at it
 * (InPlaceOnly) until someone deletes it once.
 */
function gatelessStep(ctx: SyncContext, pod: Pod): InPlaceStep {
  const name = pod.metadata.name ?? '';
  if (ctx.rollout.knobs.podUpdatePolicy === 'InPlaceOnly') return { kind: 'wait', blocker: { kind: 'inPlaceUpdateImpossible', pod: name, ordinal: podOrdinal(pod), fields: [GATE_FIELD] } };
  return { kind: 'recreate', event: noGateFallbackEvent(ctx.set, name, ctx.updateRevision) };
}

/** Where a moving pod should end: the update revision, unless the partition now holds it at its own. */
export const destination = (ctx: SyncContext, pod: Pod): string => (podOrdinal(pod) - ctx.slots.start < ctx.strategy.partition ? podRevision(pod) : ctx.updateRevision);

/** The cpu/memory of the pod's containers are not `revision`'s template's (compared as quantities: the API server may write them otherwise). */
function unresized(ctx: SyncContext, pod: Pod, revision: string): boolean {
  const want = setAtRevision(ctx, revision)?.spec.template.spec?.containers ?? [];
  return pod.spec.containers.some((c) => {
    const template = want.find((t) => t.name === c.name);
    return template !== undefined && !sameCpuMemory(template, c['resources']);
  });
}

/** What the controller does for one pod moving in place: a relabel (it arrived), a proposal, or a wait. */
type Settled = { action?: Action; proposal?: Proposal; blocker?: Blocker; wakeAt?: Instant };

const proposal = (pod: Pod, cause: 'inPlaceFallback' | 'inPlaceOvertaken' | 'update', disruption: Proposal['disruption'], event?: PlannedEvent): Proposal => ({
  cause,
  pod,
  ordinal: podOrdinal(pod),
  disruption,
  // the replica holds a slot of the budget since its patch: going again needs the budget not overdrawn
  charge: 'spent',
  ...(event !== undefined ? { event } : {}),
});

/** A resize that does not proceed: waited for while Deferred, then the pod is recreated (InPlaceIfPossible) or held (InPlaceOnly). */
function settleResize(ctx: SyncContext, pod: Pod, pending: PendingResize): Settled {
  const name = pod.metadata.name ?? '';
  const ordinal = podOrdinal(pod);
  const { reason, message } = pending;
  if (pending.fallbackAt !== undefined && ctx.now < pending.fallbackAt) {
    return { blocker: { kind: 'podResizeDeferred', pod: name, ordinal, message, fallbackAt: pending.fallbackAt }, wakeAt: pending.fallbackAt };
  }
  if (ctx.rollout.knobs.podUpdatePolicy === 'InPlaceOnly') return { blocker: { kind: 'podResizeImpossible', pod: name, ordinal, reason, message } };
  return { proposal: proposal(pod, 'inPlaceFallback', { via: 'delete' }, inPlaceFallbackEvent(ctx.set, name, reason, message, inPlaceTarget(pod) ?? '')) };
}

/** What the controller does for one pod that is moving in place. */
function settle(ctx: SyncContext, pod: Pod, target: string): Settled {
  const name = pod.metadata.name ?? '';
  const want = destination(ctx, pod);
  if (target === want) {
    const pending = pendingResize(pod);
    // the resize did not reach the pod (the request failed after the patch): sent again
    const resend = pending === undefined && unresized(ctx, pod, target) ? moveStep(ctx, pod, podRevision(pod), target) : undefined;
    if (resend?.kind === 'patch') return { proposal: proposal(pod, 'update', { via: 'inPlace', ...resend.move }) };
    // a refused resize leaves the spec as it was: that the kubelet reports it says nothing
    if (pending?.reason === 'Forbidden') return settleResize(ctx, pod, pending);
    const waiting = containersNotReported(pod);
    if (waiting.length === 0) {
      return { action: { kind: 'relabelPod', batch: 0, name, uid: pod.metadata.uid ?? '', ordinal: podOrdinal(pod), revision: target, clearsInPlaceUpdate: true } };
    }
    if (pending !== undefined) return settleResize(ctx, pod, pending);
    return { blocker: { kind: 'podUpdatingInPlace', pod: name, ordinal: podOrdinal(pod), revision: target, containers: waiting } };
  }
  // the update revision changed while the pod was moving (a new rollout, an undo): it moves on from where it is
  const step = moveStep(ctx, pod, target, want);
  if (step?.kind === 'patch') return { proposal: proposal(pod, 'inPlaceOvertaken', { via: 'inPlace', ...step.move }) };
  if (step?.kind === 'wait') return { blocker: step.blocker };
  return { proposal: proposal(pod, 'inPlaceOvertaken', { via: 'delete' }) };
}

/** One moving pod's next step: a relabel (it arrived: no disruption), or a proposal for the admission. */
export type InPlaceNext = { action: Action; proposal?: undefined } | { action?: undefined; proposal: Proposal };

export interface InPlacePass {
  /** In pod order. */
  moves: InPlaceNext[];
  blockers: Blocker[];
  wakeAt?: Instant;
}

/**
 * Every pod moving in place, whatever the rest of the sync does: relabelled once the kubelet reports its new
 * images and resources, and proposed for recreation when its resize does not proceed, or moved on when the
 * update revision changed meanwhile (the admission decides those, as every disruption).
 */
export function inPlacePass(ctx: SyncContext): InPlacePass {
  const out: InPlacePass = { moves: [], blockers: [] };
  if (!usesInPlaceUpdates(ctx)) return out;
  for (const pod of movingPods(ctx)) {
    const target = inPlaceTarget(pod) as string;
    const { action, proposal, blocker, wakeAt } = settle(ctx, pod, target);
    if (action !== undefined) out.moves.push({ action });
    if (proposal !== undefined) out.moves.push({ proposal });
    if (blocker !== undefined) out.blockers.push(blocker);
    if (wakeAt !== undefined && (out.wakeAt === undefined || wakeAt < out.wakeAt)) out.wakeAt = wakeAt;
  }
  return out;
}

/** The set's live in-range pods moving in place, ascending (the index keeps them as a class). */
export function movingPods(ctx: SyncContext): Pod[] {
  const { slots } = ctx;
  return [...slots.index.moving.ascending(slots.start, slots.start + slots.count)].map((o) => slots.index.member(o)?.pod as Pod);
}
