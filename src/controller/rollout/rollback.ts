// onFailure: Rollback (apps.ordinal.dev/v1): whether this sync aborts the update revision, keeps rolling back,
// or retries — decided from the stored status, the set's revisions and what the pods show now, so the planner
// stays a pure function of what it observes. Argo Rollouts' abort is the model: the controller never writes
// `spec` (a GitOps tool owns it); it records the aborted revision in status and brings the pods back.
//
// Which revision is "the last fully available" one: status.lastAvailableRevision, written (while onFailure is
// Rollback) whenever every replica is on the update revision and available, i.e. when a rollout completes.
// status.currentRevision cannot serve: it is promoted once every pod is updated and Ready, before
// minReadySeconds has passed (upstream, #136831), so it may name a revision that never became available.
// A set switched to Rollback in the middle of a rollout has no record yet: status.currentRevision is taken.
// During the abort, status.currentRevision names the revision the pods go back to, status.updateRevision
// still names the spec's (aborted) revision, and status.abortedRevision records it. The abort ends when the
// template changes (a new update revision starts a new rollout) or the user retries it
// (`kubectl ordinal rollout retry`: a new value of the apps.ordinal.dev/rollout-retry annotation).

import { claimRequest, ORDINAL_V1, RetryAnnotation, type ControllerRevision, type Instant, type StatefulSet, type StatefulSetStatus } from '../../api/types.js';
import { compareQuantities } from '../../api/validation/quantity.js';
import { claimTemplates } from '../model/claim-identity.js';
import { conditionsOf, ConditionType, findCondition, progressMark, Reason } from '../model/conditions.js';
import { checkSafetyHalt } from './safety-halt.js';
import type { Blocker } from '../model/plan-types.js';
import type { Rollback, StepFailure } from './rollout.js';
import { isOwnedRevision } from './revisions.js';
import { setAtRevision, type SyncContext } from './sync-context.js';

/**
 * Why a rollout has failed: detectFailure is the one place that says a rollout failed, and everything after it
 * (abort, events, metric, `why`) reads this value.
 */
export type RolloutFailure =
  /** EnforcedRollingUpdate's safety check: the highest pod of the update revision failed to become available. */
  | { kind: 'safetyHalt'; pod: string; reason: string }
  /** Progressing turned False with ProgressDeadlineExceeded (a previous sync wrote it; `since`: the progress mark). */
  | { kind: 'progressDeadlineExceeded'; since: Instant }
  /** rollingUpdate.steps: a step's analysis failed, or the user aborted the rollout (rollout-steps.ts). */
  | StepFailure;

export type AbortDecision =
  /** No abort: the rollout (if any) goes on as the strategy says. `retry`: the annotation value just acted on. */
  | { kind: 'none'; retry?: string }
  /** Rolling back; `failure` when the abort starts this sync. `retry`: the annotation value it consumed. */
  | { kind: 'rollingBack'; rollback: Rollback; targetRevision: ControllerRevision; failure?: RolloutFailure; retry?: string }
  /** onFailure is Rollback and the rollout failed, but no other revision was ever fully available: it halts. */
  | { kind: 'noTarget'; failure: RolloutFailure };

/** The status (stored or planned) records an abort of its own update revision: the pods go back to its current one. */
export const isRollingBack = (status: StatefulSetStatus | undefined): boolean => status?.abortedRevision !== undefined && status.abortedRevision === status.updateRevision;

/** The revision the pods move to, by a status: its update revision, or during an abort its current one. */
export const movingTo = (status: StatefulSetStatus | undefined): string | undefined => (isRollingBack(status) ? status?.currentRevision : status?.updateRevision);

/** How a pod's revision stands in the rollout, for views: where pods move to (`new`, or `back` during an abort), the aborted one, or `old`. */
export function revisionMark(status: StatefulSetStatus | undefined, revision: string): 'new' | 'old' | 'back' | 'aborted' {
  const back = isRollingBack(status);
  if (revision === movingTo(status)) return back ? 'back' : 'new';
  return back && revision === status?.abortedRevision ? 'aborted' : 'old';
}

const retryValue = (set: StatefulSet): string | undefined => {
  const v = set.metadata.annotations?.[RetryAnnotation];
  return typeof v === 'string' && v !== '' ? v : undefined;
};

/** The revision a failed rollout goes back to: the last fully available one, else the current one (see the header). */
function targetOf(set: StatefulSet, owned: readonly ControllerRevision[], updateRevision: string): ControllerRevision | undefined {
  const status = set.status;
  const named = status?.lastAvailableRevision ?? status?.currentRevision;
  if (named === undefined || named === updateRevision) return undefined;
  return owned.find((r) => r.metadata.name === named && isOwnedRevision(set, r));
}

/** The failure this sync sees in a rollout to the update revision, if any (see RolloutFailure); `step`: the steps' own. */
export function detectFailure(ctx: SyncContext, step?: StepFailure): RolloutFailure | undefined {
  if (step !== undefined) return step;
  if (ctx.strategy.kind === 'EnforcedRollingUpdate') {
    const halted = checkSafetyHalt(ctx).halted;
    if (halted !== undefined) return { kind: 'safetyHalt', pod: halted.pod.metadata.name ?? '', reason: halted.reason };
  }
  const stored = ctx.set.status;
  const progressing = findCondition(conditionsOf(stored), ConditionType.progressing);
  // the condition judged this update revision (a new template starts a new rollout with a new mark)
  if (progressing?.status === 'False' && progressing.reason === Reason.progressDeadlineExceeded && stored?.updateRevision === ctx.updateRevision) {
    return { kind: 'progressDeadlineExceeded', since: progressMark(progressing) ?? ctx.now };
  }
  return undefined;
}

/**
 * What onFailure: Rollback does this sync, given the context of the spec's revisions (`ctx`) and the set's
 * owned revisions. Pure: reads only the stored status, the annotation, the revisions and the pods.
 */
export function planAbort(ctx: SyncContext, revisions: readonly ControllerRevision[], step?: StepFailure): AbortDecision {
  const set = ctx.set;
  const stored = set.status;
  const retry = retryValue(set);
  const target = targetOf(set, revisions, ctx.updateRevision);
  if (stored?.abortedRevision !== undefined && stored.abortedRevision === ctx.updateRevision) {
    if (retry !== undefined && retry !== stored.observedRolloutRetry) return { kind: 'none', retry };
    if (target !== undefined) return { kind: 'rollingBack', rollback: { aborted: ctx.updateRevision, target: target.metadata.name ?? '' }, targetRevision: target };
  }
  if (ctx.strategy.onFailure !== 'Rollback') return { kind: 'none' };
  const failure = detectFailure(ctx, step);
  if (failure === undefined) return { kind: 'none' };
  if (target === undefined) return { kind: 'noTarget', failure };
  // the abort consumes a retry value already there, so that only a new one retries
  return { kind: 'rollingBack', rollback: { aborted: ctx.updateRevision, target: target.metadata.name ?? '' }, targetRevision: target, failure, ...(retry !== undefined ? { retry } : {}) };
}

/** The failure in words: "pod web-4 failed to become available (ImagePullBackOff)". */
export function failureText(f: RolloutFailure, deadlineSeconds: number): string {
  switch (f.kind) {
    case 'safetyHalt':
      return `pod ${f.pod} failed to become available (${f.reason})`;
    case 'progressDeadlineExceeded':
      return `it made no progress for progressDeadlineSeconds (${deadlineSeconds} s)`;
    case 'analysisFailed':
      return `step ${(f.step ?? 0) + 1} failed its analysis: ${f.message}`;
    case 'aborted':
      return f.step === undefined ? 'it was aborted by the user' : `it was aborted at step ${f.step + 1} by the user`;
  }
}

/**
 * volumeClaimUpdatePolicy InPlace: the claim templates whose storage the aborted revision grew beyond the
 * target's. Their claims keep the larger size on the way back (a claim never shrinks).
 */
export function claimsKeptGrown(ctx: SyncContext): string[] {
  const rollback = ctx.rollback;
  const aborted = rollback === undefined ? undefined : setAtRevision(ctx, rollback.aborted);
  if (!ctx.rollout.knobs.claimsInPlace || aborted === undefined) return [];
  const target = new Map(claimTemplates(ctx.updateSet).map((t) => [t.metadata.name ?? '', claimRequest(t)]));
  return claimTemplates(aborted).flatMap((t) => {
    const grown = claimRequest(t);
    const before = target.get(t.metadata.name ?? '');
    return grown !== undefined && before !== undefined && (compareQuantities(grown, before) ?? 0) > 0 ? [t.metadata.name ?? ''] : [];
  });
}

/** The Progressing message of an abort, written when it starts and kept until it ends: what failed, what is done. */
export function abortMessage(ctx: SyncContext, failure: RolloutFailure | undefined): string {
  const rollback = ctx.rollback as Rollback;
  const what = failure === undefined ? '' : `: ${failureText(failure, ctx.progressDeadlineSeconds)}`;
  const grown = claimsKeptGrown(ctx);
  const claims = grown.length === 0 ? '' : `; claims of ${grown.join(', ')} keep the size revision ${rollback.aborted} gave them (claims never shrink)`;
  return `Rollout to revision ${rollback.aborted} aborted${what}; every pod goes back to revision ${rollback.target}, the last fully available (onFailure: Rollback)${claims}`;
}

/** The Progressing message of the abort under way: the one written when it started, else a new one. */
export function carriedAbortMessage(ctx: SyncContext, failure: RolloutFailure | undefined): string {
  const previous = findCondition(conditionsOf(ctx.set.status), ConditionType.progressing);
  if (failure === undefined && previous?.reason === Reason.rolloutAborted && previous.message !== undefined) return previous.message;
  return abortMessage(ctx, failure);
}

/** What `why` reads about an abort: under way (what failed and what is done), or impossible. */
export function abortBlockers(ctx: SyncContext, abort: AbortDecision, message: string | undefined): Blocker[] {
  if (abort.kind === 'noTarget') return [{ kind: 'noRollbackTarget', revision: ctx.updateRevision, failure: failureText(abort.failure, ctx.progressDeadlineSeconds) }];
  if (abort.kind !== 'rollingBack' || message === undefined) return [];
  return [{ kind: 'rolloutAborted', revision: abort.rollback.aborted, target: abort.rollback.target, message, claimsKeptGrown: claimsKeptGrown(ctx) }];
}

/**
 * The abort record in status (apps.ordinal.dev/v1 only; apps/v1 has no such fields): the aborted revision,
 * the last fully available revision (kept while onFailure is Rollback: `fullyAvailable` when every replica is
 * available on the revision the pods move to), and the retry value acted on.
 */
export function abortStatus(ctx: SyncContext, abort: AbortDecision, fullyAvailable: boolean): Pick<StatefulSetStatus, 'abortedRevision' | 'lastAvailableRevision' | 'observedRolloutRetry'> {
  if (ctx.set.apiVersion !== ORDINAL_V1) return {};
  const stored = ctx.set.status;
  const recording = ctx.strategy.onFailure === 'Rollback' || ctx.rollback !== undefined;
  const lastAvailable = fullyAvailable ? ctx.updateRevision : stored?.lastAvailableRevision;
  const retry = (abort.kind === 'none' || abort.kind === 'rollingBack' ? abort.retry : undefined) ?? stored?.observedRolloutRetry;
  return {
    ...(ctx.rollback !== undefined ? { abortedRevision: ctx.rollback.aborted } : {}),
    ...(recording && lastAvailable !== undefined ? { lastAvailableRevision: lastAvailable } : {}),
    ...(retry !== undefined ? { observedRolloutRetry: retry } : {}),
  };
}

/**
 * The way back is over: every replica is available on the target. `status` (stored or planned) is read, so
 * that the sync where this turns true is seen once (the RolledBack event).
 */
export function isRolledBack(status: StatefulSetStatus | undefined, rollback: Rollback, replicas: number): boolean {
  return (
    status?.abortedRevision === rollback.aborted &&
    status.currentRevision === rollback.target &&
    status.replicas === replicas &&
    status.currentReplicas === replicas &&
    status.availableReplicas === replicas
  );
}
