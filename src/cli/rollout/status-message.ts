// `rollout status`: kubectl's StatefulSet status messages (kubectl/pkg/polymorphichelpers rollout_status.go
// StatefulSetStatusViewer), extended to Ordinal's strategies and conditions. "Done" is the simulator's
// Converged (sim/converged.ts): the status and the pods both say every ordinal is updated and available.
// A Progressing=False condition with reason ProgressDeadlineExceeded, SafetyHalt or RolloutAborted (while
// the pods go back, and after) is a failure of the current spec only: a status that has not observed the latest generation, or a condition the caller saw
// on such a status (the same condition, kept after the change), judges an older spec and fails nothing.
// A staged rollout (rollingUpdate.steps) says which step it is at and what the step waits for; a rollout held
// for a person (spec paused, or a step paused until promoted) is `paused`: nothing moves until someone acts.

import { partitionOf } from '../../api/intstr.js';
import { AbortAnnotation, fromTimestamp, PromoteAnnotation, RetryAnnotation, type Condition, type Instant, type Pod, type StatefulSet } from '../../api/types.js';
import { parseGoDuration } from '../../api/duration.js';
import { findCondition } from '../../controller/model/conditions.js';
import { isRollingBack } from '../../controller/rollout/rollback.js';
import { isUserPaused, stepPartition, stepsOf, stepUnderWay } from '../../controller/rollout/rollout-steps.js';
import { formatWait } from '../explain/durations.js';
import { minReadySecondsOf, replicasOf } from '../../controller/model/spec.js';
import { convergence } from '../../sim/converged.js';
import { hookWait } from './hook-wait.js';
import { drainWait } from './drain-wait.js';

export type RolloutState =
  | { kind: 'progressing'; message: string }
  | { kind: 'done'; message: string }
  | { kind: 'failed'; message: string }
  /** Held until a person acts: `user` — spec paused (resume); `step` — a step paused until promoted. */
  | { kind: 'paused'; by: 'user' | 'step'; message: string };

const FAILURE_REASONS = new Set(['ProgressDeadlineExceeded', 'SafetyHalt', 'RolloutAborted', 'AnalysisFailed']);

/**
 * The status has not yet been written for the latest spec (kubectl's "spec update to be observed"), or for the
 * latest retry of an aborted rollout (`rollout retry` changes an annotation, not the generation).
 */
const isStatusStale = (set: StatefulSet): boolean => (set.status?.observedGeneration ?? 0) < (set.metadata.generation ?? 0) || isRetryPending(set);

/** `rollout retry` asked for a retry the controller has not acted on yet (of an aborted rollout, or a failed step). */
function isRetryPending(set: StatefulSet): boolean {
  const asked = set.metadata.annotations?.[RetryAnnotation];
  return asked !== undefined && asked !== set.status?.observedRolloutRetry && (isRollingBack(set.status) || set.status?.currentStepState === 'Failed');
}

/** `rollout promote` or `rollout abort` asked for what the controller has not done yet. */
function signalPending(set: StatefulSet): 'promote' | 'abort' | undefined {
  const s = set.status;
  if (s === undefined || s.currentStepState === 'Failed' || isRollingBack(s) || s.updateRevision === s.currentRevision) return undefined;
  const annotations = set.metadata.annotations ?? {};
  if (annotations[AbortAnnotation] === s.updateRevision) return failureCondition(set)?.reason === 'RolloutAborted' ? undefined : 'abort';
  const step = stepUnderWay(set);
  const promote = annotations[PromoteAnnotation];
  return step !== undefined && (promote === `${s.stepRevision ?? ''}/full` || promote === `${s.stepRevision ?? ''}/${step.index}`) ? 'promote' : undefined;
}

/** The Progressing condition when it says the rollout failed, whichever spec it judged. */
function failureCondition(set: StatefulSet): Condition | undefined {
  const c = findCondition(set.status?.conditions, 'Progressing');
  return c?.status === 'False' && FAILURE_REASONS.has(c.reason ?? '') ? c : undefined;
}

const sameCondition = (a: Condition, b: Condition): boolean =>
  a.reason === b.reason && a.lastTransitionTime === b.lastTransitionTime && a.message === b.message;

/**
 * An abort under onFailure: Halt of a rollout without steps holds only while its annotation names the update
 * revision: once `rollout retry` removed it, the condition is the controller's to take back, not a failure.
 */
function isAbortLifted(set: StatefulSet, c: Condition): boolean {
  const s = set.status;
  return c.reason === 'RolloutAborted' && !isRollingBack(s) && s?.currentStepState !== 'Failed' && set.metadata.annotations?.[AbortAnnotation] !== s?.updateRevision;
}

/**
 * The failure condition of a status written for an older spec than the set's: a watch keeps it, so that the
 * same condition still there once the new generation is observed is not taken for a failure of the change.
 */
export function staleFailure(set: StatefulSet): Condition | undefined {
  return isStatusStale(set) ? failureCondition(set) : undefined;
}

function failure(set: StatefulSet, stale: Condition | undefined): RolloutState | undefined {
  const c = failureCondition(set);
  if (c === undefined || isStatusStale(set) || (stale !== undefined && sameCondition(c, stale)) || isAbortLifted(set, c)) return undefined;
  const name = set.metadata.name ?? '';
  if (c.reason === 'ProgressDeadlineExceeded') return { kind: 'failed', message: `statefulset "${name}" exceeded its progress deadline` };
  if (c.reason === 'RolloutAborted') return { kind: 'failed', message: `statefulset "${name}" rollout aborted: ${c.message ?? 'RolloutAborted'}` };
  if (c.reason === 'AnalysisFailed') return { kind: 'failed', message: `statefulset "${name}" rollout failed: ${c.message ?? 'AnalysisFailed'}` };
  return { kind: 'failed', message: `statefulset "${name}" rollout halted: ${c.message ?? 'SafetyHalt'}` };
}

const typeOf = (set: StatefulSet): string => set.spec.updateStrategy?.type || 'RollingUpdate';

/** The partition that applies (RollingUpdate / EnforcedRollingUpdate), else 0. */
function partition(set: StatefulSet): number {
  const t = typeOf(set);
  return t === 'RollingUpdate' || t === 'EnforcedRollingUpdate' ? partitionOf(set) : 0;
}

/** The status does not yet answer what was last asked of the controller: a new spec, a retry, a promote or an abort. */
function observedWait(set: StatefulSet): string | undefined {
  const s = set.status;
  if (!s || !s.observedGeneration || (set.metadata.generation ?? 0) > s.observedGeneration) {
    return 'Waiting for statefulset spec update to be observed...';
  }
  if (isRetryPending(set)) return 'Waiting for statefulset rollout retry to be observed...';
  const signal = signalPending(set);
  return signal === undefined ? undefined : `Waiting for statefulset rollout ${signal} to be observed...`;
}

/** A bake or readiness window's time left, from the state's start and the step's duration. */
function timeLeft(set: StatefulSet, duration: string | undefined, now: Instant): string {
  const since = fromTimestamp(set.status?.currentStepSince) ?? now;
  return formatWait(since + parseGoDuration(duration ?? '0s') - now);
}

/** Where a staged rollout is and what its step waits for; `paused` when it waits for a promote. */
function stepState(set: StatefulSet, now: Instant): RolloutState | undefined {
  const at = stepUnderWay(set);
  if (at === undefined) return undefined;
  const s = set.status;
  const step = stepsOf(set)[at.index];
  const label = `step ${at.index + 1}/${at.total}`;
  const name = set.metadata.name ?? '';
  switch (s?.currentStepState) {
    case 'Paused':
      return { kind: 'paused', by: 'step', message: `${label}: paused until promoted (kubectl ordinal rollout promote ${name})` };
    case 'Baking':
      return { kind: 'progressing', message: `${label}: paused for ${timeLeft(set, step?.pause?.duration, now)} more (bake)` };
    case 'Analyzing': {
      const readiness = step?.analysis?.readiness;
      if (readiness !== undefined) return { kind: 'progressing', message: `${label}: readiness analysis for ${timeLeft(set, readiness.duration, now)} more` };
      const a = s.stepAnalysis;
      const failed = (a?.failed ?? 0) > 0 ? `, ${a?.failed ?? 0} failed` : '';
      return { kind: 'progressing', message: `${label}: analysis running (${a?.successful ?? 0} of ${step?.analysis?.http?.count ?? 1} checks passed${failed})` };
    }
    case 'Updating': {
      const replicas = replicasOf(set);
      const boundary = Math.max(partition(set), step === undefined ? 0 : stepPartition(step, replicas));
      return { kind: 'progressing', message: `${label}: waiting for ${replicas - boundary} pods from index ${boundary} up to be updated and available (${s.updatedReplicas ?? 0} updated)...` };
    }
    // a failed step is Progressing False (failure() reads it); a completed one leaves kubectl's messages
    case 'Failed':
    case 'Completed':
    case undefined:
      return undefined;
  }
}

/** The user's pause (spec paused, observed), while a rollout is under way: nothing moves until resumed. */
function userPause(set: StatefulSet): RolloutState | undefined {
  const s = set.status;
  if (!isUserPaused(set) || !s?.pauseConditions?.some((p) => p.reason === 'UserPause')) return undefined;
  if (s.updateRevision === s.currentRevision && stepUnderWay(set) === undefined) return undefined;
  const at = stepUnderWay(set);
  const where = at === undefined ? '' : `step ${at.index + 1}/${at.total}: `;
  return { kind: 'paused', by: 'user', message: `${where}paused (spec paused: true; kubectl ordinal rollout resume ${set.metadata.name ?? ''})` };
}

/** kubectl's waiting messages, in its order, plus availability and scale-down which kubectl does not check. */
// upstream: kubectl/pkg/polymorphichelpers/rollout_status.go StatefulSetStatusViewer.Status
function waitingMessage(set: StatefulSet): string | undefined {
  const s = set.status;
  const replicas = replicasOf(set);
  if (!s) return 'Waiting for statefulset spec update to be observed...';
  // InPlace: a replica whose claim expands is not ready (KEP-4650); say what it waits for
  const expanding = set.spec.volumeClaimUpdatePolicy === 'InPlace' ? (s.volumeClaimTemplates ?? []).reduce((n, t) => n + (t.updating ?? 0), 0) : 0;
  if (expanding > 0) return `Waiting for ${expanding} claims to finish expanding...`;
  if ((s.readyReplicas ?? 0) < replicas) return `Waiting for ${replicas - (s.readyReplicas ?? 0)} pods to be ready...`;
  if (minReadySecondsOf(set) > 0 && (s.availableReplicas ?? 0) < replicas) {
    return `Waiting for ${replicas - (s.availableReplicas ?? 0)} pods to be available (minReadySeconds ${minReadySecondsOf(set)})...`;
  }
  if ((s.replicas ?? 0) > replicas) return `Waiting for ${(s.replicas ?? 0) - replicas} pods to be removed (scale-down)...`;
  const p = partition(set);
  if (p > 0) {
    const want = Math.max(0, replicas - p);
    if ((s.updatedReplicas ?? 0) < want) {
      return `Waiting for partitioned roll out to finish: ${s.updatedReplicas ?? 0} out of ${want} new pods have been updated...`;
    }
    return undefined;
  }
  if (s.updateRevision !== s.currentRevision) {
    const outdated = typeOf(set) === 'OnDelete' ? ' (OnDelete: delete the old pods to update them)' : '';
    return `waiting for statefulset rolling update to complete ${s.updatedReplicas ?? 0} pods at revision ${s.updateRevision ?? ''}${outdated}...`;
  }
  return undefined;
}

function doneMessage(set: StatefulSet): string {
  const s = set.status;
  if (partition(set) > 0) return `partitioned roll out complete: ${s?.updatedReplicas ?? 0} new pods have been updated...`;
  return `statefulset rolling update complete ${s?.currentReplicas ?? 0} pods at revision ${s?.currentRevision ?? ''}...`;
}

/**
 * Where the rollout of `set` stands; `pods` are the set's pods (as the controller owns them), `stale` a
 * failure condition seen before the latest spec change (staleFailure).
 */
export function rolloutState(set: StatefulSet, pods: readonly Pod[], now: Instant, stale?: Condition): RolloutState {
  const failed = failure(set, stale);
  if (failed) return failed;
  const observing = observedWait(set);
  if (observing !== undefined) return { kind: 'progressing', message: observing };
  const held = userPause(set) ?? stepState(set, now);
  if (held !== undefined) return held;
  const hook = hookWait(set, pods, now);
  if (hook !== undefined) return { kind: 'progressing', message: hook };
  const drain = drainWait(set, pods, now);
  if (drain !== undefined) return { kind: 'progressing', message: drain };
  const waiting = waitingMessage(set);
  if (waiting !== undefined) return { kind: 'progressing', message: waiting };
  const c = convergence(set, pods, now);
  if (!c.converged) return { kind: 'progressing', message: `Waiting: ${c.reason ?? 'pods are not converged yet'}...` };
  return { kind: 'done', message: doneMessage(set) };
}
