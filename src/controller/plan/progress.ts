// Progressing and Available for a valid set: what the rollout is doing, whether it has made progress since
// the last mark, and progressDeadlineSeconds detection (detection only: nothing is deleted because of it).
// A rollout that left its p95 band (slow-rollout.ts) is Progressing=False with reason SlowerThanForecast until
// it completes or fails: a warning, not a failure. The progress mark and the deadline go on as while True.

import { fromTimestamp, type Condition, type Instant, type StatefulSet, type StatefulSetStatus } from '../../api/types.js';
import {
  conditionsOf,
  ConditionType,
  findCondition,
  inProgressReason,
  isCompletedReason,
  isInProgressReason,
  progressMark,
  Reason,
  setCondition,
  type ConditionValue,
} from '../model/conditions.js';
import type { Blocker, PlannedEvent } from '../model/plan-types.js';
import { replicasOf } from '../model/spec.js';
import type { StrategyKind } from '../rollout/effective-strategy.js';
import { lateStepText, type BandCheck } from '../rollout/slow-rollout.js';

export interface ProgressInput {
  set: StatefulSet;
  stored: StatefulSetStatus | undefined;
  next: StatefulSetStatus;
  now: Instant;
  strategy: StrategyKind;
  maxUnavailable: number;
  /** Every replica exists on the update revision (or is held by the partition), available, nothing else to do. */
  complete: boolean;
  /** The controller acted or the counters moved forward since the stored status. */
  progressed: boolean;
  /**
   * apps/v1 only: the latest pod creation or readiness among the set's pods. apps/v1 conditions have no
   * lastUpdateTime (kube-apiserver drops it), so the progress mark is rebuilt from the pods instead. A
   * function: it reads every pod, and only a sync that made no progress needs it.
   */
  lastPodProgress?: () => Instant | undefined;
  halted?: { pod: string; reason: string };
  /** onFailure: Rollback is bringing the pods back: the condition's message, and whether the abort starts now. */
  aborted?: { message: string; started: boolean };
  /**
   * When the update revision's ControllerRevision was created, when the set has others (undefined for its
   * first revision, or one created this sync).
   */
  updateRevisionCreated?: Instant | undefined;
  /** spec.progressDeadlineSeconds (`auto` derived from the forecast band). */
  deadlineSeconds: number;
  /** The rollout's steps in flight against the set's p95 band (slow-rollout.ts). */
  band?: BandCheck;
  /** The user's pause, or a step's gate (rollout-steps.ts): Progressing True, RolloutPaused, no deadline. */
  paused?: { message: string };
  /** A step failed the rollout and onFailure is Halt: Progressing False with `reason` until retried. */
  stepFailed?: { reason: string; message: string };
}

export interface ProgressResult {
  conditions: Condition[];
  events: PlannedEvent[];
  blockers: Blocker[];
  wakeAt?: Instant;
  /** Seconds since Progressing went True, when a rollout completed this sync. */
  completedSeconds?: number;
  /** A safety halt started this sync (SafetyHalt event). */
  haltStarted: boolean;
}

const setLabel = (set: StatefulSet): string => set.metadata.name ?? '';

/**
 * A rollout (not a scale) is under way: the revisions differ, or Progressing went True no later than the
 * update revision was made — upstream promotes currentRevision once the pods are updated and Ready, and the
 * rollout goes on until they are available too (minReadySeconds). A scale started after the rollout ended
 * turned Progressing True after that. (A rollback to a revision kept in history reuses its object, and
 * revisionHistoryLimit 0 leaves the update revision alone once promoted: their minReadySeconds tail reads
 * as a scale.)
 */
function isRollout(input: ProgressInput, previous: Condition | undefined): boolean {
  if (input.next.currentRevision !== input.next.updateRevision) return true;
  const since = previous?.status === 'True' && isInProgressReason(previous.reason) ? fromTimestamp(previous.lastTransitionTime) : undefined;
  return since !== undefined && input.updateRevisionCreated !== undefined && input.updateRevisionCreated >= since;
}

function inProgressMessage(input: ProgressInput, previous: Condition | undefined): string {
  const s = input.next;
  const replicas = replicasOf(input.set);
  if (isRollout(input, previous)) {
    return `${input.strategy} to revision ${s.updateRevision ?? ''}: ${s.updatedReplicas ?? 0} of ${replicas} pods updated, ${s.availableReplicas ?? 0} available`;
  }
  return `scaling to ${replicas} replicas: ${s.readyReplicas ?? 0} ready, ${s.availableReplicas ?? 0} available`;
}

function completedValue(input: ProgressInput): ConditionValue {
  const recreate = input.strategy === 'Recreate';
  return {
    type: ConditionType.progressing,
    status: 'False',
    reason: recreate ? Reason.recreateCompleted : Reason.rolloutCompleted,
    message: `StatefulSet "${setLabel(input.set)}" has successfully progressed to revision ${input.next.updateRevision ?? ''}.`,
    lastUpdateTime: input.now,
  };
}

/**
 * Keeps a completed condition while the spec and update revision are unchanged (pod churn is not a
 * rollout, as for Deployments). A set without a Progressing condition whose stored status shows no rollout
 * (e.g. converged by kube-controller-manager) is treated as completed too.
 */
function isStillComplete(input: ProgressInput, previous: Condition | undefined): boolean {
  const stored = input.stored;
  const completed = previous === undefined ? stored?.currentRevision === stored?.updateRevision : previous.status === 'False' && isCompletedReason(previous.reason);
  return (
    completed &&
    stored !== undefined &&
    (stored.observedGeneration ?? -1) === (input.set.metadata.generation ?? 0) &&
    stored.updateRevision !== undefined &&
    stored.updateRevision === input.next.updateRevision
  );
}

type Decision = { value?: ConditionValue; events: PlannedEvent[]; blockers: Blocker[]; wakeAt?: Instant };

function deadlineExceeded(input: ProgressInput, mark: Instant, previous: Condition | undefined): Decision {
  const already = previous?.status === 'False' && previous.reason === Reason.progressDeadlineExceeded;
  const message = `StatefulSet "${setLabel(input.set)}" has timed out progressing.`;
  return {
    value: { type: ConditionType.progressing, status: 'False', reason: Reason.progressDeadlineExceeded, message, lastUpdateTime: mark },
    events: already ? [] : [{ type: 'Warning', reason: Reason.progressDeadlineExceeded, message }],
    blockers: [{ kind: 'progressDeadlineExceeded', since: mark, seconds: input.deadlineSeconds }],
  };
}

const latest = (a: Instant | undefined, b: Instant | undefined): Instant | undefined => (a === undefined ? b : b === undefined ? a : Math.max(a, b));

/** SlowerThanForecast for this update revision already (the status's revision is the one it judged). */
const wasSlow = (input: ProgressInput, previous: Condition | undefined): boolean =>
  previous?.status === 'False' && previous.reason === Reason.slowerThanForecast && input.stored?.updateRevision === input.next.updateRevision;

/**
 * A rollout out of its band: Progressing=False, reason SlowerThanForecast, with the progress mark kept, from
 * the first late step until the rollout ends (a warning event when it starts); `undefined` when in its band.
 */
function slowDecision(input: ProgressInput, previous: Condition | undefined, mark: Instant): ConditionValue | undefined {
  const late = input.band?.late;
  const slow = wasSlow(input, previous);
  if (late === undefined && !slow) return undefined;
  const message =
    late === undefined
      ? (previous?.message ?? '')
      : `Rollout to revision ${input.next.updateRevision ?? ''} is slower than forecast: ${lateStepText(late)}`;
  return { type: ConditionType.progressing, status: 'False', reason: Reason.slowerThanForecast, message, lastUpdateTime: mark };
}

/** Under way: keep or start the progress mark, compare it with the deadline, and the rollout with its band. */
function underway(input: ProgressInput, previous: Condition | undefined): Decision {
  const deadline = input.deadlineSeconds * 1000;
  const timedOut = previous?.status === 'False' && previous.reason === Reason.progressDeadlineExceeded;
  const running = (previous?.status === 'True' && isInProgressReason(previous.reason)) || wasSlow(input, previous);
  const stored = timedOut || running ? (input.progressed ? undefined : latest(progressMark(previous), input.lastPodProgress?.())) : undefined;
  if (timedOut && stored !== undefined) return deadlineExceeded(input, stored, previous);
  const mark = running && stored !== undefined ? stored : input.now;
  if (input.now - mark >= deadline) return deadlineExceeded(input, mark, previous);
  const rollout = isRollout(input, previous);
  // a rollout not yet slow looks again when its first step in flight leaves the band
  const checkAt = rollout && !wasSlow(input, previous) ? input.band?.checkAt : undefined;
  const wakeAt = Math.min(mark + deadline, checkAt ?? Infinity);
  const slow = rollout ? slowDecision(input, previous, mark) : undefined;
  if (slow !== undefined) {
    const events: PlannedEvent[] = wasSlow(input, previous) ? [] : [{ type: 'Warning', reason: Reason.slowerThanForecast, message: slow.message }];
    return { value: slow, events, blockers: input.band?.late ? [{ kind: 'slowerThanForecast', ...input.band.late }] : [], wakeAt };
  }
  const value: ConditionValue = {
    type: ConditionType.progressing,
    status: 'True',
    reason: inProgressReason(input.strategy),
    message: inProgressMessage(input, previous),
    lastUpdateTime: mark,
  };
  return { value, events: [], blockers: [], wakeAt };
}

function haltedDecision(input: ProgressInput, previous: Condition | undefined): Decision {
  const halted = input.halted as { pod: string; reason: string };
  const message =
    `EnforcedRollingUpdate halted: pod ${halted.pod} of revision ${input.next.updateRevision ?? ''} failed to become available ` +
    `(${halted.reason}); no lower ordinal is updated until the template changes`;
  const started = !(previous?.status === 'False' && previous.reason === Reason.safetyHalt);
  const value: ConditionValue = { type: ConditionType.progressing, status: 'False', reason: Reason.safetyHalt, message, lastUpdateTime: input.now };
  return { value: started ? value : { ...value, lastUpdateTime: progressMark(previous) ?? input.now }, events: [], blockers: [] };
}

/**
 * An aborted rollout: Progressing=False, reason RolloutAborted, from the abort until the template changes or
 * the rollout is retried (the way back and after it). The mark is when the abort started.
 */
function abortedDecision(input: ProgressInput, previous: Condition | undefined): Decision {
  const aborted = input.aborted as { message: string; started: boolean };
  const mark = aborted.started || previous?.reason !== Reason.rolloutAborted ? input.now : (progressMark(previous) ?? input.now);
  return { value: { type: ConditionType.progressing, status: 'False', reason: Reason.rolloutAborted, message: aborted.message, lastUpdateTime: mark }, events: [], blockers: [] };
}

/**
 * OnDelete with pods still on an old revision: the controller has nothing to do (the set is "complete" for
 * it), but the rollout is not done. It stays in progress until the user has deleted the old pods, with no
 * deadline, since nothing but the user moves it.
 */
function onDeleteWaiting(input: ProgressInput, previous: Condition | undefined): Decision {
  const s = input.next;
  const running = previous?.status === 'True' && isInProgressReason(previous.reason);
  const mark = running && !input.progressed ? (progressMark(previous) ?? input.now) : input.now;
  const message =
    `OnDelete to revision ${s.updateRevision ?? ''}: ${s.updatedReplicas ?? 0} of ${replicasOf(input.set)} pods updated, ` +
    `${s.availableReplicas ?? 0} available; each old pod is replaced when it is deleted`;
  return { value: { type: ConditionType.progressing, status: 'True', reason: inProgressReason('OnDelete'), message, lastUpdateTime: mark }, events: [], blockers: [] };
}

/**
 * Paused (the user's pause or a step's gate): Progressing stays True with reason RolloutPaused and its mark
 * kept from when the pause began, with no deadline (as a paused Deployment); the deadline counts again from
 * the resume, whose mark is new (RolloutPaused is not an in-progress reason).
 */
function pausedDecision(input: ProgressInput, previous: Condition | undefined): Decision {
  const was = previous?.status === 'True' && previous.reason === Reason.rolloutPaused;
  const mark = was ? (progressMark(previous) ?? input.now) : input.now;
  const message = input.paused?.message ?? '';
  return { value: { type: ConditionType.progressing, status: 'True', reason: Reason.rolloutPaused, message, lastUpdateTime: mark }, events: [], blockers: [] };
}

/** A failed step under onFailure Halt: Progressing False from the failure until retried or the template changes. */
function stepFailedDecision(input: ProgressInput, previous: Condition | undefined): Decision {
  const failed = input.stepFailed as { reason: string; message: string };
  const was = previous?.status === 'False' && previous.reason === failed.reason;
  const mark = was ? (progressMark(previous) ?? input.now) : input.now;
  return { value: { type: ConditionType.progressing, status: 'False', reason: failed.reason, message: failed.message, lastUpdateTime: mark }, events: [], blockers: [] };
}

function progressingDecision(input: ProgressInput, previous: Condition | undefined): Decision {
  if (input.aborted !== undefined) return abortedDecision(input, previous);
  if (input.halted !== undefined) return haltedDecision(input, previous);
  if (input.stepFailed !== undefined) return stepFailedDecision(input, previous);
  if (isStillComplete(input, previous)) return { events: [], blockers: [] };
  if (input.paused !== undefined && !input.complete) return pausedDecision(input, previous);
  if (input.complete && input.strategy === 'OnDelete' && (input.next.updatedReplicas ?? 0) < replicasOf(input.set)) return onDeleteWaiting(input, previous);
  if (input.complete) return { value: completedValue(input), events: [], blockers: [] };
  return underway(input, previous);
}

function availableValue(input: ProgressInput): ConditionValue {
  const replicas = replicasOf(input.set);
  const available = input.next.availableReplicas ?? 0;
  const ok = available >= replicas - input.maxUnavailable;
  return {
    type: ConditionType.available,
    status: ok ? 'True' : 'False',
    reason: ok ? Reason.minimumReplicasAvailable : Reason.minimumReplicasUnavailable,
    message: `${available} of ${replicas} replicas available (maxUnavailable ${input.maxUnavailable})`,
  };
}

/**
 * Seconds since Progressing went True, on the sync that completes a rollout: every replica updated and
 * available on the promoted revision (so minReadySeconds counts), the condition turning to completed.
 */
function completedSeconds(input: ProgressInput, previous: Condition | undefined, d: Decision): number | undefined {
  const completing = d.value?.status === 'False' && isCompletedReason(d.value.reason);
  if (!completing || previous?.status !== 'True') return undefined;
  const s = input.next;
  const replicas = replicasOf(input.set);
  const done = s.currentRevision === s.updateRevision && s.updatedReplicas === replicas && s.availableReplicas === replicas;
  const stored = input.stored?.currentRevision;
  const promotedNow = stored !== undefined && stored !== s.currentRevision;
  const since = progressMarkStart(previous);
  return done && (promotedNow || isRollout(input, previous)) && since !== undefined ? Math.max(0, (input.now - since) / 1000) : undefined;
}

const progressMarkStart = (c: Condition): Instant | undefined => fromTimestamp(c.lastTransitionTime);

/**
 * Progress, as Deployments define it: the controller created or deleted pods (`podWrites`: an eviction is not
 * counted, as it may be refused), more pods are updated, ready or available than in the stored status, fewer
 * pods are outdated, or a new update revision appeared.
 */
export function hasProgressed(stored: StatefulSetStatus | undefined, next: StatefulSetStatus, podWrites: number): boolean {
  const s = stored ?? { replicas: 0 };
  const outdated = (x: StatefulSetStatus): number => (x.replicas ?? 0) - (x.updatedReplicas ?? 0);
  return (
    podWrites > 0 ||
    (next.updatedReplicas ?? 0) > (s.updatedReplicas ?? 0) ||
    (next.readyReplicas ?? 0) > (s.readyReplicas ?? 0) ||
    (next.availableReplicas ?? 0) > (s.availableReplicas ?? 0) ||
    outdated(next) < outdated(s) ||
    (next.updateRevision ?? '') !== (s.updateRevision ?? '')
  );
}

export function planProgress(input: ProgressInput): ProgressResult {
  const storedConditions = conditionsOf(input.stored);
  const previous = findCondition(storedConditions, ConditionType.progressing);
  const d = progressingDecision(input, previous);
  let conditions = d.value ? setCondition(storedConditions, d.value, input.now) : [...storedConditions];
  conditions = setCondition(conditions, availableValue(input), input.now);
  const haltStarted = input.halted !== undefined && !(previous?.reason === Reason.safetyHalt);
  const result: ProgressResult = { conditions, events: d.events, blockers: d.blockers, haltStarted };
  if (d.wakeAt !== undefined) result.wakeAt = d.wakeAt;
  const seconds = completedSeconds(input, previous, d);
  if (seconds !== undefined) result.completedSeconds = seconds;
  return result;
}
