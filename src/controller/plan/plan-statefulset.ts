// planStatefulSet: the whole sync as a pure function — observed state, `now` and feature
// gates in; status, batched actions, blockers, events, metrics and wakeAt out. Never throws (crashPlan).

import type { Features } from '../../api/features.js';
import { appliedRevision } from '../../api/revision/hash.js';
import type { ControllerRevision, Instant, StatefulSet } from '../../api/types.js';
import { claimObjects, type Claimed } from './adoption.js';
import { earliest } from '../model/instants.js';
import { finalizeBatches } from '../model/batches.js';
import type { SyncContext } from '../rollout/sync-context.js';
import { newSyncContext, withHolds } from '../rollout/new-sync-context.js';
import { enforcedStartedEvent, recreateStartedEvent, withOutcomeEvents } from '../model/event-texts.js';
import { planHistoryTruncation } from './truncate-history.js';
import { planMetrics } from './plan-metrics.js';
import type { Action, Blocker, Plan, PlannedEvent } from '../model/plan-types.js';
import type { ObservedState } from '../replica/observed-state.js';
import { deletingStatus, planStatus } from './plan-status.js';
import { slotsOf } from '../replica/replicas.js';
import { planRevisions, type RevisionPlan } from '../rollout/revisions.js';
import { planAbort, type AbortDecision } from '../rollout/rollback.js';
import type { Rollback, StepPlan } from '../rollout/rollout.js';
import { isUserPaused, planSteps } from '../rollout/rollout-steps.js';
import { statusChanged } from './status-counters.js';
import { effectiveStrategy } from '../rollout/effective-strategy.js';
import { planSync, type SyncBody } from './update-statefulset.js';
import { PlannerCache } from '../rollout/planner-cache.js';
import { crashPlan, invalidPlan, specIssues } from './validity.js';

/** How soon to look again after a claim blocked a pod (upstream returns an error, i.e. a rate-limited retry). */
const CLAIM_RETRY_MS = 1000;

/** The sync's context: pods move from `current` to `update` (during a rollback both are its target). */
function buildContext(
  observed: ObservedState,
  claimed: Claimed,
  revisions: { current: ControllerRevision; update: ControllerRevision },
  now: Instant,
  features: Features,
  cache: PlannerCache,
  rollback?: Rollback,
): SyncContext {
  const set = observed.set;
  const slots = slotsOf(set, claimed.replicas);
  return newSyncContext({
    set,
    currentSet: appliedRevision(set, revisions.current, cache.revisions),
    updateSet: appliedRevision(set, revisions.update, cache.revisions),
    cache,
    currentRevision: revisions.current.metadata.name ?? '',
    updateRevision: revisions.update.metadata.name ?? '',
    now,
    features,
    strategy: effectiveStrategy(set, features),
    slots,
    claims: slots.index.claimsByName,
    storageClasses: observed.storageClasses,
    disruptionBudgets: observed.disruptionBudgets,
    nodeLabels: observed.nodeLabels,
    revisions: claimed.revisions,
    rollback,
    durations: observed.durations,
    analysisResults: observed.analysisResults,
  });
}

/**
 * The context of the sync, where a staged rollout is (rollout-steps.ts: its step's partition becomes the one
 * every phase works to), and what onFailure: Rollback decided (rollback.ts).
 */
function syncContext(
  observed: ObservedState,
  claimed: Claimed,
  revisions: RevisionPlan,
  now: Instant,
  features: Features,
  cache: PlannerCache,
): { ctx: SyncContext; abort: AbortDecision; steps: StepPlan } {
  const base = buildContext(observed, claimed, { current: revisions.currentRevision, update: revisions.updateRevision }, now, features, cache);
  const steps = planSteps(base, observed.analysisResults);
  const abort = planAbort(base, claimed.revisions, steps.failure);
  if (abort.kind !== 'rollingBack') {
    const partition = steps.partition ?? base.strategy.partition;
    // the step's partition changes what the phases see (zones, priorities), so they start from a fresh memo
    const staged = partition === base.strategy.partition ? { ...base, steps } : { ...base, steps, strategy: { ...base.strategy, partition }, memo: {} };
    const userPause = isUserPaused(observed.set);
    const stepFailed = steps.failure !== undefined;
    // what else holds the steps' plan: an analysis check without a verdict under a Pause policy
    return { ctx: withHolds(staged, { userPause, stepFailed, analysisPaused: steps.holds && !userPause && !stepFailed }), abort, steps };
  }
  const target = abort.targetRevision;
  return { ctx: buildContext(observed, claimed, { current: target, update: target }, now, features, cache, abort.rollback), abort, steps };
}

function retryAt(blockers: readonly Blocker[], now: Instant): Instant | undefined {
  if (blockers.some((b) => b.kind === 'workCapped')) return now;
  if (blockers.some((b) => b.kind === 'staleClaim' || b.kind === 'claimDeleting')) return now + CLAIM_RETRY_MS;
  return undefined;
}

/** RecreateStarted / EnforcedRollingUpdateStarted: once per new update revision. */
function startedEvents(ctx: SyncContext, body: SyncBody): { events: PlannedEvent[]; enforcedStarted: boolean } {
  const stored = ctx.set.status?.updateRevision;
  const newRevision = stored !== (ctx.rollback?.aborted ?? ctx.updateRevision);
  const events: PlannedEvent[] = [];
  if (ctx.strategy.kind === 'Recreate' && newRevision && (body.recreate?.deletions.length ?? 0) > 0) {
    events.push(recreateStartedEvent(ctx.set, body.recreate?.oldPods.length ?? 0, ctx.updateRevision));
  }
  const enforcedStarted = ctx.strategy.kind === 'EnforcedRollingUpdate' && newRevision && stored !== undefined;
  if (enforcedStarted) events.push(enforcedStartedEvent(ctx.set, ctx.updateRevision));
  return { events, enforcedStarted };
}

function assemble(ctx: SyncContext, body: SyncBody, revisions: RevisionPlan, abort: AbortDecision, steps: StepPlan, fixed: { first: Action[]; last: Action[] }): Plan {
  const status = planStatus(ctx, body, revisions.collisionCount, abort, steps);
  const started = startedEvents(ctx, body);
  const disabled = ctx.strategy.disabled.map((d): Blocker => ({ kind: 'featureDisabled', gate: d.gate, field: d.field }));
  const blockers = [...disabled, ...status.blockers, ...steps.blockers, ...body.blockers, ...status.progress.blockers];
  const wakeAt = earliest(ctx.slots.index.nextAvailableAt(ctx.now), status.progress.wakeAt, body.halt.failsAt, body.wakeAt, steps.wakeAt, retryAt(blockers, ctx.now));
  const plan: Plan = {
    status: status.status,
    statusChanged: statusChanged(ctx.set.status, status.status, status.complete),
    actions: withOutcomeEvents(finalizeBatches([...fixed.first, ...body.actions, ...fixed.last]), ctx.set),
    blockers,
    events: [...status.featureEvents, ...started.events, ...steps.events, ...body.events, ...status.events],
    metrics: planMetrics({ ctx, body, status, enforcedStarted: started.enforcedStarted, abortStarted: abort.kind === 'rollingBack' && abort.failure !== undefined }),
    previousStatus: structuredClone(ctx.set.status ?? { replicas: 0 }),
  };
  if (wakeAt !== undefined) plan.wakeAt = wakeAt;
  const probes = [...(ctx.rollback === undefined ? steps.probes : []), ...(body.probes ?? [])];
  if (probes.length > 0) plan.probes = probes;
  return plan;
}

/** A set being deleted: revisions and status only (upstream returns before touching pods). */
function deletingPlan(ctx: SyncContext, claimed: Claimed, revisions: RevisionPlan, actions: Action[]): Plan {
  const status = deletingStatus(ctx, revisions.collisionCount);
  return {
    status,
    statusChanged: statusChanged(ctx.set.status, status, false),
    actions: withOutcomeEvents(finalizeBatches(actions), ctx.set),
    blockers: [{ kind: 'setDeleting' }],
    events: [],
    metrics: { maxUnavailable: ctx.strategy.maxUnavailable, unavailabilityViolation: false, forcedReplacements: 0, safetyHalt: false, enforcedRollingUpdateStarted: false },
    previousStatus: structuredClone(ctx.set.status ?? { replicas: 0 }),
  };
}

const isDeleting = (set: StatefulSet): boolean => Boolean(set.metadata.deletionTimestamp);

/** Revisions history truncation keeps besides current and update: the pods' own, and where a failed rollout would go back to. */
function keptRevisions(set: StatefulSet, claimed: Claimed): Set<string> {
  const live = claimed.replicas.liveRevisions();
  const lastAvailable = set.status?.lastAvailableRevision;
  if (lastAvailable !== undefined) live.add(lastAvailable);
  return live;
}

// upstream: stateful_set_control.go UpdateStatefulSet / performUpdate
function planValid(observed: ObservedState, now: Instant, features: Features, cache: PlannerCache): Plan {
  const set = observed.set;
  const claimed = claimObjects(set, observed);
  const revisions = planRevisions(set, claimed.revisions, features, cache.revisions);
  const { ctx, abort, steps } = syncContext(observed, claimed, revisions, now, features, cache);
  // adoption and the revision write come before upstream's UpdateStatefulSet: a failure there ends the sync
  const first = [...claimed.actions, ...revisions.actions].map((a): Action => ({ ...a, endsSyncOnFailure: true }));
  const current = abort.kind === 'rollingBack' ? abort.targetRevision : revisions.currentRevision;
  const last = planHistoryTruncation(set, claimed.revisions, keptRevisions(set, claimed), current, revisions.updateRevision);
  if (isDeleting(set)) return deletingPlan(ctx, claimed, revisions, [...first, ...last]);
  return assemble(ctx, planSync(ctx), revisions, abort, steps, { first, last });
}

/**
 * Plans one sync of `observed.set`. Pure and deterministic; never throws: invalid input yields an
 * `invalidSpec` blocker (and a FailedValidation event) with no pod actions; an exception is a bug in the
 * planner and yields an `internalError` blocker (with its stack) that the runtime logs, counts and retries.
 */
export function planStatefulSet(observed: ObservedState, now: Instant, features: Features, cache = new PlannerCache()): Plan {
  try {
    const issues = specIssues(observed.set, features, cache);
    if (issues.length > 0) return invalidPlan(observed.set, now, issues);
    return planValid(observed, now, features, cache);
  } catch (error) {
    return crashPlan(observed, error);
  }
}
