import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatBench } from '../../src/cli/commands/bench.js';
import { BENCH_CASES, benchScenario, scaled } from '../../src/sim/bench/cases.js';
import { runBenchCase } from '../../src/sim/bench/measure.js';

describe('benchmark', () => {
  it('has the two workloads of the issue: 1 × 1,000 and 1,000 × 10', () => {
    assert.deepEqual(
      BENCH_CASES.map((c) => [c.sets, c.replicas]),
      [
        [1, 1000],
        [1000, 10],
      ],
    );
    assert.deepEqual([scaled(BENCH_CASES[0]!, 10).replicas, scaled(BENCH_CASES[1]!, 10).sets], [100, 100]);
  });

  it('builds a scenario that waits, changes every image, and waits again', () => {
    const s = benchScenario({ ...BENCH_CASES[1]!, sets: 4, namespaces: 2 });
    assert.deepEqual(s.steps.map((x) => x.kind), ['waitFor', 'setImage', 'setImage', 'setImage', 'setImage', 'waitFor']);
    assert.deepEqual(s.objects.map((o) => o.object.metadata.namespace), ['bench-0', 'bench-1', 'bench-0', 'bench-1']);
  });

  it('measures a small rollout: every pod replaced once, converged, API calls and CPU counted', async () => {
    const r = await runBenchCase({ ...BENCH_CASES[1]!, name: 'tiny', sets: 2, replicas: 3, namespaces: 1 });
    assert.equal(r.podsReplaced, 6);
    assert.equal(r.converged, true);
    assert.equal(r.violations, 0);
    assert.ok(r.apiCallsPerPodReplaced >= 2, `at least a delete and a create per pod (got ${r.apiCallsPerPodReplaced})`);
    assert.equal(r.apiCallsByVerb['delete'], 1);
    assert.ok(r.plannerCalls > 0 && r.plannerCpuMsPerPodReplaced > 0);
    assert.match(formatBench([r]), /^workload +2 × 3 \(tiny\)/);
  });
});
