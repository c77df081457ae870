// EnforcedRollingUpdate below a partition (issue 9, item 6; KEP-3541's first design, implementation change 1): the
// OrderedReady replica pass does not wait for a broken pod, creates the missing pods at the revision the
// partition gives them, and says which broken pods the partition keeps from being replaced.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { explainWhy } from '../../src/cli/explain/why-report.js';
import type { Plan } from '../../src/controller/model/plan-types.js';
import { features, newSet, SECOND, type SetOptions } from './fixtures.js';
import { Harness } from './harness.js';

const created = (p: Plan): number[] => p.actions.flatMap((a) => (a.kind === 'createPod' ? [a.ordinal] : []));
const deleted = (p: Plan): number[] => p.actions.flatMap((a) => (a.kind === 'deletePod' ? [a.ordinal] : []));
const event = (p: Plan, reason: string) => p.events.find((e) => e.reason === reason);
const protectedBlocker = (p: Plan) => p.blockers.find((b) => b.kind === 'brokenBelowPartition');

/** The kubelet's side: pods created below the partition (current, broken revision) crash-loop, the others become Ready. */
function settle(h: Harness, plan: Plan): void {
  for (const o of created(plan)) {
    if (o < 3) h.notReady(`web-${o}`, 'CrashLoopBackOff');
    else h.ready(`web-${o}`);
  }
}

/** Issue 9.6: 6 replicas, partition 3, the first template crash-loops, so only web-0 exists; then a fixed template. */
function stalled(opts: SetOptions = {}): { h: Harness; broken: string } {
  const h = new Harness(newSet(6, { strategy: 'EnforcedRollingUpdate', partition: 3, image: 'app:crash', ...opts }));
  assert.deepEqual(created(h.sync()), [0]);
  h.advance(2 * SECOND);
  h.notReady('web-0', 'CrashLoopBackOff');
  assert.deepEqual(created(h.sync()), [], 'no update yet: the pass waits for web-0 as upstream does');
  const broken = h.revisionOf('web-0');
  h.advance(60 * SECOND);
  h.setImage('app:v2');
  return { h, broken };
}

describe('EnforcedRollingUpdate below a partition', () => {
  it('creates the next pod past a crash-looping pod below the partition, at the current revision, and says why', () => {
    const { h, broken } = stalled();
    const plan = h.sync();
    assert.deepEqual(created(plan), [1]);
    assert.equal(h.revisionOf('web-1'), broken, 'below the partition a new pod gets the current revision');
    const skipped = event(plan, 'SkippedBrokenPod');
    assert.equal(skipped?.type, 'Warning');
    assert.match(skipped?.message ?? '', /create Pod web-1 in StatefulSet web without waiting for Pod web-0 \(CrashLoopBackOff/);
    assert.match(skipped?.message ?? '', /below partition 3/);
    assert.deepEqual(protectedBlocker(plan), { kind: 'brokenBelowPartition', partition: 3, pods: ['web-0'], count: 1 });
    assert.deepEqual(deleted(plan), [], 'the partition protects web-0');
  });

  it('finishes the update range on the update revision and leaves the broken pods below the partition alone', () => {
    const { h, broken } = stalled();
    const order: number[] = [];
    for (let i = 0; i < 20 && h.pods.size < 6; i++) {
      const plan = h.sync();
      order.push(...created(plan));
      assert.deepEqual(deleted(plan), []);
      h.advance(2 * SECOND);
      settle(h, plan);
    }
    assert.deepEqual(order, [1, 2, 3, 4, 5]);
    const last = h.sync();
    assert.deepEqual(last.actions.filter((a) => a.kind === 'createPod' || a.kind === 'deletePod'), []);
    const update = h.set.status?.updateRevision;
    assert.notEqual(update, broken);
    assert.deepEqual([0, 1, 2].map((o) => h.revisionOf(`web-${o}`)), [broken, broken, broken]);
    assert.deepEqual([3, 4, 5].map((o) => h.revisionOf(`web-${o}`)), [update, update, update]);
    assert.deepEqual(protectedBlocker(last), { kind: 'brokenBelowPartition', partition: 3, pods: ['web-0', 'web-1', 'web-2'], count: 3 });
    assert.ok(last.blockers.some((b) => b.kind === 'partition' && b.heldBack === 3));
    const why = explainWhy({ set: h.set, pods: [...h.pods.values()], plan: last, now: h.now, features });
    assert.match(why.paragraph, /web-0 \(CrashLoopBackOff\), web-1 \(CrashLoopBackOff\), web-2 \(CrashLoopBackOff\) are broken on the old revision below partition 3, so EnforcedRollingUpdate does not replace them: lower the partition to replace them/);
    assert.ok(why.rows.find((r) => r.pod === 'web-1')?.notes.includes('broken below the partition: not replaced'));
  });

  it('replaces the broken pods once the partition is lowered (ForcedReplacement, highest first, one batch at a time)', () => {
    const { h } = stalled();
    for (let i = 0; i < 20 && h.pods.size < 6; i++) {
      const plan = h.sync();
      h.advance(2 * SECOND);
      settle(h, plan);
    }
    h.update((s) => (s.spec.updateStrategy = { type: 'EnforcedRollingUpdate', enforcedRollingUpdate: { partition: 0, maxUnavailable: 1 } }));
    const before = h.plans.length;
    const lowered = h.sync();
    assert.deepEqual(deleted(lowered), [2]);
    assert.ok(lowered.actions.every((a) => a.kind !== 'deletePod' || a.cause === 'forced'));
    assert.ok(event(lowered, 'ForcedReplacement'));
    assert.equal(protectedBlocker(lowered), undefined);
    (h.opts as { autoReady?: boolean }).autoReady = true;
    h.finishTerminating();
    h.converge();
    const order = h.applied.flatMap((a) => (a.kind === 'deletePod' ? [a.ordinal] : []));
    assert.deepEqual(order, [2, 1, 0]);
    const recreated = h.plans.slice(before).flatMap((p) => p.events).find((e) => e.reason === 'SkippedBrokenPod' && /create Pod web-2 /.test(e.message));
    assert.equal(recreated?.type, 'Normal', 'no partition holds them any more');
    assert.match(recreated?.message ?? '', /without waiting for Pods web-0 \(CrashLoopBackOff\), web-1 \(CrashLoopBackOff\); web-0, web-1 are replaced in their turn$/);
    assert.ok([...h.pods.values()].every((p) => p.spec.containers[0]?.image === 'app:v2'));
  });

  it('still waits for a pod below the partition that is only starting, and passes it once unavailable for progressDeadlineSeconds', () => {
    const h = new Harness(newSet(6, { strategy: 'EnforcedRollingUpdate', partition: 3, progressDeadlineSeconds: 120 }));
    h.sync();
    const createdAt = h.now;
    h.setImage('app:v2');
    h.advance(30 * SECOND);
    const waiting = h.sync();
    assert.deepEqual(created(waiting), [], 'web-0 is Pending without a failure reason: OrderedReady waits');
    assert.ok(waiting.blockers.some((b) => b.kind === 'podNotRunningAndReady' && b.pod === 'web-0'));
    assert.equal(waiting.wakeAt, createdAt + 120 * SECOND, 'looks again when web-0 counts as broken');
    h.now = createdAt + 120 * SECOND;
    const passed = h.sync();
    assert.deepEqual(created(passed), [1]);
    assert.match(event(passed, 'SkippedBrokenPod')?.message ?? '', /web-0 \(NotAvailableWithinProgressDeadline/);
  });

  it('waits for a broken pod on the update revision: a broken template does not fill the set', () => {
    const { h } = stalled();
    for (let i = 0; i < 20 && h.pods.size < 4; i++) {
      const plan = h.sync();
      h.advance(2 * SECOND);
      for (const o of created(plan)) h.notReady(`web-${o}`, 'CrashLoopBackOff');
    }
    assert.equal(h.revisionOf('web-3'), h.set.status?.updateRevision);
    h.advance(3600 * SECOND);
    const plan = h.sync();
    assert.deepEqual(created(plan), [], 'web-4 waits for web-3, the first pod of the new revision');
    assert.ok(plan.blockers.some((b) => b.kind === 'podNotRunningAndReady' && b.pod === 'web-3'));
    assert.deepEqual(protectedBlocker(plan), { kind: 'brokenBelowPartition', partition: 3, pods: ['web-0', 'web-1', 'web-2'], count: 3 });
  });

  it('RollingUpdate keeps upstream behaviour: the pass waits for the crash-looping pod below the partition', () => {
    const h = new Harness(newSet(6, { partition: 3, image: 'app:crash' }));
    h.sync();
    h.notReady('web-0', 'CrashLoopBackOff');
    h.setImage('app:v2');
    for (let i = 0; i < 3; i++) {
      const plan = h.sync();
      assert.deepEqual(created(plan), []);
      assert.ok(plan.blockers.some((b) => b.kind === 'podNotRunningAndReady' && b.pod === 'web-0'));
      assert.equal(event(plan, 'SkippedBrokenPod'), undefined);
      h.advance(600 * SECOND);
    }
  });
});
