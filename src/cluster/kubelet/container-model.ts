// A container's life as a pure function of time: given its plan and the instant the kubelet took the
// pod (t0), what state it is in at `t` and when that next changes. Restart-safe: a kubelet that starts
// again recomputes the same answer from the pod's status.startTime.

import type { Instant } from '../../api/types.js';
import type { ContainerPlan } from './config.js';

export type ContainerState =
  | { kind: 'creating' }
  | { kind: 'pullBackOff'; since: Instant }
  | { kind: 'running'; startedAt: Instant; ready: boolean }
  /** Crashed `restartCount + 1` times, the last at `lastCrashAt`; waiting `backoffMs` to restart. */
  | { kind: 'crashLoop'; restartCount: number; lastCrashAt: Instant; backoffMs: number };

const BACKOFF_INITIAL_MS = 10_000;
const BACKOFF_MAX_MS = 300_000;

// upstream: pkg/kubelet/kuberuntime (crash-loop back-off: 10 s doubling, capped at 5 min)
/** The wait after the n-th crash (0-based). */
export function crashBackoffMs(n: number): number {
  return n >= 5 ? BACKOFF_MAX_MS : Math.min(BACKOFF_INITIAL_MS * 2 ** n, BACKOFF_MAX_MS);
}

export function containerStateAt(plan: ContainerPlan, t0: Instant, t: Instant): ContainerState {
  const startAt = t0 + plan.startMs;
  if (t < startAt) return { kind: 'creating' };
  switch (plan.behavior) {
    case 'ImagePullBackOff':
      return { kind: 'pullBackOff', since: startAt };
    case 'CrashLoopBackOff':
      return crashStateAt(startAt, t);
    case 'NotReadyAfter':
      return { kind: 'running', startedAt: startAt, ready: t < startAt + (plan.readyForMs ?? 0) };
    case 'Normal':
      return { kind: 'running', startedAt: startAt, ready: true };
  }
}

/** The first instant after `t` at which containerStateAt changes, if it ever does. */
export function nextChangeAt(plan: ContainerPlan, t0: Instant, t: Instant): Instant | undefined {
  const startAt = t0 + plan.startMs;
  if (t < startAt) return startAt;
  if (plan.behavior === 'CrashLoopBackOff') {
    const s = crashStateAt(startAt, t) as Extract<ContainerState, { kind: 'crashLoop' }>;
    return s.lastCrashAt + s.backoffMs;
  }
  if (plan.behavior === 'NotReadyAfter') {
    const notReadyAt = startAt + (plan.readyForMs ?? 0);
    return t < notReadyAt ? notReadyAt : undefined;
  }
  return undefined;
}

/** The container crashes at start and again after each back-off; the n-th crash has restartCount n. */
function crashStateAt(startAt: Instant, t: Instant): ContainerState {
  let crashAt = startAt;
  let n = 0;
  while (crashAt + crashBackoffMs(n) <= t) {
    crashAt += crashBackoffMs(n);
    n++;
  }
  return { kind: 'crashLoop', restartCount: n, lastCrashAt: crashAt, backoffMs: crashBackoffMs(n) };
}
