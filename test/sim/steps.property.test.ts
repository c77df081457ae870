// Property (rollingUpdate.steps and paused): over random staged rollouts (steps by partition or replicas, each
// with no gate, a pause until promoted, a bake time or a readiness analysis), random user pauses, resumes and
// promotes (the merge patches of src/api/rollout-signals.ts, as the plugin sends them), scales, pod deletions,
// API faults, watch delays and controller restarts, under both pod management policies, maxUnavailable,
// EnforcedRollingUpdate, batchStartPolicy Together and InPlace claims: the simulator sees no broken invariant
// (stepBoundaryRespected: nothing moves to the update revision below the current step's partition, nothing at
// all while paused, and no step passes before its gate; and every other one), and a pause takes effect in the
// next sync: once a sync observes the patch, it updates nothing. Cases are drawn with the process's property
// seed (test/property-seed.ts).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { propertySeed, RUNS_VARIABLE } from '../property-seed.js';
import { cases, run } from './steps-scenario.js';
import { assertPausesHold } from './user-signals.js';

/** ORDINAL_PROPERTY_RUNS overrides the count, as for every property. */
const RUNS = Number(process.env[RUNS_VARIABLE] || 1000);

describe('rollingUpdate.steps and paused (property)', () => {
  it(`updates nothing past the step's partition, nor while paused, and a pause holds from the next sync (seed ${propertySeed})`, async () => {
    for (const c of fc.sample(cases, { seed: propertySeed, numRuns: RUNS })) {
      const what = JSON.stringify(c);
      const { sim, syncs, pauses } = await run(c);
      const summary = await sim.finish();
      assert.equal(sim.failed, false, what);
      assert.deepEqual(summary.violations, [], what);
      // without watch delays the controller sees a patch at once: every sync after a pause and before the
      // resume saw it, and updated nothing
      if (c.watchDelay > 0) continue;
      assertPausesHold(pauses, syncs, true, what);
    }
  });
});
