// rollingUpdate.steps and paused in the planner (rollout-steps.ts): a step's partition holds the pods below it
// (no deletion, creation, in-place patch or claim patch on the update revision there), `replicas` counts from
// the top (a percentage rounded up), each gate (none, pause until promoted, bake, readiness and HTTP analysis)
// holds the next step until it passes, the user's pause holds every update but scaling and replacements, a new
// template starts the steps again and one changed back completes them, abort and retry, and the deadline does
// not run while paused. Multi-sync runs on a Harness that checks the plan invariants (stepBoundaryRespected
// among them) after every sync and, here, that the written status is a fixed point: planning again over it
// writes nothing.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { pausePatch, promotePatch, retryPatch } from '../../src/api/rollout-signals.js';
import { AbortAnnotation, PromoteAnnotation, type RolloutStep, type StatefulSet } from '../../src/api/types.js';
import { planStatefulSet } from '../../src/controller/plan/plan-statefulset.js';
import type { Action, AnalysisResult, Plan } from '../../src/controller/model/plan-types.js';
import type { ObservedState } from '../../src/controller/replica/observed-state.js';
import { stepPartition } from '../../src/controller/rollout/rollout-steps.js';
import { newSet, SECOND, type SetOptions } from './fixtures.js';
import { Harness, runSyncs } from './harness.js';

/** A Harness that feeds HTTP analysis results to the planner and checks after each sync that the status is a fixed point. */
class Staged extends Harness {
  results: AnalysisResult[] = [];
  /** The step states (and the user's pause) whose status was checked to be a fixed point. */
  readonly checked = new Set<string>();

  override observed(): ObservedState {
    return { ...super.observed(), analysisResults: this.results };
  }

  /** A sync that wrote no pod, claim or revision left the world as it was: planning again over it writes nothing. */
  override sync(fail?: (a: Action) => boolean): Plan {
    const plan = super.sync(fail);
    if (plan.actions.length > 0) return plan;
    this.checked.add(this.set.status?.pauseConditions?.some((p) => p.reason === 'UserPause') ? 'UserPause' : (this.set.status?.currentStepState ?? ''));
    const again = planStatefulSet(this.observed(), this.now, this.features);
    assert.equal(again.statusChanged, false, `a second sync writes no status: ${JSON.stringify({ was: this.set.status, now: again.status })}`);
    assert.deepEqual(
      again.events.filter((e) => e.reason.startsWith('Rollout')),
      [],
      'a second sync repeats no step event',
    );
    return plan;
  }

  /** A merge patch of metadata (the signals' annotations) or of spec, as the API server applies it. */
  patch(merge: unknown): void {
    const m = merge as { metadata?: { annotations?: Record<string, string | null> }; spec?: { updateStrategy?: Record<string, Record<string, unknown>> } };
    if (m.metadata?.annotations !== undefined) {
      const annotations = { ...this.set.metadata.annotations };
      for (const [k, v] of Object.entries(m.metadata.annotations)) {
        if (v === null) delete annotations[k];
        else annotations[k] = v;
      }
      this.set = { ...this.set, metadata: { ...this.set.metadata, annotations } };
    }
    const blocks = m.spec?.updateStrategy;
    if (blocks !== undefined) {
      this.update((s) => {
        for (const [name, fields] of Object.entries(blocks)) Object.assign((s.spec.updateStrategy as Record<string, object>)[name] ?? {}, fields);
      });
    }
  }
}

const deleted = (plans: Plan[]): string[] => plans.flatMap((p) => p.actions.flatMap((a) => (a.kind === 'deletePod' ? [a.name] : [])));
const reasons = (plans: Plan[]): string[] => plans.flatMap((p) => p.events.map((e) => e.reason));
const progressing = (h: Harness) => h.set.status?.conditions?.find((c) => c.type === 'Progressing');
const at = (h: Harness): [number | undefined, string | undefined] => [h.set.status?.currentStepIndex, h.set.status?.currentStepState];

/** A converged set of `replicas` pods with `steps` in its rolling block. */
function staged(steps: RolloutStep[], opts: SetOptions & { paused?: boolean } = {}, replicas = 4): Staged {
  const set = newSet(replicas, { claims: false, ...opts });
  const strategy = set.spec.updateStrategy as NonNullable<StatefulSet['spec']['updateStrategy']>;
  const block = (opts.strategy === 'EnforcedRollingUpdate' ? strategy.enforcedRollingUpdate : strategy.rollingUpdate) as { steps?: RolloutStep[]; paused?: boolean };
  block.steps = steps;
  if (opts.paused) block.paused = true;
  const h = new Staged(set, { autoReady: true });
  h.converge();
  (h.opts as { autoReady?: boolean }).autoReady = false;
  return h;
}

const run = runSyncs;

/** The pods' revisions, old (the current revision) or new, by name. */
function revisions(h: Harness): Record<string, 'old' | 'new'> {
  const update = h.set.status?.updateRevision;
  return Object.fromEntries([...h.pods.keys()].sort().map((name) => [name, h.revisionOf(name) === update ? 'new' : 'old']));
}

describe('steps: how far a step goes', () => {
  it('replicas counts from the top (a percentage rounded up); partition is an index; both stay within the replicas', () => {
    const cases: [RolloutStep, number, number][] = [
      [{ replicas: 1 }, 4, 3],
      [{ replicas: '25%' }, 4, 3],
      [{ replicas: '30%' }, 4, 2],
      [{ replicas: '50%' }, 5, 2],
      [{ replicas: '100%' }, 4, 0],
      [{ replicas: 0 }, 4, 4],
      [{ replicas: 9 }, 4, 0],
      [{ partition: 2 }, 4, 2],
      [{ partition: 9 }, 4, 4],
    ];
    for (const [step, replicas, want] of cases) assert.equal(stepPartition(step, replicas), want, JSON.stringify({ step, replicas }));
  });

  it("holds the pods below the step's partition: no update deletion, and a deleted pod comes back on the current revision", () => {
    const h = staged([{ partition: 2, pause: {} }, { replicas: '100%' }]);
    h.setImage('app:v2');
    const plans = run(h, 20);
    assert.deepEqual(revisions(h), { 'web-0': 'old', 'web-1': 'old', 'web-2': 'new', 'web-3': 'new' });
    assert.deepEqual(deleted(plans), ['web-3', 'web-2']);
    assert.deepEqual(at(h), [0, 'Paused']);
    h.deletePod('web-1');
    run(h, 5);
    assert.equal(revisions(h)['web-1'], 'old', 'a pod below the step is created on the current revision');
    assert.deepEqual(at(h), [0, 'Paused']);
  });

  it('counts replicas: 50% of 5 updates 3 (rounded up)', () => {
    const h = staged([{ replicas: '50%', pause: {} }, { replicas: '100%' }], {}, 5);
    h.setImage('app:v2');
    run(h, 20);
    assert.deepEqual(revisions(h), { 'web-0': 'old', 'web-1': 'old', 'web-2': 'new', 'web-3': 'new', 'web-4': 'new' });
  });

  it('patches in place no pod below the partition (podUpdatePolicy InPlaceIfPossible)', () => {
    const h = staged([{ replicas: 1, pause: {} }, { replicas: '100%' }]);
    h.update((s) => ((s.spec.updateStrategy?.rollingUpdate as { podUpdatePolicy?: string }).podUpdatePolicy = 'InPlaceIfPossible'));
    h.setImage('app:v2');
    const patched: string[] = [];
    for (let i = 0; i < 10; i++) {
      patched.push(...h.sync().actions.flatMap((a) => (a.kind === 'patchPod' ? [a.name] : [])));
      for (const name of h.pods.keys()) if (h.must(name).spec.containers[0]?.image === 'app:v2') h.runsSpecImages(name, true);
      h.advance(SECOND);
    }
    assert.deepEqual(patched, ['web-3']);
    assert.deepEqual(at(h), [0, 'Paused']);
  });
});

describe('steps: gates', () => {
  it('none: a step without a gate passes as soon as its pods are updated and available, and the next one starts', () => {
    const h = staged([{ replicas: 1 }, { replicas: 2, pause: {} }, { replicas: '100%' }]);
    h.setImage('app:v2');
    const plans = run(h, 20);
    assert.deepEqual(at(h), [1, 'Paused']);
    assert.deepEqual(revisions(h), { 'web-0': 'old', 'web-1': 'old', 'web-2': 'new', 'web-3': 'new' });
    assert.deepEqual(reasons(plans).filter((r) => r.startsWith('RolloutStep')), ['RolloutStepStarted', 'RolloutStepCompleted']);
  });

  it('pause {}: waits until the promote annotation names this revision and step; a stale or other value does nothing', () => {
    const h = staged([{ replicas: 1, pause: {} }, { replicas: 2, pause: {} }, { replicas: '100%' }]);
    h.setImage('app:v2');
    run(h, 10);
    assert.deepEqual(at(h), [0, 'Paused']);
    assert.deepEqual(h.set.status?.pauseConditions?.map((p) => p.reason), ['StepPause']);
    assert.equal(progressing(h)?.reason, 'RolloutPaused');
    const revision = h.set.status?.updateRevision ?? '';
    for (const stale of [`${revision}/1`, 'web-0000000/0', `${revision}/x`]) {
      h.patch({ metadata: { annotations: { [PromoteAnnotation]: stale } } });
      run(h, 3);
      assert.deepEqual(at(h), [0, 'Paused'], stale);
    }
    h.patch(promotePatch(h.set.status, false));
    assert.equal(h.set.metadata.annotations?.[PromoteAnnotation], `${revision}/0`);
    const promoted = run(h, 10);
    assert.ok(reasons(promoted).includes('RolloutStepCompleted'));
    assert.deepEqual(at(h), [1, 'Paused']);
    assert.deepEqual(revisions(h), { 'web-0': 'old', 'web-1': 'old', 'web-2': 'new', 'web-3': 'new' });
  });

  it("a promote sent while the user pauses waits for the resume: no step passes during the pause", () => {
    const h = staged([{ replicas: 1, pause: {} }, { replicas: '100%' }]);
    h.setImage('app:v2');
    run(h, 10);
    h.patch(pausePatch(h.set, true));
    h.patch(promotePatch(h.set.status, false));
    run(h, 10);
    assert.deepEqual(at(h), [0, 'Paused']);
    assert.deepEqual(revisions(h), { 'web-0': 'old', 'web-1': 'old', 'web-2': 'old', 'web-3': 'new' });
    h.patch(pausePatch(h.set, false));
    run(h, 30);
    assert.deepEqual(at(h), [2, 'Completed']);
  });

  it('promote full passes every remaining step and the rollout completes', () => {
    const h = staged([{ replicas: 1, pause: {} }, { replicas: 2, pause: {} }, { replicas: 3, pause: {} }]);
    h.setImage('app:v2');
    run(h, 10);
    h.patch(promotePatch(h.set.status, true));
    const plans = run(h, 30);
    assert.ok(reasons(plans).includes('RolloutPromoted'));
    assert.deepEqual(at(h), [3, 'Completed']);
    assert.equal(h.set.status?.currentRevision, h.set.status?.updateRevision);
    assert.equal(progressing(h)?.reason, 'RolloutCompleted');
    assert.equal(h.set.status?.pauseConditions, undefined);
  });

  it('bake: counts while every updated replica stays available; one going unavailable starts it again', () => {
    const h = staged([{ replicas: 1, pause: { duration: '30s' } }, { replicas: 2, pause: {} }, { replicas: '100%' }]);
    h.setImage('app:v2');
    run(h, 5);
    assert.deepEqual(at(h), [0, 'Baking']);
    const since = h.set.status?.currentStepSince;
    const plan = h.sync();
    assert.equal(plan.wakeAt, Date.parse(since ?? '') + 30 * SECOND, 'the planner wakes when the bake ends');
    h.advance(20 * SECOND);
    h.notReady('web-3');
    run(h, 1);
    assert.deepEqual(at(h), [0, 'Updating'], 'an updated replica went unavailable');
    h.ready('web-3');
    run(h, 1);
    assert.deepEqual(at(h), [0, 'Baking']);
    const again = Date.parse(h.set.status?.currentStepSince ?? '');
    assert.ok(again > Date.parse(since ?? ''), 'the bake starts again');
    h.now = again + 29 * SECOND;
    run(h, 1);
    assert.deepEqual(at(h), [0, 'Baking']);
    h.now = again + 30 * SECOND;
    run(h, 8);
    assert.deepEqual(at(h), [1, 'Paused']);
  });

  it('readiness: passes after its duration; each time an updated replica goes unavailable counts, and one more than failureLimit fails the rollout (Halt)', () => {
    const h = staged([{ replicas: 2, analysis: { readiness: { duration: '1m', failureLimit: 1 } } }, { replicas: '100%' }]);
    h.setImage('app:v2');
    run(h, 8);
    assert.deepEqual(at(h), [0, 'Analyzing']);
    assert.deepEqual(h.set.status?.pauseConditions?.map((p) => p.reason), ['AnalysisRunning']);
    h.notReady('web-3');
    run(h, 1);
    assert.deepEqual(at(h), [0, 'Updating']);
    assert.equal(h.set.status?.stepAnalysis?.failed, 1);
    h.ready('web-3');
    run(h, 1);
    assert.deepEqual(at(h), [0, 'Analyzing']);
    h.notReady('web-2');
    const failed = run(h, 1);
    assert.deepEqual(at(h), [0, 'Failed']);
    assert.ok(reasons(failed).includes('AnalysisFailed'));
    assert.equal(progressing(h)?.status, 'False');
    assert.equal(progressing(h)?.reason, 'AnalysisFailed');
    h.ready('web-2');
    const after = run(h, 10);
    assert.deepEqual(deleted(after), [], 'a failed step under Halt updates nothing');
    assert.deepEqual(at(h), [0, 'Failed']);
  });

  it('readiness: a window the replicas stay available through passes', () => {
    const h = staged([{ replicas: 2, analysis: { readiness: { duration: '1m' } } }, { replicas: '100%', pause: {} }]);
    h.setImage('app:v2');
    run(h, 8);
    assert.deepEqual(at(h), [0, 'Analyzing']);
    h.advance(60 * SECOND);
    run(h, 10);
    assert.deepEqual(at(h), [1, 'Paused']);
  });

  it('http: a probe is due when the step starts and then every interval, not before; results fold into stepAnalysis; count checks pass it', () => {
    const url = 'http://canary.example/health';
    const h = staged([{ replicas: 1, analysis: { http: { url, interval: '30s', count: 2, failureLimit: 1 } } }, { replicas: '100%', pause: {} }]);
    h.setImage('app:v2');
    let probes = run(h, 5).flatMap((p) => p.probes ?? []);
    assert.deepEqual(at(h), [0, 'Analyzing']);
    const revision = h.set.status?.updateRevision ?? '';
    const key = `${revision}/0/`;
    assert.deepEqual(probes.slice(0, 1), [{ key, revision, step: 0, timeoutMs: 5000, kind: 'http', url, expectedStatus: 200 }]);
    h.results.push({ key, at: h.now, ok: true, message: 'HTTP 200' });
    run(h, 1);
    assert.deepEqual([h.set.status?.stepAnalysis?.successful, h.set.status?.stepAnalysis?.failed], [1, 0]);
    probes = run(h, 20).flatMap((p) => p.probes ?? []);
    assert.deepEqual(probes, [], 'no probe before the interval');
    h.advance(10 * SECOND);
    probes = run(h, 1).flatMap((p) => p.probes ?? []);
    assert.equal(probes.length, 1, 'due again 30 s after the last check');
    h.results.push({ key, at: h.now, ok: true, message: 'HTTP 200' }, { key: `${revision}/1/`, at: h.now, ok: false, message: 'another step' });
    run(h, 8);
    assert.deepEqual(at(h), [1, 'Paused']);
  });

  it('http: failures beyond failureLimit fail the rollout, with the last message', () => {
    const url = 'http://canary.example/health';
    const h = staged([{ replicas: 1, analysis: { http: { url, interval: '10s', count: 5, failureLimit: 1 } } }, { replicas: '100%' }]);
    h.setImage('app:v2');
    run(h, 5);
    const key = `${h.set.status?.updateRevision ?? ''}/0/`;
    h.results.push({ key, at: h.now, ok: false, message: 'HTTP 503, expected 200' });
    run(h, 1);
    assert.deepEqual(at(h), [0, 'Analyzing'], 'one failure is within failureLimit 1');
    h.advance(10 * SECOND);
    h.results.push({ key, at: h.now, ok: false, message: 'HTTP 503, expected 200' });
    const failed = run(h, 1);
    assert.deepEqual(at(h), [0, 'Failed']);
    assert.ok(reasons(failed).includes('AnalysisFailed'));
    assert.match(progressing(h)?.message ?? '', /2 of 2 checks of http:\/\/canary\.example\/health failed \(failureLimit 1\): HTTP 503, expected 200/);
    assert.deepEqual(run(h, 5).flatMap((p) => p.probes ?? []), [], 'a failed analysis makes no more checks');
  });

  it('http: a retry in the same second as the failed check starts a new attempt: that check does not count again', () => {
    const url = 'http://canary.example/health';
    const h = staged([{ replicas: 1, analysis: { http: { url, interval: '10s', count: 1 } } }, { replicas: '100%' }]);
    h.setImage('app:v2');
    run(h, 5);
    const first = `${h.set.status?.updateRevision ?? ''}/0/`;
    h.results.push({ key: first, at: h.now, ok: false, message: 'HTTP 503, expected 200' });
    run(h, 1);
    assert.deepEqual(at(h), [0, 'Failed']);
    h.patch(retryPatch(h.now));
    const retried = run(h, 2);
    assert.deepEqual(at(h), [0, 'Analyzing'], 'the failed check of the earlier attempt does not fail the retry');
    const probes = retried.flatMap((p) => p.probes ?? []);
    assert.equal(probes.length > 0 && probes.every((p) => p.key !== first), true, 'the retry checks under a new key');
  });
});

describe("steps: the user's pause", () => {
  it('updates nothing while paused, and the steps go on once resumed', () => {
    const h = staged([{ replicas: 2, pause: { duration: '10s' } }, { replicas: '100%' }]);
    h.patch(pausePatch(h.set, true));
    h.setImage('app:v2');
    const paused = run(h, 10);
    assert.deepEqual(deleted(paused), []);
    assert.ok(reasons(paused).includes('RolloutPaused'));
    assert.deepEqual(h.set.status?.pauseConditions?.map((p) => p.reason), ['UserPause']);
    assert.equal(progressing(h)?.reason, 'RolloutPaused');
    assert.ok(paused[0]?.blockers.some((b) => b.kind === 'rolloutPaused'));
    h.patch(pausePatch(h.set, false));
    const resumed = run(h, 30);
    assert.ok(reasons(resumed).includes('RolloutResumed'));
    assert.deepEqual(at(h), [2, 'Completed']);
    assert.equal(h.set.status?.updatedReplicas, 4);
  });

  it('a pause takes effect in the next sync: a rollout under way stops', () => {
    const h = staged([{ replicas: '100%' }], { maxUnavailable: 1 });
    h.setImage('app:v2');
    run(h, 3);
    assert.ok(Object.values(revisions(h)).includes('old'));
    h.patch(pausePatch(h.set, true));
    const plan = h.sync();
    assert.deepEqual(deleted([plan]), []);
    assert.deepEqual(deleted(run(h, 10)), []);
  });

  it('while paused, scaling and the replacement of failed pods go on', () => {
    const h = staged([{ replicas: '100%' }], { paused: true });
    h.setImage('app:v2');
    run(h, 2);
    h.update((s) => (s.spec.replicas = 5));
    run(h, 5);
    assert.equal(h.pods.size, 5, 'scaled up');
    h.phase('web-1', 'Failed');
    const replaced = run(h, 5);
    assert.deepEqual(deleted(replaced), ['web-1']);
    assert.ok(h.pods.has('web-1'));
    const causes = replaced.flatMap((p) => p.actions.flatMap((a) => (a.kind === 'deletePod' ? [a.cause] : [])));
    assert.deepEqual(causes, ['failed']);
  });

  it('while paused, EnforcedRollingUpdate still replaces a broken pod of the old revision, and nothing else', () => {
    const h = staged([{ replicas: '100%' }], { strategy: 'EnforcedRollingUpdate', paused: true, progressDeadlineSeconds: 30 });
    h.setImage('app:v2');
    run(h, 2);
    h.notReady('web-3', 'CrashLoopBackOff');
    h.advance(40 * SECOND);
    const plans = run(h, 5);
    assert.deepEqual(deleted(plans), ['web-3']);
    assert.deepEqual(revisions(h), { 'web-0': 'old', 'web-1': 'old', 'web-2': 'old', 'web-3': 'new' });
  });

  it('while paused, EnforcedRollingUpdate replaces a broken old pod below a healthy one too', () => {
    const h = staged([{ replicas: '100%' }], { strategy: 'EnforcedRollingUpdate', paused: true, progressDeadlineSeconds: 30 });
    h.setImage('app:v2');
    run(h, 2);
    h.notReady('web-1', 'CrashLoopBackOff');
    h.advance(40 * SECOND);
    const plans = run(h, 5);
    assert.deepEqual(deleted(plans), ['web-1']);
    assert.deepEqual(revisions(h), { 'web-0': 'old', 'web-1': 'new', 'web-2': 'old', 'web-3': 'old' });
  });

  it('the progress deadline does not run while paused and counts again from the resume', () => {
    const h = staged([{ replicas: '100%' }], { progressDeadlineSeconds: 60 });
    h.setImage('app:v2');
    h.patch(pausePatch(h.set, true));
    run(h, 2);
    h.advance(600 * SECOND);
    run(h, 2);
    assert.deepEqual([progressing(h)?.status, progressing(h)?.reason], ['True', 'RolloutPaused']);
    h.patch(pausePatch(h.set, false));
    const resumed = h.now;
    // the first new pod never gets Ready: no progress once it is counted
    run(h, 3, () => 'CrashLoopBackOff');
    const mark = Date.parse(progressing(h)?.lastUpdateTime ?? '');
    assert.ok(mark >= resumed, 'the deadline counts from the resume');
    h.now = mark + 59 * SECOND;
    run(h, 1, () => 'CrashLoopBackOff');
    assert.deepEqual([progressing(h)?.status, progressing(h)?.reason], ['True', 'RollingUpdateInProgress']);
    h.now = mark + 61 * SECOND;
    const exceeded = run(h, 1, () => 'CrashLoopBackOff');
    assert.deepEqual([progressing(h)?.status, progressing(h)?.reason], ['False', 'ProgressDeadlineExceeded']);
    assert.ok(reasons(exceeded).includes('ProgressDeadlineExceeded'));
  });

  it("a step's pause does not run the deadline either", () => {
    const h = staged([{ replicas: 1, pause: {} }, { replicas: '100%' }], { progressDeadlineSeconds: 60 });
    h.setImage('app:v2');
    run(h, 5);
    h.advance(600 * SECOND);
    run(h, 2);
    assert.deepEqual([progressing(h)?.status, progressing(h)?.reason], ['True', 'RolloutPaused']);
    assert.deepEqual(at(h), [0, 'Paused']);
  });
});

describe('steps: a new template, undo, abort and retry', () => {
  it('a new template mid-rollout starts the steps again at 0', () => {
    const h = staged([{ replicas: 1, pause: {} }, { replicas: 2, pause: {} }, { replicas: '100%' }]);
    h.setImage('app:v2');
    run(h, 5);
    h.patch(promotePatch(h.set.status, false));
    run(h, 10);
    assert.deepEqual(at(h), [1, 'Paused']);
    const v2 = h.set.status?.stepRevision;
    h.setImage('app:v3');
    const plans = run(h, 10);
    assert.notEqual(h.set.status?.stepRevision, v2);
    assert.deepEqual(at(h), [0, 'Paused']);
    assert.ok(reasons(plans).includes('RolloutStepStarted'));
    assert.equal(Object.values(revisions(h)).filter((r) => r === 'new').length, 1, 'one pod on the newest revision');
  });

  it('a template changed back to the current revision (rollout undo) completes the steps', () => {
    const h = staged([{ replicas: 1, pause: {} }, { replicas: '100%' }]);
    h.setImage('app:v2');
    run(h, 5);
    assert.deepEqual(at(h), [0, 'Paused']);
    h.setImage('app:v1');
    run(h, 15);
    assert.deepEqual(Object.values(revisions(h)), ['new', 'new', 'new', 'new']);
    assert.equal(h.set.status?.currentRevision, h.set.status?.updateRevision);
    assert.deepEqual(at(h), [2, 'Completed']);
    assert.equal(progressing(h)?.reason, 'RolloutCompleted');
  });

  it('abort under Halt: the rollout fails where it is (Progressing False, RolloutAborted) and nothing more is updated; retry runs the step again', () => {
    const h = staged([{ replicas: 1, pause: { duration: '1m' } }, { replicas: '100%' }]);
    h.setImage('app:v2');
    run(h, 5);
    h.patch({ metadata: { annotations: { [AbortAnnotation]: h.set.status?.updateRevision ?? '' } } });
    const aborted = run(h, 5);
    assert.ok(reasons(aborted).includes('RolloutAborted'));
    assert.deepEqual(at(h), [0, 'Failed']);
    assert.deepEqual([progressing(h)?.status, progressing(h)?.reason], ['False', 'RolloutAborted']);
    h.advance(120 * SECOND);
    assert.deepEqual(deleted(run(h, 5)), []);
    h.patch(retryPatch(h.now));
    const retried = run(h, 3);
    assert.ok(reasons(retried).includes('RolloutRetried'));
    assert.deepEqual(at(h), [0, 'Baking']);
    h.advance(60 * SECOND);
    run(h, 20);
    assert.deepEqual(at(h), [2, 'Completed']);
  });

  it('abort under onFailure Rollback: the updated pods go back to the current revision', () => {
    const h = staged([{ replicas: 2, pause: {} }, { replicas: '100%' }], { onFailure: 'Rollback' });
    const good = h.set.status?.currentRevision;
    h.setImage('app:v2');
    run(h, 10);
    assert.deepEqual(Object.values(revisions(h)), ['old', 'old', 'new', 'new']);
    h.patch({ metadata: { annotations: { [AbortAnnotation]: h.set.status?.updateRevision ?? '' } } });
    run(h, 20);
    assert.ok([...h.pods.keys()].every((name) => h.revisionOf(name) === good));
    assert.equal(progressing(h)?.reason, 'RolloutAborted');
  });

  it('the status is a fixed point in every state: planning again over it writes nothing', () => {
    const h = staged([{ replicas: 1, pause: { duration: '10s' } }, { replicas: 2, analysis: { readiness: { duration: '10s' } } }, { replicas: 3, pause: {} }, { replicas: '100%' }]);
    h.setImage('app:v2');
    run(h, 1, () => 'CrashLoopBackOff');
    run(h, 2, () => 'CrashLoopBackOff');
    h.ready('web-3');
    run(h, 3);
    h.advance(10 * SECOND);
    run(h, 6);
    h.advance(10 * SECOND);
    run(h, 6);
    h.patch(pausePatch(h.set, true));
    run(h, 2);
    h.patch(pausePatch(h.set, false));
    run(h, 2);
    h.patch({ metadata: { annotations: { [AbortAnnotation]: h.set.status?.updateRevision ?? '' } } });
    run(h, 2);
    h.patch(retryPatch(h.now));
    run(h, 2);
    h.patch(promotePatch(h.set.status, false));
    run(h, 10);
    assert.deepEqual([...h.checked].sort(), ['Analyzing', 'Baking', 'Completed', 'Failed', 'Paused', 'Updating', 'UserPause']);
  });

  it('a bake keeps watching while the user pauses: a replica that went unavailable during the pause starts it again', () => {
    const h = staged([{ replicas: 1, pause: { duration: '30s' } }, { replicas: '100%', pause: {} }]);
    h.setImage('app:v2');
    run(h, 5);
    assert.deepEqual(at(h), [0, 'Baking']);
    const started = Date.parse(h.set.status?.currentStepSince ?? '');
    h.patch(pausePatch(h.set, true));
    run(h, 1);
    h.now = started + 20 * SECOND;
    h.notReady('web-3');
    run(h, 1);
    h.ready('web-3');
    run(h, 1);
    h.now = started + 35 * SECOND;
    h.patch(pausePatch(h.set, false));
    run(h, 1);
    assert.deepEqual(at(h), [0, 'Baking'], 'web-3 was unavailable 15 s ago: the bake has 15 s to go');
    h.now = started + 52 * SECOND;
    run(h, 15);
    assert.deepEqual(at(h), [1, 'Paused']);
  });

  it('readiness: a scale-up during the window starts it again, without counting as a replica that went unavailable', () => {
    const h = staged([{ partition: 2, analysis: { readiness: { duration: '1m' } } }, { replicas: '100%', pause: {} }]);
    h.setImage('app:v2');
    run(h, 8);
    assert.deepEqual(at(h), [0, 'Analyzing']);
    h.update((s) => (s.spec.replicas = 5));
    run(h, 5);
    assert.deepEqual(at(h), [0, 'Analyzing']);
    assert.equal(h.set.status?.stepAnalysis?.failed, 0);
    assert.equal(revisions(h)['web-4'], 'new');
  });

  it('a completed rollout stays completed when steps are added (no new revision)', () => {
    const h = staged([{ replicas: 1 }]);
    h.setImage('app:v2');
    run(h, 15);
    assert.deepEqual(at(h), [1, 'Completed']);
    h.update((s) => (s.spec.updateStrategy?.rollingUpdate?.steps?.push({ replicas: 2, pause: {} })));
    run(h, 3);
    assert.deepEqual(at(h), [2, 'Completed']);
    assert.equal(progressing(h)?.reason, 'RolloutCompleted');
  });
});
