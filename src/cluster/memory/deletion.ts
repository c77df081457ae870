// What a DELETE does to an object, decided without touching the store: mark it terminating (graceful
// deletion or pending finalizers), remove it now, or nothing. Mirrors the generic registry's
// `BeforeDelete` plus the pod strategy's `CheckGracefulDelete`.

import { cloneJson } from '../../api/validation/json.js';
import type { DeleteOptions, Resource } from '../../api/client.js';
import { fromTimestamp, toTimestamp, type Instant, type KubeObject, type Pod } from '../../api/types.js';

export type DeletionOutcome = { kind: 'remove' } | { kind: 'mark'; object: KubeObject } | { kind: 'noop' };

const DEFAULT_POD_GRACE_SECONDS = 30;

export const isPodResource = (res: Resource): boolean => res.group === '' && res.plural === 'pods';

const hasFinalizers = (obj: KubeObject): boolean => (obj.metadata.finalizers?.length ?? 0) > 0;

// upstream: pkg/registry/core/pod/strategy.go CheckGracefulDelete
/** Grace period for deleting a pod that is not yet terminating: 0 when it never ran anywhere or has finished. */
export function podGracePeriodSeconds(pod: Pod, opts: DeleteOptions): number {
  if (!pod.spec?.nodeName) return 0;
  if (pod.status?.phase === 'Failed' || pod.status?.phase === 'Succeeded') return 0;
  return Math.max(0, opts.gracePeriodSeconds ?? pod.spec.terminationGracePeriodSeconds ?? DEFAULT_POD_GRACE_SECONDS);
}

/** True when a terminating object may leave storage: grace period over (0) and no finalizers left. */
export function isReadyForRemoval(obj: KubeObject): boolean {
  return obj.metadata.deletionTimestamp !== undefined && (obj.metadata.deletionGracePeriodSeconds ?? 0) === 0 && !hasFinalizers(obj);
}

// upstream: staging/src/k8s.io/apiserver/pkg/registry/rest/delete.go BeforeDelete
export function planDeletion(res: Resource, obj: KubeObject, opts: DeleteOptions, now: Instant): DeletionOutcome {
  if (obj.metadata.deletionTimestamp !== undefined) return planRepeatedDeletion(res, obj, opts);
  const grace = isPodResource(res) ? podGracePeriodSeconds(obj as Pod, opts) : 0;
  if (grace === 0 && !hasFinalizers(obj)) return { kind: 'remove' };
  const object = cloneJson(obj);
  object.metadata.deletionTimestamp = toTimestamp(now + grace * 1000);
  object.metadata.deletionGracePeriodSeconds = grace;
  return { kind: 'mark', object };
}

/** A DELETE on a terminating object may only shorten a pod's grace period; 0 finishes the deletion. */
function planRepeatedDeletion(res: Resource, obj: KubeObject, opts: DeleteOptions): DeletionOutcome {
  const current = obj.metadata.deletionGracePeriodSeconds ?? 0;
  if (current === 0) return hasFinalizers(obj) ? { kind: 'noop' } : { kind: 'remove' };
  const requested = opts.gracePeriodSeconds;
  if (!isPodResource(res) || requested === undefined || requested >= current) return { kind: 'noop' };
  const shortened = Math.max(0, requested);
  const object = cloneJson(obj);
  const markedAt = (fromTimestamp(obj.metadata.deletionTimestamp) ?? 0) - current * 1000;
  object.metadata.deletionTimestamp = toTimestamp(markedAt + shortened * 1000);
  object.metadata.deletionGracePeriodSeconds = shortened;
  return isReadyForRemoval(object) ? { kind: 'remove' } : { kind: 'mark', object };
}
