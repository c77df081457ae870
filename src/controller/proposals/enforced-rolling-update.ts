// EnforcedRollingUpdate (KEP-3541's first design): an ordered top-down rolling update that also replaces
// old-revision pods that are stuck (Pending, ImagePullBackOff, CrashLoopBackOff, NotReady). Decisions:
// - A stuck (unavailable, non-terminating) old pod at or above the partition is *replaceable*: it does not
//   block the OrderedReady pass and does not count against the budget; it is deleted when its turn comes.
// - Batches: top-down, at most maxUnavailable pods per batch; available old pods also need budget
//   (maxUnavailable − unavailable slots other than replaceable ones); the scan stops at the first pod that
//   is missing, terminating or on the new revision and not yet available, so every new pod must become
//   available before the next lower batch starts (KEP-961 "choice 1").
// - Safety halt: when the highest-ordinal pod on the new revision has *failed* — it is unavailable and either
//   in a failure state (phase Failed, or a container waiting in CrashLoopBackOff, ImagePullBackOff,
//   ErrImagePull, CreateContainerConfigError, …) or still unavailable progressDeadlineSeconds after its
//   creation — no old pod is deleted (not even a stuck one) until the template changes again.
// - Broken old pods below the partition do not stall the OrderedReady replica pass either (KEP-3541's
//   first design, implementation change 1: "continue the process"). *Broken*: not Running and Ready, and in a failure
//   state or not Ready for progressDeadlineSeconds. The pass goes past such a pod, so the missing pods above
//   it are created (below the partition at the current revision, at or above it at the update revision, as
//   the partition rules say); the partition keeps the broken pod from being replaced, which the
//   brokenBelowPartition blocker and the SkippedBrokenPod event say. An old pod that is only starting still
//   gates the pass, and so does every pod on the update revision: the new revision must prove itself
//   ("still wait for new pod to be ready"), so a broken template does not fill the set with broken pods.

import type { Instant, Pod } from '../../api/types.js';
import { earliest } from '../model/instants.js';
import * as block from '../model/blockers.js';
import { isOld, type SyncContext } from '../rollout/sync-context.js';
import type { Blocker } from '../model/plan-types.js';
import { describePodState, isRunningAndReady, isTerminating } from '../model/pod-state.js';
import { failureOf, isStuck, stuckSince } from '../rollout/safety-halt.js';

/**
 * An old-revision pod of the update range that EnforcedRollingUpdate (or the way back of an aborted rollout)
 * may replace without waiting for it.
 */
export function isReplaceableOldPod(ctx: SyncContext, index: number, pod: Pod): boolean {
  return (
    (ctx.strategy.kind === 'EnforcedRollingUpdate' || ctx.rollback !== undefined) &&
    index >= ctx.strategy.partition &&
    isOld(ctx, pod) &&
    !isTerminating(pod) &&
    isStuck(ctx, pod)
  );
}

/** A pod the OrderedReady replica pass went past without waiting for it. */
export interface PassedPod {
  pod: Pod;
  /** Its failure reason, or its state when it is an old pod that is replaced in its turn. */
  state: string;
  /** Broken below the partition: nothing replaces it until the partition is lowered. */
  belowPartition: boolean;
}

export interface PassCheck {
  passed?: PassedPod;
  /** When the pod, unavailable but not yet broken, will count as broken (for wakeAt). */
  failsAt?: Instant;
}

/**
 * Whether EnforcedRollingUpdate's OrderedReady pass may go past `pod` without waiting for it to be Running,
 * Ready and available: an old pod that is replaceable (at or above the partition) or broken (below it); see
 * the file comment. The one place that decides it; RollingUpdate always waits, as upstream does.
 */
export function passCheck(ctx: SyncContext, index: number, pod: Pod): PassCheck {
  if ((ctx.strategy.kind !== 'EnforcedRollingUpdate' && ctx.rollback === undefined) || !isOld(ctx, pod) || isTerminating(pod)) return {};
  if (isReplaceableOldPod(ctx, index, pod)) return { passed: { pod, state: describePodState(pod), belowPartition: false } };
  // below the partition; a Ready pod inside minReadySeconds is about to be available, not broken
  if (isRunningAndReady(pod)) return {};
  const failure = failureOf(pod, stuckSince(pod), ctx.progressDeadlineSeconds, ctx.now);
  if (failure.reason === undefined) return failure.failsAt === undefined ? {} : { failsAt: failure.failsAt };
  return { passed: { pod, state: failure.reason, belowPartition: true } };
}

export interface BelowPartitionCheck {
  blocker?: Blocker;
  failsAt?: Instant;
}

/** Broken old pods below the partition (bounded list, exact count): the partition keeps them as they are. */
export function brokenBelowPartition(ctx: SyncContext): BelowPartitionCheck {
  if (ctx.strategy.kind !== 'EnforcedRollingUpdate') return {};
  const pods: string[] = [];
  let count = 0;
  let failsAt: Instant | undefined;
  // only a pod that is not Running and Ready can be broken
  for (const index of ctx.slots.ascending(ctx.slots.index.down, 0, ctx.strategy.partition)) {
    const check = passCheck(ctx, index, ctx.slots.pod(index) as Pod);
    failsAt = earliest(failsAt, check.failsAt);
    if (check.passed === undefined) continue;
    count++;
    if (pods.length < block.MAX_LISTED_PODS) pods.push(check.passed.pod.metadata.name ?? '');
  }
  const out: BelowPartitionCheck = failsAt === undefined ? {} : { failsAt };
  if (count > 0) out.blocker = { kind: 'brokenBelowPartition', partition: ctx.strategy.partition, pods, count };
  return out;
}
