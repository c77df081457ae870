// The simulated storage on a real kube-apiserver 1.37 (no CSI driver runs there): the storage actor binds a
// claim to a PersistentVolume it creates, kube-apiserver's own validation and resize admission accept the
// expansion of a bound claim whose StorageClass allows it, and the actor completes it. The refusals the
// in-memory API server gives (test/cluster/storage-actor.test.ts) are kube-apiserver's, word for word.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import { claimCapacity, type KubeObject, type PersistentVolumeClaim } from '../../src/api/types.js';
import { StorageActor } from '../../src/cluster/storage/storage-actor.js';
import { realTimers } from '../../src/runtime/real-clock.js';
import { closeSession, createNamespace, deleteNamespace, openSession, uniqueName } from './cluster-session.js';
import { requireControlPlane } from './control-plane.js';
import { waitUntil } from './wait.js';

after(() => closeSession());

const claimOf = (ns: string, name: string, className: string): PersistentVolumeClaim => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name, namespace: ns },
  spec: { accessModes: ['ReadWriteOnce'], storageClassName: className, resources: { requests: { storage: '1Gi' } } },
});
const grow = (c: PersistentVolumeClaim, storage: string): PersistentVolumeClaim => ({ ...c, spec: { ...c.spec, resources: { requests: { storage } } } });

describe('the storage actor on kube-apiserver 1.37', () => {
  it('binds claims, has kube-apiserver accept and refuse expansions as the in-memory server does, and expands', { timeout: 60_000 }, async (t) => {
    const cp = requireControlPlane(t);
    if (!cp) return;
    const { client } = openSession(cp);
    const ns = await createNamespace(client, 'storage');
    const [open, fixed] = [uniqueName('expandable'), uniqueName('fixed')];
    const actor = new StorageActor({ client, timers: realTimers(), random: Math.random, namespace: ns, config: { bindSeconds: 0, expansionSeconds: 1, classes: {} } });
    try {
      for (const [name, allow] of [[open, true], [fixed, false]] as const) {
        await client.create(Resources.storageClasses, { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name }, provisioner: 'simulated.ordinal.dev', allowVolumeExpansion: allow } as KubeObject);
      }
      actor.start();
      await client.create(Resources.persistentVolumeClaims, claimOf(ns, 'data-0', open));
      await client.create(Resources.persistentVolumeClaims, claimOf(ns, 'data-1', fixed));
      const bound = (name: string) =>
        waitUntil(`${name} bound`, 20_000, async () => {
          const c = await client.get<PersistentVolumeClaim>(Resources.persistentVolumeClaims, ns, name);
          return (c.status?.phase === "Bound" && claimCapacity(c) === "1Gi") || `status ${JSON.stringify(c.status)}`;
        });
      await bound('data-0');
      await bound('data-1');

      const refused = await client.get<PersistentVolumeClaim>(Resources.persistentVolumeClaims, ns, 'data-1');
      const error = await client.update(Resources.persistentVolumeClaims, grow(refused, '2Gi')).then(() => undefined, (e: Error) => e.message);
      assert.equal(error, 'persistentvolumeclaims "data-1" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize');
      const smaller = await client.update(Resources.persistentVolumeClaims, grow(refused, '512Mi')).then(() => undefined, (e: Error) => e.message);
      assert.match(smaller ?? '', /spec\.resources\.requests\.storage: Forbidden: field can not be less than status\.capacity/);

      const claim = await client.get<PersistentVolumeClaim>(Resources.persistentVolumeClaims, ns, 'data-0');
      await client.update(Resources.persistentVolumeClaims, grow(claim, '3Gi'));
      await waitUntil('data-0 expanded to 3Gi', 20_000, async () => {
        const c = await client.get<PersistentVolumeClaim>(Resources.persistentVolumeClaims, ns, 'data-0');
        return claimCapacity(c) === '3Gi' || `capacity ${claimCapacity(c)}`;
      });
      const pv = await client.get<KubeObject & { spec: { capacity: { storage: string } } }>(Resources.persistentVolumes, undefined, claim.spec.volumeName ?? '');
      assert.equal(pv.spec.capacity.storage, '3Gi');
    } finally {
      actor.stop();
      const volumes = await client.list<KubeObject & { spec: { claimRef?: { namespace?: string } } }>(Resources.persistentVolumes, undefined);
      for (const v of volumes.items.filter((x) => x.spec.claimRef?.namespace === ns)) await client.delete(Resources.persistentVolumes, undefined, v.metadata.name ?? '').catch(() => undefined);
      for (const name of [open, fixed]) await client.delete(Resources.storageClasses, undefined, name).catch(() => undefined);
      await deleteNamespace(client, ns);
    }
  });
});
