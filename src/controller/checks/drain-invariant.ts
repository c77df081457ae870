// inPlaceUpdateStrategy.gracePeriodSeconds, checked on its own (not through the admission that decides it): a
// plan patches a pod that carries the readiness gate apps.ordinal.dev/InPlaceUpdateReady in place only when
// the gate's condition, as observed, has been False for at least gracePeriodSeconds at `now`.

import type { Instant } from '../../api/types.js';
import type { Plan } from '../model/plan-types.js';
import { drainDoneAt, gateState } from '../model/readiness-gate.js';
import { drainSecondsOf } from '../model/spec.js';
import type { ObservedState } from '../replica/observed-state.js';
import { observedPods } from '../replica/replica-index.js';

export function drainRespected(observed: ObservedState, plan: Plan, now: Instant): string[] {
  const grace = drainSecondsOf(observed.set);
  if (grace === 0) return [];
  const patched = plan.actions.flatMap((a) => (a.kind === 'patchPod' ? [a.name] : []));
  if (patched.length === 0) return [];
  const pods = new Map(observedPods(observed).map((p) => [p.metadata.name ?? '', p]));
  return patched.flatMap((name) => {
    const pod = pods.get(name);
    const gate = pod === undefined ? undefined : gateState(pod);
    if (gate === undefined) return [];
    if (gate.status !== 'False') return [`drain: in-place patch of ${name} while its readiness gate's condition is ${gate.status}, not drained`];
    const done = drainDoneAt(gate.since, grace);
    return now >= done ? [] : [`drain: in-place patch of ${name} ${Math.ceil((done - now) / 1000)}s before its ${grace}s drain ends`];
  });
}
