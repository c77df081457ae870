// A staged rollout in a forecast: bakes and readiness windows are simulated; a manual pause is counted as
// promoted when reached (and said so); an HTTP analysis is assumed to pass after count × interval.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { forecastRollout, type ForecastInput } from '../../src/sim/forecast.js';
import { forecastableObject } from '../../src/sim/forecast-steps.js';
import { renderForecast } from '../../src/cli/explain/forecast-report.js';
import type { RolloutStep, StatefulSet } from '../../src/api/types.js';

const withSteps = (steps: RolloutStep[]): StatefulSet => ({
  apiVersion: 'apps.ordinal.dev/v1',
  kind: 'StatefulSet',
  metadata: { name: 'db' },
  spec: {
    replicas: 4,
    selector: { matchLabels: { app: 'db' } },
    template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'app', image: 'db:1' }] } },
    updateStrategy: { type: 'RollingUpdate', rollingUpdate: { steps } },
  },
});

const input = (set: StatefulSet): ForecastInput => ({
  name: 'db',
  manifests: [set],
  change: { images: [{ container: 'app', image: 'db:2' }], set: [], replacements: [] },
  start: { samples: [2] },
  termination: { samples: [1] },
  runs: 2,
  seed: 1,
  candidates: [],
  threads: 1,
});

const forecast = async (steps: RolloutStep[]) => {
  const [current] = await forecastRollout(input(withSteps(steps)));
  assert.ok(current);
  return current;
};

describe('forecast of a staged rollout', () => {
  it('adds a bake time: the rollout takes at least the bake longer than without it', async () => {
    const plain = await forecast([{ replicas: 1 }, { replicas: '100%' }]);
    const baked = await forecast([{ replicas: 1, pause: { duration: '90s' } }, { replicas: '100%' }]);
    assert.equal(baked.converged, 2);
    assert.ok((baked.p50 ?? 0) >= (plain.p50 ?? Infinity) + 90, `${baked.p50} vs ${plain.p50}`);
    // the first step passes once its pod is updated (2 s to start) and the bake is over
    assert.ok((baked.steps[0]?.done.p50 ?? 0) >= 92, JSON.stringify(baked.steps[0]));
    assert.equal(baked.steps[0]?.gate, 'bake');
  });

  it('adds a readiness window', async () => {
    const plain = await forecast([{ replicas: 2 }, { replicas: '100%' }]);
    const windowed = await forecast([{ replicas: 2, analysis: { readiness: { duration: '45s' } } }, { replicas: '100%' }]);
    assert.ok((windowed.p50 ?? 0) >= (plain.p50 ?? Infinity) + 45, `${windowed.p50} vs ${plain.p50}`);
  });

  it('a manual pause: every run converges (none waits for a timeout), counted as promoted when its step is reached, and says so', async () => {
    const paused = await forecast([{ replicas: 1, pause: {} }, { replicas: '100%' }]);
    const plain = await forecast([{ replicas: 1 }, { replicas: '100%' }]);
    assert.equal(paused.converged, 2);
    assert.equal(paused.p50, plain.p50);
    assert.equal(paused.steps[0]?.gate, 'pause');
    assert.equal(paused.steps[0]?.done.p50, plain.steps[0]?.done.p50);
    const text = renderForecast({ subject: 'db', change: 'image', replicas: 4, runs: 2, seed: 1, start: { samples: [2], source: 'given' }, termination: { samples: [1], source: 'given' }, results: [paused] });
    assert.match(text, /current .*\+ the time until promoted \(step 1\/2\)/);
    assert.match(text, /1\/2 +replicas 1 +pause until promoted: counted as promoted when reached +\+\d+s/);
    assert.match(text, /the time until you promote comes on top/);
  });

  it('an HTTP analysis is assumed to pass after count × interval, and says so', async () => {
    const plain = await forecast([{ replicas: 1 }, { replicas: '100%' }]);
    const analysed = await forecast([{ replicas: 1, analysis: { http: { url: 'http://checks/ok', interval: '20s', count: 3 } } }, { replicas: '100%' }]);
    assert.equal(analysed.converged, 2);
    assert.ok((analysed.p50 ?? 0) >= (plain.p50 ?? Infinity) + 60, `${analysed.p50} vs ${plain.p50}`);
    assert.match(analysed.steps[0]?.assumption ?? '', /assumed to pass after 3 × 20s = 1m/);
  });

  it('leaves the caller\'s set and the gates it can simulate as they are', () => {
    const set = withSteps([{ replicas: 1, pause: {} }, { replicas: 2, pause: { duration: '1m' } }, { replicas: 3, analysis: { http: { url: 'http://x/' } } }]);
    const copy = forecastableObject(set) as StatefulSet;
    assert.deepEqual(copy.spec.updateStrategy?.rollingUpdate?.steps, [{ replicas: 1 }, { replicas: 2, pause: { duration: '1m' } }, { replicas: 3, pause: { duration: '10s' } }]);
    assert.deepEqual(set.spec.updateStrategy?.rollingUpdate?.steps?.[0], { replicas: 1, pause: {} });
    const plain = withSteps([{ replicas: 1, pause: { duration: '1m' } }]);
    assert.equal(forecastableObject(plain), plain);
  });
});
