// The forecast figures of `ordinal bench`: the forecast command timed as its own process (wall, CPU
// of every thread, peak RSS), the ETA of `rollout status` timed as it is asked for, and the goals on them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkForecastGoals, FORECAST_CASES, forecastRatios, formatForecastBench, runForecastCase, type ForecastResult } from '../../src/cli/commands/bench-forecast.js';

describe('benchmark: forecast', () => {
  it('has the issue\'s sizes under both policies, each with its goal, and the ETA at 300 replicas', () => {
    assert.deepEqual(
      FORECAST_CASES.map((c) => [c.name, c.replicas, c.policy, c.goalSeconds]),
      [
        ['forecast-100-ordered', 100, 'OrderedReady', 2],
        ['forecast-100-parallel', 100, 'Parallel', 2],
        ['forecast-300-ordered', 300, 'OrderedReady', 5],
        ['forecast-300-parallel', 300, 'Parallel', 5],
        ['forecast-1000-ordered', 1000, 'OrderedReady', 20],
        ['forecast-1000-parallel', 1000, 'Parallel', 20],
        ['eta-300-ordered', 300, 'OrderedReady', 2],
        ['eta-300-parallel', 300, 'Parallel', 2],
      ],
    );
  });

  it('times the forecast command and the ETA on a small set', { timeout: 120_000 }, async () => {
    for (const kind of ['forecast', 'eta'] as const) {
      const r = await runForecastCase({ name: `tiny-${kind}`, description: '', kind, replicas: 3, policy: 'Parallel', goalSeconds: 60 });
      assert.ok(r.wallSeconds > 0 && r.cpuSeconds > 0 && r.peakRssMiB > 10, JSON.stringify(r));
    }
  });

  it('prints each figure, the CPU growth, and each goal with its figure', () => {
    const result = (name: string, replicas: number, wallSeconds: number, cpuSeconds: number, kind: 'forecast' | 'eta' = 'forecast'): ForecastResult => ({
      case: name, description: '', kind, replicas, policy: 'OrderedReady', wallSeconds, cpuSeconds, peakRssMiB: 200, goalSeconds: replicas === 100 ? 2 : 5,
    });
    const results = [result('forecast-100-ordered', 100, 1.5, 2.5), result('forecast-300-ordered', 300, 6, 9), result('eta-300-ordered', 300, 1.2, 2, 'eta')];
    assert.match(formatForecastBench(results), /^forecast case +wall +CPU \(all threads\) +peak RSS\nforecast-100-ordered +1\.50 s +2\.50 s +200 MiB\n/);
    assert.deepEqual(forecastRatios(results), ['forecast CPU, 300 / 100 replicas OrderedReady: 3.60× (the replicas: 3.0×)']);
    assert.deepEqual(
      checkForecastGoals(results).map((g) => [g.label, g.figure, g.goal, g.met]),
      [
        ['ordinal forecast wall, 100 replicas OrderedReady', '1.50 s', '< 2 s', true],
        ['ordinal forecast wall, 300 replicas OrderedReady', '6.00 s', '< 5 s', false],
        ['ETA of rollout status appears, 300 replicas OrderedReady', '1.20 s', '< 5 s', true],
      ],
    );
  });
});

describe('benchmark: the huge-replicas simulation and start-up, as goals', () => {
  it('states each with its figure against its goal', async () => {
    const { checkHugeGoal, formatHuge } = await import('../../src/cli/commands/bench-huge.js');
    const { checkStartupGoal } = await import('../../src/cli/commands/bench-startup.js');
    const huge = { case: 'simulate-huge', wallSeconds: 31.5, cpuSeconds: 29.8, peakRssMiB: 410, pods: 10000 };
    assert.deepEqual(checkHugeGoal(huge), { label: 'ordinal simulate, replicas 2147483647 (10,000-object limit), wall', figure: '31.50 s', goal: '< 30 s', met: false });
    assert.match(formatHuge(huge), /: 31\.50 s wall, 29\.80 s CPU, peak RSS 410 MiB, 10000 pods$/);
    assert.deepEqual(checkStartupGoal(0.11), [{ label: 'ordinal --version CPU', figure: '0.11 s', goal: '< 0.3 s', met: true }]);
    assert.deepEqual(checkStartupGoal(undefined), []);
  });
});
