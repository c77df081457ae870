// Simulator-only behaviour of reads and writes: identities, resourceVersions, timestamps, no-op writes,
// the status subresource of pods and the write records the simulator's timeline is built from.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import { isNotFound } from '../../src/api/errors.js';
import type { KubeObject, PersistentVolumeClaim, Pod } from '../../src/api/types.js';
import type { WriteRecord } from '../../src/cluster/memory/index.js';
import { CR, newEnv, pod, revision } from './helpers.js';

describe('memory cluster reads and writes', () => {
  it('issues numerically increasing resourceVersions across resources, and list returns the latest', async () => {
    const { cluster } = newEnv();
    const a = await cluster.create(CR, revision('a'));
    const b = await cluster.create(Resources.pods, pod('b'));
    const c = await cluster.patch(CR, 'default', 'a', { metadata: { labels: { x: 'y' } } });
    const rvs = [a, b, c].map((o) => Number(o.metadata.resourceVersion));
    assert.deepEqual(rvs, [1, 2, 3]);
    assert.equal((await cluster.list(CR, 'default')).resourceVersion, '3');
  });

  it('gives UIDs from a counter and timestamps in whole seconds of the injected clock', async () => {
    const { clock, cluster } = newEnv();
    await clock.advance(1_500);
    const a = await cluster.create(CR, revision('a'));
    const b = await cluster.create(CR, revision('b'));
    assert.equal(a.metadata.uid, '00000000-0000-4000-8000-000000000001');
    assert.equal(b.metadata.uid, '00000000-0000-4000-8000-000000000002');
    assert.equal(a.metadata.creationTimestamp, '2026-01-01T00:00:01Z');
  });

  it('names objects from generateName with the seeded random', async () => {
    const run = async () => {
      const { cluster } = newEnv({ random: seq([0, 0.5, 0.99, 0.1, 0.3]) });
      return (await cluster.create(CR, revision('', { generateName: 'web-' }))).metadata.name;
    };
    const name = await run();
    assert.match(name ?? '', /^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    assert.equal(await run(), name);
  });

  it('rejects a create without name or generateName with 422', async () => {
    const { cluster } = newEnv();
    await assert.rejects(cluster.create(CR, revision('')), /metadata.name: Required value: name or generateName is required/);
  });

  it('does not write an update that changes nothing: same resourceVersion, no watch event', async () => {
    const { clock, cluster } = newEnv();
    const a = await cluster.create(CR, revision('a'));
    const records: WriteRecord[] = [];
    cluster.onWrite((r) => records.push(r));
    const same = await cluster.update(CR, a);
    assert.equal(same.metadata.resourceVersion, a.metadata.resourceVersion);
    assert.deepEqual(records.map((r) => r.change), ['NONE']);
    const events: string[] = [];
    cluster.watch(CR, 'default', a.metadata.resourceVersion ?? '', { onEvent: (e) => events.push(e.type), onClose: () => {} });
    await clock.flush();
    assert.deepEqual(events, []);
  });

  it('keeps server-owned metadata on update', async () => {
    const { cluster } = newEnv();
    const a = await cluster.create(CR, revision('a'));
    const forged = { ...a, metadata: { ...a.metadata, uid: undefined, creationTimestamp: '1999-01-01T00:00:00Z', labels: { l: '1' } } };
    const out = await cluster.update(CR, forged);
    assert.equal(out.metadata.uid, a.metadata.uid);
    assert.equal(out.metadata.creationTimestamp, a.metadata.creationTimestamp);
    assert.deepEqual(out.metadata.labels, { l: '1' });
  });

  it('lists one namespace or all, sorted by namespace and name', async () => {
    const { cluster } = newEnv();
    for (const [ns, name] of [['b', 'z'], ['a', 'y'], ['b', 'a']] as const) {
      await cluster.create(CR, revision(name, { namespace: ns }));
    }
    const all = (await cluster.list(CR, undefined)).items.map((o) => `${o.metadata.namespace}/${o.metadata.name}`);
    assert.deepEqual(all, ['a/y', 'b/a', 'b/z']);
    assert.deepEqual((await cluster.list(CR, 'b')).items.map((o) => o.metadata.name), ['a', 'z']);
  });

  it('rejects a malformed label selector with 400', async () => {
    const { cluster } = newEnv();
    await assert.rejects(cluster.list(CR, 'default', { labelSelector: 'a in (' }), (e: unknown) => (e as { code?: number }).code === 400);
  });

  it('returns copies: mutating a result does not change the store', async () => {
    const { cluster } = newEnv();
    const a = await cluster.create(CR, revision('a', { labels: { k: 'v' } }));
    a.metadata.labels!['k'] = 'changed';
    assert.equal((await cluster.get(CR, 'default', 'a')).metadata.labels?.['k'], 'v');
  });

  it('pod status is written only through updateStatus, and update of a pod keeps the stored status', async () => {
    const { cluster } = newEnv();
    const created = await cluster.create<Pod>(Resources.pods, pod('p'));
    assert.equal(created.status?.phase, 'Pending');
    const viaUpdate = await cluster.update<Pod>(Resources.pods, { ...created, status: { phase: 'Running' } });
    assert.equal(viaUpdate.status?.phase, 'Pending');
    const viaStatus = await cluster.updateStatus<Pod>(Resources.pods, { ...viaUpdate, metadata: { ...viaUpdate.metadata, labels: { x: 'y' } }, status: { phase: 'Running' } });
    assert.equal(viaStatus.status?.phase, 'Running');
    assert.equal(viaStatus.metadata.labels, undefined);
  });

  it('answers updateStatus on a resource without a status subresource with 404', async () => {
    const { cluster } = newEnv();
    const a = await cluster.create(CR, revision('a'));
    await assert.rejects(cluster.updateStatus(CR, a), isNotFound);
  });

  it('reports every successful write with actor, verb, change and time', async () => {
    const { clock, cluster } = newEnv();
    const records: WriteRecord[] = [];
    const off = cluster.onWrite((r) => records.push(r));
    const controller = cluster.client('controller');
    await clock.advance(2_000);
    await controller.create(CR, revision('a'));
    await controller.patch(CR, 'default', 'a', { metadata: { labels: { x: '1' } } });
    await cluster.delete(CR, 'default', 'a');
    off();
    await cluster.create(CR, revision('b'));
    const seen = records.map((r) => `${r.actor} ${r.verb} ${r.resource.plural}/${r.name} ${r.change} ${r.at - records[0]!.at}`);
    assert.deepEqual(seen, [
      'controller create controllerrevisions/a ADDED 0',
      'controller patch controllerrevisions/a MODIFIED 0',
      'admin delete controllerrevisions/a DELETED 0',
    ]);
    assert.equal(records[2]!.object.metadata.name, 'a');
  });

  it('snapshot() lists every stored object by resource', async () => {
    const { cluster } = newEnv();
    await cluster.create(CR, revision('a'));
    await cluster.addNode('node-1');
    await cluster.addNode('node-1');
    const snap = cluster.snapshot();
    assert.deepEqual(Object.keys(snap.resources).sort(), ['controllerrevisions.apps', 'nodes']);
    assert.equal(snap.resources['nodes']!.length, 1);
    assert.equal(snap.resourceVersion, '2');
  });

  it('restore() stores a snapshot as it is, reports each object as a create, and never hands out a restored UID', async () => {
    const source = newEnv();
    await source.cluster.create(CR, revision('a'));
    await source.cluster.create(Resources.pods, pod('web-0'));
    const stored = await source.cluster.updateStatus(Resources.pods, { ...(await source.cluster.get<Pod>(Resources.pods, 'default', 'web-0')), status: { phase: 'Running' } });
    const { cluster } = newEnv();
    const records: WriteRecord[] = [];
    cluster.onWrite((r) => records.push(r));
    cluster.restore(source.cluster.snapshot(), 'restore');
    const restored = await cluster.get<Pod>(Resources.pods, 'default', 'web-0');
    assert.deepEqual({ ...restored.metadata, resourceVersion: undefined }, { ...stored.metadata, resourceVersion: undefined });
    assert.deepEqual(restored.status, { phase: 'Running' });
    assert.deepEqual(records.map((r) => `${r.actor} ${r.verb} ${r.resource.plural}/${r.name} ${r.change}`), ['restore create controllerrevisions/a ADDED', 'restore create pods/web-0 ADDED']);
    // The new cluster's UIDs start where the source's did: a create skips the ones restored.
    const created = await cluster.create(CR, revision('b'));
    assert.ok(![restored.metadata.uid, (await cluster.get(CR, 'default', 'a')).metadata.uid].includes(created.metadata.uid));
    assert.throws(() => cluster.restore(source.cluster.snapshot()), /controllerrevisions.apps "a" already exists/);
    assert.throws(() => newEnv().cluster.restore({ resourceVersion: '1', resources: { widgets: [] } }), /cannot restore widgets/);
  });
});

function seq(values: number[]): () => number {
  let i = 0;
  return () => values[i++ % values.length]!;
}

describe('memory cluster claim admission', () => {
  const sc = (name: string, created: string, isDefault: boolean) => ({
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name, creationTimestamp: created, ...(isDefault ? { annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } } : {}) },
    provisioner: 'p',
  });
  const claim = (name: string, storageClassName?: string | null) => ({
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name, namespace: 'default' },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...(storageClassName !== undefined ? { storageClassName } : {}) },
  });
  const classOf = (c: KubeObject) => (c as PersistentVolumeClaim).spec.storageClassName;

  it('gives a claim without a class the default StorageClass (the newest, then the first by name); "" asks for none', async () => {
    const { cluster } = newEnv();
    assert.equal(classOf(await cluster.create(Resources.persistentVolumeClaims, claim('before'))), undefined, 'no default class yet');
    cluster.restore({
      resourceVersion: '0',
      resources: {
        'storageclasses.storage.k8s.io': [sc('old', '2025-01-01T00:00:00Z', true), sc('zeta', '2025-06-01T00:00:00Z', true), sc('alpha', '2025-06-01T00:00:00Z', true), sc('plain', '2026-01-01T00:00:00Z', false)],
      },
    });
    assert.equal(classOf(await cluster.create(Resources.persistentVolumeClaims, claim('none'))), 'alpha');
    assert.equal(classOf(await cluster.create(Resources.persistentVolumeClaims, claim('null', null))), 'alpha');
    assert.equal(classOf(await cluster.create(Resources.persistentVolumeClaims, claim('empty', ''))), '');
    assert.equal(classOf(await cluster.create(Resources.persistentVolumeClaims, claim('named', 'plain'))), 'plain');
  });
});
