// A stand-in for the real planner (src/controller/plan/plan-statefulset.ts): creates missing ordinals one batch each,
// deletes ordinals beyond spec.replicas, and reports replicas in status. Enough to test the runtime's
// wiring apart from the planner.

import type { Pod, StatefulSet } from '../../src/api/types.js';
import type { Action, OutcomeEvents, Plan } from '../../src/controller/model/plan-types.js';
import type { ObservedState } from '../../src/controller/replica/observed-state.js';
import { observedPods } from '../../src/controller/replica/replica-index.js';
import type { Planner } from '../../src/runtime/planner-port.js';

/** Creates missing ordinals (one batch each, in order), deletes extra ones, reports replicas in status. */
export function standInPlanner(opts: { wakeAfterMs?: number } = {}) {
  const seen: ObservedState[] = [];
  const planner: Planner = {
    plan(observed, now): Plan {
      seen.push(observed);
      const { set } = observed;
      const pods = observedPods(observed);
      const want = set.spec.replicas ?? 1;
      const byName = new Map(pods.map((p) => [p.metadata.name, p]));
      const actions: Action[] = [];
      for (let i = 0; i < want; i++) {
        const name = `${set.metadata.name}-${i}`;
        if (!byName.has(name)) actions.push({ kind: 'createPod', batch: actions.length, ordinal: i, pod: podFor(set, name), outcome: podEvents('create', name, set) });
      }
      for (const p of pods) {
        const ordinal = Number(p.metadata.name?.split('-').pop());
        if (ordinal >= want) actions.push({ kind: 'deletePod', batch: actions.length, name: p.metadata.name!, uid: p.metadata.uid!, ordinal, cause: 'condemned', outcome: podEvents('delete', p.metadata.name!, set) });
      }
      const status = { observedGeneration: set.metadata.generation ?? 0, replicas: Math.min(pods.length, want) + actions.filter((a) => a.kind === 'createPod').length };
      const plan: Plan = {
        status,
        statusChanged: JSON.stringify(status) !== JSON.stringify(set.status ?? {}),
        actions,
        blockers: [],
        events: [],
        metrics: { maxUnavailable: 1, unavailabilityViolation: false, forcedReplacements: 0, safetyHalt: false, enforcedRollingUpdateStarted: false },
      };
      if (opts.wakeAfterMs !== undefined) plan.wakeAt = now + opts.wakeAfterMs;
      return plan;
    },
  };
  return { planner, seen };
}

function podEvents(verb: 'create' | 'delete', pod: string, set: StatefulSet): OutcomeEvents {
  const Verb = verb[0]!.toUpperCase() + verb.slice(1);
  return {
    succeeded: { type: 'Normal', reason: `Successful${Verb}`, message: `${verb} Pod ${pod} in StatefulSet ${set.metadata.name} successful` },
    failed: { type: 'Warning', reason: `Failed${Verb}`, message: `${verb} Pod ${pod} in StatefulSet ${set.metadata.name} failed error: ` },
  };
}

export function podFor(set: StatefulSet, name: string): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: set.metadata.namespace,
      labels: { app: set.metadata.name! },
      ownerReferences: [{ apiVersion: set.apiVersion!, kind: 'StatefulSet', name: set.metadata.name!, uid: set.metadata.uid!, controller: true }],
    },
    spec: { containers: [{ name: 'c' }] },
  };
}

