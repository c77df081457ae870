// EnforcedRollingUpdate's safety halt: when the highest-ordinal pod on the new revision has failed
// to become available — a failure state it cannot leave by itself, or still unavailable progressDeadlineSeconds
// after its creation — no old pod is deleted until the template changes again. The way back of an aborted
// rollout has the same check. A hold of the rollout record (rollout.ts), decided once per sync.

import { fromTimestamp, type Instant, type Pod } from '../../api/types.js';
import type { Blocker } from '../model/plan-types.js';
import { isRunningAndReady, isUnavailable, podAvailableAt, readyCondition, stuckReason } from '../model/pod-state.js';
import { unavailable, type SyncContext } from './sync-context.js';
import { oldCount } from './update-range.js';
import type { HaltCheck } from './rollout.js';

/** The pod itself is down (a replica waiting only for its claims to expand is in flight, not stuck). */
export const isStuck = (ctx: SyncContext, pod: Pod): boolean => isUnavailable(pod, ctx.minReadySeconds, ctx.now);

/** Seed 001's "broken": why an unavailable pod has failed, or else when it will count as failed. */
export interface Failure {
  reason?: string;
  failsAt?: Instant;
}

/**
 * A failure state the pod cannot leave by itself, or still unavailable progressDeadlineSeconds after
 * `since`. The caller has checked that the pod is unavailable. Pure, also used by the invariant checkers.
 */
export function failureOf(pod: Pod, since: Instant | undefined, progressDeadlineSeconds: number, now: Instant): Failure {
  const stuck = stuckReason(pod);
  if (stuck !== undefined) return { reason: stuck };
  if (since === undefined) return {};
  const failsAt = since + progressDeadlineSeconds * 1000;
  return failsAt <= now ? { reason: 'NotAvailableWithinProgressDeadline' } : { failsAt };
}

/** A pod that is not Running and Ready and has failed (failureOf, counted from when it became not Ready). */
export function isBrokenPod(pod: Pod, progressDeadlineSeconds: number, now: Instant): boolean {
  return !isRunningAndReady(pod) && failureOf(pod, stuckSince(pod), progressDeadlineSeconds, now).reason !== undefined;
}

/** The highest-ordinal new-revision pod has failed to become available (see the file comment). */
export function checkSafetyHalt(ctx: SyncContext): HaltCheck {
  const { slots } = ctx;
  let top: number | undefined;
  for (const i of slots.descending(slots.index.onRevision(ctx.updateRevision), ctx.strategy.partition)) {
    if (slots.facts(i)?.terminating === false) {
      top = i;
      break;
    }
  }
  const pod = top === undefined ? undefined : slots.pod(top);
  if (top === undefined || pod === undefined || !unavailable(ctx, pod)) return {};
  const failure = failureOf(pod, fromTimestamp(pod.metadata.creationTimestamp), ctx.progressDeadlineSeconds, ctx.now);
  if (failure.reason === undefined) return failure.failsAt === undefined ? {} : { failsAt: failure.failsAt };
  return { halted: { pod, ordinal: slots.start + top, reason: failure.reason } };
}

/** The safetyHalt blocker, when the halt stops an update (old pods remain in the update range). */
export function haltBlocker(ctx: SyncContext, halt: HaltCheck): Blocker | undefined {
  if (halt.halted === undefined || oldCount(ctx, ctx.strategy.partition) === 0) return undefined;
  return { kind: 'safetyHalt', pod: halt.halted.pod.metadata.name ?? '', ordinal: halt.halted.ordinal };
}

/** When a stuck pod started being unavailable (Ready's last transition, else its creation). */
export function stuckSince(pod: Pod): Instant | undefined {
  const ready = readyCondition(pod);
  const since = ready?.status === 'True' ? undefined : fromTimestamp(ready?.lastTransitionTime);
  return since ?? fromTimestamp(pod.metadata.creationTimestamp) ?? podAvailableAt(pod, 0);
}
