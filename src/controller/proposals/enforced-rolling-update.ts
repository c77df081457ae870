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

import { fromTimestamp, type Instant, type Pod } from '../../api/types.js';
import { earliest } from '../model/instants.js';
import * as block from '../model/blockers.js';
import { mergeDescending } from '../model/merge.js';
import { missingDescending } from '../replica/replicas.js';
import { downIndicesDescending, isOld, needsUpdate, unavailable, type SyncContext } from '../rollout/sync-context.js';
import type { Blocker } from '../model/plan-types.js';
import { describePodState, isRunningAndReady, isTerminating, isUnavailable, podAvailableAt, readyCondition, stuckReason } from '../model/pod-state.js';
import { remainingBlockers, type Candidate, type UpdateDecision } from '../admission/rolling-update-deletions.js';
import { oldCount, staleDescending } from '../rollout/update-range.js';
import { updateBudget } from '../admission/update-budget.js';

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

/** The pod itself is down (a replica waiting only for its claims to expand is in flight, not stuck). */
export const isStuck = (ctx: SyncContext, pod: Pod): boolean => isUnavailable(pod, ctx.minReadySeconds, ctx.now);

export interface HaltCheck {
  halted?: { pod: Pod; ordinal: number; reason: string };
  /** When the highest new pod would count as failed by the deadline (for wakeAt). */
  failsAt?: Instant;
}

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

/** The blocker that ends the top-down scan at `pod`, or undefined when the scan may continue past it. */
function scanStop(ctx: SyncContext, pod: Pod): Blocker | undefined {
  if (isTerminating(pod)) return block.terminating(pod);
  if (!isOld(ctx, pod) && unavailable(ctx, pod)) return block.notAvailable(pod, ctx.minReadySeconds);
  return undefined;
}

// upstream: none (KEP-3541's first design, "Proposed EnforcedRollingUpdate Algorithm")
export function planEnforcedUpdate(ctx: SyncContext, halt: HaltCheck): UpdateDecision {
  const budget = updateBudget(ctx, (i, p) => isReplaceableOldPod(ctx, i, p));
  if (halt.halted !== undefined) return { victims: [], blockers: remainingBlockers(ctx, [], undefined), unavailablePods: budget.unavailable };
  let remaining = budget.remaining;
  let budgetLimited = false;
  const victims: Candidate[] = [];
  const blockers: Blocker[] = [];
  // top-down over what can stop the scan or be a victim; every other pod is updated and available
  const { slots } = ctx;
  const from = ctx.strategy.partition;
  const visits = mergeDescending(missingDescending(slots, from, slots.count), slots.descending(slots.index.terminating, from), staleDescending(ctx, from), downIndicesDescending(ctx, from));
  for (const index of visits) {
    if (victims.length >= ctx.strategy.maxUnavailable) break;
    const pod = slots.pod(index);
    if (pod === undefined) break; // being created: wait for it
    const stop = scanStop(ctx, pod);
    if (stop !== undefined) {
      blockers.push(stop);
      break;
    }
    if (!needsUpdate(ctx, pod)) continue;
    if (unavailable(ctx, pod)) victims.push({ index, pod });
    else if (remaining > 0) {
      victims.push({ index, pod });
      remaining--;
    } else {
      budgetLimited = true;
      break;
    }
  }
  return { victims, blockers: [...blockers, ...remainingBlockers(ctx, victims, budgetLimited ? budget : undefined)], unavailablePods: budget.unavailable };
}
