// podUpdatePolicy InPlaceIfPossible / InPlaceOnly (an apps.ordinal.dev/v1 extension, OpenKruise's names): a
// replica whose new revision changes only its containers' images, its labels and its annotations is patched
// instead of recreated, keeping its uid, node, IP and volumes. The patch names the revision in an annotation
// and leaves the pod's revision label alone: from then on the replica counts as unavailable. Once the kubelet
// reports every container's new image the pod is relabelled (the annotation removed) and the rolling update
// treats it like a recreated pod: unavailable until Ready for minReadySeconds. The revision stays the truth: a
// pod recreated later comes from its revision's template, and revision names are untouched.

import { sameImage } from '../api/image-reference.js';
import { Labels, PodAnnotations, type Container, type Pod, type PodTemplateSpec, type StatefulSet } from '../api/types.js';
import { claimTemplates } from './claim-identity.js';
import { onlyLabelChanges } from './claim-updates.js';
import type { Action, Blocker } from './plan-types.js';
import { inPlaceTarget, isTerminating, podOrdinal, podRevision } from './pod-state.js';
import { setAtRevision, usesInPlaceUpdates, type SyncContext } from './sync-context.js';

const TEMPLATE = 'spec.template';

/** Fields of `a` and `b` (objects) that differ, but for `except`, as paths under `path`. */
function differingKeys(a: object, b: object, path: string, except: readonly string[]): string[] {
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(x), ...Object.keys(y)].filter((k) => !except.includes(k)));
  return [...keys].filter((k) => JSON.stringify(x[k]) !== JSON.stringify(y[k])).map((k) => `${path}.${k}`);
}

/** The containers' fields other than their images that differ (the list itself when containers were added, removed or renamed). */
function containerFields(from: Container[], to: Container[], path: string): string[] {
  if (from.length !== to.length || from.some((c, i) => c.name !== to[i]?.name)) return [path];
  return from.flatMap((c, i) => differingKeys(c, to[i] as Container, `${path}[${i}]`, ['image']));
}

/**
 * What keeps a pod of `from` from moving to `to` in place: the pod template's fields other than its labels,
 * its annotations and its containers' images that differ, and (volumeClaimUpdatePolicy InPlace, whose claims
 * move with their replica's revision) the claim templates. Empty when the move can be made in place.
 */
export function notInPlaceFields(ctx: SyncContext, from: StatefulSet, to: StatefulSet): string[] {
  const a: PodTemplateSpec = from.spec.template;
  const b: PodTemplateSpec = to.spec.template;
  const out = [
    ...differingKeys(a.metadata ?? {}, b.metadata ?? {}, `${TEMPLATE}.metadata`, ['labels', 'annotations']),
    ...differingKeys(a.spec ?? {}, b.spec ?? {}, `${TEMPLATE}.spec`, ['containers']),
    ...containerFields(a.spec?.containers ?? [], b.spec?.containers ?? [], `${TEMPLATE}.spec.containers`),
  ];
  if (ctx.inPlace && JSON.stringify(claimTemplates(from)) !== JSON.stringify(claimTemplates(to))) out.push('spec.volumeClaimTemplates');
  return out;
}

/** Merge-patch changes that bring `current` from the `from` template's entries to the `to` template's (users' own entries stay). */
function mapChanges(from: Record<string, string> | undefined, to: Record<string, string> | undefined, current: Record<string, string> | undefined): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const k of Object.keys(from ?? {})) if (to?.[k] === undefined && current?.[k] !== undefined) out[k] = null;
  for (const [k, v] of Object.entries(to ?? {})) if (current?.[k] !== v) out[k] = v;
  return out;
}

/** The merge patch an in-place update sends: the pod's uid (kube-apiserver refuses it for a namesake: uid is immutable), its metadata and its containers with the new images. */
export interface InPlacePatch {
  metadata: { uid: string; labels: Record<string, string | null>; annotations: Record<string, string | null> };
  spec: { containers: Container[] };
}

/** The patchPod action that moves `pod` (running `from`'s template) to `to`'s, at `revision`. */
function patchAction(pod: Pod, from: StatefulSet, to: StatefulSet, revision: string): Action {
  const a = from.spec.template;
  const b = to.spec.template;
  const images = new Map((b.spec?.containers ?? []).map((c) => [c.name, c.image]));
  const labels = mapChanges(a.metadata?.labels, b.metadata?.labels, pod.metadata.labels);
  delete labels[Labels.revisionHash]; // moved by the relabel, once the kubelet reports the images
  const patch: InPlacePatch = {
    metadata: {
      uid: pod.metadata.uid ?? '',
      labels,
      annotations: { ...mapChanges(a.metadata?.annotations, b.metadata?.annotations, pod.metadata.annotations), [PodAnnotations.inPlaceUpdateRevision]: revision },
    },
    spec: { containers: pod.spec.containers.map((c) => ({ ...c, image: images.get(c.name) ?? c.image })) },
  };
  const name = pod.metadata.name ?? '';
  return { kind: 'patchPod', batch: 0, name, uid: pod.metadata.uid ?? '', ordinal: podOrdinal(pod), revision, patch };
}

/** How an old pod chosen for update moves in place; undefined when podUpdatePolicy leaves it to the recreate path. */
export type InPlaceStep = { kind: 'patch'; action: Action } | { kind: 'wait'; blocker: Blocker } | { kind: 'none' };

function moveStep(ctx: SyncContext, pod: Pod, fromRevision: string, toRevision: string): InPlaceStep | undefined {
  const from = setAtRevision(ctx, fromRevision);
  const to = setAtRevision(ctx, toRevision);
  if (from === undefined || to === undefined) return undefined;
  const fields = notInPlaceFields(ctx, from, to);
  if (fields.length === 0) return { kind: 'patch', action: patchAction(pod, from, to, toRevision) };
  if (ctx.podUpdatePolicy !== 'InPlaceOnly') return undefined;
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
  return moveStep(ctx, pod, podRevision(pod), ctx.updateRevision);
}

/** Every container reports its spec's image: the kubelet runs (or is starting) the new ones. */
export function reportsSpecImages(pod: Pod): boolean {
  const statuses = pod.status?.containerStatuses ?? [];
  return pod.spec.containers.every((c) => sameImage(statuses.find((s) => s.name === c.name)?.image, c.image));
}

/** Where a moving pod should end: the update revision, unless the partition now holds it at its own. */
const destination = (ctx: SyncContext, pod: Pod): string => (podOrdinal(pod) - ctx.slots.start < ctx.strategy.partition ? podRevision(pod) : ctx.updateRevision);

/** What the controller does for one pod that is moving in place. */
function settle(ctx: SyncContext, pod: Pod, target: string): { action?: Action; blocker?: Blocker } {
  const name = pod.metadata.name ?? '';
  const want = destination(ctx, pod);
  if (target === want) {
    if (reportsSpecImages(pod)) {
      return { action: { kind: 'relabelPod', batch: 0, name, uid: pod.metadata.uid ?? '', ordinal: podOrdinal(pod), revision: target, clearsInPlaceUpdate: true } };
    }
    const waiting = pod.spec.containers.filter((c) => !sameImage(pod.status?.containerStatuses?.find((s) => s.name === c.name)?.image, c.image)).map((c) => c.name);
    return { blocker: { kind: 'podUpdatingInPlace', pod: name, ordinal: podOrdinal(pod), revision: target, containers: waiting } };
  }
  // the update revision changed while the pod was moving (a new rollout, an undo): it moves on from where it is
  const step = moveStep(ctx, pod, target, want);
  if (step?.kind === 'patch') return { action: step.action };
  if (step?.kind === 'wait') return { blocker: step.blocker };
  return { action: { kind: 'deletePod', batch: 0, name, uid: pod.metadata.uid ?? '', ordinal: podOrdinal(pod), cause: 'update' } };
}

/**
 * Every pod moving in place, whatever the rest of the sync does: relabelled once the kubelet reports its new
 * images, or moved on when the update revision changed meanwhile. These pods are unavailable already, so
 * this takes no budget.
 */
export function inPlacePass(ctx: SyncContext): { actions: Action[]; blockers: Blocker[] } {
  const out = { actions: [] as Action[], blockers: [] as Blocker[] };
  if (!usesInPlaceUpdates(ctx)) return out;
  for (const pod of movingPods(ctx)) {
    const target = inPlaceTarget(pod) as string;
    const { action, blocker } = settle(ctx, pod, target);
    if (action !== undefined) out.actions.push(action);
    if (blocker !== undefined) out.blockers.push(blocker);
  }
  return out;
}

/** The set's live in-range pods moving in place, ascending (worked out once per sync). */
export function movingPods(ctx: SyncContext): Pod[] {
  if (ctx.memo.moving !== undefined) return ctx.memo.moving;
  const { slots } = ctx;
  const out: Pod[] = [];
  for (const o of slots.index.ordinals.ascending(slots.start, slots.start + slots.count)) {
    const pod = slots.index.member(o)?.pod;
    if (pod !== undefined && inPlaceTarget(pod) !== undefined && !isTerminating(pod)) out.push(pod);
  }
  ctx.memo.moving = out;
  return out;
}
