// EnforcedRollingUpdate (seed 001, product.md): an ordered top-down rolling update that also replaces
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

import { fromTimestamp, type Instant, type Pod } from '../api/types.js';
import * as block from './blockers.js';
import { isOld, unavailable, type SyncContext } from './context.js';
import type { Blocker } from './plan-types.js';
import { isTerminating, podAvailableAt, readyCondition, stuckReason } from './pod-state.js';
import { countUnavailableSlots, remainingBlockers, updateRange, type Candidate, type UpdateDecision } from './rolling-update.js';
import { progressDeadlineSecondsOf } from './spec.js';

/** An old-revision pod of the update range that EnforcedRollingUpdate may replace without waiting for it. */
export function isReplaceableOldPod(ctx: SyncContext, index: number, pod: Pod): boolean {
  return (
    ctx.strategy.kind === 'EnforcedRollingUpdate' &&
    index >= ctx.strategy.partition &&
    isOld(ctx, pod) &&
    !isTerminating(pod) &&
    unavailable(ctx, pod)
  );
}

export interface HaltCheck {
  halted?: { pod: Pod; ordinal: number; reason: string };
  /** When the highest new pod would count as failed by the deadline (for wakeAt). */
  failsAt?: Instant;
}

/** The highest-ordinal new-revision pod has failed to become available (see the file comment). */
export function checkSafetyHalt(ctx: SyncContext): HaltCheck {
  const top = updateRange(ctx).find((c) => !isOld(ctx, c.pod) && !isTerminating(c.pod));
  if (top === undefined || !unavailable(ctx, top.pod)) return {};
  const ordinal = ctx.slots.start + top.index;
  const stuck = stuckReason(top.pod);
  if (stuck !== undefined) return { halted: { pod: top.pod, ordinal, reason: stuck } };
  const created = fromTimestamp(top.pod.metadata.creationTimestamp);
  if (created === undefined) return {};
  const failsAt = created + progressDeadlineSecondsOf(ctx.set) * 1000;
  if (failsAt <= ctx.now) return { halted: { pod: top.pod, ordinal, reason: 'NotAvailableWithinProgressDeadline' } };
  return { failsAt };
}

/** The safetyHalt blocker, when the halt stops an update (old pods remain in the update range). */
export function haltBlocker(ctx: SyncContext, halt: HaltCheck): Blocker | undefined {
  if (halt.halted === undefined || !updateRange(ctx).some((c) => isOld(ctx, c.pod))) return undefined;
  return { kind: 'safetyHalt', pod: halt.halted.pod.metadata.name ?? '', ordinal: halt.halted.ordinal };
}

/** When a stuck pod started being unavailable (Ready's last transition, else its creation). */
export function stuckSince(pod: Pod): Instant | undefined {
  const ready = readyCondition(pod);
  const since = ready?.status === 'True' ? undefined : fromTimestamp(ready?.lastTransitionTime);
  return since ?? fromTimestamp(pod.metadata.creationTimestamp) ?? podAvailableAt(pod, 0);
}

/** The blocker that ends the top-down scan at `pod`, or undefined when the scan may continue past it. */
function scanStop(ctx: SyncContext, pod: Pod): Blocker | undefined {
  if (isTerminating(pod)) return block.terminating(pod);
  if (!isOld(ctx, pod) && unavailable(ctx, pod)) return block.notAvailable(pod, ctx.minReadySeconds);
  return undefined;
}

// upstream: none (seed 001 "Proposed EnforcedRollingUpdate Algorithm")
export function planEnforcedUpdate(ctx: SyncContext, halt: HaltCheck): UpdateDecision {
  const unavailablePods = countUnavailableSlots(ctx, (i, p) => isReplaceableOldPod(ctx, i, p));
  if (halt.halted !== undefined) return { victims: [], blockers: remainingBlockers(ctx, [], unavailablePods, false), unavailablePods };
  let budget = ctx.strategy.maxUnavailable - unavailablePods;
  let budgetLimited = false;
  const victims: Candidate[] = [];
  const blockers: Blocker[] = [];
  for (let index = ctx.slots.count - 1; index >= ctx.strategy.partition && victims.length < ctx.strategy.maxUnavailable; index--) {
    const pod = ctx.slots.byIndex.get(index);
    if (pod === undefined) break; // being created: wait for it
    const stop = scanStop(ctx, pod);
    if (stop !== undefined) {
      blockers.push(stop);
      break;
    }
    if (!isOld(ctx, pod)) continue;
    if (unavailable(ctx, pod)) victims.push({ index, pod });
    else if (budget > 0) {
      victims.push({ index, pod });
      budget--;
    } else {
      budgetLimited = true;
      break;
    }
  }
  return { victims, blockers: [...blockers, ...remainingBlockers(ctx, victims, unavailablePods, budgetLimited)], unavailablePods };
}
