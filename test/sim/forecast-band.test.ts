// The forecast's band (forecast-band.ts): the runs' nearest-rank p5/p50/p95 widened to the 90 % prediction
// interval of the runs, and a setting that stops running once its band holds still, the same on any number
// of threads.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bandOf, holdsStill, MIN_RUNS, nextLook } from '../../src/sim/forecast-band.js';
import { forecastRollout, type CandidateForecast } from '../../src/sim/forecast.js';
import type { StatefulSet } from '../../src/api/types.js';

describe('the forecast band', () => {
  it('is the value itself for equal runs, and none without runs', () => {
    assert.deepEqual(bandOf([76, 76, 76]), { p5: 76, p50: 76, p95: 76 });
    assert.deepEqual(bandOf([12]), { p5: 12, p50: 12, p95: 12 });
    assert.deepEqual(bandOf([]), {});
  });

  it('widens the runs\' extremes to the prediction interval of so few runs, in whole seconds outward', () => {
    // mean 10, s = 1: 10 ± t(0.95, 3) 2.353 · √(1 + 1/4) = ± 2.63
    assert.deepEqual(bandOf([9, 10, 10, 11].map((x, i) => x + (i === 1 ? -0.5 : i === 2 ? 0.5 : 0))), bandOf([9, 9.5, 10.5, 11]));
    const b = bandOf([9, 9.5, 10.5, 11]);
    assert.deepEqual([b.p5, b.p50, b.p95], [7, 9.5, 13]);
    // many runs: the interval is about the runs' own 5th to 95th percentile
    const many = Array.from({ length: 200 }, (_, i) => 100 + (i % 20));
    const m = bandOf(many);
    assert.ok(m.p5 !== undefined && m.p95 !== undefined && m.p5 >= 99 - 3 && m.p95 <= 119 + 3, `${m.p5}–${m.p95}`);
  });

  it('holds still when no percentile moved by more than a tenth of its width (half a second at least)', () => {
    assert.equal(holdsStill({ p5: 100, p50: 110, p95: 120 }, { p5: 101, p50: 111, p95: 122 }), true);
    assert.equal(holdsStill({ p5: 100, p50: 110, p95: 120 }, { p5: 100, p50: 110, p95: 124 }), false);
    assert.equal(holdsStill({ p5: 12, p50: 12, p95: 12 }, { p5: 12, p50: 12.5, p95: 12.5 }), true);
    assert.equal(holdsStill({}, {}), true, 'no run converges: more runs will not tell more');
    assert.equal(holdsStill({}, { p5: 1, p50: 1, p95: 1 }), false);
  });

  it('looks first after MIN_RUNS runs, then every two, never past the most asked for', () => {
    assert.deepEqual([nextLook(0, 20), nextLook(MIN_RUNS, 20), nextLook(18, 20), nextLook(0, 3)], [MIN_RUNS, MIN_RUNS + 2, 20, 3]);
  });
});

const set: StatefulSet = {
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name: 'web' },
  spec: {
    replicas: 6,
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'app:1' }] } },
  },
};

describe('a forecast that stops once its band holds still', () => {
  const input = {
    name: 'web',
    manifests: [set],
    change: { images: [{ container: 'app', image: 'app:2' }], set: [], replacements: [] },
    start: { samples: [2, 3, 5] },
    termination: { samples: [1] },
    runs: 20,
    seed: 1,
    candidates: [],
  };
  const plain = (results: CandidateForecast[]) => results.map(({ medianRecords: _records, ...r }) => r);

  it('makes fewer runs than the most when its band settles, in seed order, the same on two threads as on one', async () => {
    const one = await forecastRollout({ ...input, threads: 1 });
    const two = await forecastRollout({ ...input, threads: 2 });
    assert.deepEqual(plain(two), plain(one));
    const runs = one[0]?.runs ?? [];
    assert.ok(runs.length >= MIN_RUNS && runs.length < 20, `${runs.length} runs`);
    assert.deepEqual(runs.map((r) => r.seed), runs.map((_, i) => 1 + i));
    assert.deepEqual({ p5: one[0]?.p5, p50: one[0]?.p50, p95: one[0]?.p95 }, bandOf(runs.map((r) => r.seconds ?? NaN)));
  });

  it('stops where its band held still since the look before, else at the most asked for', async () => {
    const [few] = await forecastRollout({ ...input, runs: 5, threads: 1 });
    assert.equal(few?.runs.length, 5, 'too few to look');
    const [wide] = await forecastRollout({ ...input, runs: 14, start: { samples: [1, 60] }, threads: 1 });
    const seconds = (wide?.runs ?? []).map((r) => r.seconds ?? NaN);
    const n = seconds.length;
    assert.ok(n >= MIN_RUNS && n <= 14, `${n}`);
    for (let look = MIN_RUNS + 2; look < n; look += 2) assert.equal(holdsStill(bandOf(seconds.slice(0, look - 2)), bandOf(seconds.slice(0, look))), false, `went on after ${look} runs`);
    if (n < 14) assert.equal(holdsStill(bandOf(seconds.slice(0, n - 2)), bandOf(seconds)), true, `stopped at ${n}`);
  });
});
