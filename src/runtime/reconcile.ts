// One reconcile of one StatefulSet key: caches → planner → executor → status → events, metrics and the
// outcome that tells the queue when to come back (outcomes are a union).

import type { ClusterClient } from '../api/client.js';
import type { Features } from '../api/features.js';
import type { Instant, StatefulSet } from '../api/types.js';
import type { Plan } from '../controller/plan-types.js';
import type { Clock } from './clock.js';
import { objectReference, type EventRecorder } from './event-recorder.js';
import { applyPlan, type ExecutionResult } from './executor.js';
import type { Expectations } from './expectations.js';
import type { AnalysisProber } from './analysis-prober.js';
import type { Logger } from './logging-port.js';
import type { ControllerMetrics } from './metrics.js';
import { observe, type Caches, type ObserveMemo } from './observe.js';
import type { Planner } from './planner-port.js';
import type { SetKey, SetTargets } from './set-targets.js';
import { settleStatus } from './settle-status.js';
import { writeStatus } from './set-status-writer.js';
import { expectAction, recordSyncEvents, recordSyncMetrics } from './sync-effects.js';
import { refusalWakeAt, splitRefusals } from './eviction-refusals.js';

export type ReconcileOutcome =
  /** Converged for now; come back at `wakeAt` if nothing else happens first. */
  | { kind: 'done'; wakeAt?: Instant }
  /** Something failed; retry with rate-limited backoff. */
  | { kind: 'retry'; error: Error }
  /** A bug in Ordinal (the planner or the sync threw): logged with its stack, counted, retried with backoff. */
  | { kind: 'internalError'; error: Error }
  /** Retrying cannot help (e.g. a malformed key). */
  | { kind: 'terminal'; error: Error }
  /** The caches have not yet seen this set's own writes; retry when they have, or at `until` at the latest. */
  | { kind: 'waiting'; until?: Instant };

export interface SyncDeps {
  client: ClusterClient;
  clock: Clock;
  features: Features;
  planner: Planner;
  targets: SetTargets;
  caches: Caches;
  /** What the controller keeps between syncs: defaulted sets, and the replica indexes kept from the informers' deltas. */
  memo?: ObserveMemo;
  expectations: Expectations;
  metrics: ControllerMetrics;
  events: EventRecorder;
  logger: Logger;
  /** Makes the plan's analysis checks (rollingUpdate.steps); absent: none are made. */
  prober?: AnalysisProber;
}

// upstream: stateful_set.go sync + syncStatefulSet
export async function syncStatefulSet(key: string, deps: SyncDeps): Promise<ReconcileOutcome> {
  const parsed = deps.targets.parse(key);
  if (parsed === undefined) return { kind: 'terminal', error: new Error(`invalid resource key: ${key}`) };
  const set = parsed.target.informer.get(parsed.namespace, parsed.name);
  if (set === undefined) {
    deps.expectations.forget(key);
    deps.metrics.forgetSet(parsed.namespace, parsed.name);
    return { kind: 'done' };
  }
  // KEP-5647 (gate StaleControllerConsistencyStatefulSet): never act on a cache that has not seen our own
  // writes. With the gate off the sync acts at once, as upstream did before 1.36.
  if (deps.features.StaleControllerConsistencyStatefulSet && !deps.expectations.satisfied(key)) {
    const behind = deps.expectations.pending(key)[0]?.source.resource;
    if (behind !== undefined) deps.metrics.staleSyncSkipped(behind);
    const until = deps.expectations.expiresAt(key);
    return until === undefined ? { kind: 'waiting' } : { kind: 'waiting', until };
  }
  const now = deps.clock.now();
  const observed = observe(set, deps.caches, deps.features, deps.memo);
  const plan = deps.planner.plan(observed, now, deps.features);
  // before any other sync plans: every set's next plan counts this one's disruptions (in-flight-disruptions.ts)
  const reserved = deps.memo?.disruptions?.reserve(set.metadata.namespace ?? '', plan.actions);
  // the checks run beside the sync: their results queue the set again
  deps.prober?.start(key, set, plan.probes);
  const result = await applyPlan(plan, deps.client, {
    set,
    resource: parsed.target.resource,
    onApplied: (action, written) => expectAction(deps.expectations, key, deps.caches, action, written, set.metadata.namespace),
  });
  reserved?.settle(result.executed);
  const statusError = await persistStatus(key, parsed, set, plan, result, deps);
  recordSyncEvents(deps.events, objectReference(set, parsed.target.resource), plan, result);
  const internal = internalErrorOf(plan);
  if (internal !== undefined) {
    // the plan's metric values mean nothing when the planner failed
    deps.logger.error({ key, err: internal.message, stack: internal.stack }, 'internal error in the planner, requeuing');
    return { kind: 'internalError', error: internal };
  }
  recordSyncMetrics(deps.metrics, set, plan, result, deps.clock.now());
  return outcomeOf(key, plan, result, statusError, deps);
}

/** The planner's internalError blocker as an Error carrying the planner's stack. */
function internalErrorOf(plan: Plan): Error | undefined {
  const blocker = plan.blockers.find((b) => b.kind === 'internalError');
  if (blocker === undefined) return undefined;
  const error = new Error(blocker.message);
  error.stack = blocker.stack ?? `Error: ${blocker.message}`;
  return error;
}

/** Writes the settled status when needed; returns the write's error instead of throwing. */
async function persistStatus(
  key: string,
  parsed: SetKey,
  set: StatefulSet,
  plan: Plan,
  result: ExecutionResult,
  deps: SyncDeps,
): Promise<Error | undefined> {
  const status = settleStatus(plan, result.executed);
  if (status === undefined) return undefined;
  try {
    const written = await writeStatus(deps.client, parsed.target.resource, set, status);
    deps.expectations.expectWrite(key, parsed.target.informer, written);
    return undefined;
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}

/**
 * The first action failure wins over a status failure, as upstream returns the sync error first. A budget's
 * refusal of an eviction is no failure: the set comes back soon, without the error backoff (eviction-refusals.ts).
 */
function outcomeOf(key: string, plan: Plan, result: ExecutionResult, statusError: Error | undefined, deps: SyncDeps): ReconcileOutcome {
  const log = deps.logger;
  const { refusals, errors } = splitRefusals(result);
  const first = errors[0];
  if (first !== undefined) {
    const fields = { key, action: first.action.kind, failures: result.failures.length, err: first.error.message };
    log.warn(fields, 'error syncing StatefulSet, requeuing');
    return { kind: 'retry', error: first.error };
  }
  if (statusError !== undefined) {
    log.warn({ key, err: statusError.message }, 'error updating StatefulSet status, requeuing');
    return { kind: 'retry', error: statusError };
  }
  if (refusals.length > 0) {
    const wakeAt = Math.min(refusalWakeAt(refusals, deps.clock.now()), plan.wakeAt ?? Infinity);
    for (const r of refusals) log.info({ key, pod: r.action.name, err: r.error.budgetMessage }, 'eviction refused by a PodDisruptionBudget, requeuing');
    return { kind: 'done', wakeAt };
  }
  return plan.wakeAt === undefined ? { kind: 'done' } : { kind: 'done', wakeAt: plan.wakeAt };
}
