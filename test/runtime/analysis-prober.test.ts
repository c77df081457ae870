import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ControllerRevision, KubeObject, PersistentVolumeClaim, Pod, StatefulSet } from '../../src/api/types.js';
import type { AnalysisProbe, AnalysisResult } from '../../src/controller/model/plan-types.js';
import { AnalysisProber, MIN_CHECK_SPACING_MS, RESULTS_PER_SET, type ProbeOutcome } from '../../src/runtime/analysis-prober.js';
import { noopLogger } from '../../src/runtime/logging-port.js';
import { observe, SetDefaults } from '../../src/runtime/observe.js';
import { createVirtualClock } from '../../src/sim/virtual-clock.js';
import type { Informer } from '../../src/runtime/informer.js';
import { ObjectCache } from '../../src/runtime/object-cache.js';

/** The part of an Informer that observe reads, over an empty cache. */
const emptyCache = <T extends KubeObject>(): Informer<T> => new ObjectCache<T>() as unknown as Informer<T>;

const set = (uid = 'u1'): StatefulSet => ({
  apiVersion: 'apps.ordinal.dev/v1',
  kind: 'StatefulSet',
  metadata: { name: 'web', namespace: 'ns', uid },
  spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'app:v1' }] } } },
});

const probe = (key = 'web-2/0/'): AnalysisProbe => ({ key, revision: 'web-2', step: 0, kind: 'http', url: 'http://canary.test/', expectedStatus: 200, timeoutMs: 5000 });

/** A port whose checks the test answers one by one. */
function fakePort() {
  const calls: { probe: AnalysisProbe; signal: AbortSignal; answer(o: ProbeOutcome): void; fail(e: Error): void }[] = [];
  const port = (p: AnalysisProbe, signal: AbortSignal) =>
    new Promise<ProbeOutcome>((resolve, reject) => calls.push({ probe: p, signal, answer: resolve, fail: reject }));
  return { calls, port };
}

function prober() {
  const clock = createVirtualClock({ start: Date.UTC(2026, 0, 1) });
  const { calls, port } = fakePort();
  const arrived: { key: string; result: AnalysisResult }[] = [];
  const p = new AnalysisProber({ port, timers: clock, logger: noopLogger, onResult: (key, _set, _probe, result) => arrived.push({ key, result }) });
  return { clock, calls, arrived, p };
}

describe('AnalysisProber', () => {
  it('makes a due check once while it is in flight, and records its result at the clock time it arrived', async () => {
    const { clock, calls, arrived, p } = prober();
    const started = clock.now();
    p.start('ns/web', set(), [probe()]);
    p.start('ns/web', set(), [probe()]);
    assert.equal(calls.length, 1, 'one check in flight per probe key');
    clock.advanceBy(1500);
    calls[0]!.answer({ ok: true, message: 'HTTP 200' });
    await clock.settle();
    const expected: AnalysisResult = { key: 'web-2/0/', at: started + 1500, ok: true, message: 'HTTP 200' };
    assert.deepEqual(arrived, [{ key: 'ns/web', result: expected }]);
    assert.deepEqual(p.results(set()), [expected]);
    clock.advanceBy(MIN_CHECK_SPACING_MS);
    p.start('ns/web', set(), [probe()]);
    assert.equal(calls.length, 2, 'the next check once the first came back');
  });

  it('keeps two checks of one key a second apart: one due sooner waits (status times have whole seconds)', async () => {
    const { clock, calls, p } = prober();
    p.start('ns/web', set(), [probe()]);
    calls[0]!.answer({ ok: true, message: 'HTTP 200' });
    await clock.settle();
    const first = clock.now();
    clock.advanceBy(500);
    p.start('ns/web', set(), [probe()]);
    p.start('ns/web', set(), [probe()]);
    assert.equal(calls.length, 1, 'not yet');
    clock.advanceBy(499);
    assert.equal(calls.length, 1, 'not yet');
    clock.advanceBy(1);
    assert.equal(calls.length, 2, 'a second after the last result, once');
    calls[1]!.answer({ ok: true, message: 'HTTP 200' });
    await clock.settle();
    assert.deepEqual(p.results(set()).map((r) => r.at - first), [0, MIN_CHECK_SPACING_MS]);
  });

  it('makes checks of different keys side by side, and none for a plan without probes', () => {
    const { calls, p } = prober();
    p.start('ns/web', set(), undefined);
    p.start('ns/web', set(), []);
    p.start('ns/web', set(), [probe('web-2/0'), probe('web-2/1')]);
    assert.deepEqual(calls.map((c) => c.probe.key), ['web-2/0', 'web-2/1']);
  });

  it('counts a port that throws as a failed check', async () => {
    const { clock, calls, p } = prober();
    p.start('ns/web', set(), [probe()]);
    calls[0]!.fail(new Error('boom'));
    await clock.settle();
    assert.deepEqual(p.results(set()).map((r) => [r.ok, r.message]), [[false, 'boom']]);
  });

  it(`keeps the last ${RESULTS_PER_SET} results per set, oldest first`, async () => {
    const { clock, calls, p } = prober();
    for (let i = 0; i < RESULTS_PER_SET + 3; i++) {
      clock.advanceBy(MIN_CHECK_SPACING_MS);
      p.start('ns/web', set(), [probe()]);
      calls[i]!.answer({ ok: true, message: `check ${i}` });
      await clock.settle();
    }
    const kept = p.results(set()).map((r) => r.message);
    assert.equal(kept.length, RESULTS_PER_SET);
    assert.equal(kept[0], 'check 3');
    assert.equal(kept.at(-1), `check ${RESULTS_PER_SET + 2}`);
  });

  it('forgets a deleted set: its results go, and a check still in flight is not recorded', async () => {
    const { clock, calls, arrived, p } = prober();
    p.start('ns/web', set(), [probe()]);
    calls[0]!.answer({ ok: true, message: 'HTTP 200' });
    await clock.settle();
    clock.advanceBy(MIN_CHECK_SPACING_MS);
    p.start('ns/web', set(), [probe()]);
    p.forget(set());
    assert.deepEqual(p.results(set()), []);
    calls[1]!.answer({ ok: true, message: 'HTTP 200' });
    await clock.settle();
    assert.deepEqual(p.results(set()), []);
    assert.equal(arrived.length, 1);
    // a set created again under the same name has another UID: nothing carries over
    p.start('ns/web', set('u2'), [probe()]);
    assert.equal(calls.length, 3);
  });

  it('aborts the checks in flight when stopped, cancels those waiting, and starts none after', async () => {
    const { clock, calls, arrived, p } = prober();
    p.start('ns/web', set(), [probe('web-2/0'), probe('web-2/1')]);
    calls[1]!.answer({ ok: true, message: 'HTTP 200' });
    await clock.settle();
    p.start('ns/web', set(), [probe('web-2/1')]);
    assert.equal(clock.pending(), 1, 'web-2/1 waits a second');
    arrived.length = 0;
    p.stop();
    assert.equal(clock.pending(), 0);
    assert.equal(calls[0]!.signal.aborted, true);
    calls[0]!.answer({ ok: false, message: 'aborted' });
    await clock.settle();
    p.start('ns/web', set(), [probe('web-2/2')]);
    assert.equal(calls.length, 2);
    assert.deepEqual(arrived, []);
  });

  it('hands its results to observe() as analysisResults', async () => {
    const { clock, calls, p } = prober();
    const caches = { pods: emptyCache<Pod>(), claims: emptyCache<PersistentVolumeClaim>(), revisions: emptyCache<ControllerRevision>() };
    const memo = { defaults: new SetDefaults(), analysis: p };
    assert.equal(observe(set(), caches, undefined, memo).analysisResults, undefined, 'none before a check came back');
    p.start('ns/web', set(), [probe()]);
    calls[0]!.answer({ ok: false, message: 'HTTP 503, expected 200' });
    await clock.settle();
    assert.deepEqual(observe(set(), caches, undefined, memo).analysisResults, [{ key: 'web-2/0/', at: clock.now(), ok: false, message: 'HTTP 503, expected 200' }]);
  });
});
