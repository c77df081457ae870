// rollingUpdate.analysis (apps.ordinal.dev/v1): a background check of the whole rollout, an HTTP GET or a
// Prometheus query every interval, from the first updated pod that is Running and Ready until the rollout is
// promoted (status.currentRevision names the update revision), at any step and with no steps at all. More than
// failureLimit failed checks fail the rollout (rollout-steps.ts turns that into the steps' failure, and
// onFailure decides what follows, as for a step's analysis); a check with no verdict under a Pause policy holds
// the update until one gives a verdict again. What it has seen is kept in status.rolloutAnalysis, for the
// update revision it checks, so the planner stays a function of what it observes; a retry of the failed
// rollout (the rollout-retry annotation) starts it again.

import { fromTimestamp, RetryAnnotation, toTimestamp, type Instant, type PauseCondition, type RolloutAnalysisStatus, type StatefulSet } from '../../api/types.js';
import { checksFailure, checksOf, foldChecks, nextCheckAt, probeFor, type Checks } from './analysis-checks.js';
import type { AnalysisProbe, AnalysisResult, Blocker, PlannedEvent } from '../model/plan-types.js';
import type { SyncContext } from './sync-context.js';

export interface RolloutAnalysisPlan {
  /** status.rolloutAnalysis to write (absent: none to keep). */
  status?: RolloutAnalysisStatus;
  probe?: AnalysisProbe;
  /** When `probe` fell due (the steps' own probe and this one: the earlier goes first). */
  dueAt?: Instant;
  /** The rollout failed its background analysis: why. */
  failure?: string;
  /** A check gave no verdict under a Pause policy: no pod is updated until one does. */
  holds: boolean;
  wakeAt?: Instant;
  blockers: Blocker[];
  pauses: PauseCondition[];
  events: PlannedEvent[];
  /** The retry annotation value acted on (a failed background analysis runs again). */
  retry?: string;
}

const NONE: RolloutAnalysisPlan = { holds: false, blockers: [], pauses: [], events: [] };

type Analysis = NonNullable<NonNullable<StatefulSet['spec']['updateStrategy']>['rollingUpdate']>['analysis'];

/** The failure message, the same every sync (a condition message that changed would be written again). */
export const rolloutAnalysisFailure = (checks: Checks, analysis: RolloutAnalysisStatus): string => `the rollout's analysis (rollingUpdate.analysis) failed: ${checksFailure(checks, analysis)}`;

/** An updated pod is Running and Ready: the background analysis has something to check. */
function hasUpdatedPod(ctx: SyncContext): boolean {
  const index = ctx.slots.index;
  return index.onRevision(ctx.updateRevision).size > index.notReadyOn(ctx.updateRevision).size;
}

function retryOf(set: StatefulSet): string | undefined {
  const v = set.metadata.annotations?.[RetryAnnotation];
  return typeof v === 'string' && v !== '' && v !== set.status?.observedRolloutRetry ? v : undefined;
}

/** The stored record of this rollout's analysis, or a fresh one (a new revision, a retry, or the first updated pod now). */
function startOf(ctx: SyncContext, stored: RolloutAnalysisStatus | undefined, restart: boolean): RolloutAnalysisStatus | undefined {
  if (stored !== undefined && stored.revision === ctx.updateRevision && !restart) return stored;
  if (!hasUpdatedPod(ctx)) return undefined;
  return { revision: ctx.updateRevision, since: toTimestamp(ctx.now), successful: 0, failed: 0 };
}

/**
 * The background analysis this sync. `opts.retried`: the steps acted on a retry this sync (undefined: no steps,
 * so a new retry value restarts a failed analysis here); `opts.paused`: the user's pause (no check is made).
 */
export function planRolloutAnalysis(ctx: SyncContext, spec: Analysis, results: readonly AnalysisResult[], opts: { retried?: boolean; paused: boolean }): RolloutAnalysisPlan {
  const checks = checksOf(spec);
  const stored = ctx.set.status?.rolloutAnalysis;
  if (checks === undefined) return NONE;
  // promoted: the rollout is over; its record is kept as it ended
  if (ctx.currentRevision === ctx.updateRevision) return stored?.revision === ctx.updateRevision ? { ...NONE, status: stored } : NONE;
  const failedBefore = stored?.revision === ctx.updateRevision && stored.failed > checks.failureLimit;
  const retry = opts.retried === undefined && failedBefore ? retryOf(ctx.set) : undefined;
  const start = startOf(ctx, stored, opts.retried === true || retry !== undefined);
  if (start === undefined) return NONE;
  const attempt = retry ?? ctx.set.status?.observedRolloutRetry ?? '';
  const key = `${ctx.updateRevision}/rollout/${attempt}`;
  const status = { ...foldChecks(start, key, fromTimestamp(start.since) ?? ctx.now, results, checks), revision: start.revision, ...(start.since !== undefined ? { since: start.since } : {}) };
  const plan: RolloutAnalysisPlan = { ...NONE, status, blockers: [], pauses: [], events: [], ...(retry !== undefined ? { retry } : {}) };
  if (status.failed > checks.failureLimit) {
    plan.failure = rolloutAnalysisFailure(checks, status);
    if (!failedBefore || retry !== undefined) plan.events.push({ type: 'Warning', reason: 'AnalysisFailed', message: `Rollout to revision ${ctx.updateRevision} failed: ${plan.failure}` });
    return plan;
  }
  plan.holds = status.paused === true;
  plan.blockers.push({ kind: 'rolloutAnalysis', check: checks.kind, analysis: status, paused: plan.holds });
  if (plan.holds) plan.pauses.push({ reason: 'AnalysisInconclusive', since: ctx.set.status?.pauseConditions?.find((p) => p.reason === 'AnalysisInconclusive')?.since ?? toTimestamp(ctx.now) });
  if (opts.paused) return plan;
  const due = nextCheckAt(status, fromTimestamp(status.since) ?? ctx.now, checks);
  if (due <= ctx.now) {
    plan.probe = probeFor(ctx, checks, key, undefined);
    plan.dueAt = due;
    // the result wakes the set; if none comes, look again after the timeout
    plan.wakeAt = ctx.now + checks.timeoutMs + checks.intervalMs;
  } else plan.wakeAt = due;
  return plan;
}
