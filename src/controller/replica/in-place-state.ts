// podUpdatePolicy (pod-in-place.ts): what a pod moving in place shows of its move — which containers its
// kubelet has not reported at their new image and resources yet, and why its resize does not proceed.

import { sameImage } from '../../api/image-reference.js';
import { sameCpuMemory } from '../../api/pod-resources.js';
import { fromTimestamp, PodAnnotations, type Instant, type Pod } from '../../api/types.js';

/** The containers whose status does not report their spec's image yet, or their spec's cpu and memory (`resources`, KEP-1287). */
export function containersNotReported(pod: Pod): string[] {
  const statuses = pod.status?.containerStatuses ?? [];
  return pod.spec.containers
    .filter((c) => {
      const status = statuses.find((s) => s.name === c.name);
      return !sameImage(status?.image, c.image) || (c['resources'] !== undefined && !sameCpuMemory(c, status?.['resources']));
    })
    .map((c) => c.name);
}

/**
 * How long a resize the kubelet reports `Deferred` (it fits the node, not now) may wait before the pod is
 * recreated (InPlaceIfPossible) or the rollout halts (InPlaceOnly): 5 minutes.
 */
export const DEFERRED_RESIZE_TIMEOUT_MS = 5 * 60_000;

/** Why the pod's resize does not proceed, as the kubelet (condition PodResizePending) or kube-apiserver (a refusal) says. */
export interface PendingResize {
  reason: string;
  message: string;
  /** Deferred: when it gives up waiting. */
  fallbackAt?: Instant;
}

// upstream: pkg/kubelet/allocation allocation_manager.go (PodResizePending: Infeasible, Deferred)
export function pendingResize(pod: Pod): PendingResize | undefined {
  const refused = pod.metadata.annotations?.[PodAnnotations.resizeRefused];
  if (refused !== undefined) return { reason: 'Forbidden', message: refused };
  const pending = pod.status?.conditions?.find((c) => c.type === 'PodResizePending' && c.status === 'True');
  if (pending === undefined) return undefined;
  const out = { reason: pending.reason ?? 'Deferred', message: pending.message ?? '' };
  if (out.reason === 'Infeasible') return out;
  // any other reason reads as Deferred (KEP-1287: unknown values mean Deferred)
  const since = fromTimestamp(pending.lastTransitionTime);
  return { ...out, reason: 'Deferred', fallbackAt: (since ?? 0) + DEFERRED_RESIZE_TIMEOUT_MS };
}
