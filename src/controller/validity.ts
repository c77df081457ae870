// Bad input (product.md "Bad input"): a set that fails validation gets no pod action, an `invalidSpec`
// blocker, a FailedValidation Warning event and an InvalidSpec condition; its status still records
// observedGeneration. A planner bug ends the same way instead of throwing.

import { defaultStatefulSet } from '../api/defaults.js';
import type { FieldIssue } from '../api/errors.js';
import { defaultFeatures, type Features } from '../api/features.js';
import type { Instant, StatefulSet, StatefulSetStatus } from '../api/types.js';
import { validateStatefulSet } from '../api/validation/index.js';
import { conditionsOf, ConditionType, findCondition, Reason, setCondition } from './conditions.js';
import { EventReason } from './events.js';
import type { ObservedState, Plan, PlanMetrics, PlannedEvent } from './plan-types.js';
import { inconsistentStatus, conditionsEqual } from './status.js';

/** Create-time rules that upstream skips on update, so a set stored long ago is not refused for them. */
const UPDATE_TOLERATED = [/^metadata\.name$/, /^spec\.serviceName$/, /^spec\.volumeClaimTemplates(\[|\.|$)/];

/**
 * Validation issues of a stored set. Gate-dependent acceptance (Recreate, EnforcedRollingUpdate,
 * maxUnavailable) is not a validity question for a stored object — a disabled gate means upstream's
 * fallback (strategy.ts) — so the rules are evaluated with every gate on.
 */
export function specIssues(set: unknown, _features: Features): FieldIssue[] {
  if (typeof set !== 'object' || set === null) return computeIssues(set);
  let issues = checkedSets.get(set);
  if (issues === undefined) checkedSets.set(set, (issues = computeIssues(set)));
  return [...issues];
}

/** Every sync validates its set; observed sets are never mutated, so once per set object is enough. */
const checkedSets = new WeakMap<object, FieldIssue[]>();

function computeIssues(set: unknown): FieldIssue[] {
  // kube-apiserver validates apps/v1 sets after defaulting their pod template; a CRD stores the template
  // as written (no imagePullPolicy, restartPolicy, ...), so it is validated on a defaulted copy too.
  const all = defaultFeatures();
  const issues = validateStatefulSet(defaultStatefulSet(set as StatefulSet, all), all);
  return issues.filter((i) => !UPDATE_TOLERATED.some((re) => re.test(i.path)));
}

const zeroMetrics = (): PlanMetrics => ({
  maxUnavailable: 1,
  unavailabilityViolation: false,
  forcedReplacements: 0,
  safetyHalt: false,
  enforcedRollingUpdateStarted: false,
});

export function formatIssues(issues: readonly FieldIssue[]): string {
  const shown = issues.slice(0, 10).map((i) => (i.path ? `${i.path}: ${i.detail}` : i.detail));
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
  const generation = set.metadata?.generation;
  const status: StatefulSetStatus = { ...previous, conditions };
  if (typeof generation === 'number') status.observedGeneration = generation;
  const events: PlannedEvent[] = before?.message === message && before.reason === reason ? [] : [{ type: 'Warning', reason: eventReason, message }];
  return {
    status,
    statusChanged: inconsistentStatus(previous, status) || !conditionsEqual(previous.conditions, conditions),
    actions: [],
    blockers: [{ kind: 'invalidSpec', issues: issues.map((i) => ({ path: i.path, detail: i.detail })) }],
    events,
    metrics: zeroMetrics(),
    previousStatus: previous,
  };
}

export function invalidPlan(set: StatefulSet, now: Instant, issues: FieldIssue[]): Plan {
  return refusalPlan(set, now, issues, Reason.failedValidation, EventReason.failedValidation);
}

/** Never throws: a planner error becomes an InternalError condition and a FailedPlanning event. */
export function crashPlan(observed: ObservedState, now: Instant, error: unknown): Plan {
  const detail = `internal planner error: ${error instanceof Error ? error.message : String(error)}`;
  const issues: FieldIssue[] = [{ path: '', type: 'Invalid', detail }];
  try {
    return refusalPlan(observed.set, now, issues, Reason.internalError, EventReason.failedPlanning);
  } catch {
    const blockers: Plan['blockers'] = [{ kind: 'invalidSpec', issues: [{ path: '', detail }] }];
    return { status: { replicas: 0 }, statusChanged: false, actions: [], blockers, events: [], metrics: zeroMetrics() };
  }
}
