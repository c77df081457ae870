// `createStatefulSetController`: the controller wired to the real planner of src/controller. The CLI's
// `ordinal controller` and the simulator both build it; tests may pass another Planner.

import { planStatefulSet } from '../controller/plan-statefulset.js';
import { PlannerCache } from '../controller/planner-cache.js';
import type { Planner } from './planner-port.js';
import { StatefulSetController, type StatefulSetControllerDeps } from './statefulset-controller.js';

export type { ReconcileOutcome } from './reconcile.js';
export type { ControllerTarget } from './set-targets.js';
export { StatefulSetController } from './statefulset-controller.js';

/** The planner of src/controller behind the runtime's Planner port, with a cache of its own (one per controller). */
export function newPlanner(): Planner {
  const cache = new PlannerCache();
  return { plan: (observed, now, features) => planStatefulSet(observed, now, features, cache) };
}

export type CreateControllerDeps = Omit<StatefulSetControllerDeps, 'planner'> & { planner?: Planner };

export function createStatefulSetController(deps: CreateControllerDeps): StatefulSetController {
  return new StatefulSetController({ ...deps, planner: deps.planner ?? newPlanner() });
}
