// One sync's pod decisions in upstream's order (stateful_set_control.go updateStatefulSet): Recreate's
// delete-and-wait, the replica pass, condemned claims and scale-down, then the strategy's update deletions.

import type { Instant, Pod } from '../api/types.js';
import { BatchWriter } from './batches.js';
import { condemnedPass } from './condemned.js';
import { isOld, slotUnavailability, unavailable, type SyncContext } from './sync-context.js';
import { brokenBelowPartition, checkSafetyHalt, haltBlocker, planEnforcedUpdate, stuckSince, type HaltCheck } from './enforced-rolling-update.js';
import { forcedReplacementEvent } from './event-texts.js';
import type { Action, Blocker, PlannedEvent } from './plan-types.js';
import { podOrdinal, podRevision } from './pod-state.js';
import { planRecreate, type RecreateDecision } from './recreate.js';
import { replicaPass } from './replica-pass.js';
import { planLegacyUpdate, planMaxUnavailableUpdate, type UpdateDecision } from './rolling-update-deletions.js';

export interface SyncBody {
  writer: BatchWriter;
  blockers: Blocker[];
  events: PlannedEvent[];
  /** statefulset_unavailable_replicas, when the gate-on rolling-update path ran. */
  unavailablePods?: number;
  halt: HaltCheck;
  /** Old pods replaced while unavailable (EnforcedRollingUpdate). */
  forced: Pod[];
  recreate?: RecreateDecision;
  /** When an old pod below the partition will count as broken (EnforcedRollingUpdate: the pass stops waiting for it). */
  wakeAt?: Instant;
}

function newBody(ctx: SyncContext): SyncBody {
  const halt = ctx.strategy.kind === 'EnforcedRollingUpdate' ? checkSafetyHalt(ctx) : {};
  const halting = haltBlocker(ctx, halt);
  const held = brokenBelowPartition(ctx);
  const blockers = [...(halting ? [halting] : []), ...(held.blocker ? [held.blocker] : [])];
  return { writer: new BatchWriter(1), blockers, events: [], halt, forced: [], ...(held.failsAt !== undefined ? { wakeAt: held.failsAt } : {}) };
}

const stuckSeconds = (pod: Pod, now: Instant): number => {
  const since = stuckSince(pod);
  return since === undefined ? 0 : Math.max(0, (now - since) / 1000);
};

/** Update deletions, one batch each in order; the status already counts them out of currentReplicas. */
function deleteVictims(ctx: SyncContext, body: SyncBody, decision: UpdateDecision): void {
  const items = decision.victims.map(({ pod }, position) => {
    // EnforcedRollingUpdate replacing a pod that is down (stuck): a forced replacement
    const forced = ctx.strategy.kind === 'EnforcedRollingUpdate' && isOld(ctx, pod) && unavailable(ctx, pod);
    if (forced) body.forced.push(pod);
    const action: Action = {
      kind: 'deletePod',
      batch: 0,
      name: pod.metadata.name ?? '',
      uid: pod.metadata.uid ?? '',
      ordinal: podOrdinal(pod),
      cause: forced ? 'forced' : 'update',
      decrementsCurrentReplicas: podRevision(pod) === ctx.currentRevision,
      ...(forced ? { stuckSeconds: stuckSeconds(pod, ctx.now) } : {}),
    };
    return { position, steps: [[action]] };
  });
  body.writer.sequential(items);
  body.events.push(...body.forced.map((pod) => forcedReplacementEvent(ctx.set, pod)));
  body.blockers.push(...decision.blockers);
  if (decision.unavailablePods !== undefined) body.unavailablePods = decision.unavailablePods;
}

/** The strategy's update phase (upstream §4.1 dispatch). */
function updatePhase(ctx: SyncContext, body: SyncBody): void {
  switch (ctx.strategy.kind) {
    case 'OnDelete': {
      const outdated = ctx.slots.indices.filter((i) => isOld(ctx, ctx.slots.byIndex.get(i) as Pod)).length;
      if (outdated > 0) body.blockers.push({ kind: 'onDeleteStrategy', outdatedPods: outdated });
      return;
    }
    case 'Recreate':
      return;
    case 'EnforcedRollingUpdate':
      return deleteVictims(ctx, body, planEnforcedUpdate(ctx, body.halt));
    case 'RollingUpdate':
      return deleteVictims(ctx, body, ctx.strategy.legacy ? planLegacyUpdate(ctx) : planMaxUnavailableUpdate(ctx));
  }
}

/** Recreate: while old pods exist, delete them and do nothing else this sync. */
function recreatePhase(ctx: SyncContext, body: SyncBody): boolean {
  if (ctx.strategy.kind !== 'Recreate') return true;
  const decision = planRecreate(ctx);
  body.recreate = decision;
  if (decision.proceed) return true;
  body.writer.slowStart(decision.deletions);
  body.blockers.push(...decision.blockers);
  return false;
}

// upstream: stateful_set_control.go updateStatefulSet
export function planSync(ctx: SyncContext): SyncBody {
  const body = newBody(ctx);
  if (!recreatePhase(ctx, body)) return body;
  const first = slotUnavailability(ctx).firstUnavailable;
  const pass = replicaPass(ctx);
  body.writer.runForAll(pass.items, ctx.monotonic);
  body.blockers.push(...pass.blockers);
  body.events.push(...pass.events);
  // EnforcedRollingUpdate deletes condemned pods without waiting for the replica pass
  if (pass.stopped && ctx.strategy.kind !== 'EnforcedRollingUpdate') return body;
  const condemned = condemnedPass(ctx, first);
  body.writer.runForAll(condemned.claimItems, ctx.monotonic);
  body.writer.runForAll(condemned.deleteItems, ctx.monotonic);
  body.blockers.push(...condemned.blockers);
  body.events.push(...condemned.events);
  if (pass.stopped || condemned.stopped) return body;
  updatePhase(ctx, body);
  return body;
}
