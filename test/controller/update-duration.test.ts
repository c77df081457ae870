// PlanMetrics.updateCompletedSeconds (statefulset_update_duration_seconds): reported once per rollout, on
// the sync where every replica is updated and available — after minReadySeconds, not at the promotion of
// currentRevision (updated and Ready) — and never for a scale.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Plan } from '../../src/controller/model/plan-types.js';
import { newSet, SECOND } from './fixtures.js';
import { Harness } from './harness.js';

/** Syncs like Harness.converge, keeping each plan and the instant it was made. */
function run(h: Harness, syncs = 60): { at: number; plan: Plan }[] {
  const plans: { at: number; plan: Plan }[] = [];
  for (let i = 0; i < syncs; i++) {
    const at = h.now;
    const plan = h.sync();
    plans.push({ at, plan });
    h.finishTerminating();
    h.readyAll();
    h.advance(SECOND);
  }
  return plans;
}

describe('update duration', () => {
  it('ends when the last updated pod is available, minReadySeconds after the promotion', () => {
    const h = new Harness(newSet(3, { minReadySeconds: 30, claims: false }), { autoReady: true });
    h.converge();
    h.advance(60 * SECOND);
    const start = h.now;
    h.setImage('app:v2');
    const plans = run(h, 120);
    const promoted = plans.find(({ plan }) => plan.status.currentRevision === plan.status.updateRevision && plan.status.updatedReplicas === 3);
    const reported = plans.filter(({ plan }) => plan.metrics.updateCompletedSeconds !== undefined);
    assert.ok(promoted !== undefined);
    assert.equal(reported.length, 1, 'one rollout, one observation');
    const [done] = reported;
    assert.equal(done?.plan.status.availableReplicas, 3);
    assert.ok((done?.at ?? 0) > promoted.at, 'after the promotion: the last pod waits minReadySeconds');
    assert.equal(done?.at, plans.find(({ plan }) => plan.status.availableReplicas === 3 && plan.status.updatedReplicas === 3)?.at);
    assert.equal(done?.plan.metrics.updateCompletedSeconds, ((done?.at ?? 0) - start) / 1000);
  });

  it('says the rollout, not a scale, is under way while the promoted pods become available', () => {
    const h = new Harness(newSet(2, { minReadySeconds: 30, claims: false }), { autoReady: true });
    h.converge();
    h.setImage('app:v2');
    const plans = run(h, 120);
    const waiting = plans.find(({ plan }) => plan.status.currentRevision === plan.status.updateRevision && (plan.status.availableReplicas ?? 0) < 2);
    const progressing = waiting?.plan.status.conditions?.find((c) => c.type === 'Progressing');
    assert.match(progressing?.message ?? '', /^RollingUpdate to revision \S+: 2 of 2 pods updated, [01] available$/);
  });

  it('knows the rollout from its revisions, not from the text the condition says', () => {
    const h = new Harness(newSet(2, { minReadySeconds: 30, claims: false }), { autoReady: true });
    h.converge();
    h.setImage('app:v2');
    let plans = run(h, 1);
    while (plans.at(-1)?.plan.status.currentRevision !== plans.at(-1)?.plan.status.updateRevision) plans = run(h, 1);
    // Another writer (or an older Ordinal) left a message of its own on the condition.
    const progressing = h.set.status?.conditions?.find((c) => c.type === 'Progressing');
    assert.ok(progressing !== undefined && (h.set.status?.availableReplicas ?? 0) < 2);
    progressing.message = 'rolling';
    const next = h.sync().status.conditions?.find((c) => c.type === 'Progressing');
    assert.match(next?.message ?? '', /^RollingUpdate to revision \S+: 2 of 2 pods updated, [01] available$/);
  });

  it('is reported for a staged rollout whose last step waits after every pod is updated', () => {
    const set = newSet(3, { claims: false });
    (set.spec.updateStrategy as { rollingUpdate: { steps: unknown[] } }).rollingUpdate.steps = [{ replicas: 1, pause: { duration: '10s' } }, { replicas: '100%', pause: { duration: '20s' } }];
    const h = new Harness(set, { autoReady: true });
    h.converge();
    const start = h.now;
    h.setImage('app:v2');
    const plans = run(h, 120);
    const reported = plans.filter(({ plan }) => plan.metrics.updateCompletedSeconds !== undefined);
    assert.equal(reported.length, 1, 'one staged rollout, one observation');
    const [done] = reported;
    assert.equal(done?.plan.status.currentStepState, 'Completed');
    assert.equal(done?.plan.metrics.updateCompletedSeconds, ((done?.at ?? 0) - start) / 1000);
  });

  it('is reported for a rollout that was slower than forecast', () => {
    const h = new Harness(newSet(3, { claims: false }));
    h.converge();
    h.durations = { start: Array<number>(10).fill(1), termination: Array<number>(10).fill(1) };
    const start = h.now;
    h.setImage('app:v2');
    const plans: { at: number; plan: Plan }[] = [];
    for (let i = 0; i < 80; i++) {
      plans.push({ at: h.now, plan: h.sync() });
      h.finishTerminating();
      // the new pods take 10 s to be Ready where the set's took 1 s
      for (const [name, pod] of h.pods) if (pod.status?.phase === 'Pending' && h.now - Date.parse(pod.metadata.creationTimestamp ?? '') >= 10 * SECOND) h.ready(name);
      h.advance(SECOND);
    }
    assert.ok(plans.some(({ plan }) => plan.status.conditions?.some((c) => c.reason === 'SlowerThanForecast')), 'the rollout was slower than forecast');
    const reported = plans.filter(({ plan }) => plan.metrics.updateCompletedSeconds !== undefined);
    assert.equal(reported.length, 1, 'it completed: one observation');
    assert.equal(reported[0]?.plan.metrics.updateCompletedSeconds, ((reported[0]?.at ?? 0) - start) / 1000);
  });

  it('is not reported for a scale', () => {
    const h = new Harness(newSet(2, { minReadySeconds: 30, claims: false }), { autoReady: true });
    h.converge();
    h.update((s) => (s.spec.replicas = 4));
    const plans = run(h, 120);
    assert.ok(plans.some(({ plan }) => plan.status.availableReplicas === 4));
    assert.deepEqual(plans.flatMap(({ plan }) => plan.metrics.updateCompletedSeconds ?? []), []);
  });
});
