// Per-kind registry strategies of the in-memory API server: strict decoding (unknown fields of the kinds
// with a schema), defaulting, status/generation handling and validation on write, as kube-apiserver runs
// them. Invalid writes throw InvalidError (422) with the API server's message.

import { cloneJson } from '../../api/validation/json.js';
import { Resources, type Resource } from '../../api/client.js';
import { InvalidError, type FieldIssue } from '../../api/errors.js';
import type { Features } from '../../api/features.js';
import type { KubeObject, PersistentVolumeClaim, Pod, PodDisruptionBudget, StatefulSet, StorageClass } from '../../api/types.js';
import { validateBudget } from './budget-admission.js';
import { checkKnownFields, formatInvalid } from '../../api/validation/index.js';
import { admitClaimUpdate, withDefaultClass } from './claim-admission.js';
import { jsonEqual } from './equality.js';
import { isPodResource } from './deletion.js';
import { preparePodForCreate, preparePodForUpdate, validatePodUpdate } from './pod-admission.js';
import { admitResizeOnNode, validatePodResize, type NodeView } from './pod-resize.js';
import { qualifiedResource } from './messages.js';
import { admitStatefulSetCreate, admitStatefulSetUpdate, isStatefulSetResource } from './statefulset-admission.js';

/** Reads a stored object (admission plugins look up others, e.g. a claim's StorageClass). */
export type StoredReader = (res: Resource, namespace: string | undefined, name: string) => KubeObject | undefined;

/**
 * `main` writes everything but status; `status` writes only status (the /status subresource); `resize` only
 * a pod's containers' resources (pods/resize).
 */
export type WriteMode = 'main' | 'status' | 'resize';

const WITH_STATUS = new Set(['pods', 'persistentvolumeclaims', 'services', 'nodes', 'namespaces', 'poddisruptionbudgets.policy']);

export function hasStatusSubresource(res: Resource): boolean {
  return isStatefulSetResource(res) || WITH_STATUS.has(qualifiedResource(res));
}

export function invalid(res: Resource, name: string, issues: FieldIssue[]): InvalidError {
  return new InvalidError(formatInvalid(res.kind, res.group, name, issues), issues);
}

/** Runs defaulting, the create strategy and validation; returns the object to store. `classes`: the StorageClasses stored. */
export function admitCreate(res: Resource, obj: KubeObject, features: Features, classes: () => StorageClass[]): KubeObject {
  if (isStatefulSetResource(res)) return admitStatefulSetCreate(res, obj as StatefulSet, features);
  if (isPodResource(res)) return preparePodForCreate(obj as Pod);
  checkKnownFields(res, obj);
  rejectInvalidBudget(res, obj);
  const out = qualifiedResource(res) === 'persistentvolumeclaims' ? withDefaultClass(cloneJson(obj) as PersistentVolumeClaim, classes()) : cloneJson(obj);
  if ('spec' in out) out.metadata.generation = 1;
  if (qualifiedResource(res) === 'persistentvolumeclaims') defaultClaimSpec(out as PersistentVolumeClaim);
  if (hasStatusSubresource(res)) {
    delete out['status'];
    const phase = initialPhase(res);
    if (phase) out['status'] = { phase };
  }
  return out;
}

/**
 * Runs defaulting, the update strategy and validation on `next`, which already carries the server-owned
 * metadata of `prev` and, for the main resource, prev's status (or, for /status, prev's everything else).
 */
export function admitUpdate(res: Resource, next: KubeObject, prev: KubeObject, mode: WriteMode, features: Features, read: StoredReader): KubeObject {
  if (isStatefulSetResource(res)) return admitStatefulSetUpdate(res, next as StatefulSet, prev as StatefulSet, mode, features);
  if (mode === 'status') return next;
  checkKnownFields(res, next);
  rejectInvalidBudget(res, next);
  if (qualifiedResource(res) === 'persistentvolumeclaims') {
    admitClaimUpdate(next as PersistentVolumeClaim, prev as PersistentVolumeClaim, (name) => read(Resources.storageClasses, undefined, name));
  }
  if (isPodResource(res)) {
    const pod = preparePodForUpdate(next as Pod, prev as Pod);
    const issues = mode === 'resize' ? validatePodResize(pod, prev as Pod) : validatePodUpdate(pod, prev as Pod);
    if (issues.length > 0) throw invalid(res, pod.metadata.name ?? '', issues);
    const refused = mode === 'resize' ? admitResizeOnNode(pod, prev as Pod, read(Resources.nodes, undefined, pod.spec.nodeName ?? '') as NodeView | undefined) : undefined;
    if (refused !== undefined) throw refused;
    return pod;
  }
  const out = cloneJson(next);
  if ('spec' in out || 'spec' in prev) {
    const changed = !jsonEqual(withoutMetaAndStatus(out), withoutMetaAndStatus(prev));
    out.metadata.generation = (prev.metadata.generation ?? 1) + (changed ? 1 : 0);
  }
  return out;
}

/** policy/v1 PodDisruptionBudget validation on create and update. */
function rejectInvalidBudget(res: Resource, obj: KubeObject): void {
  if (qualifiedResource(res) !== 'poddisruptionbudgets.policy') return;
  const issues = validateBudget(obj as PodDisruptionBudget);
  if (issues.length > 0) throw invalid(res, obj.metadata.name ?? '', issues);
}

/** kube-apiserver's claim defaulting: a claim without a volume mode gets Filesystem. */
// upstream: pkg/apis/core/v1/defaults.go SetDefaults_PersistentVolumeClaimSpec
function defaultClaimSpec(claim: PersistentVolumeClaim): void {
  if (claim.spec !== null && typeof claim.spec === 'object' && claim.spec.volumeMode === undefined) claim.spec.volumeMode = 'Filesystem';
}

function withoutMetaAndStatus(obj: KubeObject): Record<string, unknown> {
  const { metadata: _m, status: _s, apiVersion: _a, kind: _k, ...rest } = obj;
  return rest;
}

function initialPhase(res: Resource): string | undefined {
  switch (qualifiedResource(res)) {
    case 'persistentvolumeclaims':
      return 'Pending';
    case 'namespaces':
      return 'Active';
    default:
      return undefined;
  }
}
