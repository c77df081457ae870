import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatBench } from '../../src/cli/commands/bench.js';
import { BENCH_CASES, benchScenario, scaled } from '../../src/sim/bench/cases.js';
import { checkGoals, formatGoals } from '../../src/sim/bench/goals.js';
import type { BenchResult } from '../../src/sim/bench/measure.js';
import { runBenchCase } from '../../src/sim/bench/measure.js';

describe('benchmark', () => {
  it('has the two workloads of the issue, 1 × 1,000 and 1,000 × 10, and the sizes growth is measured at', () => {
    assert.deepEqual(
      BENCH_CASES.map((c) => [c.name, c.sets, c.replicas, c.namespaces]),
      [
        ['one-set', 1, 1000, 1],
        ['many-sets', 1000, 10, 100],
        ['one-set-2k', 1, 2000, 1],
        ['one-set-5k', 1, 5000, 1],
        ['one-set-10k', 1, 10000, 1],
        ['many-sets-100', 100, 10, 10],
        ['many-sets-300', 300, 10, 30],
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

  it('checks each goal against the cases that ran, with the figure and the goal side by side', () => {
    const result = (name: string, pods: number, cpuMsPerPod: number, extra: Partial<BenchResult> = {}): BenchResult => ({
      case: name, description: '', sets: 1, replicas: pods, podsReplaced: pods, converged: true, violations: 0, virtualSeconds: 30,
      wallSecondsTotal: 1, wallSecondsRollout: 1, plannerCpuMsPerPodReplaced: 0.01, processCpuMsPerPodReplaced: cpuMsPerPod,
      apiCallsPerPodReplaced: 4, apiCallsByVerb: {}, plannerCalls: 1, peakRssMiB: 100, peakHeapMiB: 50, ...extra,
    });
    // 1,000 pods at 0.4 ms each, then 2,000 at 0.5 ms: 2.5× the CPU for twice the pods
    const checks = checkGoals([result('one-set', 1000, 0.4), result('one-set-2k', 2000, 0.5, { converged: false })]);
    assert.deepEqual(
      checks.map((c) => [c.label, c.figure, c.goal, c.met]),
      [
        ['rollout CPU, 1 × 2,000 / 1 × 1,000', '2.50×', '≤ 2.2×', false],
        ['process CPU / pod replaced, one-set', '0.400 ms', '≤ 0.5 ms', true],
        ['process CPU / pod replaced, one-set-2k', '0.500 ms', '≤ 0.5 ms', true],
        ['planner CPU / pod replaced, one-set', '10 µs', '≤ 50 µs', true],
      ],
    );
    assert.match(formatGoals(checks), /^rollout CPU, 1 × 2,000 \/ 1 × 1,000 +2\.50× +goal ≤ 2\.2× +NOT MET$/m);
    assert.equal(formatGoals(checkGoals([])), '');
  });
});
