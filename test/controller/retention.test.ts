// Claim owner references for the retention policy, the
// stale-claim guard, claims being deleted, and spec.ordinals.start.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { toTimestamp, type PersistentVolumeClaim } from '../../src/api/types.js';
import { pvcRetention } from '../../src/controller/checks/invariants.js';
import { planStatefulSet } from '../../src/controller/plan/plan-statefulset.js';
import { features, newSet, observe, readyPods, T0, type SetOptions } from './fixtures.js';
import { Harness } from './harness.js';

type Retention = NonNullable<SetOptions['retention']>;
const owners = (c: PersistentVolumeClaim | undefined): string[] => (c?.metadata.ownerReferences ?? []).map((r) => `${r.kind}/${r.name}${r.controller ? '*' : ''}`);

function scaledDown(retention: Retention): { h: Harness; condemnedOwners: string[][] } {
  const h = new Harness(newSet(3, { retention }), { autoReady: true });
  h.converge();
  h.update((s) => (s.spec.replicas = 1));
  const condemnedOwners: string[][] = [];
  // the first scale-down sync fixes every condemned claim before deleting the highest pod
  h.sync();
  condemnedOwners.push(owners(h.claims.get('data-web-2')), owners(h.claims.get('data-web-1')));
  return { h, condemnedOwners };
}

describe('retention policy owner references (§9.G 57)', () => {
  it('Retain/Retain: no set or pod references', () => {
    const { h, condemnedOwners } = scaledDown({ whenDeleted: 'Retain', whenScaled: 'Retain' });
    assert.deepEqual(owners(h.claims.get('data-web-0')), []);
    assert.deepEqual(condemnedOwners, [[], []]);
  });

  it('whenDeleted Delete: every claim is controlled by the set', () => {
    const { h, condemnedOwners } = scaledDown({ whenDeleted: 'Delete', whenScaled: 'Retain' });
    assert.deepEqual(owners(h.claims.get('data-web-0')), ['StatefulSet/web*']);
    assert.deepEqual(condemnedOwners, [['StatefulSet/web*'], ['StatefulSet/web*']]);
  });

  it('whenScaled Delete: condemned claims are owned by their pod, live claims by nobody', () => {
    const { h, condemnedOwners } = scaledDown({ whenDeleted: 'Retain', whenScaled: 'Delete' });
    assert.deepEqual(owners(h.claims.get('data-web-0')), []);
    assert.deepEqual(condemnedOwners, [['Pod/web-2*'], ['Pod/web-1*']]);
    assert.equal(h.claims.get('data-web-2')?.metadata.ownerReferences?.[0]?.uid, h.must('web-2').metadata.uid);
  });

  it('Delete/Delete: live claims owned by the set only, condemned claims by their pod only', () => {
    const { h, condemnedOwners } = scaledDown({ whenDeleted: 'Delete', whenScaled: 'Delete' });
    assert.deepEqual(owners(h.claims.get('data-web-0')), ['StatefulSet/web*']);
    assert.deepEqual(condemnedOwners, [['Pod/web-2*'], ['Pod/web-1*']]);
  });

  it('fixes condemned claims in batches before the deletion of their pod', () => {
    const h = new Harness(newSet(3, { retention: { whenDeleted: 'Retain', whenScaled: 'Delete' } }), { autoReady: true });
    h.converge();
    h.update((s) => (s.spec.replicas = 1));
    const plan = h.sync();
    const claimBatches = plan.actions.filter((a) => a.kind === 'updateClaim').map((a) => a.batch);
    const deleteBatch = plan.actions.find((a) => a.kind === 'deletePod')?.batch ?? -1;
    assert.equal(claimBatches.length, 2);
    assert.ok(claimBatches.every((b) => b < deleteBatch));
  });

  it('moves a live claim back to the policy when the policy changes', () => {
    const h = new Harness(newSet(2, { retention: { whenDeleted: 'Retain', whenScaled: 'Retain' } }), { autoReady: true });
    h.converge();
    h.update((s) => (s.spec.persistentVolumeClaimRetentionPolicy = { whenDeleted: 'Delete', whenScaled: 'Retain' }));
    h.converge();
    assert.deepEqual(owners(h.claims.get('data-web-1')), ['StatefulSet/web*']);
    assert.deepEqual(pvcRetention(h.set, [...h.pods.values()], [...h.claims.values()]), []);
    // a fix of claims alone does not rewrite the pod
    assert.ok(!h.applied.some((a) => a.kind === 'updatePod'));
  });

  it('leaves a claim managed by another controller alone and says so', () => {
    const set = newSet(1, { retention: { whenDeleted: 'Delete', whenScaled: 'Retain' } });
    const pods = readyPods(set, 1);
    const claim: PersistentVolumeClaim = {
      metadata: { name: 'data-web-0', namespace: 'default', ownerReferences: [{ apiVersion: 'v1', kind: 'Thing', name: 'x', uid: 'u-x', controller: true }] },
      spec: {},
    };
    const plan = planStatefulSet(observe(set, pods, { claims: [claim] }), T0, features);
    assert.deepEqual(plan.actions.filter((a) => a.kind === 'updateClaim'), []);
  });

  it('scrubs our references from a claim another controller took over, with a FailedUpdate event', () => {
    const set = newSet(1, { retention: { whenDeleted: 'Delete', whenScaled: 'Retain' } });
    const pods = readyPods(set, 1);
    const claim: PersistentVolumeClaim = {
      metadata: {
        name: 'data-web-0',
        namespace: 'default',
        ownerReferences: [
          { apiVersion: 'v1', kind: 'Thing', name: 'x', uid: 'u-x', controller: true },
          { apiVersion: 'apps.ordinal.dev/v1', kind: 'StatefulSet', name: 'web', uid: 'uid-web', controller: true },
        ],
      },
      spec: {},
    };
    const plan = planStatefulSet(observe(set, pods, { claims: [claim] }), T0, features);
    const update = plan.actions.find((a) => a.kind === 'updateClaim');
    assert.ok(update && update.kind === 'updateClaim');
    assert.deepEqual(owners(update.claim), ['Thing/x*']);
    assert.ok(plan.events.some((e) => e.reason === 'FailedUpdate' && /conflicting OwnerReference/.test(e.message)));
  });
});

describe('adopted pods (§9.G 58)', () => {
  it('gives the claims of an adopted orphan the retention owner references after adopting it', () => {
    const set = newSet(1, { retention: { whenDeleted: 'Delete', whenScaled: 'Retain' } });
    const orphan = readyPods(set, 1)[0]!;
    orphan.metadata.ownerReferences = [];
    const claim: PersistentVolumeClaim = { metadata: { name: 'data-web-0', namespace: 'default' }, spec: {} };
    const plan = planStatefulSet(observe(set, [orphan], { claims: [claim] }), T0, features);
    assert.deepEqual(plan.actions.map((a) => `${a.batch}:${a.kind}`), ['0:adoptPod', '1:updateClaim']);
    const update = plan.actions[1];
    assert.ok(update?.kind === 'updateClaim');
    assert.deepEqual(owners(update.claim), ['StatefulSet/web*']);
  });
});

describe('claims before pods (§2.4, §9.G 58)', () => {
  it('does not create a pod while its claim still belongs to the previous pod of that name (stale claim)', () => {
    const set = newSet(1, { retention: { whenDeleted: 'Retain', whenScaled: 'Delete' } });
    const claim: PersistentVolumeClaim = {
      metadata: { name: 'data-web-0', namespace: 'default', ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'web-0', uid: 'old-uid', controller: true }] },
      spec: {},
    };
    const plan = planStatefulSet(observe(set, [], { claims: [claim] }), T0, features);
    assert.deepEqual(plan.actions.filter((a) => a.kind === 'createPod'), []);
    assert.ok(plan.blockers.some((b) => b.kind === 'staleClaim' && b.claim === 'data-web-0'));
    assert.equal(plan.wakeAt, T0 + 1000);
  });

  it('does not create a pod whose claim is being deleted', () => {
    const set = newSet(1);
    const claim: PersistentVolumeClaim = { metadata: { name: 'data-web-0', namespace: 'default', deletionTimestamp: toTimestamp(T0) }, spec: {} };
    const plan = planStatefulSet(observe(set, [], { claims: [claim] }), T0, features);
    assert.deepEqual(plan.actions.filter((a) => a.kind === 'createPod'), []);
    assert.ok(plan.blockers.some((b) => b.kind === 'claimDeleting' && b.claim === 'data-web-0'));
  });

  it('reuses an existing claim instead of creating it again', () => {
    const set = newSet(1);
    const claim: PersistentVolumeClaim = { metadata: { name: 'data-web-0', namespace: 'default' }, spec: {} };
    const plan = planStatefulSet(observe(set, [], { claims: [claim] }), T0, features);
    assert.deepEqual(plan.actions.filter((a) => a.kind === 'createClaim'), []);
    assert.equal(plan.actions.filter((a) => a.kind === 'createPod').length, 1);
  });

  it('labels new claims with the template labels and the selector', () => {
    const set = newSet(1);
    set.spec.volumeClaimTemplates![0]!.metadata.labels = { tier: 'db' };
    const plan = planStatefulSet(observe(set, []), T0, features);
    const create = plan.actions.find((a) => a.kind === 'createClaim');
    assert.ok(create && create.kind === 'createClaim');
    assert.deepEqual(create.claim.metadata.labels, { tier: 'db', app: 'web' });
    assert.equal(create.claim.metadata.namespace, 'default');
  });
});

describe('spec.ordinals.start (§9.G 59)', () => {
  it('creates ordinals 2, 3, 4 for 3 replicas starting at 2', () => {
    const h = new Harness(newSet(3, { start: 2 }), { autoReady: true });
    h.converge();
    assert.deepEqual(h.ordinals(), [2, 3, 4]);
    assert.ok(h.claims.has('data-web-2'));
  });

  for (const policy of ['OrderedReady', 'Parallel'] as const) {
    it(`${policy}: moving start from 0 to 4 and back creates the new range and condemns the old`, () => {
      const h = new Harness(newSet(3, { policy }), { autoReady: true });
      h.converge();
      h.update((s) => (s.spec.ordinals = { start: 4 }));
      h.converge();
      assert.deepEqual(h.ordinals(), [4, 5, 6]);
      h.update((s) => delete s.spec.ordinals);
      h.converge();
      assert.deepEqual(h.ordinals(), [0, 1, 2]);
    });
  }

  it('counts the partition from the start ordinal', () => {
    const h = new Harness(newSet(3, { start: 10, partition: 2 }), { autoReady: true });
    h.converge();
    h.setImage('app:v2');
    h.converge();
    assert.deepEqual(['web-10', 'web-11', 'web-12'].map((n) => h.must(n).spec.containers[0]?.image), ['app:v1', 'app:v1', 'app:v2']);
  });
});
