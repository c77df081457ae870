// The controller's next decision for one set, now: the same observed state a sync reads (observeOnce) and
// the same pure planner it runs (planStatefulSet), with the same feature gates (`--feature-gates`).

import type { ClusterClient } from '../../api/client.js';
import { parseFeatureGates, type Features } from '../../api/features.js';
import type { Instant, StatefulSet } from '../../api/types.js';
import { planStatefulSet } from '../../controller/plan/plan-statefulset.js';
import type { Plan } from '../../controller/model/plan-types.js';
import type { ObservedState } from '../../controller/replica/observed-state.js';
import type { Timers } from '../../runtime/clock.js';
import { observeOnce } from './observe-once.js';

export interface PlanNow {
  observed: ObservedState;
  plan: Plan;
  now: Instant;
  features: Features;
}

/** `--feature-gates A=true,B=false` over Ordinal's defaults; throws FeatureGateError naming the gate. */
export const featuresFrom = (flag: string | undefined): Features => parseFeatureGates(flag ?? '');

export async function planNow(client: ClusterClient, timers: Timers, set: StatefulSet, features: Features): Promise<PlanNow> {
  const observed = await observeOnce(client, timers, set, features);
  const now = timers.now();
  return { observed, plan: planStatefulSet(observed, now, features), now, features };
}
