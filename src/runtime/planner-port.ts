// The pure planner as the runtime sees it (style.md G1): a port, so the controller's wiring can be tested
// with a stand-in and the real planner (src/controller) is plugged in by statefulset-controller-factory.ts.

import type { Features } from '../api/features.js';
import type { Instant, StatefulSet, StatefulSetStatus } from '../api/types.js';
import type { Action, ObservedState, Plan, PlannedEvent } from '../controller/plan-types.js';

export interface Planner {
  /** planStatefulSet: never throws, never calls the API. */
  plan(observed: ObservedState, now: Instant, features: Features): Plan;
  /** The status to write when only `executed` of the plan's actions succeeded. */
  settleStatus(plan: Plan, executed: ReadonlySet<Action>): StatefulSetStatus;
  /** Upstream's Successful<Verb>/Failed<Verb> event for an action's outcome; undefined when it has none. */
  actionEvent(action: Action, set: StatefulSet, error?: Error): PlannedEvent | undefined;
}
