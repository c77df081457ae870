// What a sync leaves behind besides API writes: expectations for the writes it made, events for the
// plan and each action's outcome, and metrics (produced here from Plan and outcomes).

import { isAlreadyExists, isBudgetRefusal } from '../api/errors.js';
import { evictionResults } from './eviction-refusals.js';
import type { Instant, KubeObject, StatefulSet } from '../api/types.js';
import type { Action, Plan } from '../controller/model/plan-types.js';
import type { EventRecorder } from './event-recorder.js';
import type { ExecutionResult } from './executor.js';
import type { Expectations } from './expectations.js';
import type { Caches } from './observe.js';
import type { ControllerMetrics } from './metrics.js';
import type { ObjectReference } from '../api/types.js';

/** Remembers one successful write so the next sync waits until the caches have seen it. */
export function expectAction(
  exp: Expectations,
  key: string,
  caches: Caches,
  action: Action,
  written: KubeObject | undefined,
  namespace?: string,
): void {
  if (action.kind === 'deletePod') return exp.expectDeletion(key, caches.pods, { namespace, name: action.name, uid: action.uid });
  if (action.kind === 'deleteRevision') return exp.expectDeletion(key, caches.revisions, { namespace, name: action.name });
  if (written === undefined) return;
  exp.expectWrite(key, cacheOf(caches, action.kind), written);
}

/** The cache that sees the object an action writes. */
function cacheOf(caches: Caches, kind: Exclude<Action['kind'], 'deletePod' | 'deleteRevision'>): Caches['pods' | 'claims' | 'revisions'] {
  switch (kind) {
    case 'createPod':
    case 'updatePod':
    case 'relabelPod':
    case 'annotatePod':
    case 'setPodCondition':
    case 'patchPod':
    case 'adoptPod':
    case 'releasePod':
      return caches.pods;
    case 'createClaim':
    case 'updateClaim':
    case 'patchClaim':
      return caches.claims;
    case 'createRevision':
    case 'updateRevision':
    case 'adoptRevision':
      return caches.revisions;
  }
}

/**
 * Planned events first, then each attempted action's outcome event (Successful<Verb> or Failed<Verb>), in plan
 * order; a PodDisruptionBudget's refusal of an eviction is EvictionRefused (Normal: the pod waits its turn).
 */
export function recordSyncEvents(events: EventRecorder, ref: ObjectReference, plan: Plan, result: ExecutionResult): void {
  for (const e of plan.events) void events.event(ref, e.type, e.reason, e.message);
  const failed = new Map(result.failures.map((f) => [f.action, f.error]));
  for (const action of plan.actions) {
    const error = failed.get(action);
    if (error === undefined) {
      const e = result.executed.has(action) ? action.outcome?.succeeded : undefined;
      if (e !== undefined) void events.event(ref, e.type, e.reason, e.message);
      continue;
    }
    // upstream: no event when the pod or claim already exists (the cache was behind)
    if (action.kind.startsWith('create') && isAlreadyExists(error)) continue;
    if (action.kind === 'deletePod' && action.eviction === true && isBudgetRefusal(error)) {
      void events.event(ref, 'Normal', 'EvictionRefused', `evict Pod ${action.name} in StatefulSet ${ref.name ?? ''} refused: ${error.budgetMessage}`);
      continue;
    }
    const e = action.outcome?.failed;
    if (e !== undefined) void events.event(ref, e.type, e.reason, e.message + error.message);
  }
}

/**
 * PlanMetrics, the planned conditions, how long each forcibly replaced pod had been stuck (for the deletions that happened), and
 * claim resizes: those the executed patches started (followed to completion by `observeClaim`), patches the
 * API refused, and claims the plan holds because their class does not allow expansion.
 */
export function recordSyncMetrics(metrics: ControllerMetrics, set: StatefulSet, plan: Plan, result: ExecutionResult, now: Instant): void {
  metrics.recordPlanMetrics(set, plan.metrics);
  metrics.recordConditions(set, plan.status.conditions ?? []);
  for (const action of result.executed) {
    if (action.kind === 'deletePod' && action.stuckSeconds !== undefined) metrics.observeStuckPod(set, action.stuckSeconds);
    if (action.kind === 'patchClaim' && action.growsTo !== undefined) metrics.claimResizeStarted(set, action.name, action.growsTo, now);
    if (action.kind === 'annotatePod') metrics.observePreUpdateHook(set, action.hook.phase, action.hook.seconds);
  }
  for (const { action } of result.failures) if (action.kind === 'patchClaim' && action.growsTo !== undefined) metrics.claimPatchRefused(set);
  for (const r of evictionResults(result)) metrics.observeEviction(r);
  for (const b of plan.blockers) if (b.kind === 'claimExpansionRefused') metrics.claimExpansionRefused(set, b.claim, b.request);
}
