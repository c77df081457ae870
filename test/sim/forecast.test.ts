// The forecast's runs: each starts from the set as it is (no run creates it), and several threads give the
// same forecast as one thread, whatever order they finish in.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { forecastRollout, type CandidateForecast, type ForecastInput } from '../../src/sim/forecast.js';
import { defaultCandidates, settingCandidate } from '../../src/sim/forecast-candidates.js';
import type { StatefulSet } from '../../src/api/types.js';

const set: StatefulSet = {
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name: 'web' },
  spec: {
    replicas: 5,
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'app:1' }] } },
  },
};

const input: ForecastInput = {
  name: 'web',
  manifests: [set],
  change: { images: [{ container: 'app', image: 'app:2' }], set: [], replacements: [] },
  start: { samples: [2, 3, 5] },
  termination: { samples: [1, 2] },
  runs: 6,
  seed: 3,
  candidates: [settingCandidate('maxUnavailable', 2, set), settingCandidate('podManagementPolicy', 'Parallel', set)],
};

const plain = (results: CandidateForecast[]) => results.map(({ medianRecords: _records, ...r }) => r);

describe('forecast runs', () => {
  it('start from the set as it is: no run creates it, and the change comes at t=0', async () => {
    const [current] = await forecastRollout({ ...input, candidates: [], threads: 1 });
    assert.equal(current?.converged, 6);
    const records = (await current?.medianRecords()) ?? [];
    const change = records.findIndex((r) => r.type === 'step' && r.index === 1);
    assert.equal(records[change]?.t, 0);
    assert.deepEqual(records.slice(0, change).filter((r) => r.type === 'action'), []);
    const created = records.filter((r) => r.type === 'action' && r.resource === 'pods' && r.verb === 'create');
    assert.equal(created.length, 5, 'only the pods the rollout replaces are created');
  });

  it('on two threads (this one and a worker), the same forecast as on one', async () => {
    const one = await forecastRollout({ ...input, threads: 1 });
    const two = await forecastRollout({ ...input, threads: 2 });
    assert.deepEqual(plain(two), plain(one));
    assert.deepEqual(one.map((c) => c.label), ['current', 'maxUnavailable 2', 'podManagementPolicy Parallel']);
    assert.deepEqual(one[0]?.runs.map((r) => r.seed), [3, 4, 5, 6, 7, 8]);
    assert.ok((one[1]?.p50 ?? Infinity) < (one[0]?.p50 ?? 0), 'two at a time is faster');
    // The median run's timeline is that run's, made again.
    const records = (await two[1]?.medianRecords()) ?? [];
    const summary = records.find((r) => r.type === 'summary');
    assert.equal(summary?.type === 'summary' ? summary.convergedAt : undefined, two[1]?.median.seconds);
  });

  it('compares Recreate with InPlaceIfPossible for an apps.ordinal.dev/v1 set: the image change in place deletes no pod', async () => {
    const ordinal: StatefulSet = { ...set, apiVersion: 'apps.ordinal.dev/v1' };
    const candidates = defaultCandidates(ordinal).filter((c) => c.label.startsWith('podUpdatePolicy'));
    assert.deepEqual(candidates.map((c) => c.label), ['podUpdatePolicy InPlaceIfPossible']);
    const [current, inPlace] = await forecastRollout({ ...input, manifests: [ordinal], candidates, threads: 1 });
    assert.deepEqual([current?.converged, inPlace?.converged], [6, 6]);
    const deletions = async (c: CandidateForecast | undefined) => ((await c?.medianRecords()) ?? []).filter((r) => r.type === 'action' && r.resource === 'pods' && r.verb === 'delete').length;
    assert.deepEqual([await deletions(current), await deletions(inPlace)], [5, 0], 'recreated: every pod deleted; in place: none');
    const inPlaceSet = { ...ordinal, spec: { ...ordinal.spec, updateStrategy: { type: 'RollingUpdate' as const, rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible' as const } } } };
    assert.ok(defaultCandidates(inPlaceSet).some((c) => c.label === 'podUpdatePolicy Recreate'), 'a set that updates in place is compared with Recreate');
  });

  it('a drain before each in-place restart (inPlaceUpdateStrategy) costs its gracePeriodSeconds per pod', async () => {
    const inPlace = (grace: number): StatefulSet => ({
      ...set,
      apiVersion: 'apps.ordinal.dev/v1',
      spec: { ...set.spec, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', inPlaceUpdateStrategy: { gracePeriodSeconds: grace } } } },
    });
    const [plain] = await forecastRollout({ ...input, manifests: [inPlace(0)], candidates: [], threads: 1, runs: 2 });
    const [drained] = await forecastRollout({ ...input, manifests: [inPlace(20)], candidates: [], threads: 1, runs: 2 });
    assert.deepEqual([plain?.converged, drained?.converged], [2, 2]);
    const extra = (drained?.p50 ?? 0) - (plain?.p50 ?? 0);
    assert.ok(extra >= 5 * 20 && extra <= 5 * 20 + 10, `5 pods one at a time, 20 s each: ${extra} s more`);
  });

  it('a release that fails at an ordinal under onFailure: Rollback: detected at the deadline, back within the batches it needs', async () => {
    const rollback: StatefulSet = {
      ...set,
      apiVersion: 'apps.ordinal.dev/v1',
      spec: { ...set.spec, replicas: 6, progressDeadlineSeconds: 60, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, onFailure: 'Rollback' } } },
    };
    const failing = { ...input, manifests: [rollback], change: { ...input.change, failure: { behavior: 'ImagePullBackOff' as const, ordinal: 2 } }, start: { samples: [4] }, termination: { samples: [1] }, runs: 3, threads: 1 };
    const [current, two] = await forecastRollout({ ...failing, candidates: [settingCandidate('maxUnavailable', 2, rollback)] });
    const rb = current?.rollback;
    assert.equal(rb?.aborted, 3);
    // web-5, web-4, web-3 update (5 s each), web-2 is created at 16 s and never pulls its image: 60 s later, the abort.
    assert.deepEqual(rb?.detected, { p5: 76, p50: 76, p95: 76 });
    // The way back: web-2 (broken, replaced at once), then web-5, web-4, web-3, one at a time, each 1 s + 4 s.
    assert.deepEqual(rb?.back, { p5: 20, p50: 20, p95: 20 });
    assert.deepEqual(rb?.lowestAvailable, { replicas: 5, at: 76 });
    assert.match(rb?.message ?? '', /aborted: it made no progress for progressDeadlineSeconds \(60 s\)/);
    assert.equal(current?.p50, 96, 'the rollout ends when the way back does');
    assert.deepEqual(current?.median.batches.filter((b) => b.deleted.length > 0 && b.at >= 76).map((b) => b.deleted), [['web-2'], ['web-5'], ['web-4'], ['web-3']]);
    // Two at a time: the way back is shorter and goes lower.
    assert.ok((two?.rollback?.back.p50 ?? Infinity) < 20, `${two?.rollback?.back.p50}`);
    assert.equal(two?.rollback?.lowestAvailable.replicas, 4);
    // Without the failure, nothing is aborted.
    const [healthy] = await forecastRollout({ ...failing, change: input.change, candidates: [] });
    assert.equal(healthy?.rollback, undefined);
  });
});
