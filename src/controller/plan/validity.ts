// Bad input: a set that fails validation gets no pod action, an `invalidSpec`
// blocker, a FailedValidation Warning event and an InvalidSpec condition; its status still records
// observedGeneration. A planner bug is not bad input: crashPlan reports it as an `internalError`.

import { defaultStatefulSet } from '../../api/defaults.js';
import type { FieldIssue } from '../../api/errors.js';
import { defaultFeatures, type Features } from '../../api/features.js';
import type { Instant, StatefulSet, StatefulSetStatus } from '../../api/types.js';
import { validateClaimTemplateShapes } from '../../api/validation/claims.js';
import { formatIssue, IssueList } from '../../api/validation/field.js';
import { validateStatefulSet } from '../../api/validation/index.js';
import { validateStatusTypes } from '../../api/validation/status.js';
import { asObject } from '../../api/validation/values.js';
import { conditionsOf, ConditionType, findCondition, Reason, setCondition } from '../model/conditions.js';
import { EventReason } from '../model/event-texts.js';
import type { Plan, PlanMetrics, PlannedEvent } from '../model/plan-types.js';
import type { ObservedState } from '../replica/observed-state.js';
import { PlannerCache } from '../rollout/planner-cache.js';
import { inconsistentStatus, conditionsEqual } from './status-counters.js';

const fieldOf = (set: unknown, ...path: string[]): unknown => path.reduce<unknown>((v, k) => asObject(v)?.[k], set);

/**
 * Create-time rules that upstream skips on update, so a set stored long ago is not refused for them — as
 * long as the value has the right JSON type (the API server's decoder refuses any other on every verb) and
 * the set has a name. Claim templates get their own shape check (validateClaimTemplateShapes).
 */
const UPDATE_TOLERATED: { path: RegExp; tolerated: (set: unknown) => boolean }[] = [
  { path: /^metadata\.name$/, tolerated: (set) => typeof fieldOf(set, 'metadata', 'name') === 'string' && fieldOf(set, 'metadata', 'name') !== '' },
  { path: /^spec\.serviceName$/, tolerated: (set) => ['string', 'undefined'].includes(typeof fieldOf(set, 'spec', 'serviceName')) },
  { path: /^spec\.volumeClaimTemplates(\[|\.|$)/, tolerated: () => true },
];

/**
 * Validation issues of a stored set. Gate-dependent acceptance (Recreate, EnforcedRollingUpdate,
 * maxUnavailable) is not a validity question for a stored object — a disabled gate means upstream's
 * fallback (effective-strategy.ts) — so the rules are evaluated with every gate on.
 */
export function specIssues(set: unknown, _features: Features, cache = new PlannerCache()): FieldIssue[] {
  if (typeof set !== 'object' || set === null) return computeIssues(set);
  // every sync validates its set; observed sets are never mutated, so once per set object is enough
  let issues = cache.validated.get(set);
  if (issues === undefined) cache.validated.set(set, (issues = computeIssues(set)));
  return [...issues];
}

function computeIssues(set: unknown): FieldIssue[] {
  // kube-apiserver validates apps/v1 sets after defaulting their pod template; a CRD stores the template
  // as written (no imagePullPolicy, restartPolicy, ...), so it is validated on a defaulted copy too.
  const all = defaultFeatures();
  const defaulted = defaultStatefulSet(set as StatefulSet, all);
  const issues = validateStatefulSet(defaulted, all).filter((i) => !UPDATE_TOLERATED.some((t) => t.path.test(i.path) && t.tolerated(defaulted)));
  // Tolerated or not, a claim template of the wrong shape or without a name leaves no claim to build, and
  // a stored status field of the wrong type (collisionCount, the revisions) none to plan from.
  const shapes = new IssueList();
  validateClaimTemplateShapes(fieldOf(defaulted, 'spec', 'volumeClaimTemplates'), shapes);
  validateStatusTypes(fieldOf(set, 'status'), shapes);
  return [...issues, ...shapes.items];
}

const zeroMetrics = (): PlanMetrics => ({
  maxUnavailable: 1,
  unavailabilityViolation: false,
  forcedReplacements: 0,
  safetyHalt: false,
  enforcedRollingUpdateStarted: false,
});

/** An issue's detail, or the API server's text for its type when it has none (`Required value`). */
const detailOf = (i: FieldIssue): string => i.detail || formatIssue({ ...i, path: '' }).slice(2);

export function formatIssues(issues: readonly FieldIssue[]): string {
  const shown = issues.slice(0, 10).map((i) => (i.path ? `${i.path}: ${detailOf(i)}` : detailOf(i)));
  return shown.join('; ') + (issues.length > 10 ? `; and ${issues.length - 10} more` : '');
}

function storedStatus(set: StatefulSet | undefined): StatefulSetStatus {
  const s = set?.status;
  return s !== null && typeof s === 'object' ? structuredClone(s) : { replicas: 0 };
}

/** The plan for a set the controller refuses to act on: only observedGeneration and a condition change. */
export function refusalPlan(set: StatefulSet, now: Instant, issues: FieldIssue[], reason: string, eventReason: string): Plan {
  const previous = storedStatus(set);
  const message = formatIssues(issues);
  const before = findCondition(conditionsOf(previous), ConditionType.invalidSpec);
  const conditions = setCondition(conditionsOf(previous), { type: ConditionType.invalidSpec, status: 'True', reason, message }, now);
  const generation = asObject(asObject(set)?.metadata)?.generation;
  const status: StatefulSetStatus = { ...previous, conditions };
  if (typeof generation === 'number') status.observedGeneration = generation;
  const events: PlannedEvent[] = before?.message === message && before.reason === reason ? [] : [{ type: 'Warning', reason: eventReason, message }];
  return {
    status,
    statusChanged: inconsistentStatus(previous, status) || !conditionsEqual(previous.conditions, conditions),
    actions: [],
    blockers: [{ kind: 'invalidSpec', issues: issues.map((i) => ({ path: i.path, detail: detailOf(i) })) }],
    events,
    metrics: zeroMetrics(),
    previousStatus: previous,
  };
}

export function invalidPlan(set: StatefulSet, now: Instant, issues: FieldIssue[]): Plan {
  return refusalPlan(set, now, issues, Reason.failedValidation, EventReason.failedValidation);
}

/**
 * A planner bug, reported as what it is: an `internalError` blocker carrying the stack (the runtime logs it,
 * counts it and retries with backoff), a FailedPlanning Warning event, no action and no status write.
 */
export function crashPlan(observed: ObservedState, error: unknown): Plan {
  const message = error instanceof Error ? error.message : String(error);
  const blocker: Plan['blockers'][number] = { kind: 'internalError', message };
  if (error instanceof Error && error.stack !== undefined) blocker.stack = error.stack;
  let previous: StatefulSetStatus = { replicas: 0 };
  try {
    previous = storedStatus(observed.set);
  } catch {
    // a status structuredClone cannot copy: the plan writes no status anyway
  }
  return {
    status: previous,
    statusChanged: false,
    actions: [],
    blockers: [blocker],
    events: [{ type: 'Warning', reason: EventReason.failedPlanning, message: `internal planner error: ${message}` }],
    metrics: zeroMetrics(),
    previousStatus: previous,
  };
}
