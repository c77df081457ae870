// One planned action → ClusterClient calls. Only API mechanics live here (tolerated errors, conflict
// retries, preconditions); every StatefulSet decision was made by the planner.

import { Resources, type ClusterClient, type Resource } from '../api/client.js';
import { isAlreadyExists, isForbidden, isNotFound } from '../api/errors.js';
import { equalRevision } from '../api/revision/hash.js';
import { Labels, PodAnnotations, type ControllerRevision, type KubeObject, type PersistentVolumeClaim, type Pod, type StatefulSet } from '../api/types.js';
import type { Action } from '../controller/model/plan-types.js';
import { retryOnConflict } from './conflict-retry.js';
import { adoptPatch, releasePatch } from './owner-refs.js';

/** The field manager of the controller's server-side applies (claims under volumeClaimUpdatePolicy InPlace). */
export const FIELD_MANAGER = 'ordinal';

export interface ActionContext {
  set: StatefulSet;
  /** The set's own resource (native or CRD): owner references name its apiVersion. */
  resource: Resource;
  /** Throws when the set may not adopt (it is gone or being deleted); called before each adoption. */
  canAdopt(): Promise<void>;
}

/** What the API holds after the action: the written object, or undefined when nothing was written or it was deleted. */
export type Applied = KubeObject | undefined;

type Of<K extends Action['kind']> = Extract<Action, { kind: K }>;

/** Applies one action; throws the API error when it failed (tolerated errors are not failures). */
export async function applyAction(action: Action, client: ClusterClient, ctx: ActionContext): Promise<Applied> {
  const ns = ctx.set.metadata.namespace;
  switch (action.kind) {
    case 'createRevision':
      return createRevision(action, client);
    case 'updateRevision':
      return updateWithRetry(client, Resources.controllerRevisions, action.revision, (latest) => ({
        ...latest,
        revision: action.revision.revision,
      }));
    case 'deleteRevision':
      return deleteTolerant(client, Resources.controllerRevisions, ns, action.name);
    case 'adoptRevision':
      await ctx.canAdopt();
      return client.patch(
        Resources.controllerRevisions,
        ns,
        action.revision.metadata.name ?? '',
        adoptPatch(action.revision, ctx.set),
      );
    case 'adoptPod':
      await ctx.canAdopt();
      return client.patch(Resources.pods, ns, action.pod.metadata.name ?? '', adoptPatch(action.pod, ctx.set));
    case 'releasePod':
      return client.patch(Resources.pods, ns, action.pod.metadata.name ?? '', releasePatch(action.pod, ctx.set));
    case 'createClaim':
      return createClaim(action, client);
    case 'updateClaim':
      return updateWithRetry(client, Resources.persistentVolumeClaims, action.claim, (latest) => withOwners(latest, action.claim));
    case 'createPod':
      return client.create(Resources.pods, action.pod);
    case 'updatePod':
      return updateWithRetry(client, Resources.pods, action.pod, (latest) => reapplyIdentity(latest, action.pod));
    case 'deletePod':
      return action.eviction === true ? evictTolerant(client, ns, action.name, action.uid) : deleteTolerant(client, Resources.pods, ns, action.name, action.uid);
    case 'patchClaim':
      return client.apply(Resources.persistentVolumeClaims, action.claim, { fieldManager: FIELD_MANAGER });
    case 'relabelPod': {
      // the uid in the patch keeps the label off a pod recreated under the same name meanwhile (it is immutable)
      const cleared = action.clearsInPlaceUpdate ? { annotations: { [PodAnnotations.inPlaceUpdateRevision]: null } } : {};
      return client.patch(Resources.pods, ns, action.name, { metadata: { uid: action.uid, labels: { [Labels.revisionHash]: action.revision }, ...cleared } });
    }
    case 'patchPod':
      return patchInPlace(action, client, ns);
    case 'annotatePod':
      return client.patch(Resources.pods, ns, action.name, { metadata: { uid: action.uid, annotations: action.annotations, ...(action.labels !== undefined ? { labels: action.labels } : {}) } });
    case 'setPodCondition':
      return setPodCondition(action, client, ns);
  }
}

/**
 * The readiness gate's condition written through pods/status: the pod read, its condition of that type
 * replaced (or added) and the whole status sent with the pod's resourceVersion, so the kubelet's conditions
 * written meanwhile are never lost — a Conflict re-reads and retries, as the other writes. A merge patch would
 * replace the whole conditions list. A pod gone or recreated under its name (another uid) is not written.
 */
async function setPodCondition(action: Of<'setPodCondition'>, client: ClusterClient, ns: string | undefined): Promise<Applied> {
  return retryOnConflict(async () => {
    let pod: Pod;
    try {
      pod = await client.get<Pod>(Resources.pods, ns, action.name);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
    if (pod.metadata.uid !== action.uid || pod.metadata.deletionTimestamp !== undefined) return undefined;
    const others = (pod.status?.conditions ?? []).filter((c) => c.type !== action.condition.type);
    return client.updateStatus<Pod>(Resources.pods, { ...pod, status: { ...pod.status, conditions: [...others, action.condition] } });
  });
}

/**
 * The in-place patch (it carries the pod's uid, as the relabel does), then the resize through pods/resize. A
 * resize kube-apiserver refuses (403: the node can never hold it) is recorded on the pod for the planner,
 * which treats it as the kubelet's Infeasible.
 */
async function patchInPlace(action: Of<'patchPod'>, client: ClusterClient, ns: string | undefined): Promise<Applied> {
  const patched = await client.patch(Resources.pods, ns, action.name, action.patch);
  if (action.resize === undefined) return patched;
  try {
    return await client.patch(Resources.pods, ns, action.name, action.resize, { subresource: 'resize' });
  } catch (err) {
    if (!isForbidden(err)) throw err;
    const refusal = { metadata: { uid: action.uid, annotations: { [PodAnnotations.resizeRefused]: err instanceof Error ? err.message : String(err) } } };
    return client.patch(Resources.pods, ns, action.name, refusal);
  }
}

/** AlreadyExists with identical data is our own earlier write; anything else is a collision for the planner. */
async function createRevision(action: Of<'createRevision'>, client: ClusterClient): Promise<Applied> {
  try {
    return await client.create(Resources.controllerRevisions, action.revision);
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
    const m = action.revision.metadata;
    const existing = await client.get<ControllerRevision>(Resources.controllerRevisions, m.namespace, m.name ?? '');
    if (equalRevision(existing, action.revision)) return existing;
    throw err;
  }
}

/** A claim that already exists is the one the pod will use (upstream createPersistentVolumeClaims). */
async function createClaim(action: Of<'createClaim'>, client: ClusterClient): Promise<Applied> {
  try {
    return await client.create(Resources.persistentVolumeClaims, action.claim);
  } catch (err) {
    if (isAlreadyExists(err)) return undefined;
    throw err;
  }
}

/** Deleting what is already gone is success; a UID precondition keeps a recreated namesake safe. */
async function deleteTolerant(client: ClusterClient, res: Resource, ns: string | undefined, name: string, uid?: string): Promise<Applied> {
  try {
    await client.delete(res, ns, name, uid === undefined ? undefined : { uid });
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  return undefined;
}

/** An eviction of a pod already gone is success, as its deletion would be; a budget's refusal (429) is the caller's to report. */
async function evictTolerant(client: ClusterClient, ns: string | undefined, name: string, uid: string): Promise<Applied> {
  try {
    await client.evictPod(ns ?? 'default', name, { uid });
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  return undefined;
}

/** Updates `desired`; on Conflict refetches and re-applies the planner's change to the latest object. */
// upstream: stateful_pod_control.go UpdateStatefulPod (RetryOnConflict + refetch)
async function updateWithRetry<T extends KubeObject>(
  client: ClusterClient,
  res: Resource,
  desired: T,
  reapply: (latest: T) => T,
): Promise<Applied> {
  const m = desired.metadata;
  return retryOnConflict(async (i) => {
    const body = i === 0 ? desired : reapply(await client.get<T>(res, m.namespace, m.name ?? ''));
    return client.update(res, body);
  });
}

const withOwners = (latest: PersistentVolumeClaim, desired: PersistentVolumeClaim): PersistentVolumeClaim => ({
  ...latest,
  metadata: { ...latest.metadata, ownerReferences: desired.metadata.ownerReferences },
});

/**
 * The planner's identity/storage repair on top of the latest pod: the identity labels, hostname and
 * subdomain, volumes and owner references (upstream updateIdentity, updateStorage, retention refs).
 */
export function reapplyIdentity(latest: Pod, desired: Pod): Pod {
  const labels = { ...latest.metadata.labels };
  for (const key of [Labels.podName, Labels.podIndex]) {
    const v = desired.metadata.labels?.[key];
    if (v !== undefined) labels[key] = v;
  }
  const spec = { ...latest.spec };
  for (const key of ['hostname', 'subdomain', 'volumes'] as const) {
    if (desired.spec[key] !== undefined) spec[key] = desired.spec[key] as never;
  }
  return { ...latest, metadata: { ...latest.metadata, labels, ownerReferences: desired.metadata.ownerReferences }, spec };
}
