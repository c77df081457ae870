// The cases of the ClusterClient contract (run by contract.ts). Each uses only objects a real
// kube-apiserver accepts without controllers (ControllerRevisions, pods bound to a named node,
// StatefulSets with no controller running) and asserts only what every adapter must do.

import assert from 'node:assert/strict';
import { Resources, type ClusterClient, type WatchEvent } from '../api/client.js';
import { isAlreadyExists, isConflict, isGone, isInvalid, isNotFound } from '../api/errors.js';
import type { ControllerRevision, KubeObject, PersistentVolumeClaim, Pod, StatefulSet, StorageClass } from '../api/types.js';
import { evictionCases } from './contract-eviction-cases.js';
import { resizeCases } from './contract-resize-cases.js';

export interface ContractHarness {
  client: ClusterClient;
  namespace: string;
  advance(ms: number): Promise<void>;
  expireHistory(): Promise<void>;
  finishPodDeletion(pod: Pod): Promise<void>;
  /** Polls `check`, letting cluster time pass between tries; throws naming `what` on timeout. */
  eventually(check: () => Promise<boolean>, what: string): Promise<void>;
}

interface ContractCase {
  needs?: 'expireHistory';
  test(h: ContractHarness): Promise<void>;
}

const revision = (h: ContractHarness, name: string, extra: Partial<ControllerRevision['metadata']> = {}): ControllerRevision => ({
  apiVersion: 'apps/v1',
  kind: 'ControllerRevision',
  metadata: { name, namespace: h.namespace, ...extra },
  data: {},
  revision: 1,
});

const pod = (h: ContractHarness, name: string, nodeName?: string): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: h.namespace },
  spec: { containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.10' }], terminationGracePeriodSeconds: 20, ...(nodeName ? { nodeName } : {}) },
});

const statefulSet = (h: ContractHarness, name: string): StatefulSet => ({
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name, namespace: h.namespace },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.10' }] } },
  },
  status: { replicas: 7 },
});

const rejects = async (p: Promise<unknown>, is: (e: unknown) => boolean, what: string) =>
  assert.rejects(p, (e: unknown) => is(e) || assert.fail(`${what}: unexpected ${String(e)}`));

const gone = async (h: ContractHarness, res: typeof Resources.pods, name: string) => {
  try {
    await h.client.get(res, h.namespace, name);
    return false;
  } catch (e) {
    if (isNotFound(e)) return true;
    throw e;
  }
};

const CR = Resources.controllerRevisions;

export const CONTRACT_CASES: Record<string, ContractCase> = {
  'create then get returns the object with uid, resourceVersion and creationTimestamp set by the server': {
    async test(h) {
      const created = await h.client.create(CR, revision(h, 'crud-a', { labels: { k: 'v' } }));
      assert.ok(created.metadata.uid && created.metadata.resourceVersion && created.metadata.creationTimestamp);
      const got = await h.client.get<ControllerRevision>(CR, h.namespace, 'crud-a');
      assert.equal(got.metadata.uid, created.metadata.uid);
      assert.equal(got.metadata.resourceVersion, created.metadata.resourceVersion);
      assert.deepEqual(got.metadata.labels, { k: 'v' });
      assert.equal(got.revision, 1);
    },
  },
  'create of an existing name fails with 409 AlreadyExists': {
    async test(h) {
      await h.client.create(CR, revision(h, 'dup'));
      await rejects(h.client.create(CR, revision(h, 'dup')), isAlreadyExists, 'second create');
    },
  },
  'get, update, patch and delete of a missing object fail with 404 NotFound': {
    async test(h) {
      await rejects(h.client.get(CR, h.namespace, 'missing'), isNotFound, 'get');
      await rejects(h.client.update(CR, revision(h, 'missing')), isNotFound, 'update');
      await rejects(h.client.patch(CR, h.namespace, 'missing', { metadata: { labels: { a: 'b' } } }), isNotFound, 'patch');
      await rejects(h.client.delete(CR, h.namespace, 'missing'), isNotFound, 'delete');
    },
  },
  'update with the current resourceVersion succeeds and changes it; a stale one fails with 409 Conflict': {
    async test(h) {
      const v1 = await h.client.create(CR, revision(h, 'occ'));
      const v2 = await h.client.update(CR, { ...v1, metadata: { ...v1.metadata, labels: { step: '2' } } });
      assert.notEqual(v2.metadata.resourceVersion, v1.metadata.resourceVersion);
      await rejects(h.client.update(CR, { ...v1, metadata: { ...v1.metadata, labels: { step: 'stale' } } }), isConflict, 'stale update');
      const now = await h.client.get<ControllerRevision>(CR, h.namespace, 'occ');
      assert.deepEqual(now.metadata.labels, { step: '2' });
    },
  },
  'merge patch changes only the given fields': {
    async test(h) {
      await h.client.create(CR, revision(h, 'patched', { labels: { keep: 'yes', drop: 'x' } }));
      const out = await h.client.patch<ControllerRevision>(CR, h.namespace, 'patched', { metadata: { labels: { drop: null, add: 'z' } } });
      assert.deepEqual(out.metadata.labels, { keep: 'yes', add: 'z' });
      assert.equal(out.revision, 1);
    },
  },
  'server-side apply merges what it names, removes what it applied before and leaves out, and keeps other writers\' fields': {
    async test(h) {
      const labels = async () => (await h.client.get<ControllerRevision>(CR, h.namespace, 'applied')).metadata.labels;
      const apply = (l: Record<string, string>) =>
        h.client.apply<ControllerRevision>(CR, { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'applied', namespace: h.namespace, labels: l } } as ControllerRevision, { fieldManager: 'contract-applier' });
      await h.client.create(CR, revision(h, 'applied', { labels: { created: 'yes', shared: 's' } }));
      assert.deepEqual((await apply({ shared: 's', a: '1', b: '2' })).metadata.labels, { created: 'yes', shared: 's', a: '1', b: '2' });
      await h.client.patch(CR, h.namespace, 'applied', { metadata: { labels: { user: 'x' } } });
      // b was applied and is left out now: removed; created (and the shared value it also set), user: kept
      await apply({ a: '1' });
      assert.deepEqual(await labels(), { created: 'yes', shared: 's', a: '1', user: 'x' });
      // forced: it takes user from the other writer by setting another value; leaving it out then removes it
      await apply({ a: '1', user: 'y' });
      assert.equal((await labels())?.['user'], 'y');
      await apply({ a: '1' });
      assert.deepEqual(await labels(), { created: 'yes', shared: 's', a: '1' });
      // a writer that changes an applied value takes it over: the next apply that leaves it out keeps it
      await h.client.patch(CR, h.namespace, 'applied', { metadata: { labels: { a: 'mine' } } });
      await apply({ c: '3' });
      assert.deepEqual(await labels(), { created: 'yes', shared: 's', a: 'mine', c: '3' });
      assert.equal((await h.client.get<ControllerRevision>(CR, h.namespace, 'applied')).revision, 1, 'fields not named stay');
    },
  },
  'list filters by label selector (=, !=, in, notin, exists, !key)': {
    async test(h) {
      const labels: Record<string, string>[] = [{ tier: 'a', x: '1' }, { tier: 'b' }, { tier: 'c', x: '2' }];
      for (const [i, l] of labels.entries()) await h.client.create(CR, revision(h, `sel-${i}`, { labels: l }));
      const names = async (labelSelector: string) =>
        (await h.client.list(CR, h.namespace, { labelSelector })).items.map((o) => o.metadata.name).sort();
      assert.deepEqual(await names('tier=a'), ['sel-0']);
      assert.deepEqual(await names('tier!=a'), ['sel-1', 'sel-2']);
      assert.deepEqual(await names('tier in (a,c)'), ['sel-0', 'sel-2']);
      assert.deepEqual(await names('tier notin (a,c)'), ['sel-1']);
      assert.deepEqual(await names('x'), ['sel-0', 'sel-2']);
      assert.deepEqual(await names('!x,tier'), ['sel-1']);
    },
  },
  'watch from a list resourceVersion delivers ADDED, MODIFIED, DELETED in order': {
    async test(h) {
      const { resourceVersion } = await h.client.list(CR, h.namespace);
      const events: WatchEvent<KubeObject>[] = [];
      const w = h.client.watch(CR, h.namespace, resourceVersion, { onEvent: (e) => events.push(e), onClose: () => {} });
      try {
        const created = await h.client.create(CR, revision(h, 'watched'));
        await h.client.update(CR, { ...created, metadata: { ...created.metadata, labels: { v: '2' } } });
        await h.client.delete(CR, h.namespace, 'watched');
        await h.eventually(async () => events.filter((e) => e.object.metadata.name === 'watched').length >= 3, 'three watch events');
      } finally {
        w.stop();
      }
      const mine = events.filter((e) => e.object.metadata.name === 'watched');
      assert.deepEqual(mine.map((e) => e.type), ['ADDED', 'MODIFIED', 'DELETED']);
      assert.equal(mine[1]!.object.metadata.labels?.['v'], '2');
      assert.equal(new Set(mine.map((e) => e.object.metadata.resourceVersion)).size, 3);
    },
  },
  'watch from a resourceVersion older than the retained history ends with 410 Gone': {
    needs: 'expireHistory',
    async test(h) {
      const first = await h.client.create(CR, revision(h, 'old'));
      await h.client.patch(CR, h.namespace, 'old', { metadata: { labels: { v: '2' } } });
      await h.expireHistory();
      let closed: Error | undefined | null = null;
      const w = h.client.watch(CR, h.namespace, first.metadata.resourceVersion ?? '', { onEvent: () => {}, onClose: (e) => (closed = e) });
      try {
        await h.eventually(async () => closed !== null, 'the watch to close');
      } finally {
        w.stop();
      }
      assert.ok(isGone(closed), `expected 410 Gone, got ${String(closed)}`);
    },
  },
  'deleting a bound pod sets deletionTimestamp and the grace period; finishing the deletion removes it': {
    async test(h) {
      await h.client.create(Resources.pods, pod(h, 'graceful', 'contract-node'));
      await h.client.delete(Resources.pods, h.namespace, 'graceful');
      const terminating = await h.client.get<Pod>(Resources.pods, h.namespace, 'graceful');
      assert.ok(terminating.metadata.deletionTimestamp, 'deletionTimestamp is set');
      assert.equal(terminating.metadata.deletionGracePeriodSeconds, 20);
      await h.finishPodDeletion(terminating);
      await h.eventually(() => gone(h, Resources.pods, 'graceful'), 'the pod to be removed');
    },
  },
  'an explicit gracePeriodSeconds on delete overrides the pod spec': {
    async test(h) {
      await h.client.create(Resources.pods, pod(h, 'short', 'contract-node'));
      await h.client.delete(Resources.pods, h.namespace, 'short', { gracePeriodSeconds: 5 });
      const terminating = await h.client.get<Pod>(Resources.pods, h.namespace, 'short');
      assert.equal(terminating.metadata.deletionGracePeriodSeconds, 5);
      await h.finishPodDeletion(terminating);
    },
  },
  'deleting a pod that is not bound to a node removes it at once': {
    async test(h) {
      await h.client.create(Resources.pods, pod(h, 'unbound'));
      await h.client.delete(Resources.pods, h.namespace, 'unbound');
      assert.ok(await gone(h, Resources.pods, 'unbound'));
    },
  },
  'delete with a mismatched uid precondition fails with 409 Conflict and deletes nothing': {
    async test(h) {
      await h.client.create(CR, revision(h, 'uid-guard'));
      await rejects(h.client.delete(CR, h.namespace, 'uid-guard', { uid: 'not-the-uid' }), isConflict, 'delete');
      assert.equal((await h.client.get(CR, h.namespace, 'uid-guard')).metadata.name, 'uid-guard');
    },
  },
  'an object with finalizers stays, terminating, until they are removed': {
    async test(h) {
      await h.client.create(CR, revision(h, 'held', { finalizers: ['example.com/hold'] }));
      await h.client.delete(CR, h.namespace, 'held');
      const terminating = await h.client.get(CR, h.namespace, 'held');
      assert.ok(terminating.metadata.deletionTimestamp);
      await h.client.update(CR, { ...terminating, metadata: { ...terminating.metadata, finalizers: [] } });
      await h.eventually(() => gone(h, CR, 'held'), 'removal after the last finalizer');
    },
  },
  'dependents whose owner is deleted are garbage-collected': {
    async test(h) {
      const owner = await h.client.create(CR, revision(h, 'owner'));
      const ref = { apiVersion: 'apps/v1', kind: 'ControllerRevision', name: 'owner', uid: owner.metadata.uid ?? '' };
      await h.client.create(CR, revision(h, 'dependent', { ownerReferences: [ref] }));
      await h.client.delete(CR, h.namespace, 'owner');
      await h.eventually(() => gone(h, CR, 'dependent'), 'garbage collection of the dependent');
    },
  },
  'a JSON patch changes one element of a list by index, a failed test rejects every operation with 422 Invalid, a dry run stores nothing': {
    async test(h) {
      const two = statefulSet(h, 'json');
      two.spec.template.spec.containers.push({ name: 'sidecar', image: 'registry.k8s.io/pause:3.9' });
      await h.client.create(Resources.statefulSets, two);
      const at = (i: number, field: string) => `/spec/template/spec/containers/${i}/${field}`;
      const set = (i: number, name: string, image: string) => [{ op: 'test' as const, path: at(i, 'name'), value: name }, { op: 'add' as const, path: at(i, 'image'), value: image }];
      const images = (s: StatefulSet) => s.spec.template.spec.containers.map((c) => `${c.name}=${c.image ?? ''}`);
      const patched = await h.client.jsonPatch<StatefulSet>(Resources.statefulSets, h.namespace, 'json', set(1, 'sidecar', 'busybox:1'));
      assert.deepEqual(images(patched), ['app=registry.k8s.io/pause:3.10', 'sidecar=busybox:1']);
      assert.equal(patched.metadata.generation, 2);
      await rejects(h.client.jsonPatch(Resources.statefulSets, h.namespace, 'json', [...set(1, 'sidecar', 'busybox:2'), ...set(0, 'sidecar', 'x')]), isInvalid, 'a failed test');
      await rejects(h.client.jsonPatch(Resources.statefulSets, h.namespace, 'json', set(5, 'app', 'x')), isInvalid, 'an index past the end');
      const dry = await h.client.jsonPatch<StatefulSet>(Resources.statefulSets, h.namespace, 'json', set(0, 'app', 'nginx:1'), { dryRun: true });
      assert.deepEqual(images(dry), ['app=nginx:1', 'sidecar=busybox:1']);
      const stored = await h.client.get<StatefulSet>(Resources.statefulSets, h.namespace, 'json');
      assert.deepEqual([images(stored), stored.metadata.generation], [['app=registry.k8s.io/pause:3.10', 'sidecar=busybox:1'], 2]);
    },
  },
  'StatefulSet generation starts at 1 and grows on spec changes only; create ignores status': {
    async test(h) {
      const created = await h.client.create(Resources.statefulSets, statefulSet(h, 'gen'));
      assert.equal(created.metadata.generation, 1);
      assert.equal(created.status?.replicas ?? 0, 0);
      const labelled = await h.client.patch<StatefulSet>(Resources.statefulSets, h.namespace, 'gen', { metadata: { labels: { a: 'b' } } });
      assert.equal(labelled.metadata.generation, 1);
      const scaled = await h.client.patch<StatefulSet>(Resources.statefulSets, h.namespace, 'gen', { spec: { replicas: 3 } });
      assert.equal(scaled.metadata.generation, 2);
    },
  },
  'a dry-run update or patch answers with the admitted object (defaulted, generation bumped) and stores nothing': {
    async test(h) {
      const created = await h.client.create(Resources.statefulSets, statefulSet(h, 'dry'));
      const patched = await h.client.patch<StatefulSet>(Resources.statefulSets, h.namespace, 'dry', { spec: { replicas: 4 } }, { dryRun: true });
      assert.equal(patched.spec.replicas, 4);
      assert.equal(patched.metadata.generation, 2);
      const updated = await h.client.update(Resources.statefulSets, { ...created, spec: { ...created.spec, minReadySeconds: 7 } }, { dryRun: true });
      assert.equal(updated.spec.minReadySeconds, 7);
      await rejects(h.client.patch(Resources.statefulSets, h.namespace, 'dry', { spec: { replicas: -1 } }, { dryRun: true }), isInvalid, 'an invalid dry run is refused');
      const stored = await h.client.get<StatefulSet>(Resources.statefulSets, h.namespace, 'dry');
      assert.deepEqual([stored.spec.replicas, stored.spec.minReadySeconds ?? 0, stored.metadata.generation, stored.metadata.resourceVersion], [created.spec.replicas, 0, 1, created.metadata.resourceVersion]);
    },
  },
  'a dry-run create answers with the admitted object (defaulted), refuses an invalid one, and stores nothing': {
    async test(h) {
      const answered = await h.client.create<StatefulSet>(Resources.statefulSets, statefulSet(h, 'dry-create'), { dryRun: true });
      assert.equal(answered.spec.podManagementPolicy, 'OrderedReady');
      await rejects(h.client.create(Resources.statefulSets, { ...statefulSet(h, 'dry-bad'), spec: { ...statefulSet(h, 'dry-bad').spec, replicas: -1 } }, { dryRun: true }), isInvalid, 'an invalid dry run is refused');
      await rejects(h.client.get(Resources.statefulSets, h.namespace, 'dry-create'), isNotFound, 'nothing stored');
    },
  },
  'StatefulSet update ignores status and updateStatus writes only status': {
    async test(h) {
      const created = await h.client.create(Resources.statefulSets, statefulSet(h, 'sub'));
      const status = { replicas: 2, readyReplicas: 1, currentReplicas: 2, updatedReplicas: 2, availableReplicas: 1, observedGeneration: 1 };
      const viaUpdate = await h.client.update(Resources.statefulSets, { ...created, status });
      assert.equal(viaUpdate.status?.readyReplicas ?? 0, 0);
      const withStatus = await h.client.updateStatus(Resources.statefulSets, { ...viaUpdate, spec: { ...viaUpdate.spec, replicas: 9 }, status });
      assert.equal(withStatus.status?.readyReplicas, 1);
      assert.equal(withStatus.spec.replicas, 2);
      assert.equal(withStatus.metadata.generation, 1);
    },
  },
  'apps/v1 StatefulSet conditions have no lastUpdateTime: a status write keeps the condition without it, and the same write again changes nothing': {
    async test(h) {
      const created = await h.client.create(Resources.statefulSets, statefulSet(h, 'cond'));
      const condition = { type: 'Progressing', status: 'True' as const, reason: 'RollingUpdateInProgress', message: 'm', lastTransitionTime: '2026-01-01T00:00:00Z' };
      const status = { replicas: 0, observedGeneration: 1, conditions: [{ ...condition, lastUpdateTime: '2026-01-01T00:00:05Z' }] };
      const written = await h.client.updateStatus(Resources.statefulSets, { ...created, status });
      assert.deepEqual(written.status?.conditions, [condition]);
      const again = await h.client.updateStatus(Resources.statefulSets, { ...written, status });
      assert.equal(again.metadata.resourceVersion, written.metadata.resourceVersion, 'an unchanged status is no new version');
    },
  },
  'a bound claim\'s request may grow through an expandable class, then go down to a size above status.capacity but not to the capacity itself': {
    async test(h) {
      const PVC = Resources.persistentVolumeClaims;
      const className = `${h.namespace}-expandable`;
      const cls: StorageClass = { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: className }, provisioner: 'contract.ordinal.dev', allowVolumeExpansion: true };
      await h.client.create(Resources.storageClasses, cls);
      try {
        const spec = { accessModes: ['ReadWriteOnce'], storageClassName: className, resources: { requests: { storage: '1Gi' } } };
        const created = await h.client.create<PersistentVolumeClaim>(PVC, { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'recover', namespace: h.namespace }, spec });
        await h.client.updateStatus(PVC, { ...created, status: { phase: 'Bound', capacity: { storage: '1Gi' } } });
        const request = (storage: string) => h.client.patch<PersistentVolumeClaim>(PVC, h.namespace, 'recover', { spec: { resources: { requests: { storage } } } });
        await request('10Gi');
        await rejects(request('1Gi'), (e) => isInvalid(e) && /spec\.resources\.requests\.storage: Forbidden: field can not be less than status\.capacity/.test(String(e)), 'the capacity itself');
        assert.equal((await request('2Gi')).spec.resources?.requests?.storage, '2Gi');
      } finally {
        await h.client.delete(Resources.storageClasses, undefined, className);
      }
    },
  },
  "a pod's container images, labels and annotations change through a merge patch of the live pod (its generation grows); one naming another uid is refused, and so is a change of other container fields": {
    async test(h) {
      const created = await h.client.create<Pod>(Resources.pods, { ...pod(h, 'in-place', 'nowhere'), metadata: { name: 'in-place', namespace: h.namespace, labels: { app: 'a', old: 'x' } } });
      const containers = created.spec.containers.map((c) => ({ ...c, image: 'registry.k8s.io/pause:3.9' }));
      const merge = (uid: string | undefined, list = containers) => ({ metadata: { uid, labels: { old: null, app: 'b' }, annotations: { note: 'n' } }, spec: { containers: list } });
      const patched = await h.client.patch<Pod>(Resources.pods, h.namespace, 'in-place', merge(created.metadata.uid));
      assert.deepEqual(
        [patched.spec.containers.map((c) => c.image), patched.metadata.labels, patched.metadata.annotations, patched.metadata.generation, patched.metadata.uid],
        [['registry.k8s.io/pause:3.9'], { app: 'b' }, { note: 'n' }, 2, created.metadata.uid],
      );
      const otherUid = merge('0b5e0000-0000-4000-8000-000000000000');
      await rejects(h.client.patch(Resources.pods, h.namespace, 'in-place', otherUid), (e) => isInvalid(e) && /metadata\.uid: Invalid value: "0b5e0000-0000-4000-8000-000000000000": field is immutable/.test(String(e)), 'another uid');
      const withEnv = containers.map((c) => ({ ...c, env: [{ name: 'X', value: '1' }] }));
      await rejects(
        h.client.patch(Resources.pods, h.namespace, 'in-place', merge(created.metadata.uid, withEnv)),
        (e) => isInvalid(e) && /spec: Forbidden: pod updates may not change fields other than `spec\.containers\[\*\]\.image`/.test(String(e)),
        'a container env',
      );
    },
  },
  ...resizeCases,
  ...evictionCases,
};

