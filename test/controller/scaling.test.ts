// Upstream's TestStatefulSetControl behaviour matrix (OrderedReady and Parallel ×
// PVC retention policies) and the e2e/integration scaling cases, over several syncs.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Labels } from '../../src/api/types.js';
import type { Action } from '../../src/controller/model/plan-types.js';
import { newSet, type SetOptions } from './fixtures.js';
import { Harness } from './harness.js';

type Policy = 'OrderedReady' | 'Parallel';
const policies: Policy[] = ['OrderedReady', 'Parallel'];
const retentions: (SetOptions['retention'] | undefined)[] = [
  { whenDeleted: 'Retain', whenScaled: 'Retain' },
  { whenDeleted: 'Retain', whenScaled: 'Delete' },
  { whenDeleted: 'Delete', whenScaled: 'Retain' },
  { whenDeleted: 'Delete', whenScaled: 'Delete' },
  undefined,
];
const label = (r: SetOptions['retention'] | undefined): string => (r ? `${r.whenDeleted}/${r.whenScaled}` : 'nil policy');
const count = (h: Harness, kind: Action['kind']): number => h.applied.filter((a) => a.kind === kind).length;

function created(policy: Policy, replicas: number, retention?: SetOptions['retention']): Harness {
  const h = new Harness(newSet(replicas, { policy, ...(retention ? { retention } : {}) }), { autoReady: true });
  h.converge();
  return h;
}

for (const policy of policies) {
  for (const retention of retentions) {
    describe(`TestStatefulSetControl ${policy} × ${label(retention)} (§9.E 41)`, () => {
      it('creates 3 pods with pod-index labels and reports 3 replicas, ready and updated', () => {
        const h = created(policy, 3, retention);
        assert.deepEqual(h.ordinals(), [0, 1, 2]);
        for (const [name, pod] of h.pods) assert.equal(pod.metadata.labels?.[Labels.podIndex], name.slice(4));
        assert.equal(h.set.status?.replicas, 3);
        assert.equal(h.set.status?.readyReplicas, 3);
        assert.equal(h.set.status?.updatedReplicas, 3);
      });

      it('scales up from 3 to 4', () => {
        const h = created(policy, 3, retention);
        h.update((s) => (s.spec.replicas = 4));
        h.converge();
        assert.deepEqual(h.ordinals(), [0, 1, 2, 3]);
        assert.equal(h.set.status?.replicas, 4);
      });

      it('scales down to 0', () => {
        const h = created(policy, 3, retention);
        h.update((s) => (s.spec.replicas = 0));
        h.converge();
        assert.deepEqual(h.ordinals(), []);
        assert.equal(h.set.status?.replicas, 0);
      });

      it('replaces deleted pods 0, 2 and 4 without giving live claims a pod owner reference', () => {
        const h = created(policy, 5, retention);
        for (const n of ['web-0', 'web-2', 'web-4']) h.pods.delete(n);
        h.converge();
        assert.deepEqual(h.ordinals(), [0, 1, 2, 3, 4]);
        for (const claim of h.claims.values()) {
          assert.ok(!(claim.metadata.ownerReferences ?? []).some((r) => r.kind === 'Pod'), `${claim.metadata.name} has no pod owner`);
        }
      });

      for (const phase of ['Failed', 'Succeeded'] as const) {
        it(`deletes a ${phase} pod 0 and recreates it on the following sync`, () => {
          const h = new Harness(newSet(3, { policy, ...(retention ? { retention } : {}) }));
          h.sync();
          h.phase('web-0', phase);
          const del = h.sync();
          assert.deepEqual(del.actions.filter((a) => a.kind === 'deletePod').map((a) => a.kind === 'deletePod' && a.ordinal), [0]);
          h.finishTerminating();
          h.sync();
          assert.equal(h.must('web-0').status?.phase, 'Pending');
          assert.equal(count(h, 'createPod'), policy === 'OrderedReady' ? 2 : 4);
        });
      }
    });
  }
}

describe('failures are retried on the next sync (§9.E 41, 44)', () => {
  for (const policy of policies) {
    it(`${policy}: a failed deletion of a Failed pod is retried`, () => {
      const h = created(policy, 3);
      h.phase('web-0', 'Failed');
      let failures = 1;
      h.sync((a) => a.kind === 'deletePod' && failures-- > 0);
      assert.equal(h.terminatingOrdinals().length, 0);
      h.sync();
      assert.deepEqual(h.terminatingOrdinals(), [0]);
    });

    it(`${policy}: two failed creations, then success`, () => {
      const h = new Harness(newSet(3, { policy }), { autoReady: true });
      let failures = 2;
      h.sync((a) => a.kind === 'createPod' && failures-- > 0);
      h.sync((a) => a.kind === 'createPod' && failures-- > 0);
      h.converge();
      assert.deepEqual(h.ordinals(), [0, 1, 2]);
    });

    it(`${policy}: two failed deletions during scale-down, then completion to 0`, () => {
      const h = created(policy, 3);
      h.update((s) => (s.spec.replicas = 0));
      let failures = 2;
      h.sync((a) => a.kind === 'deletePod' && failures-- > 0);
      h.finishTerminating();
      h.sync((a) => a.kind === 'deletePod' && failures-- > 0);
      h.finishTerminating();
      h.converge();
      assert.deepEqual(h.ordinals(), []);
    });

    it(`${policy}: a pod whose identity was mutated is updated back, also after a failed update`, () => {
      const h = created(policy, 3);
      h.must('web-1').metadata.labels![Labels.podName] = 'wrong';
      const failed = h.sync((a) => a.kind === 'updatePod');
      assert.ok(failed.actions.some((a) => a.kind === 'updatePod'));
      assert.equal(h.must('web-1').metadata.labels?.[Labels.podName], 'wrong');
      h.sync();
      assert.equal(h.must('web-1').metadata.labels?.[Labels.podName], 'web-1');
      assert.deepEqual(h.sync().actions.filter((a) => a.kind === 'updatePod'), []);
    });

    it(`${policy}: recreates the missing claim of a Pending pod`, () => {
      const h = created(policy, 3);
      h.phase('web-1', 'Pending');
      h.claims.delete('data-web-1');
      const plan = h.sync();
      assert.ok(plan.actions.some((a) => a.kind === 'createClaim' && a.claim.metadata.name === 'data-web-1'));
      assert.ok(h.claims.has('data-web-1'));
    });
  }

  it('a rejected pod creation leaves status.replicas at 0 and is retried (§9.E 49)', () => {
    const h = new Harness(newSet(1));
    h.sync((a) => a.kind === 'createPod');
    assert.equal(h.set.status?.replicas, 0);
    const retry = h.sync();
    assert.ok(retry.actions.some((a) => a.kind === 'createPod'));
  });
});

describe('OrderedReady scaling order and halting (§9.E 42, 45, 47, 48)', () => {
  it('halts scale-up while pod 0 is unhealthy, then creates 1 and 2 in order', () => {
    const h = new Harness(newSet(1), { autoReady: true });
    h.converge();
    h.update((s) => (s.spec.replicas = 3));
    h.notReady('web-0');
    for (let i = 0; i < 3; i++) assert.deepEqual(h.sync().actions.filter((a) => a.kind === 'createPod'), []);
    h.ready('web-0');
    const order: number[] = [];
    for (let i = 0; i < 10; i++) {
      const plan = h.sync();
      order.push(...plan.actions.flatMap((a) => (a.kind === 'createPod' ? [a.ordinal] : [])));
    }
    assert.deepEqual(order, [1, 2]);
  });

  it('scales down 2, 1, 0 one at a time and halts while a remaining pod is unhealthy', () => {
    const h = created('OrderedReady', 3);
    h.update((s) => (s.spec.replicas = 0));
    h.notReady('web-1');
    const first = h.sync();
    assert.deepEqual(first.actions.filter((a) => a.kind === 'deletePod').map((a) => a.kind === 'deletePod' && a.ordinal), [2]);
    h.finishTerminating();
    // web-1 is the first unavailable pod, so it may go; web-0 then waits for nothing
    const order: number[] = [2];
    for (let i = 0; i < 6; i++) {
      const plan = h.sync();
      order.push(...plan.actions.flatMap((a) => (a.kind === 'deletePod' ? [a.ordinal] : [])));
      h.finishTerminating();
    }
    assert.deepEqual(order, [2, 1, 0]);
  });

  it('waits while a higher condemned pod is unhealthy and not the first unavailable pod (§3.5 example)', () => {
    const h = created('OrderedReady', 6);
    h.update((s) => (s.spec.replicas = 3));
    h.notReady('web-5');
    h.notReady('web-3');
    const plan = h.sync();
    assert.deepEqual(plan.actions.filter((a) => a.kind === 'deletePod'), []);
    assert.ok(plan.blockers.some((b) => b.kind === 'podNotRunningAndReady' && b.pod === 'web-5'));
  });

  it('does not replace a terminating pod until it is gone, then recreates it', () => {
    const h = created('OrderedReady', 3);
    h.must('web-1').metadata.deletionTimestamp = new Date(h.now).toISOString();
    const plan = h.sync();
    assert.deepEqual(plan.actions.filter((a) => a.kind === 'createPod'), []);
    assert.ok(plan.blockers.some((b) => b.kind === 'podTerminating' && b.pod === 'web-1'));
    h.finishTerminating();
    h.converge();
    assert.deepEqual(h.ordinals(), [0, 1, 2]);
  });

  it('recreates an evicted (Failed) pod with the same name', () => {
    const h = created('OrderedReady', 2);
    const uid = h.must('web-0').metadata.uid;
    h.phase('web-0', 'Failed');
    h.converge();
    assert.notEqual(h.must('web-0').metadata.uid, uid);
  });

  it('does not deadlock when a pod fails while its successor is still starting (§9.E 47)', () => {
    const h = new Harness(newSet(2));
    h.sync();
    h.ready('web-0');
    h.sync();
    h.phase('web-0', 'Failed');
    const plan = h.sync();
    assert.deepEqual(plan.actions.flatMap((a) => (a.kind === 'deletePod' ? [a.ordinal] : [])), [0]);
    h.finishTerminating();
    assert.deepEqual(h.sync().actions.flatMap((a) => (a.kind === 'createPod' ? [a.ordinal] : [])), [0]);
  });

  it('tracks spec.replicas changes and observedGeneration in status', () => {
    const h = created('OrderedReady', 2);
    h.update((s) => (s.spec.replicas = 4));
    h.sync();
    assert.equal(h.set.status?.observedGeneration, h.set.metadata.generation);
    h.converge();
    assert.equal(h.set.status?.replicas, 4);
  });
});

describe('Parallel scaling (§9.E 46)', () => {
  it('creates every missing pod even while others are unhealthy', () => {
    const h = new Harness(newSet(2, { policy: 'Parallel' }));
    h.sync();
    h.notReady('web-0', 'CrashLoopBackOff');
    h.update((s) => (s.spec.replicas = 5));
    const plan = h.sync();
    assert.deepEqual(plan.actions.flatMap((a) => (a.kind === 'createPod' ? [a.ordinal] : [])), [2, 3, 4]);
  });
});
