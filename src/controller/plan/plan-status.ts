// The status a valid sync writes: counters (§6), the optimistic decrement of update deletions, the
// completion promotion, conditions and the transition events that go with them.

import { fromTimestamp, ORDINAL_V1, toTimestamp, type Condition, type Instant, type PauseCondition, type Pod, type StatefulSetStatus, type VolumeClaimTemplateStatus } from '../../api/types.js';
import { claimTemplates } from '../model/claim-identity.js';
import { replicaClaims } from '../rollout/claim-apply.js';
import { claimsAvailableFrom } from '../replica/claim-state.js';
import { claimTemplateStatus } from '../replica/claim-template-status.js';
import { conditionsOf, ConditionType, findCondition, Reason, removeCondition, setCondition } from '../model/conditions.js';
import { downIndices, usesInPlaceUpdates, type SyncContext } from '../rollout/sync-context.js';
import { featureDisabledEvent, rolledBackEvent, rolloutAbortedEvent, safetyHaltEvent } from '../model/event-texts.js';
import type { Action, Blocker, PlannedEvent } from '../model/plan-types.js';
import { abortBlockers, abortStatus, carriedAbortMessage, isRolledBack, type AbortDecision } from '../rollout/rollback.js';
import { replicasOf } from '../model/spec.js';
import { podAvailableAt } from '../model/pod-state.js';
import { hasProgressed, planProgress, type ProgressInput, type ProgressResult } from './progress.js';
import { stepStatus } from '../rollout/rollout-steps.js';
import type { StepPlan } from '../rollout/rollout.js';
import { checkBand } from '../rollout/slow-rollout.js';
import { completeUpdate, computeReplicaStatus, newStatus, type ClaimView, type ReplicaCounts } from './status-counters.js';
import { staleCount } from '../rollout/update-range.js';
import type { SyncBody } from './update-statefulset.js';

export interface StatusPlan {
  status: StatefulSetStatus;
  /** FeatureDisabled warnings (listed first in the plan). */
  featureEvents: PlannedEvent[];
  /** Transitions: ProgressDeadlineExceeded, SafetyHalt. */
  events: PlannedEvent[];
  progress: ProgressResult;
  /** A converged set (nothing to do, everything available on the update revision). */
  complete: boolean;
  /** What onFailure: Rollback is doing, for `why` (rollback.ts). */
  blockers: Blocker[];
}

/**
 * Counters over the set's pods — every pod of the index plus `extra` (pods that lost their ordinal to a later
 * name and still count) — minus the pods the plan deletes for the update.
 */
export function countersFor(ctx: SyncContext, extra: readonly Pod[], actions: readonly Action[], collisionCount: number): StatefulSetStatus {
  const claims = ctx.rollout.knobs.claimsInPlace ? claimView(ctx) : undefined;
  const update = reportedUpdateRevision(ctx);
  const counts = addCounts(indexCounts(ctx, update), computeReplicaStatus(extra, ctx.minReadySeconds, ctx.currentRevision, update, ctx.now, claims));
  const decremented = actions.filter((a) => a.kind === 'deletePod' && a.decrementsCurrentReplicas).length;
  counts.currentReplicas = Math.max(0, counts.currentReplicas - decremented);
  const status = newStatus({ set: ctx.set, counts, currentRevision: ctx.currentRevision, updateRevision: update, collisionCount });
  const templates = claimStatus(ctx);
  const withClaims = templates === undefined ? status : { ...status, volumeClaimTemplates: templates };
  // an aborted revision is never promoted, however many pods are still on it
  return ctx.rollback === undefined ? completeUpdate(ctx.set, withClaims) : withClaims;
}

/**
 * The update revision status reports: the spec's. During a rollback the pods move to the current revision,
 * and status.updateRevision (with updatedReplicas) still names the aborted one: spec is left as written.
 */
const reportedUpdateRevision = (ctx: SyncContext): string => ctx.rollback?.aborted ?? ctx.updateRevision;

/**
 * computeReplicaStatus over the index's classes: what each replica adds, read from counts instead of pods, with
 * the one availability of replica.ts (a replica whose claims expand or settle, or whose pod moves in place, is
 * not available; one whose claim expands is not ready either).
 */
// upstream: stateful_set_control.go computeReplicaStatus
function indexCounts(ctx: SyncContext, updateRevision: string): ReplicaCounts {
  const index = ctx.slots.index;
  const replicas = index.ordinals.size;
  const runningReady = replicas - index.notRunningReady.size;
  const c: ReplicaCounts = {
    replicas,
    readyReplicas: runningReady - index.notCountedReady.size,
    availableReplicas: runningReady - index.countNotYetAvailable(ctx.now),
    currentReplicas: index.onRevision(ctx.currentRevision).size,
    updatedReplicas: index.onRevision(updateRevision).size,
  };
  for (const o of index.terminating.ascending()) {
    const revision = index.member(o)?.revision;
    if (revision === ctx.currentRevision) c.currentReplicas--;
    if (revision === updateRevision) c.updatedReplicas--;
  }
  // InPlace: a replica whose claims lag its pod's revision is not counted on it
  if (ctx.rollout.knobs.claimsInPlace) {
    for (const o of index.onRevision(updateRevision).ascending()) {
      const r = index.member(o);
      if (r !== undefined && !r.terminating && replicaClaims(ctx, r.pod).lagging) c.updatedReplicas--;
    }
  }
  return c;
}

const addCounts = (a: ReplicaCounts, b: ReplicaCounts): ReplicaCounts => ({
  replicas: a.replicas + b.replicas,
  readyReplicas: a.readyReplicas + b.readyReplicas,
  availableReplicas: a.availableReplicas + b.availableReplicas,
  currentReplicas: a.currentReplicas + b.currentReplicas,
  updatedReplicas: a.updatedReplicas + b.updatedReplicas,
});

/** The claims of pods that hold no slot, as the counters read them (claim-apply.ts). */
const claimView = (ctx: SyncContext): ClaimView => ({
  ready: (pod) => replicaClaims(ctx, pod).resizing === undefined,
  available: (pod) => claimsAvailableFrom(replicaClaims(ctx, pod), ctx.minReadySeconds) <= ctx.now,
  lagging: (pod) => replicaClaims(ctx, pod).lagging,
});

/** status.volumeClaimTemplates: apps.ordinal.dev/v1 sets with claim templates (an extension; apps/v1 has none). */
function claimStatus(ctx: SyncContext): VolumeClaimTemplateStatus[] | undefined {
  if (ctx.set.apiVersion !== ORDINAL_V1 || claimTemplates(ctx.set).length === 0) return undefined;
  const { start, count } = ctx.slots;
  return claimTemplateStatus(ctx.set, ctx.claims, (ordinal) => ordinal >= start && ordinal < start + count);
}

/** Every slot holds an available, non-terminating pod on the update revision (below the partition: any). */
export function isComplete(ctx: SyncContext, podWrites: number): boolean {
  const { slots } = ctx;
  if (podWrites > 0 || slots.condemned.length > 0 || slots.existing !== slots.count) return false;
  // terminating pods are down too; with none down, a replica still to move is one not on the update revision or lagging
  if (downIndices(ctx).next().done !== true) return false;
  return ctx.strategy.kind === 'OnDelete' || staleCount(ctx, ctx.strategy.partition) === 0;
}

/** FeatureDisabled condition (one per set, listing every disabled feature) and its event on change. */
function featureConditions(ctx: SyncContext, conditions: Condition[]): { conditions: Condition[]; events: PlannedEvent[] } {
  const disabled = ctx.strategy.disabled;
  if (disabled.length === 0) return { conditions: removeCondition(conditions, ConditionType.featureDisabled), events: [] };
  const message = disabled.map((d) => d.message).join('; ');
  const before = findCondition(conditions, ConditionType.featureDisabled);
  const value = { type: ConditionType.featureDisabled, status: 'True' as const, reason: disabled.map((d) => d.gate).join(','), message };
  const events = before?.message === message ? [] : disabled.map((d) => featureDisabledEvent(d.message));
  return { conditions: setCondition(conditions, value, ctx.now), events };
}

/**
 * SlowerThanForecast is an extension: apps/v1 sets emit what kube-controller-manager emits. OnDelete waits on
 * the user, a way back is judged by nothing but the budget, and the band is of pods created and deleted: a
 * restart in place (podUpdatePolicy) is neither.
 */
const judgedByBand = (ctx: SyncContext): boolean =>
  ctx.set.apiVersion === ORDINAL_V1 && ctx.rollback === undefined && ctx.strategy.kind !== 'OnDelete' && !usesInPlaceUpdates(ctx);

/** Pods outside the range that lost their ordinal to a later name: condemned, so counted (upstream's partition). */
const shadowedOutOfRange = (ctx: SyncContext): Pod[] => ctx.slots.index.shadowedMembers().filter((f) => !ctx.slots.inRange(f.ordinal)).map((f) => f.pod);

export function planStatus(ctx: SyncContext, body: SyncBody, collisionCount: number, abort: AbortDecision, steps: StepPlan): StatusPlan {
  const actions = body.actions;
  const podWrites = actions.filter((a) => a.kind === 'createPod' || a.kind === 'deletePod').length;
  const extra = shadowedOutOfRange(ctx);
  const counters = countersFor(ctx, extra, actions, collisionCount);
  const stored = ctx.set.status;
  // a staged rollout is complete once its last step passed (a step's partition is not the end)
  const complete = isComplete(ctx, podWrites) && (ctx.rollback !== undefined || steps.state === 'Completed');
  const halted = body.halt.halted ? { pod: body.halt.halted.pod.metadata.name ?? '', reason: body.halt.halted.reason } : undefined;
  const started = abort.kind === 'rollingBack' ? abort.failure : undefined;
  const aborted = ctx.rollback === undefined ? undefined : { message: carriedAbortMessage(ctx, started), started: started !== undefined };
  const progress = planProgress({
    set: ctx.set,
    stored: stored ? { ...stored, conditions: removeCondition(conditionsOf(stored), ConditionType.invalidSpec) } : undefined,
    next: counters,
    now: ctx.now,
    strategy: ctx.strategy.kind,
    maxUnavailable: ctx.strategy.maxUnavailable,
    complete,
    // an eviction the API server may refuse (429, a budget spent elsewhere) is no progress until it happens:
    // a rollout refused every sync must still run into its deadline
    progressed: hasProgressed(stored, counters, actions.filter((a) => a.kind === 'createPod' || (a.kind === 'deletePod' && a.eviction !== true)).length),
    ...(conditionsHaveUpdateTime(ctx.set) ? {} : { lastPodProgress: () => latestOf(ctx.slots.index.lastProgress(), lastPodProgress(extra)) }),
    // a rollback that halts (its own pods fail too) stays RolloutAborted; the safetyHalt blocker says where
    ...(aborted ? { aborted } : halted && body.blockers.some((b) => b.kind === 'safetyHalt') ? { halted } : {}),
    ...(ctx.rollback === undefined ? stepProgress(ctx, steps, counters) : {}),
    // A set's first revision started no rollout: its creation is a scale from nothing.
    updateRevisionCreated: ctx.revisions.size > 1 ? fromTimestamp(ctx.revisions.get(ctx.updateRevision)?.metadata.creationTimestamp) : undefined,
    deadlineSeconds: ctx.progressDeadlineSeconds,
    ...(judgedByBand(ctx) ? { band: checkBand(ctx) } : {}),
  });
  const features = featureConditions(ctx, progress.conditions);
  const events = [...progress.events];
  if (progress.haltStarted && halted) events.push(safetyHaltEvent(ctx.set, halted.pod, halted.reason, ctx.updateRevision));
  const conditions = conditionsHaveUpdateTime(ctx.set) ? features.conditions : features.conditions.map(withoutUpdateTime);
  const fullyAvailable = complete && counters.currentRevision === ctx.updateRevision;
  const status: StatefulSetStatus = { ...counters, conditions, ...abortStatus(ctx, abort, fullyAvailable), ...stepStatus(ctx, steps) };
  if (steps.retry !== undefined) status.observedRolloutRetry = steps.retry;
  const pauses = pauseConditions(ctx, steps, halted !== undefined);
  if (pauses.length > 0) status.pauseConditions = pauses;
  if (aborted?.started) events.push(rolloutAbortedEvent(aborted.message));
  const rollback = ctx.rollback;
  if (rollback !== undefined && isRolledBack(status, rollback, replicasOf(ctx.set)) && !isRolledBack(stored, rollback, replicasOf(ctx.set))) events.push(rolledBackEvent(ctx.set, rollback.aborted, rollback.target));
  return { status, featureEvents: features.events, events, progress, complete, blockers: abortBlockers(ctx, abort, aborted?.message) };
}

/** status.pauseConditions: the steps' and the user's pauses, and EnforcedRollingUpdate's halt (apps.ordinal.dev/v1). */
function pauseConditions(ctx: SyncContext, steps: StepPlan, halted: boolean): PauseCondition[] {
  if (ctx.set.apiVersion !== ORDINAL_V1) return [];
  if (!halted) return steps.pauses;
  const kept = ctx.set.status?.pauseConditions?.find((p) => p.reason === 'SafetyHalt')?.since;
  return [...steps.pauses, { reason: 'SafetyHalt', since: kept ?? toTimestamp(ctx.now) }];
}

/** What Progressing says of a staged or paused rollout: paused (no deadline), or failed at a step (onFailure Halt). */
function stepProgress(ctx: SyncContext, steps: StepPlan, next: StatefulSetStatus): Pick<ProgressInput, 'paused' | 'stepFailed'> {
  const revision = ctx.updateRevision;
  const where = steps.steps.length === 0 || steps.index >= steps.steps.length ? '' : ` at step ${steps.index + 1}/${steps.steps.length}`;
  const counts = `${next.updatedReplicas ?? 0} of ${replicasOf(ctx.set)} pods updated, ${next.availableReplicas ?? 0} available`;
  if (steps.failure !== undefined) {
    const what = steps.failure.kind === 'aborted' ? 'aborted by the user' : `failed its analysis: ${steps.failure.message}`;
    return { stepFailed: { reason: steps.failure.kind === 'aborted' ? Reason.rolloutAborted : Reason.analysisFailed, message: `Rollout to revision ${revision}${where} ${what}; it stays there until retried (kubectl ordinal rollout retry) or the template changes; ${counts}` } };
  }
  // the user's pause holds a rollout; a scale goes on, and says so
  const user = steps.pauses.some((p) => p.reason === 'UserPause') && ctx.currentRevision !== ctx.updateRevision;
  const step = steps.blockers.find((b) => b.kind === 'rolloutStep');
  const waiting = step?.kind === 'rolloutStep' && step.state !== 'Updating' ? stepWait(step) : undefined;
  if (!user && waiting === undefined) return {};
  const why = user ? 'paused (spec paused: true)' : `paused${where}: ${waiting ?? ''}`;
  return { paused: { message: `Rollout to revision ${revision} ${why}; ${counts}` } };
}

/** A step's wait in words (no countdown: the message stays the same from sync to sync). */
function stepWait(step: Extract<Blocker, { kind: 'rolloutStep' }>): string {
  const until = step.until === undefined ? '' : ` until ${toTimestamp(step.until)}`;
  switch (step.gate) {
    case 'pause':
      return 'until promoted';
    case 'bake':
      return `baking${until}`;
    case 'readiness':
      return `readiness analysis${until}`;
    case 'http':
      return `analysis running, ${step.analysis?.successful ?? 0} checks passed`;
    case 'none':
      return 'going on';
  }
}

/**
 * apps/v1's StatefulSetCondition has no lastUpdateTime: kube-apiserver drops it, so writing it would make
 * every later sync see a difference and write the same status again. The planned status is what the server
 * stores.
 */
const conditionsHaveUpdateTime = (set: SyncContext['set']): boolean => set.apiVersion === ORDINAL_V1;

function withoutUpdateTime(c: Condition): Condition {
  if (c.lastUpdateTime === undefined) return c;
  const { lastUpdateTime: _dropped, ...rest } = c;
  return rest;
}

/** The latest pod creation or Ready transition: progress the pods themselves record. */
function lastPodProgress(pods: readonly Pod[]): Instant | undefined {
  let out: Instant | undefined;
  for (const p of pods) {
    for (const t of [fromTimestamp(p.metadata.creationTimestamp), podAvailableAt(p, 0)]) {
      if (t !== undefined && Number.isFinite(t) && (out === undefined || t > out)) out = t;
    }
  }
  return out;
}

const latestOf = (a: Instant | undefined, b: Instant | undefined): Instant | undefined => (a === undefined ? b : b === undefined ? a : Math.max(a, b));

/** Status for a set being deleted: counters over every claimed pod, conditions kept. */
export function deletingStatus(ctx: SyncContext, collisionCount: number): StatefulSetStatus {
  const counters = countersFor(ctx, ctx.slots.index.unslottedMembers().map((f) => f.pod), [], collisionCount);
  return { ...counters, conditions: conditionsOf(ctx.set.status) };
}
