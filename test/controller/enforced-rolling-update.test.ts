// EnforcedRollingUpdate (KEP-3541's first design): ordered replacement of stuck old pods, the safety halt,
// condemned pods without waiting, events and metrics; the gate-off fallback.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { withFeatures } from '../../src/api/features.js';
import { toTimestamp } from '../../src/api/types.js';
import type { Plan } from '../../src/controller/model/plan-types.js';
import { features, newSet, SECOND, type SetOptions } from './fixtures.js';
import { Harness } from './harness.js';

const deleted = (p: Plan): number[] => p.actions.flatMap((a) => (a.kind === 'deletePod' ? [a.ordinal] : []));
const created = (p: Plan): number[] => p.actions.flatMap((a) => (a.kind === 'createPod' ? [a.ordinal] : []));
const reasons = (p: Plan): string[] => p.events.map((e) => e.reason);
const stuckSeconds = (p: Plan): number[] => p.actions.flatMap((a) => (a.kind === 'deletePod' && a.stuckSeconds !== undefined ? [a.stuckSeconds] : []));

function converged(opts: SetOptions = {}, replicas = 5): Harness {
  const h = new Harness(newSet(replicas, { strategy: 'EnforcedRollingUpdate', ...opts }), { autoReady: true });
  h.converge();
  (h.opts as { autoReady?: boolean }).autoReady = false;
  return h;
}

/** Rolls the broken image onto web-4, which then sits in ImagePullBackOff. */
function brokenTop(h: Harness): void {
  h.setImage('app:typo');
  h.sync();
  h.finishTerminating();
  h.sync();
  h.notReady('web-4', 'ImagePullBackOff');
}

describe('EnforcedRollingUpdate', () => {
  it('emits EnforcedRollingUpdateStarted once per new update revision and counts it', () => {
    const h = converged();
    h.setImage('app:v2');
    const first = h.sync();
    assert.deepEqual(reasons(first), ['EnforcedRollingUpdateStarted']);
    assert.equal(first.metrics.enforcedRollingUpdateStarted, true);
    const second = h.sync();
    assert.deepEqual(reasons(second), []);
    assert.equal(second.metrics.enforcedRollingUpdateStarted, false);
  });

  it('halts when the highest new-revision pod is stuck, without touching lower ordinals', () => {
    const h = converged();
    brokenTop(h);
    const halted = h.sync();
    assert.deepEqual(deleted(halted), []);
    assert.ok(halted.blockers.some((b) => b.kind === 'safetyHalt' && b.pod === 'web-4'));
    assert.deepEqual(reasons(halted), ['SafetyHalt']);
    assert.equal(halted.metrics.safetyHalt, true);
    const progressing = h.set.status?.conditions?.find((c) => c.type === 'Progressing');
    assert.equal(progressing?.status, 'False');
    assert.equal(progressing?.reason, 'SafetyHalt');
    const still = h.sync();
    assert.deepEqual(deleted(still), []);
    assert.deepEqual(reasons(still), [], 'SafetyHalt only on the transition');
    assert.equal(still.metrics.safetyHalt, false);
  });

  it('recovers after a fixed template: replaces the stuck pod (ForcedReplacement) and finishes in order', () => {
    const h = converged();
    brokenTop(h);
    h.sync();
    h.advance(SECOND);
    h.setImage('app:v3');
    const fix = h.sync();
    assert.deepEqual(deleted(fix), [4]);
    const replacement = fix.actions.find((a) => a.kind === 'deletePod');
    assert.equal(replacement?.kind === 'deletePod' ? replacement.cause : undefined, 'forced');
    assert.ok(reasons(fix).includes('ForcedReplacement'));
    assert.equal(fix.metrics.forcedReplacements, 1);
    assert.deepEqual(stuckSeconds(fix), [1]);
    (h.opts as { autoReady?: boolean }).autoReady = true;
    h.finishTerminating();
    h.converge();
    assert.deepEqual([...h.pods.values()].map((p) => p.spec.containers[0]?.image), Array(5).fill('app:v3'));
    const order = h.applied.flatMap((a) => (a.kind === 'deletePod' ? [a.ordinal] : []));
    assert.deepEqual(order, [4, 4, 3, 2, 1, 0]);
  });

  it('halts again when the new template is broken too (another unfixed configuration)', () => {
    const h = converged();
    brokenTop(h);
    h.sync();
    h.setImage('app:typo2');
    assert.deepEqual(deleted(h.sync()), [4]);
    h.finishTerminating();
    h.sync();
    h.notReady('web-4', 'ErrImagePull');
    const plan = h.sync();
    assert.deepEqual(deleted(plan), []);
    assert.ok(plan.blockers.some((b) => b.kind === 'safetyHalt'));
  });

  it('plain RollingUpdate stays stuck on the same broken pod even after a fix (the problem KEP-3541 solves)', () => {
    const h = new Harness(newSet(5), { autoReady: true });
    h.converge();
    (h.opts as { autoReady?: boolean }).autoReady = false;
    brokenTop(h);
    h.setImage('app:v3');
    for (let i = 0; i < 3; i++) {
      const plan = h.sync();
      assert.deepEqual(deleted(plan), []);
      assert.ok(plan.blockers.some((b) => b.kind === 'stuckOldRevision' && b.pod === 'web-4' && b.state === 'ImagePullBackOff'));
    }
  });

  it('halts on a new top pod that stays unavailable for progressDeadlineSeconds, waking exactly then', () => {
    const h = converged({ progressDeadlineSeconds: 120 });
    h.setImage('app:v2');
    h.sync();
    h.finishTerminating();
    h.sync();
    const createdAt = h.now;
    h.advance(30 * SECOND);
    const waiting = h.sync();
    assert.ok(!waiting.blockers.some((b) => b.kind === 'safetyHalt'));
    assert.equal(waiting.wakeAt, createdAt + 120 * SECOND);
    h.now = createdAt + 120 * SECOND;
    const halted = h.sync();
    assert.ok(halted.blockers.some((b) => b.kind === 'safetyHalt'));
  });

  it('replaces a stuck old pod in its turn without spending budget on it (OrderedReady is not blocked by it)', () => {
    const h = converged({ maxUnavailable: 1 });
    h.notReady('web-1', 'CrashLoopBackOff');
    h.setImage('app:v2');
    assert.deepEqual(deleted(h.sync()), [4]);
    (h.opts as { autoReady?: boolean }).autoReady = true;
    h.finishTerminating();
    const order: number[] = [4];
    for (let i = 0; i < 40 && order.length < 5; i++) {
      const plan = h.sync();
      order.push(...deleted(plan));
      h.finishTerminating();
      for (const [name, pod] of h.pods) if (name !== 'web-1' && pod.status?.phase === 'Pending') h.ready(name);
      h.advance(SECOND);
    }
    assert.deepEqual(order, [4, 3, 2, 1, 0]);
  });

  it('waits for every pod of a batch before the next lower batch (maxUnavailable 2)', () => {
    const h = converged({ maxUnavailable: 2 });
    h.setImage('app:v2');
    assert.deepEqual(deleted(h.sync()), [4, 3]);
    h.finishTerminating();
    assert.deepEqual(created(h.sync()), [3]);
    h.ready('web-3');
    assert.deepEqual(created(h.sync()), [4]);
    const waiting = h.sync();
    assert.deepEqual(deleted(waiting), []);
    h.ready('web-4');
    assert.deepEqual(deleted(h.sync()), [2, 1]);
  });

  it('keeps a stuck old pod below the partition (it still uses the maxUnavailable budget)', () => {
    const h = converged({ partition: 2 });
    h.notReady('web-0', 'CrashLoopBackOff');
    h.setImage('app:v2');
    const plan = h.sync();
    assert.deepEqual(deleted(plan), []);
    assert.ok(plan.blockers.some((b) => b.kind === 'brokenBelowPartition' && b.pods.includes('web-0')));
    assert.ok(plan.blockers.some((b) => b.kind === 'budgetExhausted' && b.unavailablePods.includes('web-0')));
  });

  it('deletes condemned pods without waiting for an unhealthy predecessor', () => {
    const enforced = converged();
    enforced.notReady('web-1');
    enforced.update((s) => (s.spec.replicas = 3));
    assert.deepEqual(deleted(enforced.sync()), [4]);
    const rolling = new Harness(newSet(5), { autoReady: true });
    rolling.converge();
    rolling.notReady('web-1');
    rolling.update((s) => (s.spec.replicas = 3));
    assert.deepEqual(deleted(rolling.sync()), []);
  });

  it('with EnforcedRollingUpdateInStatefulSet off: FeatureDisabled and RollingUpdate with its partition and maxUnavailable', () => {
    const off = withFeatures(features, { EnforcedRollingUpdateInStatefulSet: false });
    const h = new Harness(newSet(5, { strategy: 'EnforcedRollingUpdate', partition: 1, maxUnavailable: 2 }), { autoReady: true, features: off });
    h.converge();
    assert.ok(h.plans[0]?.events.some((e) => e.reason === 'FeatureDisabled' && /EnforcedRollingUpdateInStatefulSet/.test(e.message)));
    h.setImage('app:v2');
    const plan = h.sync();
    assert.deepEqual(deleted(plan), [4, 3]);
    assert.ok(plan.actions.every((a) => a.kind !== 'deletePod' || a.cause === 'update'));
    h.converge();
    assert.equal(h.must('web-0').spec.containers[0]?.image, 'app:v1');
  });

  it('records when a forced pod became stuck', () => {
    const h = converged();
    h.notReady('web-4', 'CrashLoopBackOff');
    h.must('web-4').status!.conditions![0]!.lastTransitionTime = toTimestamp(h.now - 90 * SECOND);
    h.setImage('app:v2');
    const plan = h.sync();
    assert.deepEqual(stuckSeconds(plan), [90]);
  });
});
