// volumeClaimUpdatePolicy: InPlace (KEP-4650) on a real kube-apiserver 1.37: `ordinal controller` patches the
// claims, the storage actor (no CSI driver runs here) binds and expands them — so kube-apiserver's own
// validation and resize admission judge every patch — and the simulated kubelet runs the pods. A grown claim
// template moves each replica claims first, highest ordinal first, one at a time (maxUnavailable 1), and
// relabels its pod without replacing it. An added claim template creates its claims and replaces each pod,
// highest first; removed, the pods are replaced again and its claims are kept; `rollout undo` brings it back
// onto the same claims.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { after as afterAll, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import { claimCapacity, Labels, type KubeObject, type PersistentVolumeClaim, type Pod, type StatefulSet } from '../../src/api/types.js';
import { rolloutUndoCommand } from '../../src/cli/commands/rollout.js';
import { bufferIO } from '../../src/cli/explain/io.js';
import { StorageActor } from '../../src/cluster/storage/storage-actor.js';
import { realTimers } from '../../src/runtime/real-clock.js';
import { baseSet } from '../deploy/crd-cases.js';
import { closeSession, uniqueName } from './cluster-session.js';
import { e2eTest, type TestEnv } from './harness.js';
import { after, mark, names } from './pod-order.js';

afterAll(() => closeSession());

const BIN = fileURLToPath(new URL('../../bin/ordinal.js', import.meta.url));

/** An expandable StorageClass of this test's own, and the storage actor that binds and expands claims. */
async function storageFor(env: TestEnv): Promise<string> {
  const className = uniqueName('expandable');
  await env.client.create(Resources.storageClasses, { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: className }, provisioner: 'simulated.ordinal.dev', allowVolumeExpansion: true } as KubeObject);
  env.onClose(() => env.client.delete(Resources.storageClasses, undefined, className).catch(() => undefined));
  const storage = new StorageActor({ client: env.client, timers: realTimers(), random: Math.random, namespace: env.ns, config: { bindSeconds: 0, expansionSeconds: 2, classes: {} } });
  storage.start();
  env.onClose(() => storage.stop());
  return className;
}

describe('claims updated in place on kube-apiserver (apps.ordinal.dev/v1)', () => {
  e2eTest('a grown claim template: claims patched and expanded highest first, one at a time, pods relabelled, not replaced', {
    timeout: 150_000,
    kubelet: { podStartSeconds: 0.3, podTerminationSeconds: 0.3, images: {} },
  }, async (env) => {
    const className = await storageFor(env);
    // claim patches in the order the API server committed them (the revision label is what the controller sets)
    const patched: string[] = [];
    const watch = env.client.watch<PersistentVolumeClaim>(Resources.persistentVolumeClaims, env.ns, '0', {
      onEvent: (e) => {
        const rev = e.object.metadata.labels?.[Labels.revisionHash];
        const name = e.object.metadata.name ?? '';
        if (rev !== undefined && patched.at(-1) !== `${name}@${rev}` && !patched.includes(`${name}@${rev}`)) patched.push(`${name}@${rev}`);
      },
      onClose: () => undefined,
    });
    env.onClose(() => watch.stop());

    const set = structuredClone(baseSet(env.ns, 'db')) as StatefulSet;
    set.spec.replicas = 3;
    set.spec.volumeClaimUpdatePolicy = 'InPlace';
    set.spec.volumeClaimTemplates = [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], storageClassName: className, resources: { requests: { storage: '1Gi' } } } }];
    await env.createConverged(set);
    const first = env.observer.set('db')?.status?.updateRevision ?? '';
    const from = mark(env);
    await env.patch('db', { spec: { volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], storageClassName: className, resources: { requests: { storage: '2Gi' } } } }] } });
    await env.waitForSet('db', 'every claim of db to be compatible with the 2Gi template', 90_000, (s) => {
      const c = s.status?.volumeClaimTemplates?.[0];
      const observed = s.status?.observedGeneration === s.metadata.generation;
      return (observed && c?.compatible === 3 && s.status?.updatedReplicas === 3 && s.status.currentRevision === s.status.updateRevision) || `status ${JSON.stringify(s.status?.volumeClaimTemplates)} updated ${s.status?.updatedReplicas}`;
    });

    const second = env.observer.set('db')?.status?.updateRevision ?? '';
    assert.notEqual(second, first, 'a claim template change is a new revision under InPlace');
    assert.deepEqual(patched.filter((p) => p.endsWith(`@${second}`)), ['data-db-2', 'data-db-1', 'data-db-0'].map((n) => `${n}@${second}`), 'claims patched highest ordinal first');
    assert.deepEqual(after(env, 'db', 'Terminating', from), [], 'no pod was replaced');
    const claims = (await env.client.list<PersistentVolumeClaim>(Resources.persistentVolumeClaims, env.ns)).items;
    assert.deepEqual(claims.map((c) => [c.metadata.name, claimCapacity(c)]).sort(), [['data-db-0', '2Gi'], ['data-db-1', '2Gi'], ['data-db-2', '2Gi']]);
    assert.ok((await env.events('db', 'SuccessfulUpdate')).some((e) => e.message?.startsWith('update Claim data-db-2 for Pod db-2')), 'a SuccessfulUpdate event for the claim');

    // converged: the status kube-apiserver returns (its keys in the server's order) is the one the planner
    // would write, so `plan` has no status to write and the controller PUTs none
    const plan = spawnSync(process.execPath, [BIN, 'plan', 'db', '-n', env.ns, '--kubeconfig', env.cp.kubeconfigPath, '-o', 'json'], { encoding: 'utf8' });
    assert.equal(plan.status, 0, plan.stderr);
    const planned = JSON.parse(plan.stdout) as { statusChanged: boolean; actions: unknown[] };
    assert.deepEqual([planned.statusChanged, planned.actions], [false, []], 'a converged set with claim templates: nothing to write');
  });

  e2eTest('an added claim template: claims created, pods replaced highest first; removed: replaced again, claims kept; undo: the same claims', {
    timeout: 150_000,
    kubelet: { podStartSeconds: 0.2, podTerminationSeconds: 0.2, images: {} },
  }, async (env) => {
    const className = await storageFor(env);
    const template = (name: string) => ({ metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], storageClassName: className, resources: { requests: { storage: '1Gi' } } } });
    const set = structuredClone(baseSet(env.ns, 'db')) as StatefulSet;
    set.spec.replicas = 3;
    set.spec.volumeClaimUpdatePolicy = 'InPlace';
    set.spec.persistentVolumeClaimRetentionPolicy = { whenDeleted: 'Delete', whenScaled: 'Retain' };
    set.spec.volumeClaimTemplates = [template('data')];
    await env.createConverged(set);
    const uid = env.observer.set('db')?.metadata.uid;
    const claimsNow = async () => new Map((await env.client.list<PersistentVolumeClaim>(Resources.persistentVolumeClaims, env.ns)).items.map((c) => [c.metadata.name ?? '', c]));
    const mounted = async () => (await env.client.list<Pod>(Resources.pods, env.ns)).items.map((p) => (p.spec.volumes ?? []).flatMap((v) => (v.persistentVolumeClaim ? [v.persistentVolumeClaim.claimName] : [])).sort()).sort();
    const withWal = [0, 1, 2].map((i) => [`data-db-${i}`, `wal-db-${i}`]);

    const added = mark(env);
    await env.modify('db', (s) => void s.spec.volumeClaimTemplates?.push(template('wal')));
    await env.waitConverged('db', 60_000);
    assert.deepEqual(names(after(env, 'db', 'Terminating', added)), ['db-2', 'db-1', 'db-0'], 'replaced highest ordinal first');
    assert.deepEqual(await mounted(), withWal);
    assert.deepEqual(env.observer.set('db')?.status?.volumeClaimTemplates?.map((t) => [t.name, t.compatible]), [['data', 3], ['wal', 3]]);
    const wal = [...(await claimsNow()).values()].filter((c) => c.metadata.name?.startsWith('wal-'));
    // whenDeleted: Delete: the set's controller reference, as on every claim of the set
    assert.deepEqual(wal.map((c) => c.metadata.ownerReferences?.map((r) => [r.kind, r.uid, r.controller])), [0, 1, 2].map(() => [['StatefulSet', uid, true]]));

    const removed = mark(env);
    await env.modify('db', (s) => void s.spec.volumeClaimTemplates?.pop());
    await env.waitConverged('db', 60_000);
    assert.deepEqual(names(after(env, 'db', 'Terminating', removed)), ['db-2', 'db-1', 'db-0'], 'replaced again, highest first');
    assert.deepEqual(await mounted(), [0, 1, 2].map((i) => [`data-db-${i}`]));
    const kept = await claimsNow();
    // kept, with the references they had: the garbage collector still deletes them with the set
    assert.deepEqual(wal.map((c) => [kept.get(c.metadata.name ?? '')?.metadata.uid, kept.get(c.metadata.name ?? '')?.metadata.ownerReferences]), wal.map((c) => [c.metadata.uid, c.metadata.ownerReferences]));
    assert.deepEqual(env.observer.set('db')?.status?.volumeClaimTemplates?.map((t) => t.name), ['data']);

    const io = bufferIO();
    assert.equal(await rolloutUndoCommand({ client: env.client, namespace: env.ns, io, timers: realTimers() }, 'db', { dryRun: 'none' }), 0, io.err);
    await env.waitForSet('db', 'db back on two templates', 30_000, (s) => s.spec.volumeClaimTemplates?.length === 2 || `templates ${s.spec.volumeClaimTemplates?.length}`);
    await env.waitConverged('db', 60_000);
    assert.deepEqual(await mounted(), withWal);
    const back = await claimsNow();
    assert.deepEqual(wal.map((c) => back.get(c.metadata.name ?? '')?.metadata.uid), wal.map((c) => c.metadata.uid), 'the same claims, mounted again');
  });
});
