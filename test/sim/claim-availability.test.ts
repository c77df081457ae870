// The simulator's always-on checks count a replica whose claim expands as unavailable (InPlace), as the
// planner's update budget does: maxUnavailableObserved, the deletion check and the plan's budget check see
// an InPlace rollout that grows more claims at once than maxUnavailable allows.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Features } from '../../src/api/features.js';
import type { Instant } from '../../src/api/types.js';
import type { ObservedState } from '../../src/controller/replica/observed-state.js';
import { newPlanner } from '../../src/runtime/statefulset-controller-factory.js';
import { parseScenario } from '../../src/sim/scenario.js';
import { Simulation } from '../../src/sim/simulation.js';
import type { Planner } from '../../src/runtime/planner-port.js';
import { dbSet, growTemplate, storageClass } from './claim-scenario.js';

const text = (maxUnavailable: number) => `kind: Scenario
endSeconds: 600
cluster: {podStartSeconds: 1, storage: {expansionSeconds: 10}}
objects:
${storageClass('standard', true)}
${dbSet({ replicas: 4, className: 'standard', volumeClaimUpdatePolicy: 'InPlace', maxUnavailable })}
steps:
  - waitFor: Converged
${growTemplate('2Gi', 'standard')}
  - waitFor: Converged
    timeoutSeconds: 300
`;

/** The real planner, told that the set allows `maxUnavailable` (a planner that misreads the budget). */
function misreading(maxUnavailable: number): Planner {
  const real = newPlanner();
  return {
    plan(observed: ObservedState, now: Instant, features: Features) {
      const set = structuredClone(observed.set);
      set.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable } };
      return real.plan({ ...observed, set }, now, features);
    },
  };
}

async function run(maxUnavailable: number, planner?: Planner) {
  const sim = new Simulation(parseScenario(text(maxUnavailable)), planner ? { planner } : {});
  await sim.start();
  await sim.runSteps();
  const observed = sim.tracker.maxUnavailable('default/db@ordinal');
  const violations = sim.violations.map((v) => `${v.invariant}: ${v.message}`);
  const failed = sim.failed;
  await sim.finish();
  return { observed, violations, failed };
}

describe('claims in the simulator\'s availability (InPlace)', () => {
  it('a claim-only rollout restarts no pod, yet counts each expanding replica: as many as maxUnavailable at once', async () => {
    for (const maxUnavailable of [1, 2]) {
      const r = await run(maxUnavailable);
      assert.equal(r.failed, false);
      assert.deepEqual(r.violations, []);
      assert.equal(r.observed, maxUnavailable, `maxUnavailable ${maxUnavailable}`);
    }
  });

  it('a planner that grows more claims at once than the budget allows is caught', async () => {
    const r = await run(1, misreading(4));
    assert.equal(r.observed, 4);
    assert.ok(
      r.violations.some((v) => /^maxUnavailableBudget: .*update made [2-4] available replicas unavailable with a budget of [01] \(maxUnavailable 1\)/.test(v)),
      r.violations.join('\n'),
    );
  });
});
