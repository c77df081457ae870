// The pure planner as the runtime sees it: a port, so the controller's wiring can be tested
// with a stand-in and the real planner (src/controller) is plugged in by statefulset-controller-factory.ts.
// The Plan is self-contained: the runtime runs its actions, records the events each action carries and
// settles the status from the actions' data (settle-status.ts), without calling back into the planner.

import type { Features } from '../api/features.js';
import type { Instant } from '../api/types.js';
import type { Plan } from '../controller/model/plan-types.js';
import type { ObservedState } from '../controller/replica/observed-state.js';

export interface Planner {
  /** planStatefulSet: never throws, never calls the API. */
  plan(observed: ObservedState, now: Instant, features: Features): Plan;
}
