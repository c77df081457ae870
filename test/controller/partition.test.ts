// Partitions and canaries, as upstream's unit tests have them.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newSet } from './fixtures.js';
import { Harness } from './harness.js';

const imageOf = (h: Harness, name: string): string | undefined => h.must(name).spec.containers[0]?.image;

function rolledOut(h: Harness): Harness {
  h.converge();
  return h;
}

describe('RollingUpdateWithPartition (§9.C 29)', () => {
  for (const policy of ['OrderedReady', 'Parallel'] as const) {
    it(`${policy}: partition 2 of 3 updates only pod 2`, () => {
      const h = rolledOut(new Harness(newSet(3, { policy, partition: 2 }), { autoReady: true }));
      h.setImage('app:v2');
      h.converge();
      assert.deepEqual(['web-0', 'web-1', 'web-2'].map((n) => imageOf(h, n)), ['app:v1', 'app:v1', 'app:v2']);
      assert.notEqual(h.set.status?.currentRevision, h.set.status?.updateRevision);
      assert.equal(h.set.status?.currentReplicas, 2);
      assert.equal(h.set.status?.updatedReplicas, 1);
    });

    it(`${policy}: partition 2, scaled to 5 with a new image → 0,1 old and 2,3,4 new`, () => {
      const h = rolledOut(new Harness(newSet(3, { policy, partition: 2 }), { autoReady: true }));
      h.update((s) => {
        s.spec.replicas = 5;
        s.spec.template.spec.containers[0]!.image = 'app:v2';
      });
      h.converge();
      assert.deepEqual(['web-0', 'web-1', 'web-2', 'web-3', 'web-4'].map((n) => imageOf(h, n)), ['app:v1', 'app:v1', 'app:v2', 'app:v2', 'app:v2']);
    });
  }
});

describe('canary and phased rolling updates (§9.C 30)', () => {
  it('stages a revision with partition ≥ replicas, canaries pod 2, then phases down to 0', () => {
    const h = rolledOut(new Harness(newSet(3, { partition: 3 }), { autoReady: true }));
    const v1 = h.set.status?.currentRevision;
    h.setImage('app:v2');
    h.converge();
    assert.deepEqual(['web-0', 'web-1', 'web-2'].map((n) => imageOf(h, n)), ['app:v1', 'app:v1', 'app:v1']);
    assert.equal(h.set.status?.currentRevision, v1);
    assert.notEqual(h.set.status?.updateRevision, v1);
    const progressing = h.set.status?.conditions?.find((c) => c.type === 'Progressing');
    assert.equal(progressing?.reason, 'RolloutCompleted', 'a staged revision held by the partition is a completed rollout');

    h.pods.delete('web-1');
    h.converge();
    assert.equal(imageOf(h, 'web-1'), 'app:v1', 'a pod below the partition comes back at the current revision');
    assert.equal(h.revisionOf('web-1'), v1);

    for (const partition of [2, 1, 0]) {
      h.update((s) => {
        s.spec.updateStrategy!.rollingUpdate!.partition = partition;
      });
      h.converge();
      const images = ['web-0', 'web-1', 'web-2'].map((n) => imageOf(h, n));
      assert.deepEqual(images, [0, 1, 2].map((i) => (i >= partition ? 'app:v2' : 'app:v1')), `partition ${partition}`);
    }
    assert.equal(h.set.status?.currentRevision, h.set.status?.updateRevision);
    assert.equal(h.set.status?.currentReplicas, 3);
  });
});

describe('deleting a pod during a partitioned rollout (§9.C 31)', () => {
  it('recreates a pod below the partition at the current revision and one above at the update revision', () => {
    const h = rolledOut(new Harness(newSet(4, { policy: 'Parallel', partition: 2 }), { autoReady: true }));
    h.setImage('app:v2');
    h.converge();
    h.pods.delete('web-0');
    h.pods.delete('web-3');
    h.converge();
    assert.equal(imageOf(h, 'web-0'), 'app:v1');
    assert.equal(imageOf(h, 'web-3'), 'app:v2');
    assert.equal(h.revisionOf('web-3'), h.set.status?.updateRevision);
  });
});
