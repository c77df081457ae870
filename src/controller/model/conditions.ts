// Status conditions: Progressing and Available on every strategy, like
// Deployments. lastTransitionTime changes only when a condition's status flips; Progressing's
// lastUpdateTime is the progress mark that progressDeadlineSeconds is measured from.

import { fromTimestamp, toTimestamp, type Condition, type Instant } from '../../api/types.js';

export const ConditionType = {
  progressing: 'Progressing',
  available: 'Available',
  featureDisabled: 'FeatureDisabled',
  invalidSpec: 'InvalidSpec',
} as const;

export const Reason = {
  rolloutCompleted: 'RolloutCompleted',
  recreateCompleted: 'RecreateCompleted',
  progressDeadlineExceeded: 'ProgressDeadlineExceeded',
  safetyHalt: 'SafetyHalt',
  rolloutAborted: 'RolloutAborted',
  rolloutPaused: 'RolloutPaused',
  analysisFailed: 'AnalysisFailed',
  slowerThanForecast: 'SlowerThanForecast',
  minimumReplicasAvailable: 'MinimumReplicasAvailable',
  minimumReplicasUnavailable: 'MinimumReplicasUnavailable',
  failedValidation: 'FailedValidation',
} as const;

/** `<Strategy>InProgress`, e.g. RollingUpdateInProgress, RecreateInProgress, OnDeleteInProgress. */
export const inProgressReason = (strategy: string): string => `${strategy}InProgress`;
export const isInProgressReason = (reason: string | undefined): boolean => reason?.endsWith('InProgress') ?? false;
export const isCompletedReason = (reason: string | undefined): boolean =>
  reason === Reason.rolloutCompleted || reason === Reason.recreateCompleted;

/** status.conditions as a list (a malformed value reads as none). */
export function conditionsOf(status: { conditions?: Condition[] } | null | undefined): Condition[] {
  const c = status?.conditions;
  return Array.isArray(c) ? c.filter((x) => x !== null && typeof x === 'object') : [];
}

export function findCondition(conditions: readonly Condition[] | undefined, type: string): Condition | undefined {
  return conditions?.find((c) => c.type === type);
}

export interface ConditionValue {
  type: string;
  status: Condition['status'];
  reason: string;
  message: string;
  /** Progressing only: the progress mark. */
  lastUpdateTime?: Instant;
}

/** The condition with lastTransitionTime kept unless the status flips (or the condition is new). */
export function toCondition(previous: Condition | undefined, value: ConditionValue, now: Instant): Condition {
  const flipped = previous === undefined || previous.status !== value.status;
  const out: Condition = {
    type: value.type,
    status: value.status,
    lastTransitionTime: flipped ? toTimestamp(now) : (previous.lastTransitionTime ?? toTimestamp(now)),
    reason: value.reason,
    message: value.message,
  };
  if (value.lastUpdateTime !== undefined) out.lastUpdateTime = toTimestamp(value.lastUpdateTime);
  return out;
}

/** `conditions` with `value` set (replacing the condition of its type in place, else appended). */
export function setCondition(conditions: readonly Condition[], value: ConditionValue, now: Instant): Condition[] {
  const previous = findCondition(conditions, value.type);
  const next = toCondition(previous, value, now);
  return previous === undefined ? [...conditions, next] : conditions.map((c) => (c.type === value.type ? next : c));
}

export function removeCondition(conditions: readonly Condition[], type: string): Condition[] {
  return conditions.filter((c) => c.type !== type);
}

/** The stored progress mark (lastUpdateTime, else lastTransitionTime). */
export function progressMark(c: Condition | undefined): Instant | undefined {
  return fromTimestamp(c?.lastUpdateTime) ?? fromTimestamp(c?.lastTransitionTime);
}
