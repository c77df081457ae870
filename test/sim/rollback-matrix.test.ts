// The goals of onFailure: Rollback on the simulator, as a matrix: a broken image (ImagePullBackOff) or a crash
// loop at ordinal k of N ∈ {3, 10, 50}, under OrderedReady and Parallel, RollingUpdate and
// EnforcedRollingUpdate, maxUnavailable 1 and 25%. In every case, with no manual action: every pod is back
// Ready and available on the last good revision; availability never goes below replicas − maxUnavailable on
// the way back; the way back takes at most its batches × (termination + start + minReadySeconds) + 10%
// (batches: one pod each under OrderedReady, which creates them one at a time; else maxUnavailable pods);
// the controller never writes spec. Each case's figures (detection and way back) are printed as test
// diagnostics: `node --import tsx --test test/sim/rollback-matrix.test.ts`.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { runScenario } from '../../src/sim/runner.js';
import { parseScenario } from '../../src/sim/scenario.js';
import { budgetOf, caseName, runRollback, type RollbackCase } from './rollback-scenario.js';

const cases: RollbackCase[] = [];
for (const replicas of [3, 10, 50]) {
  for (const ordinal of [...new Set([replicas - 1, Math.floor(replicas / 2), 0])]) {
    for (const fault of ['ImagePullBackOff', 'CrashLoopBackOff'] as const) {
      for (const policy of ['OrderedReady', 'Parallel'] as const) {
        for (const strategy of ['RollingUpdate', 'EnforcedRollingUpdate'] as const) {
          for (const maxUnavailable of [1, '25%']) cases.push({ replicas, ordinal, fault, policy, strategy, maxUnavailable });
        }
      }
    }
  }
}

describe('onFailure: Rollback brings a broken rollout back (simulator matrix)', () => {
  for (const c of cases) {
    it(caseName(c), async (t) => {
      const w = await runRollback(c);
      const { summary } = w.result;
      assert.equal(w.result.exitCode, 0, 'every waitFor held');
      assert.deepEqual(summary.violations, []);
      const status = summary.sets['web'];
      assert.equal(status?.currentRevision, w.good);
      assert.notEqual(w.good, w.bad);
      assert.equal(status?.abortedRevision, w.bad);
      assert.deepEqual([status?.replicas, status?.readyReplicas, status?.availableReplicas, status?.currentReplicas, status?.updatedReplicas], [c.replicas, c.replicas, c.replicas, c.replicas, 0]);
      assert.ok(!w.result.records.some((r) => r.type === 'action' && r.resource === 'statefulsets'), 'the controller never writes spec');
      const floor = c.replicas - budgetOf(c);
      assert.ok(w.lowestAvailable >= floor, `availability ${w.lowestAvailable} on the way back, at least ${floor} expected`);
      const wayBack = w.healthyAt - w.abortedAt;
      const bound = 1.1 * w.batches * w.perBatch;
      t.diagnostic(`detection ${w.abortedAt - w.failedAt} s, way back ${wayBack} s for ${w.moved} pods in ${w.batches} batches (bound ${bound.toFixed(1)} s), lowest ${w.lowestAvailable} of ${c.replicas}`);
      assert.ok(w.abortedAt >= w.failedAt, 'the abort follows the failure');
      assert.ok(wayBack <= bound, `the way back took ${wayBack} s, at most ${bound} s expected`);
    });
  }
});

describe('the summary of rollouts around an abort', () => {
  it('marks the aborted rollout only, not the fix that follows it while the status still records the abort', async () => {
    const text = readFileSync(new URL('../../examples/rollback-rolling-update.yaml', import.meta.url), 'utf8');
    const result = await runScenario(parseScenario(text, 'rollback-rolling-update'));
    const [broken, fixed] = result.summary.rollouts;
    assert.equal(result.summary.rollouts.length, 2);
    assert.equal(broken?.aborted?.at, 131, 'the abort of the broken image');
    assert.equal(fixed?.aborted, undefined, 'the fix completed; it was not aborted');
    assert.notEqual(fixed?.convergedAt, null);
  });
});
