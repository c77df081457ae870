// Property (every feature that takes a pod down, at once: combined-scenario.ts): over random rollouts with steps,
// the user's pause, onFailure: Rollback, in-place image updates and resizes (Infeasible included), claims that
// grow, a PodDisruptionBudget over the set or over two sets rolling together, zones, updateOrder Priority and
// EnforcedRollingUpdate, under API faults, watch delays, pod deletions and controller restarts: the simulator
// sees no broken invariant (every plan's checkPlan — maxUnavailable, partition and steps, holds, the budgets
// over every set they select — and every deletion's check against the cluster as it is), and a pause holds
// from the next sync: once a sync observes it, it disrupts nothing for an update. Cases are drawn with the
// process's property seed (test/property-seed.ts).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { propertySeed, RUNS_VARIABLE } from '../property-seed.js';
import { cases, run } from './combined-scenario.js';
import { assertPausesHold } from './user-signals.js';

/** ORDINAL_PROPERTY_RUNS overrides the count, as for every property. */
const RUNS = Number(process.env[RUNS_VARIABLE] || 1000);

describe('every disruption through one admission (property)', () => {
  it(`breaks no invariant with every feature at once, and a pause holds from the next sync (seed ${propertySeed})`, async () => {
    for (const c of fc.sample(cases, { seed: propertySeed, numRuns: RUNS })) {
      const what = JSON.stringify(c);
      const { sim, syncs, pauses } = await run(c);
      const summary = await sim.finish();
      assert.equal(sim.failed, false, what);
      assert.deepEqual(summary.violations, [], what);
      if (c.watchDelay > 0 || c.enforced) continue;
      assertPausesHold(pauses, syncs, false, what);
    }
  });
});
