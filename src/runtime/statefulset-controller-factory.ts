// `createStatefulSetController`: the controller wired to the real planner of src/controller. The CLI's
// `ordinal controller` and the simulator both build it; tests may pass another Planner.

import { planStatefulSet } from '../controller/plan/plan-statefulset.js';
import { PlannerCache } from '../controller/rollout/planner-cache.js';
import type { ProbePort } from './analysis-prober.js';
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

/**
 * The probe port is required here: without one a staged rollout's HTTP analysis would wait for checks nobody
 * makes. `ordinal controller` passes the real one (http-probe.ts), the simulator its scenario's endpoints.
 */
export type CreateControllerDeps = Omit<StatefulSetControllerDeps, 'planner' | 'probePort'> & { planner?: Planner; probePort: ProbePort };

export function createStatefulSetController(deps: CreateControllerDeps): StatefulSetController {
  return new StatefulSetController({ ...deps, planner: deps.planner ?? newPlanner() });
}
