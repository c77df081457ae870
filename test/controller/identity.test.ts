// Names and ordinals, building a pod, identity/storage repair,
// adoption and release.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Labels, type Pod } from '../../src/api/types.js';
import { createsAtCurrentRevision, identityMatches, newStatefulSetPod, repairPod, storageMatches } from '../../src/controller/model/identity.js';
import { planStatefulSet } from '../../src/controller/plan/plan-statefulset.js';
import { isMemberOf, parentNameAndOrdinal, podOrdinal } from '../../src/controller/model/pod-state.js';
import { features, newSet, observe, podFor, readyPods, T0, withStatus } from './fixtures.js';

describe('pod names and ordinals (§2.1)', () => {
  const cases: [string, string, number][] = [
    ['web-0', 'web', 0],
    ['web-12', 'web', 12],
    ['my-db-3', 'my-db', 3],
    ['web-1-2', 'web-1', 2],
    ['web-01', 'web', 1],
    ['web', '', -1],
    ['web-x', '', -1],
    ['web-2147483647', 'web', 2147483647],
    ['web-2147483648', 'web', -1],
    ['web-99999999999999999999', 'web', -1],
  ];
  for (const [name, parent, ordinal] of cases) {
    it(`parses ${name} as parent "${parent}" and ordinal ${ordinal}`, () => {
      assert.deepEqual(parentNameAndOrdinal(name), { parent, ordinal });
    });
  }
  it('makes a pod a member of the set its name starts with', () => {
    const set = newSet(1);
    assert.equal(isMemberOf(set, podFor(set, 3)), true);
    assert.equal(isMemberOf(newSet(1, { name: 'other' }), podFor(set, 3)), false);
  });
});

describe('building a pod (§2.2)', () => {
  const set = newSet(3);
  const pod = newStatefulSetPod(set, 2);

  it('names the pod, its hostname and subdomain, and its identity labels', () => {
    assert.equal(pod.metadata.name, 'web-2');
    assert.equal(pod.metadata.namespace, 'default');
    assert.equal(pod.metadata.generateName, 'web-');
    assert.equal(pod.spec.hostname, 'web-2');
    assert.equal(pod.spec.subdomain, 'web');
    assert.equal(pod.metadata.labels?.[Labels.podName], 'web-2');
    assert.equal(pod.metadata.labels?.[Labels.podIndex], '2');
    assert.equal(pod.metadata.labels?.app, 'web');
  });

  it('is controlled by the set', () => {
    assert.deepEqual(pod.metadata.ownerReferences, [
      { apiVersion: 'apps.ordinal.dev/v1', kind: 'StatefulSet', name: 'web', uid: 'uid-web', controller: true, blockOwnerDeletion: true },
    ]);
  });

  it('mounts its claim and replaces a template volume of the same name', () => {
    const withVolumes = structuredClone(set);
    withVolumes.spec.template.spec.volumes = [{ name: 'data', emptyDir: {} }, { name: 'cache', emptyDir: {} }];
    const p = newStatefulSetPod(withVolumes, 1);
    assert.deepEqual(p.spec.volumes, [
      { name: 'data', persistentVolumeClaim: { claimName: 'data-web-1', readOnly: false } },
      { name: 'cache', emptyDir: {} },
    ]);
  });

  it('chooses the current revision below the partition and the update revision from it', () => {
    const partitioned = newSet(5, { partition: 3 });
    assert.deepEqual([0, 2, 3, 4].map((o) => createsAtCurrentRevision(partitioned, o)), [true, true, false, false]);
  });

  it('with type RollingUpdate and no rollingUpdate block, chooses current below start + status.currentReplicas', () => {
    const nil = withStatus(newSet(5, { nilRollingUpdate: true, start: 10 }), { currentReplicas: 2 });
    assert.equal(nil.spec.updateStrategy?.rollingUpdate, undefined);
    assert.deepEqual([10, 11, 12].map((o) => createsAtCurrentRevision(nil, o)), [true, true, false]);
  });

  it('always uses the update revision for OnDelete and Recreate', () => {
    for (const strategy of ['OnDelete', 'Recreate'] as const) {
      assert.equal(createsAtCurrentRevision(withStatus(newSet(3, { strategy }), { currentReplicas: 3 }), 0), false);
    }
  });
});

describe('identity and storage repair (§2.3)', () => {
  const set = newSet(3);

  it('accepts a pod built for the set', () => {
    const pod = podFor(set, 1);
    assert.ok(identityMatches(set, pod) && storageMatches(set, pod));
  });

  it('repairs a wrong pod-name label and a missing claim volume', () => {
    const pod = podFor(set, 1);
    pod.metadata.labels![Labels.podName] = 'nope';
    pod.spec.volumes = [];
    assert.equal(identityMatches(set, pod), false);
    assert.equal(storageMatches(set, pod), false);
    const fixed = repairPod(set, pod);
    assert.ok(identityMatches(set, fixed) && storageMatches(set, fixed));
    assert.equal(fixed.metadata.uid, pod.metadata.uid);
  });

  it('plans an updatePod (never a re-creation) for a pod with a broken identity', () => {
    const pods = readyPods(set, 3);
    pods[1]!.metadata.labels![Labels.podName] = 'nope';
    const plan = planStatefulSet(observe(set, pods), T0, features);
    assert.deepEqual(plan.actions.map((a) => a.kind), ['updatePod']);
  });

  it('creates missing claims before repairing the storage of a pod', () => {
    const pods = readyPods(set, 1);
    pods[0]!.spec.volumes = [];
    const plan = planStatefulSet(observe(newSet(1), pods), T0, features);
    const kinds = plan.actions.map((a) => `${a.batch}:${a.kind}`);
    assert.deepEqual(kinds, ['0:createClaim', '1:updatePod']);
  });
});

describe('adoption and release (§2.6)', () => {
  const set = newSet(2);
  const orphan = (p: Pod): Pod => ({ ...p, metadata: { ...p.metadata, ownerReferences: [] } });

  it('adopts a matching orphan in batch 0 and treats it as a replica', () => {
    const pods = [orphan(podFor(set, 0)), podFor(set, 1)];
    const plan = planStatefulSet(observe(set, pods), T0, features);
    assert.deepEqual(plan.actions.map((a) => `${a.batch}:${a.kind}:${'pod' in a ? a.pod.metadata.name : ''}`), ['0:adoptPod:web-0']);
    assert.equal(plan.status.replicas, 2);
  });

  it('ignores an orphan whose name does not match the set, and a terminating orphan', () => {
    const stranger = orphan(podFor(newSet(1, { name: 'webby' }), 0));
    stranger.metadata.labels = { app: 'web' };
    const dying = orphan(podFor(set, 0, { terminating: true }));
    const plan = planStatefulSet(observe(set, [stranger, dying, podFor(set, 1)]), T0, features);
    assert.ok(!plan.actions.some((a) => a.kind === 'adoptPod'));
  });

  it('releases an owned pod that no longer matches the selector', () => {
    const pods = readyPods(set, 2);
    pods[1]!.metadata.labels = { ...pods[1]!.metadata.labels, app: 'moved' };
    const plan = planStatefulSet(observe(set, pods), T0, features);
    assert.ok(plan.actions.some((a) => a.kind === 'releasePod' && a.batch === 0 && a.pod.metadata.name === 'web-1'));
    assert.ok(plan.actions.some((a) => a.kind === 'createPod' && podOrdinal(a.pod) === 1));
  });

  it('leaves pods controlled by someone else alone', () => {
    const foreign = podFor(set, 0);
    foreign.metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u-rs', controller: true }];
    const plan = planStatefulSet(observe(set, [foreign]), T0, features);
    assert.ok(!plan.actions.some((a) => a.kind === 'adoptPod' || a.kind === 'releasePod'));
  });

  it('adopts orphan revisions that match the selector', () => {
    const pods = readyPods(set, 2);
    const rev = observe(set, pods).revisions[0]!;
    rev.metadata.ownerReferences = [];
    const plan = planStatefulSet(observe(set, pods, { revisions: [rev] }), T0, features);
    assert.deepEqual(plan.actions.map((a) => a.kind), ['adoptRevision']);
  });

  it('neither adopts nor touches pods while the set is being deleted', () => {
    const deleting = { ...set, metadata: { ...set.metadata, deletionTimestamp: '2026-03-01T11:00:00Z' } };
    const plan = planStatefulSet(observe(deleting, [orphan(podFor(set, 0))]), T0, features);
    assert.ok(!plan.actions.some((a) => a.kind !== 'createRevision'));
    assert.deepEqual(plan.blockers, [{ kind: 'setDeleting' }]);
    assert.equal(plan.status.observedGeneration, 1);
  });
});
