// The metric values of one sync (computed here, written to prom-client by the runtime).

import type { StatefulSet, StatefulSetStatus } from '../../api/types.js';
import type { SyncContext } from '../rollout/sync-context.js';
import type { PlanMetrics } from '../model/plan-types.js';
import type { StatusPlan } from './plan-status.js';
import { replicasOf } from '../model/spec.js';
import { Reason } from '../model/conditions.js';
import type { SyncBody } from './update-statefulset.js';

/** spec.replicas − availableReplicas > maxUnavailable while a rolling update is under way (KEP-961). */
export function isUnavailabilityViolation(set: StatefulSet, status: StatefulSetStatus, maxUnavailable: number, rolling: boolean): boolean {
  return rolling && status.currentRevision !== status.updateRevision && replicasOf(set) - (status.availableReplicas ?? 0) > maxUnavailable;
}

export interface MetricsInput {
  ctx: SyncContext;
  body: SyncBody;
  status: StatusPlan;
  enforcedStarted: boolean;
  abortStarted: boolean;
}

export function planMetrics({ ctx, body, status, enforcedStarted, abortStarted }: MetricsInput): PlanMetrics {
  const rolling = ctx.strategy.kind === 'RollingUpdate' || ctx.strategy.kind === 'EnforcedRollingUpdate';
  const metrics: PlanMetrics = {
    maxUnavailable: ctx.strategy.maxUnavailable,
    unavailabilityViolation: isUnavailabilityViolation(ctx.set, status.status, ctx.strategy.maxUnavailable, rolling),
    forcedReplacements: body.forced.length,
    safetyHalt: status.progress.haltStarted,
    enforcedRollingUpdateStarted: enforcedStarted,
    ...(abortStarted ? { rolloutAborted: true as const } : {}),
    ...(status.progress.events.some((e) => e.reason === Reason.slowerThanForecast) ? { slowerThanForecast: true as const } : {}),
  };
  if (body.unavailablePods !== undefined) metrics.unavailableReplicas = body.unavailablePods;
  if (status.progress.completedSeconds !== undefined) metrics.updateCompletedSeconds = status.progress.completedSeconds;
  return metrics;
}
