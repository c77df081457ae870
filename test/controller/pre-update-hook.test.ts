// spec.lifecycle.preUpdate (admission/pre-update-hook.ts): the last rule of the disruption funnel. A pod goes
// for an update only once its hook passed for the update revision (or failed under failurePolicy Ignore); the
// hook's state is the pod's annotation, so it is called once per pod per revision whatever the controller forgets.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LIFECYCLE_STATE_LABEL, PodAnnotations, type PreUpdateHook, type StatefulSet } from '../../src/api/types.js';
import type { Blocker, Plan } from '../../src/controller/model/plan-types.js';
import { hookProbeKey } from '../../src/controller/admission/pre-update-hook.js';
import { parseHookRecord } from '../../src/controller/replica/hook-state.js';
import { newSet, SECOND } from './fixtures.js';
import { Harness } from './harness.js';

const URL_ = 'http://switchover.example/pre-update';
const writes = (p: Plan): string[] => p.actions.filter((a) => a.kind !== 'createRevision' && a.kind !== 'deleteRevision').map((a) => `${a.kind} ${'name' in a ? a.name : ''}`);
const hookBlockers = (p: Plan): Extract<Blocker, { kind: 'preUpdateHook' }>[] => p.blockers.filter((b): b is Extract<Blocker, { kind: 'preUpdateHook' }> => b.kind === 'preUpdateHook');
const record = (h: Harness, pod: string) => parseHookRecord(h.must(pod).metadata.annotations?.[PodAnnotations.preUpdateHook]);

function hooked(hook: PreUpdateHook, mutate: (s: StatefulSet) => void = () => undefined): Harness {
  const set = newSet(3, { maxUnavailable: 1, claims: false });
  set.spec.lifecycle = { preUpdate: hook };
  mutate(set);
  const h = new Harness(set, { autoReady: true, autoDelete: true });
  h.converge();
  return h;
}

/** Answers the hook GET of `pod` at revision `rev` with `ok` now. */
function answer(h: Harness, p: Plan, pod: string, ok: boolean): void {
  const probe = p.probes?.find((x) => x.pod === pod);
  assert.ok(probe, `a GET of ${pod}'s hook is due`);
  assert.equal(probe.kind === 'http' ? probe.url : undefined, `${URL_}?pod=${pod}&revision=${p.status.updateRevision}`);
  h.analysisResults.push({ key: probe.key, at: h.now, ok, message: ok ? 'HTTP 200' : 'HTTP 503, expected 200' });
}

describe('preUpdate hook: http', () => {
  it('records Calling, GETs the hook, records Passed, and only then deletes the pod', () => {
    const h = hooked({ http: { url: URL_ } });
    h.setImage('app:v2');
    const first = h.sync();
    assert.deepEqual(writes(first), ['annotatePod web-2']);
    const called = first.actions.find((a) => a.kind === 'annotatePod');
    assert.equal(called?.outcome?.succeeded?.reason, 'PreUpdateHookCalled');
    assert.equal(record(h, 'web-2')?.phase, 'Calling');
    assert.deepEqual(hookBlockers(first).map((b) => [b.pod, b.state]), [['web-2', 'calling']]);
    const second = h.sync();
    assert.deepEqual(writes(second), [], 'nothing goes while the hook has not answered');
    answer(h, second, 'web-2', false);
    h.advance(2 * SECOND);
    const early = h.sync();
    assert.equal(early.probes, undefined, 'the next GET waits 5s after the last');
    assert.equal(hookBlockers(early)[0]?.answer, 'HTTP 503, expected 200');
    h.advance(3 * SECOND);
    const again = h.sync();
    answer(h, again, 'web-2', true);
    assert.deepEqual(writes(h.sync()), ['annotatePod web-2']);
    assert.equal(record(h, 'web-2')?.phase, 'Passed');
    assert.deepEqual(writes(h.sync()), ['deletePod web-2']);
  });

  it('never calls a passed hook again for the revision, and calls it again for a new one', () => {
    const h = hooked({ http: { url: URL_ } });
    h.setImage('app:v2');
    h.sync();
    const p = h.sync();
    answer(h, p, 'web-2', true);
    h.sync();
    // the controller restarts: the prober's results are gone, the annotation is not
    h.analysisResults = [];
    const after = h.sync();
    assert.deepEqual(writes(after), ['deletePod web-2']);
    assert.equal(after.probes, undefined);
  });

  it('calls the hook again when a new update revision overtakes the one it passed for', () => {
    const h = hooked({ http: { url: URL_ } });
    h.setImage('app:v2');
    h.sync();
    answer(h, h.sync(), 'web-2', true);
    h.sync();
    assert.equal(record(h, 'web-2')?.phase, 'Passed');
    h.setImage('app:v3');
    const next = h.sync();
    assert.deepEqual(writes(next), ['annotatePod web-2'], 'a new update revision calls the hook again');
    assert.equal(record(h, 'web-2')?.revision, next.status.updateRevision);
  });

  it('holds the pod after timeoutSeconds under failurePolicy Fail, with PreUpdateHookFailed', () => {
    const h = hooked({ http: { url: URL_ }, timeoutSeconds: 30 });
    h.setImage('app:v2');
    h.sync();
    answer(h, h.sync(), 'web-2', false);
    h.advance(30 * SECOND);
    const failed = h.sync();
    const write = failed.actions.find((a) => a.kind === 'annotatePod');
    assert.equal(write?.outcome?.succeeded?.reason, 'PreUpdateHookFailed');
    assert.match(write?.outcome?.succeeded?.message ?? '', /did not pass within 30s \(last: HTTP 503, expected 200\): the pod is held/);
    h.advance(60 * SECOND);
    const held = h.sync();
    assert.deepEqual(writes(held), []);
    assert.equal(held.probes, undefined, 'a failed hook is not called again');
    assert.deepEqual(hookBlockers(held).map((b) => b.state), ['failed']);
  });

  it('lets the pod go after timeoutSeconds under failurePolicy Ignore', () => {
    const h = hooked({ http: { url: URL_ }, timeoutSeconds: 30, failurePolicy: 'Ignore' });
    h.setImage('app:v2');
    h.sync();
    h.advance(30 * SECOND);
    h.sync();
    assert.equal(record(h, 'web-2')?.phase, 'Ignored');
    assert.deepEqual(writes(h.sync()), ['deletePod web-2']);
  });

  it('holds its place in update order: web-1 is not called while web-2 waits, and maxUnavailable 2 calls both', () => {
    const one = hooked({ http: { url: URL_ } });
    one.setImage('app:v2');
    assert.deepEqual(writes(one.sync()), ['annotatePod web-2']);
    const two = hooked({ http: { url: URL_ } }, (s) => {
      if (s.spec.updateStrategy?.rollingUpdate) s.spec.updateStrategy.rollingUpdate.maxUnavailable = 2;
    });
    two.setImage('app:v2');
    assert.deepEqual(writes(two.sync()), ['annotatePod web-2', 'annotatePod web-1']);
  });

  it('does not hold a scale-down or the replacement of a failed pod', () => {
    const h = hooked({ http: { url: URL_ } });
    h.phase('web-1', 'Failed');
    assert.deepEqual(writes(h.sync()), ['deletePod web-1']);
    h.converge();
    h.update((s) => (s.spec.replicas = 2));
    assert.deepEqual(writes(h.sync()), ['deletePod web-2']);
  });
});

describe('preUpdate hook: in place', () => {
  it('patches a pod in place only once its hook passed, and a claim-free relabel never waits', () => {
    const h = hooked({ http: { url: URL_ } }, (s) => {
      (s.spec.updateStrategy?.rollingUpdate as { podUpdatePolicy?: string }).podUpdatePolicy = 'InPlaceIfPossible';
    });
    h.setImage('app:v2');
    assert.deepEqual(writes(h.sync()), ['annotatePod web-2']);
    answer(h, h.sync(), 'web-2', true);
    assert.deepEqual(writes(h.sync()), ['annotatePod web-2']);
    assert.deepEqual(writes(h.sync()), ['patchPod web-2']);
  });
});

describe('preUpdate hook: labelsHandler', () => {
  it('labels the pod PreparingUpdate, waits for the labels, then removes its own label and deletes the pod', () => {
    const h = hooked({ labelsHandler: { 'db.example/switched-over': 'true' } });
    h.setImage('app:v2');
    h.sync();
    assert.equal(h.must('web-2').metadata.labels?.[LIFECYCLE_STATE_LABEL], 'PreparingUpdate');
    h.advance(10 * SECOND);
    const waiting = h.sync();
    assert.deepEqual(writes(waiting), []);
    assert.equal(hookBlockers(waiting)[0]?.target, 'db.example/switched-over=true');
    const pod = h.must('web-2');
    pod.metadata.labels = { ...pod.metadata.labels, 'db.example/switched-over': 'true' };
    assert.deepEqual(writes(h.sync()), ['annotatePod web-2']);
    assert.equal(h.must('web-2').metadata.labels?.[LIFECYCLE_STATE_LABEL], undefined);
    assert.deepEqual(writes(h.sync()), ['deletePod web-2']);
  });
});

describe('preUpdate hook: labelsHandler in place', () => {
  it('clears the agent\'s labels when it calls the hook for a new revision, so an old answer does not pass it', () => {
    const h = hooked({ labelsHandler: { 'db.example/switched-over': 'true' } }, (s) => {
      (s.spec.updateStrategy?.rollingUpdate as { podUpdatePolicy?: string }).podUpdatePolicy = 'InPlaceIfPossible';
    });
    const pod = h.must('web-2');
    pod.metadata.labels = { ...pod.metadata.labels, 'db.example/switched-over': 'true' };
    h.setImage('app:v2');
    h.sync();
    assert.equal(h.must('web-2').metadata.labels?.['db.example/switched-over'], undefined);
    assert.deepEqual(writes(h.sync()), [], 'waits for the agent to answer again');
  });
});

describe('preUpdate hook: keys', () => {
  it('keys its GETs by pod and revision', () => assert.equal(hookProbeKey('db-0', 'db-1a2b'), 'preUpdate/db-0/db-1a2b'));
});
