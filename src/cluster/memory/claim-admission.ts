// PersistentVolumeClaim updates as kube-apiserver admits them: validation (core/validation
// ValidatePersistentVolumeClaimUpdate) — the spec is immutable but for the storage request and
// volumeAttributesClassName of a bound claim, and binding sets spec.volumeName once; a request that goes down
// must stay above status.capacity — then the PersistentVolumeClaimResize admission plugin: a larger request needs a
// StorageClass that allows expansion.

import { Resources } from '../../api/client.js';
import { ApiError, InvalidError, type FieldIssue } from '../../api/errors.js';
import { claimCapacity, claimRequest, classAllowsExpansion, fromTimestamp, type PersistentVolumeClaim, type StorageClass } from '../../api/types.js';
import { deepEqual } from '../../api/validation/json.js';
import { formatInvalid } from '../../api/validation/index.js';
import { compareQuantities } from '../../api/validation/quantity.js';

const SPEC_IMMUTABLE = 'spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims';
const RESIZE_FORBIDDEN = 'only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize';


const DEFAULT_CLASS_ANNOTATIONS = ['storageclass.kubernetes.io/is-default-class', 'storageclass.beta.kubernetes.io/is-default-class'];
const isDefaultClass = (c: StorageClass): boolean => DEFAULT_CLASS_ANNOTATIONS.some((a) => c.metadata.annotations?.[a] === 'true');

/**
 * A claim created without a class (no storageClassName at all: "" asks for none) gets the cluster's default
 * StorageClass: the newest of those annotated as default, the first by name among equally new ones.
 */
// upstream: plugin/pkg/admission/storage/storageclass/setdefault (Admit) and pkg/volume/util GetDefaultClass
export function withDefaultClass(claim: PersistentVolumeClaim, classes: readonly StorageClass[]): PersistentVolumeClaim {
  const spec = claim.spec as PersistentVolumeClaim['spec'] | undefined;
  if (spec === undefined || (spec.storageClassName !== undefined && spec.storageClassName !== null)) return claim;
  if (claim.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'] !== undefined) return claim;
  const created = (c: StorageClass) => fromTimestamp(c.metadata.creationTimestamp) ?? 0;
  const [chosen] = classes.filter(isDefaultClass).sort((a, b) => created(b) - created(a) || ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
  return chosen === undefined ? claim : { ...claim, spec: { ...spec, storageClassName: chosen.metadata.name ?? '' } };
}

/** The spec without what a bound claim may change, and with the volume name binding sets. */
function fixedSpec(c: PersistentVolumeClaim, bound: boolean, volumeName: unknown): Record<string, unknown> {
  const { resources, volumeAttributesClassName, volumeName: _v, ...rest } = c.spec;
  const requests = { ...((resources as { requests?: Record<string, string> } | undefined)?.requests ?? {}) };
  if (bound) delete requests['storage'];
  return {
    ...rest,
    volumeName,
    resources: { ...(resources ?? {}), requests },
    ...(bound ? {} : { volumeAttributesClassName }),
  };
}

/** Validates `next` as an update of `prev`, then runs resize admission; `storageClass` reads a StorageClass by name. */
// upstream: core/validation ValidatePersistentVolumeClaimUpdate + plugin/pkg/admission/storage/persistentvolume/resize
export function admitClaimUpdate(next: PersistentVolumeClaim, prev: PersistentVolumeClaim, storageClass: (name: string) => StorageClass | undefined): void {
  const name = next.metadata.name ?? '';
  // validation calls a claim bound by its status phase; binding sets spec.volumeName once
  const bound = prev.status?.phase === 'Bound';
  const volumeName = prev.spec.volumeName ? prev.spec.volumeName : next.spec.volumeName;
  const issues: FieldIssue[] = [];
  if (!deepEqual(fixedSpec(next, bound, volumeName), fixedSpec(prev, bound, volumeName)) || (prev.spec.volumeName && next.spec.volumeName !== prev.spec.volumeName)) {
    issues.push({ path: 'spec', type: 'Forbidden', detail: SPEC_IMMUTABLE });
  }
  // an absent quantity is zero, as upstream reads a missing map entry
  const size = claimRequest(next) ?? '0';
  const previous = claimRequest(prev) ?? '0';
  // RecoverVolumeExpansionFailure (GA in 1.34): a request may go down, to recover from a failed expansion,
  // but only to a size above status.capacity — never to the capacity itself
  if (compareQuantities(size, previous) === -1 && compareQuantities(size, claimCapacity(prev) ?? '0') !== 1) {
    issues.push({ path: 'spec.resources.requests.storage', type: 'Forbidden', detail: 'field can not be less than status.capacity' });
  }
  if (issues.length > 0) throw new InvalidError(formatInvalid(Resources.persistentVolumeClaims.kind, '', name, issues), issues);
  if (compareQuantities(size, previous) !== 1) return;
  const className = next.spec.storageClassName;
  const cls = className ? storageClass(className) : undefined;
  if (!classAllowsExpansion(cls)) {
    throw new ApiError(`persistentvolumeclaims "${name}" is forbidden: ${RESIZE_FORBIDDEN}`, 403, 'Forbidden');
  }
}
