// SlowerThanForecast on the simulated cluster (the controller's runtime learns its pods' durations from its
// informer, as on a cluster): a 30-pod rollout, a release three times slower from web-19 down, seeds 1–100.
// The goals are counts (fires / never fires); latency and the fixed 600 s deadline are reported by the test's
// diagnostics and by src/sim/bench/slow-rollout.ts's figures.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { POD_START_SECONDS, runSlowRollout, slowRolloutFigures } from '../../src/sim/bench/slow-rollout.js';

const SEEDS = Array.from({ length: 100 }, (_, i) => i + 1);

describe('SlowerThanForecast on a 30-pod rollout (simulated)', () => {
  it('fires within 2 pod-start times of a 3x slow-down and never on the unchanged release, seeds 1–100; a fixed 600 s deadline sees neither', async (t) => {
    const f = await slowRolloutFigures(SEEDS, 19);
    t.diagnostic(JSON.stringify(f));
    assert.equal(f.notConverged, 0, 'every rollout completes: a warning does not stop it');
    assert.equal(f.detected, SEEDS.length);
    assert.equal(f.detectedWithin2, SEEDS.length, `detection latency ≤ 2 × ${POD_START_SECONDS} s`);
    assert.equal(f.falseAlarms, 0);
    assert.equal(f.deadlineDetected, 0, 'no step of the slow release comes near 600 s without progress');
    assert.equal(f.deadlineFalseAlarms, 0);
  });

  it('progressDeadlineSeconds: auto fails neither the slow release (progress goes on) nor the unchanged one', async () => {
    for (const slowFrom of [19, undefined]) {
      const run = await runSlowRollout({ seed: 1, deadline: 'auto', ...(slowFrom === undefined ? {} : { slowFrom }) });
      assert.equal(run.converged, true);
      assert.equal(run.deadlineAt, undefined);
    }
  });

  it('after a controller restart mid-rollout, it relearns the starts from the pods and still sees the slow-down', async () => {
    const run = await runSlowRollout({ seed: 1, slowFrom: 19, restartAfter: 100 });
    assert.ok(run.rolloutAt !== undefined && run.slowDownAt !== undefined && run.slowerAt !== undefined);
    assert.ok(run.slowDownAt > run.rolloutAt + 100, 'the slow-down comes after the restart');
    assert.ok(run.slowerAt - run.slowDownAt <= 2 * POD_START_SECONDS, `detected ${run.slowerAt - run.slowDownAt} s after the slow-down`);
  });
});
