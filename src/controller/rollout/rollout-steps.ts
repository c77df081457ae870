// rollingUpdate.steps and .paused (apps.ordinal.dev/v1): where a staged rollout is, decided from the stored
// status, the set's annotations, the analysis results the runtime observed and what the pods show now, so
// the planner stays a pure function of what it observes (Argo Rollouts' and Kruise Rollout's model, inside
// the controller). A step moves the partition: its boundary (`partition`, or `replicas` counted from the top)
// is the partition every phase works to, so nothing past it is created, deleted, patched or relabelled on the
// update revision. Once every replica from the boundary up is updated and available, the step's gate runs:
// none, a pause until promoted, a bake time (counted while those replicas stay available), or an analysis.
// The user's pause (`paused: true`) holds the update phase itself: no pod or claim is updated while it is
// set, and no step passes; scaling and the replacement of failed pods go on.

import { getScaledValueFromIntOrPercent } from '../../api/intstr.js';
import { parseGoDuration } from '../../api/duration.js';
import {
  AbortAnnotation,
  fromTimestamp,
  ORDINAL_V1,
  PromoteAnnotation,
  RetryAnnotation,
  toTimestamp,
  type HttpAnalysis,
  type Instant,
  type PauseCondition,
  type PauseReason,
  type RolloutStep,
  type StatefulSet,
  type StepAnalysisStatus,
  type StepState,
} from '../../api/types.js';
import type { AnalysisResult, Blocker, PlannedEvent, AnalysisProbe } from '../model/plan-types.js';
import { conditionsOf, ConditionType, findCondition, Reason } from '../model/conditions.js';
import { declaredStrategy } from '../model/spec.js';
import { downIndices, type SyncContext } from './sync-context.js';
import { staleCount } from './update-range.js';
import type { StepFailure, StepPlan } from './rollout.js';

const DEFAULT_TIMEOUT_MS = 5_000;

/** Between an HTTP analysis' checks (its `interval`, default 10s). */
export const analysisIntervalMs = (http: HttpAnalysis | undefined): number => durationMs(http?.interval, 10_000);

/** The declared rolling block (rollingUpdate, or enforcedRollingUpdate) of an apps.ordinal.dev/v1 set. */
function rollingBlock(set: StatefulSet): { paused?: boolean; steps?: RolloutStep[] } | undefined {
  if (set.apiVersion !== ORDINAL_V1) return undefined;
  const strategy = set.spec.updateStrategy;
  const declared = declaredStrategy(set);
  return declared === 'EnforcedRollingUpdate' ? strategy?.enforcedRollingUpdate : declared === 'RollingUpdate' ? strategy?.rollingUpdate : undefined;
}

export const stepsOf = (set: StatefulSet): readonly RolloutStep[] => rollingBlock(set)?.steps ?? [];
export const isUserPaused = (set: StatefulSet): boolean => rollingBlock(set)?.paused === true;

/**
 * The step the set's status shows under way for its update revision (a staged rollout not yet through its
 * steps), as the plugin reads it; undefined otherwise.
 */
export function stepUnderWay(set: StatefulSet): { index: number; total: number } | undefined {
  const s = set.status;
  const total = stepsOf(set).length;
  const index = s?.currentStepIndex;
  if (total === 0 || index === undefined || index >= total || s?.stepRevision === undefined || s.stepRevision !== s.updateRevision) return undefined;
  return { index, total };
}

/** The index below which a step keeps pods on their revision: its partition, or replicas − its count (rounded up). */
export function stepPartition(step: RolloutStep, replicas: number): number {
  const clamp = (n: number): number => Math.max(0, Math.min(replicas, n));
  if (step.partition !== undefined) return clamp(step.partition);
  return clamp(replicas - getScaledValueFromIntOrPercent(step.replicas ?? 0, replicas, true));
}

/** A step's gate in words, for status, `why` and forecasts. */
export type StepGate = 'none' | 'pause' | 'bake' | 'http' | 'readiness';
export function gateOf(step: RolloutStep): StepGate {
  if (step.pause !== undefined) return step.pause.duration === undefined ? 'pause' : 'bake';
  if (step.analysis?.http !== undefined) return 'http';
  if (step.analysis?.readiness !== undefined) return 'readiness';
  return 'none';
}

const durationMs = (text: string | undefined, fallback: number): number => (text === undefined ? fallback : parseGoDuration(text));
/** Status times have whole seconds: a state's start is kept at that precision so the next sync reads the same. */
const wholeSecond = (t: Instant): Instant => Math.floor(t / 1000) * 1000;

/** Every replica from `boundary` up exists, is on the update revision (claims too) and is available. */
function reached(ctx: SyncContext, boundary: number): boolean {
  const { slots } = ctx;
  if (slots.countOf(slots.index.ordinals, boundary) !== slots.count - boundary) return false;
  if (slots.countOf(slots.index.terminating, boundary) > 0) return false;
  if (staleCount(ctx, boundary) > 0) return false;
  return downIndices(ctx, boundary).next().done === true;
}

/** An updated replica from `boundary` up is down or terminating (a missing one, as after a scale-up, is not). */
function wentUnavailable(ctx: SyncContext, boundary: number): boolean {
  const { slots } = ctx;
  return slots.countOf(slots.index.terminating, boundary) > 0 || downIndices(ctx, boundary).next().done !== true;
}

/** `<revision>/<index>` or `<revision>/full` of the promote annotation, when it names this revision. */
function promotion(set: StatefulSet, revision: string): number | 'full' | undefined {
  const value = set.metadata.annotations?.[PromoteAnnotation];
  if (typeof value !== 'string' || !value.startsWith(`${revision}/`)) return undefined;
  const what = value.slice(revision.length + 1);
  if (what === 'full') return 'full';
  return /^[0-9]+$/.test(what) ? Number(what) : undefined;
}

const stepLabel = (index: number, total: number): string => `step ${index + 1}/${total}`;

/** Why the step's analysis failed, in the same words every sync (a condition message that changed would be written again). */
function analysisFailure(step: RolloutStep | undefined, analysis: StepAnalysisStatus | undefined): string {
  const http = step?.analysis?.http;
  if (http === undefined || analysis === undefined) return analysis?.message ?? 'the analysis failed';
  const checks = analysis.successful + analysis.failed;
  return `${analysis.failed} of ${checks} checks of ${http.url} failed (failureLimit ${http.failureLimit ?? 0})${analysis.message ? `: ${analysis.message}` : ''}`;
}

/** The keyed result list of the current step's HTTP checks, folded into its counts. */
function foldResults(analysis: StepAnalysisStatus, key: string, since: Instant, results: readonly AnalysisResult[]): StepAnalysisStatus {
  const last = fromTimestamp(analysis.lastCheckTime) ?? Number.NEGATIVE_INFINITY;
  const fresh = results.filter((r) => r.key === key && r.at >= since && wholeSecond(r.at) > last).sort((a, b) => a.at - b.at);
  let out = analysis;
  for (const r of fresh) {
    out = {
      successful: out.successful + (r.ok ? 1 : 0),
      failed: out.failed + (r.ok ? 0 : 1),
      lastCheckTime: toTimestamp(r.at),
      message: r.message,
    };
  }
  return out;
}

/** The step machine's state for one sync, advanced as far as the pods allow. */
class StepRun {
  index: number;
  state: StepState;
  since: Instant;
  analysis: StepAnalysisStatus | undefined;
  partition: number | undefined;
  failure: StepFailure | undefined;
  probe: AnalysisProbe | undefined;
  wakeAt: Instant | undefined;
  retry: string | undefined;
  readonly events: PlannedEvent[] = [];
  readonly pauses: PauseCondition[] = [];
  private readonly now: Instant;

  constructor(
    private readonly ctx: SyncContext,
    readonly steps: readonly RolloutStep[],
    private readonly results: readonly AnalysisResult[],
  ) {
    const stored = ctx.set.status;
    this.now = ctx.now;
    const same = stored?.stepRevision === ctx.updateRevision && typeof stored.currentStepIndex === 'number';
    if (same) {
      // a completed rollout stays completed when steps are added to the spec afterwards
      this.state = stored.currentStepState ?? 'Updating';
      this.index = this.state === 'Completed' ? steps.length : Math.min(stored.currentStepIndex as number, steps.length);
      this.since = fromTimestamp(stored.currentStepSince) ?? wholeSecond(this.now);
      this.analysis = stored.stepAnalysis;
    } else if (ctx.currentRevision === ctx.updateRevision) {
      // no rollout under way (a new set, or a template changed back to the current revision): nothing to stage
      this.index = steps.length;
      this.state = 'Completed';
      this.since = wholeSecond(this.now);
    } else {
      this.index = 0;
      this.state = 'Updating';
      this.since = wholeSecond(this.now);
      this.events.push({ type: 'Normal', reason: 'RolloutStepStarted', message: `Rollout to revision ${ctx.updateRevision}: ${stepLabel(0, steps.length)} starts` });
    }
  }

  private enter(state: StepState): void {
    if (this.state === state) return;
    this.state = state;
    this.since = wholeSecond(this.now);
  }

  private advance(how: string): void {
    this.index++;
    this.state = this.index >= this.steps.length ? 'Completed' : 'Updating';
    this.since = wholeSecond(this.now);
    this.analysis = undefined;
    const next = this.index >= this.steps.length ? 'every step passed' : `${stepLabel(this.index, this.steps.length)} starts`;
    this.events.push({ type: 'Normal', reason: 'RolloutStepCompleted', message: `Rollout to revision ${this.ctx.updateRevision}: ${stepLabel(this.index - 1, this.steps.length)} ${how}; ${next}` });
  }

  private fail(kind: StepFailure['kind'], message: string): void {
    const already = this.state === 'Failed';
    this.enter('Failed');
    this.failure = { kind, step: this.index, message };
    if (!already) this.events.push({ type: 'Warning', reason: kind === 'aborted' ? 'RolloutAborted' : 'AnalysisFailed', message: `Rollout to revision ${this.ctx.updateRevision} failed at ${stepLabel(this.index, this.steps.length)}: ${message}` });
  }

  private pause(reason: PauseReason): void {
    this.pauses.push({ reason, since: toTimestamp(this.since) });
  }

  /** The user's signals: promote, abort, retry (annotations; see types.ts). */
  signals(paused: boolean): void {
    const { set, updateRevision } = this.ctx;
    const stored = set.status;
    const retry = set.metadata.annotations?.[RetryAnnotation];
    const aborted = set.metadata.annotations?.[AbortAnnotation] === updateRevision;
    if (this.state === 'Failed' && !aborted && typeof retry === 'string' && retry !== '' && retry !== stored?.observedRolloutRetry) {
      this.retry = retry;
      this.state = 'Updating';
      this.since = wholeSecond(this.now);
      this.analysis = undefined;
      this.events.push({ type: 'Normal', reason: 'RolloutRetried', message: `Rollout to revision ${updateRevision}: ${stepLabel(this.index, this.steps.length)} runs again` });
    }
    if (aborted && this.index < this.steps.length) return this.fail('aborted', 'aborted by the user (kubectl ordinal rollout abort)');
    if (this.state === 'Failed') {
      this.failure = { kind: 'analysisFailed', step: this.index, message: analysisFailure(this.steps[this.index], this.analysis) };
      return;
    }
    // a promote waits for the resume: no step passes while the user pauses (its annotation stays valid)
    const promote = paused ? undefined : promotion(set, updateRevision);
    if (promote === 'full' && this.index < this.steps.length) {
      this.events.push({ type: 'Normal', reason: 'RolloutPromoted', message: `Rollout to revision ${updateRevision} promoted past every remaining step` });
      this.index = this.steps.length;
      this.state = 'Completed';
      this.since = wholeSecond(this.now);
      this.analysis = undefined;
    } else if (promote === this.index && this.index < this.steps.length) {
      this.advance('promoted');
    }
  }

  /**
   * Runs steps as far as the pods allow this sync. While the user pauses, the current step's gate keeps
   * watching the pods (a replica that goes unavailable starts a bake or readiness window again, as it would
   * unpaused) but does not pass.
   */
  run(paused: boolean): void {
    for (let guard = 0; guard <= this.steps.length && this.index < this.steps.length; guard++) {
      const step = this.steps[this.index] as RolloutStep;
      this.partition = Math.max(this.ctx.strategy.partition, stepPartition(step, this.ctx.slots.count));
      if (this.state === 'Failed') return;
      if (!this.gate(step, paused)) return;
    }
    if (this.index >= this.steps.length) {
      this.partition = undefined;
      this.enter('Completed');
    }
  }

  /** The step's gate; true when it passed (the next step runs this sync; never while `paused`). */
  private gate(step: RolloutStep, paused: boolean): boolean {
    const gate = gateOf(step);
    const boundary = this.partition as number;
    if (!reached(this.ctx, boundary)) {
      // a readiness analysis counts each time an updated replica goes unavailable during its window (a replica
      // added by a scale-up starts the window again without counting)
      if (gate === 'readiness' && this.state === 'Analyzing' && wentUnavailable(this.ctx, boundary)) {
        const failed = (this.analysis?.failed ?? 0) + 1;
        const unavailable = `an updated replica went unavailable during the readiness window (${failed} time${failed === 1 ? '' : 's'})`;
        this.analysis = { successful: this.analysis?.successful ?? 0, failed, lastCheckTime: toTimestamp(this.now), message: unavailable };
        if (failed > (step.analysis?.readiness?.failureLimit ?? 0)) {
          this.fail('analysisFailed', unavailable);
          return false;
        }
      }
      this.enter('Updating');
      return false;
    }
    switch (gate) {
      case 'none':
        if (paused) return false;
        this.advance('reached');
        return true;
      case 'pause':
        if (this.state !== 'Paused') this.events.push({ type: 'Normal', reason: 'RolloutPaused', message: `Rollout to revision ${this.ctx.updateRevision} paused at ${stepLabel(this.index, this.steps.length)} until promoted` });
        this.enter('Paused');
        this.pause('StepPause');
        return false;
      case 'bake':
        return this.timed('Baking', durationMs(step.pause?.duration, 0), 'baked', 'StepPause', paused);
      case 'readiness':
        return this.timed('Analyzing', durationMs(step.analysis?.readiness?.duration, 0), 'passed its readiness analysis', 'AnalysisRunning', paused);
      case 'http':
        return this.http(step.analysis?.http as HttpAnalysis, paused);
    }
  }

  /** A bake time or a readiness window: passes `ms` after the state started (a replica going down restarts it). */
  private timed(state: 'Baking' | 'Analyzing', ms: number, how: string, reason: PauseReason, paused: boolean): boolean {
    this.enter(state);
    if (state === 'Analyzing') this.analysis ??= { successful: 0, failed: 0 };
    if (this.now >= this.since + ms && !paused) {
      this.advance(how);
      return true;
    }
    if (this.now < this.since + ms) this.wakeAt = this.since + ms;
    this.pause(reason);
    return false;
  }

  private http(http: HttpAnalysis, paused: boolean): boolean {
    this.enter('Analyzing');
    // a retry starts a new attempt: checks made before it (even in the same second) do not count
    const attempt = this.retry ?? this.ctx.set.status?.observedRolloutRetry ?? '';
    const key = `${this.ctx.updateRevision}/${this.index}/${attempt}`;
    const analysis = foldResults(this.analysis ?? { successful: 0, failed: 0 }, key, this.since, this.results);
    this.analysis = analysis;
    if (analysis.failed > (http.failureLimit ?? 0)) {
      this.fail('analysisFailed', analysisFailure(this.steps[this.index], analysis));
      return false;
    }
    if (paused) {
      // no check is made while paused (planSteps drops the probe), so nothing to wake for
      this.pause('AnalysisRunning');
      return false;
    }
    if (analysis.successful + analysis.failed >= (http.count ?? 1)) {
      this.advance(`passed its analysis (${analysis.successful} of ${analysis.successful + analysis.failed} checks of ${http.url})`);
      return true;
    }
    const interval = analysisIntervalMs(http);
    const timeoutMs = durationMs(http.timeout, DEFAULT_TIMEOUT_MS);
    const last = fromTimestamp(analysis.lastCheckTime);
    const due = last === undefined ? this.since : last + interval;
    if (due <= this.now) {
      this.probe = { key, revision: this.ctx.updateRevision, step: this.index, url: http.url, expectedStatus: http.expectedStatus ?? 200, timeoutMs };
      // the result wakes the set; if none comes, look again after the timeout
      this.wakeAt = this.now + timeoutMs + interval;
    } else this.wakeAt = due;
    this.pause('AnalysisRunning');
    return false;
  }
}

/** What `why` reads about the step the rollout is at. */
function stepBlockers(run: StepRun, paused: boolean): Blocker[] {
  const out: Blocker[] = paused ? [{ kind: 'rolloutPaused' }] : [];
  const step = run.steps[run.index];
  if (step === undefined || run.partition === undefined) return out;
  if (run.failure !== undefined) return [...out, { kind: 'stepFailed', step: run.index, steps: run.steps.length, message: run.failure.message }];
  const until = run.state === 'Baking' || (run.state === 'Analyzing' && gateOf(step) === 'readiness') ? run.wakeAt : undefined;
  out.push({
    kind: 'rolloutStep',
    step: run.index,
    steps: run.steps.length,
    state: run.state,
    gate: gateOf(step),
    partition: run.partition,
    ...(until !== undefined ? { until } : {}),
    ...(run.analysis !== undefined ? { analysis: run.analysis } : {}),
  });
  return out;
}

/** The user's pause, kept since it started. */
function userPause(ctx: SyncContext): PauseCondition {
  const kept = ctx.set.status?.pauseConditions?.find((p) => p.reason === 'UserPause')?.since;
  return { reason: 'UserPause', since: kept ?? toTimestamp(ctx.now) };
}

/**
 * The staged rollout this sync (`ctx`: the spec's revisions, before any abort). `results`: the analysis checks
 * the runtime made for the set.
 */
export function planSteps(ctx: SyncContext, results: readonly AnalysisResult[] = []): StepPlan {
  const set = ctx.set;
  const paused = isUserPaused(set);
  const wasPaused = set.status?.pauseConditions?.some((p) => p.reason === 'UserPause') === true;
  const pauseEvents: PlannedEvent[] =
    paused === wasPaused ? [] : [{ type: 'Normal', reason: paused ? 'RolloutPaused' : 'RolloutResumed', message: paused ? 'Rollout paused (spec paused: true): no pod or claim is updated' : 'Rollout resumed (spec paused: false)' }];
  const pauses = paused ? [userPause(ctx)] : [];
  const steps = ctx.strategy.kind === 'RollingUpdate' || ctx.strategy.kind === 'EnforcedRollingUpdate' ? stepsOf(set) : [];
  if (steps.length === 0) {
    // without steps, an abort (its annotation names the revision rolling out) fails the rollout as a whole
    const aborted = ctx.currentRevision !== ctx.updateRevision && set.apiVersion === ORDINAL_V1 && set.metadata.annotations?.[AbortAnnotation] === ctx.updateRevision;
    const failure: StepFailure | undefined = aborted ? { kind: 'aborted', message: 'aborted by the user (kubectl ordinal rollout abort)' } : undefined;
    const blockers: Blocker[] = [...(paused ? [{ kind: 'rolloutPaused' } as const] : []), ...(failure ? [{ kind: 'stepFailed', step: 0, steps: 0, message: failure.message } as const] : [])];
    // under Halt the abort is announced here once (onFailure: Rollback announces its own)
    const stored = findCondition(conditionsOf(set.status), ConditionType.progressing);
    const announce = aborted && ctx.strategy.onFailure !== 'Rollback' && stored?.reason !== Reason.rolloutAborted;
    const events: PlannedEvent[] = announce ? [...pauseEvents, { type: 'Warning', reason: 'RolloutAborted', message: `Rollout to revision ${ctx.updateRevision} aborted by the user (kubectl ordinal rollout abort); it stays where it is until retried` }] : pauseEvents;
    const plan: StepPlan = { steps, index: 0, state: 'Completed', since: ctx.now, holds: paused || aborted, events, blockers, pauses };
    return failure === undefined ? plan : { ...plan, failure };
  }
  const run = new StepRun(ctx, steps, results);
  run.signals(paused);
  run.run(paused);
  const plan: StepPlan = {
    steps,
    index: run.index,
    state: run.state,
    since: run.since,
    holds: paused || run.state === 'Failed',
    events: [...pauseEvents, ...run.events],
    blockers: stepBlockers(run, paused),
    pauses: [...pauses, ...run.pauses],
  };
  if (run.partition !== undefined) plan.partition = run.partition;
  if (run.analysis !== undefined) plan.analysis = run.analysis;
  if (run.probe !== undefined && !paused) plan.probe = run.probe;
  if (run.failure !== undefined) plan.failure = run.failure;
  if (run.wakeAt !== undefined) plan.wakeAt = run.wakeAt;
  if (run.retry !== undefined) plan.retry = run.retry;
  return plan;
}

/** The step fields of status (apps.ordinal.dev/v1 sets with steps). */
export function stepStatus(ctx: SyncContext, plan: StepPlan): Record<string, unknown> {
  if (plan.steps.length === 0) return {};
  return {
    currentStepIndex: plan.index,
    currentStepState: plan.state,
    currentStepSince: toTimestamp(plan.since),
    stepRevision: ctx.rollback?.aborted ?? ctx.updateRevision,
    ...(plan.analysis !== undefined ? { stepAnalysis: plan.analysis } : {}),
  };
}
