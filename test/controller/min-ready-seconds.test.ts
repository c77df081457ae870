// minReadySeconds (KEP-2599), availableReplicas and the exact wakeAt.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { planStatefulSet } from '../../src/controller/plan/plan-statefulset.js';
import type { Plan } from '../../src/controller/model/plan-types.js';
import { unavailableOrdinals } from '../../src/controller/checks/invariants.js';
import { features, newSet, observe, podFor, readyPods, revisionOf, SECOND, T0, withImage, withStatus, type SetOptions } from './fixtures.js';
import { Harness } from './harness.js';

const MINUTE = 60 * SECOND;
const deletions = (plan: Plan): number => plan.actions.filter((a) => a.kind === 'deletePod').length;

function afterImageChange(replicas: number, opts: SetOptions, readySince: number, now = T0): Plan {
  const v1 = newSet(replicas, opts);
  const pods = readyPods(v1, replicas, { readySince });
  const rev = revisionOf(v1).metadata.name ?? '';
  const v2 = withStatus(withImage(v1, 'app:v2'), { replicas, readyReplicas: replicas, currentReplicas: replicas, updatedReplicas: replicas, currentRevision: rev, updateRevision: rev });
  return planStatefulSet(observe(v2, pods, { revisions: [revisionOf(v1)] }), now, features);
}

describe('availableReplicas and minReadySeconds (§9.D)', () => {
  it('counts a pod Ready for 120 minutes as available with minReadySeconds 3600 (32)', () => {
    const set = newSet(1, { minReadySeconds: 3600 });
    const plan = planStatefulSet(observe(set, [podFor(set, 0, { readySince: T0 - 120 * MINUTE })]), T0, features);
    assert.equal(plan.status.availableReplicas, 1);
    assert.equal(plan.wakeAt, undefined);
  });

  it('does not count a pod Ready for 30 minutes, and wakes exactly when it becomes available (32)', () => {
    const set = newSet(1, { minReadySeconds: 3600 });
    const plan = planStatefulSet(observe(set, [podFor(set, 0, { readySince: T0 - 30 * MINUTE })]), T0, features);
    assert.equal(plan.status.availableReplicas, 0);
    assert.equal(plan.status.readyReplicas, 1);
    assert.equal(plan.wakeAt, T0 + 30 * MINUTE);
  });

  it('treats the boundary instant as available', () => {
    const set = newSet(1, { minReadySeconds: 30 });
    const plan = planStatefulSet(observe(set, [podFor(set, 0, { readySince: T0 - 30 * SECOND })]), T0, features);
    assert.equal(plan.status.availableReplicas, 1);
  });

  it('does not delete for an update until pods are available, then proceeds (33)', () => {
    const waiting = afterImageChange(2, { minReadySeconds: 30 }, T0 - 10 * SECOND);
    assert.equal(waiting.status.availableReplicas, 0);
    assert.equal(deletions(waiting), 0);
    assert.equal(waiting.wakeAt, T0 + 20 * SECOND);
    assert.ok(waiting.blockers.some((b) => b.kind === 'podNotAvailable' && b.availableAt === T0 + 20 * SECOND));
    const ready = afterImageChange(2, { minReadySeconds: 30 }, T0 - 60 * SECOND);
    assert.equal(ready.status.availableReplicas, 2);
    assert.equal(deletions(ready), 1);
  });

  it('waits for availability before scaling down under OrderedReady (34)', () => {
    const set = { ...newSet(1, { minReadySeconds: 30 }) };
    const pods = readyPods(newSet(3, { minReadySeconds: 30 }), 3, { readySince: T0 - 10 * SECOND });
    const plan = planStatefulSet(observe(set, pods), T0, features);
    assert.equal(plan.status.availableReplicas, 0);
    assert.equal(deletions(plan), 0);
    assert.equal(plan.wakeAt, T0 + 20 * SECOND);
  });

  it('OnDelete ignores minReadySeconds for updates: no deletion, new updateRevision (35)', () => {
    const plan = afterImageChange(2, { minReadySeconds: 30, strategy: 'OnDelete' }, T0 - 10 * SECOND);
    assert.equal(plan.status.availableReplicas, 0);
    assert.equal(deletions(plan), 0);
    assert.notEqual(plan.status.updateRevision, plan.status.currentRevision);
  });

  it('counts pods Ready right now as available with minReadySeconds 0 (36)', () => {
    const set = newSet(2, { minReadySeconds: 0 });
    const plan = planStatefulSet(observe(set, readyPods(set, 2, { readySince: T0 })), T0, features);
    assert.equal(plan.status.availableReplicas, 2);
    assert.equal(plan.wakeAt, undefined);
  });

  it('keeps all 4 pods of a partitioned update while none is available (37)', () => {
    const plan = afterImageChange(4, { minReadySeconds: 30, partition: 2 }, T0 - 10 * SECOND);
    assert.equal(plan.status.availableReplicas, 0);
    assert.equal(deletions(plan), 0);
  });

  it('counts ready 3 and available 2 for one not ready, one just ready, two long ready (38)', () => {
    const set = newSet(4, { minReadySeconds: 3600, policy: 'Parallel' });
    const pods = [podFor(set, 0, { ready: false }), podFor(set, 1, { readySince: T0 }), podFor(set, 2), podFor(set, 3)];
    pods[2]!.status!.conditions![0]!.lastTransitionTime = new Date(T0 - 2 * 3600 * SECOND).toISOString();
    pods[3]!.status!.conditions![0]!.lastTransitionTime = new Date(T0 - 2 * 3600 * SECOND).toISOString();
    const plan = planStatefulSet(observe(set, pods), T0, features);
    assert.equal(plan.status.readyReplicas, 3);
    assert.equal(plan.status.availableReplicas, 2);
    assert.equal(plan.wakeAt, T0 + 3600 * SECOND);
  });

  it('lets availableReplicas lag readyReplicas by exactly minReadySeconds (39)', () => {
    const h = new Harness(newSet(1, { minReadySeconds: 30 }));
    h.sync();
    h.ready('web-0');
    const first = h.sync();
    assert.equal(first.status.readyReplicas, 1);
    assert.equal(first.status.availableReplicas, 0);
    assert.equal(first.wakeAt, h.now + 30 * SECOND);
    h.now = first.wakeAt as number;
    const second = h.sync();
    assert.equal(second.status.availableReplicas, 1);
  });
});

describe('Parallel with maxUnavailable 1 and minReadySeconds 300 (#112307, §9.D 40)', () => {
  it('never lets availability drop below 4 and deletes the next pod only 300 s after the previous became Ready', () => {
    const h = new Harness(newSet(5, { policy: 'Parallel', maxUnavailable: 1, minReadySeconds: 300 }), { autoReady: true });
    h.converge();
    h.advance(301 * SECOND);
    h.sync();
    (h.opts as { autoReady?: boolean }).autoReady = false;
    h.setImage('app:v2');
    const deletedAt: number[] = [];
    for (let step = 0; step < 400; step++) {
      const plan = h.sync();
      if (h.set.status?.currentRevision === h.set.status?.updateRevision) break;
      if (plan.actions.some((a) => a.kind === 'deletePod')) deletedAt.push(h.now);
      assert.ok(unavailableOrdinals(h.set, [...h.pods.values()].filter((p) => !p.metadata.deletionTimestamp), h.now) <= 1);
      h.finishTerminating();
      for (const [name, pod] of h.pods) if (pod.status?.phase === 'Pending') h.ready(name);
      h.now = plan.wakeAt !== undefined && plan.wakeAt > h.now ? plan.wakeAt : h.now + SECOND;
    }
    assert.equal(deletedAt.length, 5);
    for (let i = 1; i < deletedAt.length; i++) assert.ok(deletedAt[i]! - deletedAt[i - 1]! >= 300 * SECOND, `gap ${i}`);
  });
});
