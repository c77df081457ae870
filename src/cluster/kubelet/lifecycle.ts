// Pod lifecycle transitions as the simulator's timeline names them, read off two consecutive statuses
// that the kubelet wrote (so they describe what the API server stored, not what was intended).

import type { Instant, Pod, PodStatus } from '../../api/types.js';

/** `Restarted`: a container was restarted in place on a new image (its pod kept). */
export type PodLifecycleType = 'Scheduled' | 'Running' | 'Ready' | 'NotReady' | 'Failed' | 'Restarted';

export interface PodLifecycleEvent {
  type: PodLifecycleType;
  namespace: string;
  name: string;
  uid: string;
  at: Instant;
  /** Failed: the waiting reason (CrashLoopBackOff, ImagePullBackOff). */
  reason?: string;
  /** Failed, Restarted: the container's restartCount after the crash or the restart. */
  restartCount?: number;
  /** The pod as stored after the write. */
  pod: Pod;
}

export type PodLifecycleListener = (event: PodLifecycleEvent) => void;

const FAILURE_REASONS = new Set(['CrashLoopBackOff', 'ImagePullBackOff']);

const readyOf = (s: PodStatus | undefined): boolean => s?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

/** Transitions from `prev` to `next`, in the order they happen in a pod's life. */
export function lifecycleTransitions(
  prev: PodStatus | undefined,
  next: PodStatus | undefined,
): { type: PodLifecycleType; reason?: string; restartCount?: number }[] {
  const out: { type: PodLifecycleType; reason?: string; restartCount?: number }[] = [];
  if (!prev?.startTime && next?.startTime) out.push({ type: 'Scheduled' });
  if (prev?.phase !== 'Running' && next?.phase === 'Running') out.push({ type: 'Running' });
  for (const c of next?.containerStatuses ?? []) {
    const before = prev?.containerStatuses?.find((p) => p.name === c.name);
    if (before?.image && c.image && before.image !== c.image) {
      out.push({ type: 'Restarted', restartCount: c.restartCount });
      continue;
    }
    const reason = c.state?.waiting?.reason;
    const newReason = reason !== undefined && FAILURE_REASONS.has(reason) && before?.state?.waiting?.reason !== reason;
    if (newReason || c.restartCount > (before?.restartCount ?? 0)) {
      out.push({ type: 'Failed', ...(reason ? { reason } : {}), restartCount: c.restartCount });
    }
  }
  if (!readyOf(prev) && readyOf(next)) out.push({ type: 'Ready' });
  if (readyOf(prev) && !readyOf(next)) out.push({ type: 'NotReady' });
  return out;
}
