// The status kube-controller-manager's disruption controller keeps on a PodDisruptionBudget, as a pure
// function of the budget, the pods it selects and the scale of their controllers: expectedPods and
// desiredHealthy from minAvailable or maxUnavailable, currentHealthy counted from the pods,
// disruptionsAllowed, the pods the eviction handler recorded as disrupted, and the DisruptionAllowed condition.

import { getScaledValueFromIntOrPercent } from '../../api/intstr.js';
import { fromTimestamp, toTimestamp, type Condition, type Instant, type OwnerReference, type Pod, type PodDisruptionBudget } from '../../api/types.js';
import { DELETION_TIMEOUT_MS, isBudgetHealthy } from '../../controller/budget-pods.js';
import { controllerRefOf } from '../../api/controller-ref.js';

export type BudgetStatus = NonNullable<PodDisruptionBudget['status']>;

export interface BudgetInputs {
  budget: PodDisruptionBudget;
  /** The pods of the budget's namespace its selector selects. */
  pods: readonly Pod[];
  /** spec.replicas (through the scale subresource) of the controller a pod's controller reference names; undefined: not found. */
  scaleOf: (ref: OwnerReference, namespace: string) => number | undefined;
  now: Instant;
}

export interface BudgetSync {
  status: BudgetStatus;
  /** When an entry of disruptedPods expires and the status must be worked out again. */
  recheckAt?: Instant;
}

const CONDITION = 'DisruptionAllowed';

/** The sum of the scales of the pods' controllers; a pod without a controller is left out, one whose controller is not found is an error. */
// upstream: pkg/controller/disruption/disruption.go getExpectedScale
function expectedScale(inputs: BudgetInputs): number {
  const scales = new Map<string, number>();
  for (const pod of inputs.pods) {
    const ref = controllerRefOf(pod);
    if (ref === undefined || scales.has(ref.uid)) continue;
    const scale = inputs.scaleOf(ref, pod.metadata.namespace ?? '');
    if (scale === undefined) throw new Error(`found no controllers for pod ${JSON.stringify(pod.metadata.name ?? '')}`);
    scales.set(ref.uid, scale);
  }
  let sum = 0;
  for (const n of scales.values()) sum += n;
  return sum;
}

// upstream: pkg/controller/disruption/disruption.go getExpectedPodCount
function expectedAndDesired(inputs: BudgetInputs): { expected: number; desired: number } {
  const { maxUnavailable, minAvailable } = inputs.budget.spec ?? {};
  if (maxUnavailable !== undefined && maxUnavailable !== null) {
    const expected = expectedScale(inputs);
    return { expected, desired: Math.max(0, expected - getScaledValueFromIntOrPercent(maxUnavailable, expected, true)) };
  }
  if (typeof minAvailable === 'number') return { expected: inputs.pods.length, desired: minAvailable };
  if (typeof minAvailable === 'string') {
    const expected = expectedScale(inputs);
    return { expected, desired: getScaledValueFromIntOrPercent(minAvailable, expected, true) };
  }
  return { expected: 0, desired: 0 };
}

/** disruptedPods entries of pods not yet terminating whose deletion is still expected. */
// upstream: pkg/controller/disruption/disruption.go buildDisruptedPodMap
function disruptedPods(inputs: BudgetInputs): { pods: Record<string, string>; recheckAt?: Instant } {
  const recorded = inputs.budget.status?.disruptedPods ?? {};
  const pods: Record<string, string> = {};
  let recheckAt: Instant | undefined;
  for (const pod of inputs.pods) {
    const name = pod.metadata.name ?? '';
    const at = fromTimestamp(recorded[name]);
    if (pod.metadata.deletionTimestamp || at === undefined) continue;
    const expires = at + DELETION_TIMEOUT_MS;
    if (expires < inputs.now) continue;
    pods[name] = recorded[name] as string;
    recheckAt = recheckAt === undefined ? expires : Math.min(recheckAt, expires);
  }
  return recheckAt === undefined ? { pods } : { pods, recheckAt };
}

/** apimachinery meta.SetStatusCondition: the transition time moves only when the status does. */
function setCondition(conditions: readonly Condition[] | undefined, next: Condition, now: Instant): Condition[] {
  const out = [...(conditions ?? [])];
  const at = out.findIndex((c) => c.type === next.type);
  const prev = at >= 0 ? out[at] : undefined;
  const lastTransitionTime = prev !== undefined && prev.status === next.status ? prev.lastTransitionTime : toTimestamp(now);
  const merged: Condition = { ...next, ...(lastTransitionTime !== undefined ? { lastTransitionTime } : {}) };
  if (at >= 0) out[at] = merged;
  else out.push(merged);
  return out;
}

// upstream: component-helpers/apps/poddisruptionbudget UpdateDisruptionAllowedCondition
export function allowedCondition(status: BudgetStatus, now: Instant): Condition[] {
  const allowed = status.disruptionsAllowed > 0;
  const condition = {
    type: CONDITION,
    status: allowed ? ('True' as const) : ('False' as const),
    reason: allowed ? 'SufficientPods' : 'InsufficientPods',
    message: '',
    observedGeneration: status.observedGeneration,
  };
  return setCondition(status.conditions, condition, now);
}

/** The budget's status after one sync; a sync that fails leaves the status and allows no disruption (failSafe). */
// upstream: pkg/controller/disruption/disruption.go trySync, updatePdbStatus, failSafe
export function syncBudget(inputs: BudgetInputs): BudgetSync {
  const { budget, now } = inputs;
  let counts: { expected: number; desired: number };
  try {
    counts = expectedAndDesired(inputs);
  } catch (e) {
    const old: BudgetStatus = budget.status ?? { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 };
    const condition = { type: CONDITION, status: 'False' as const, reason: 'SyncFailed', message: (e as Error).message, observedGeneration: old.observedGeneration };
    return { status: { ...old, disruptionsAllowed: 0, conditions: setCondition(old.conditions, condition, now) } };
  }
  const disrupted = disruptedPods(inputs);
  const currentHealthy = inputs.pods.filter((p) => isBudgetHealthy(p, disrupted.pods, now)).length;
  const allowed = currentHealthy - counts.desired;
  const status: BudgetStatus = {
    ...(Object.keys(disrupted.pods).length > 0 ? { disruptedPods: disrupted.pods } : {}),
    disruptionsAllowed: counts.expected <= 0 || allowed <= 0 ? 0 : allowed,
    currentHealthy,
    desiredHealthy: counts.desired,
    expectedPods: counts.expected,
    observedGeneration: budget.metadata.generation ?? 0,
    ...(budget.status?.conditions ? { conditions: budget.status.conditions } : {}),
  };
  status.conditions = allowedCondition(status, now);
  return disrupted.recheckAt === undefined ? { status } : { status, recheckAt: disrupted.recheckAt };
}
