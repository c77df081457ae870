// The sync's context built once from what the caller observed: the rollout record (knobs, holds, the safety
// halt), the forecast band and the deadline it gives, the revisions and claims by name.

import type { ControllerRevision, PersistentVolumeClaim, StorageClass } from '../../api/types.js';
import type { ForecastBand, ObservedDurations } from '../model/learned-durations.js';
import { isParallel, minReadySecondsOf } from '../model/spec.js';
import type { PlannerCache } from './planner-cache.js';
import { progressDeadlineSecondsOf } from './progress-deadline.js';
import { knobsOf, type Holds, type Rollback } from './rollout.js';
import { checkSafetyHalt } from './safety-halt.js';
import { forecastBand } from './slow-rollout.js';
import type { SyncContext } from './sync-context.js';

/** What the caller supplies; the rest of SyncContext is derived from the set. */
export type ContextInput = Omit<SyncContext, 'minReadySeconds' | 'monotonic' | 'claims' | 'memo' | 'rollout' | 'storageClasses' | 'revisions' | 'rollback' | 'band' | 'progressDeadlineSeconds'> & {
  durations?: ObservedDurations | undefined;
  rollback?: Rollback | undefined;
  claims: readonly PersistentVolumeClaim[] | ReadonlyMap<string, PersistentVolumeClaim>;
  storageClasses?: readonly StorageClass[] | undefined;
  revisions?: readonly ControllerRevision[];
};

export function newSyncContext(input: ContextInput): SyncContext {
  const { storageClasses, revisions, rollback, durations, ...rest } = input;
  const band = durations === undefined ? forecastBand(undefined) : memoBand(rest.cache, durations);
  const ctx: SyncContext = {
    ...rest,
    ...(rollback === undefined ? {} : { rollback, strategy: { ...rest.strategy, partition: 0 } }),
    revisions: new Map((revisions ?? []).map((r) => [r.metadata.name ?? '', r])),
    ...(storageClasses === undefined ? {} : { storageClasses: new Map(storageClasses.map((c) => [c.metadata.name ?? '', c])) }),
    minReadySeconds: minReadySecondsOf(input.set),
    monotonic: !isParallel(input.set),
    claims: input.claims instanceof Map ? input.claims : new Map((input.claims as readonly PersistentVolumeClaim[]).map((c) => [c.metadata.name ?? '', c])),
    band,
    progressDeadlineSeconds: progressDeadlineSecondsOf(input.set, band),
    rollout: { knobs: knobsOf(input.set, input.strategy.kind), holds: { userPause: false, stepFailed: false, analysisPaused: false }, halt: {} },
    memo: {},
  };
  return withHolds(ctx, ctx.rollout.holds);
}

/**
 * The context with the rollout's holds: the user's pause and a failed step (rollout-steps.ts), and the safety
 * halt, checked here once (EnforcedRollingUpdate, and a rollback's way back).
 */
export function withHolds(ctx: SyncContext, holds: Pick<Holds, 'userPause' | 'stepFailed' | 'analysisPaused'>): SyncContext {
  const halt = ctx.strategy.kind === 'EnforcedRollingUpdate' || ctx.rollback !== undefined ? checkSafetyHalt(ctx) : {};
  const all: Holds = { ...holds, ...(halt.halted !== undefined ? { safetyHalt: halt.halted } : {}) };
  return { ...ctx, rollout: { ...ctx.rollout, holds: all, halt } };
}

function memoBand(cache: PlannerCache, durations: ObservedDurations): ForecastBand {
  let band = cache.bands.get(durations);
  if (band === undefined) cache.bands.set(durations, (band = forecastBand(durations)));
  return band;
}
