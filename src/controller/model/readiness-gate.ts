// rollingUpdate.inPlaceUpdateStrategy: the readiness gate apps.ordinal.dev/InPlaceUpdateReady. A pod the set
// creates while a drain applies (model/spec.ts drainSecondsOf) carries it, and the controller owns its
// condition: True once the pod exists, False from the drain before an in-place restart, True again once the
// restart is done. The kubelet counts the pod Ready only while the condition is True, so endpoints stop sending
// it traffic for the drain. (OpenKruise's InPlaceUpdateReady, without its state annotation: the condition's
// lastTransitionTime is the drain's start.)

import { DRAIN_REASON, fromTimestamp, IN_PLACE_READINESS_GATE, toTimestamp, type Instant, type Pod, type PodCondition } from '../../api/types.js';

/** The pod carries the gate in spec.readinessGates. */
export const hasDrainGate = (pod: Pod): boolean => pod.spec.readinessGates?.some((g) => g.conditionType === IN_PLACE_READINESS_GATE) === true;

/** The gate's condition on the pod, if any. */
export const drainCondition = (pod: Pod): PodCondition | undefined => pod.status?.conditions?.find((c) => c.type === IN_PLACE_READINESS_GATE);

/** What a gated pod's condition says: absent, True, or False since an instant (the drain's start). */
export type GateState = { status: 'absent' } | { status: 'True' } | { status: 'False'; since: Instant };

/** The gate's state of a pod; undefined when the pod has no gate. A False without a time reads as since ever. */
export function gateState(pod: Pod): GateState | undefined {
  if (!hasDrainGate(pod)) return undefined;
  const c = drainCondition(pod);
  if (c === undefined || c.status === 'Unknown') return { status: 'absent' };
  if (c.status === 'True') return { status: 'True' };
  return { status: 'False', since: fromTimestamp(c.lastTransitionTime) ?? Number.NEGATIVE_INFINITY };
}

/** The gate's condition is False: from the drain before an in-place restart until the restart is done. */
export const drains = (gate: GateState | undefined): boolean => gate?.status === 'False';

/** The pod drains, or is drained (drains of its gateState). */
export const isDrainedPod = (pod: Pod): boolean => drains(gateState(pod));

/**
 * The gate's condition as the controller writes it: True (ready for traffic), or False from `at` (the drain).
 * The time is rounded up to a whole second, as the API stores it: the drain is never shorter than it says.
 */
export function gateCondition(ready: boolean, at: Instant): PodCondition {
  const lastTransitionTime = toTimestamp(wholeSecondAfter(at));
  return ready
    ? { type: IN_PLACE_READINESS_GATE, status: 'True', lastTransitionTime }
    : { type: IN_PLACE_READINESS_GATE, status: 'False', reason: DRAIN_REASON, message: 'the pod drains before its in-place restart', lastTransitionTime };
}

/** `at` rounded up to a whole second (the drain's start as the condition records it). */
export const wholeSecondAfter = (at: Instant): Instant => Math.ceil(at / 1000) * 1000;

/** A drain of `graceSeconds` that began at `since` is over at `now`. */
export const drainDoneAt = (since: Instant, graceSeconds: number): Instant => since + graceSeconds * 1000;

/** The field an inPlaceUpdateImpossible names for a pod created without the drain's readiness gate. */
export const GATE_FIELD = 'spec.readinessGates';
