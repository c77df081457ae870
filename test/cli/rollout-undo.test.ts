// rollout undo of an InPlace set against what kube-apiserver checks: the claim templates it writes back keep
// every fixed field as stored (a CRD stores templates as written, without the volumeMode the controller's
// revision adds), and --dry-run=client refuses what the API server would refuse instead of reporting success.
// test/e2e/rollout-undo-claims.test.ts runs the same on kube-apiserver for each claim example.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources, type ClusterClient } from '../../src/api/client.js';
import { defaultFeatures } from '../../src/api/features.js';
import type { ControllerRevision, KubeObject, PersistentVolumeClaim, StatefulSet } from '../../src/api/types.js';
import { validateStatefulSetUpdate } from '../../src/api/validation/index.js';
import { rolloutUndoCommand } from '../../src/cli/commands/rollout.js';
import { converge, drive, setYaml, startWorld, take, type TestWorld } from './world.js';

const RES = Resources.ordinalStatefulSets;
const claims = (storage: string, tier: string) =>
  `[{metadata: {name: data, labels: {tier: ${tier}}}, spec: {accessModes: [ReadWriteOnce], storageClassName: standard, resources: {requests: {storage: ${storage}}}}}]`;

async function grownInPlace(): Promise<TestWorld> {
  const objects = `  - {apiVersion: storage.k8s.io/v1, kind: StorageClass, metadata: {name: standard}, provisioner: simulated, allowVolumeExpansion: true}
${setYaml({ apiVersion: 'apps.ordinal.dev/v1', replicas: 2, spec: `      volumeClaimUpdatePolicy: InPlace\n      volumeClaimTemplates: ${claims('1Gi', 'bronze')}\n` })}`;
  const w = await startWorld(objects, 'cluster: {podStartSeconds: 2, storage: {expansionSeconds: 5}}\n');
  assert.ok(await converge(w));
  const image = { template: { spec: { containers: [{ name: 'app', image: 'app:2' }] } } };
  await w.sim.world.user.patch(RES, 'default', 'web', { spec: { ...image, volumeClaimTemplates: [{ metadata: { name: 'data', labels: { tier: 'gold' } }, spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'standard', resources: { requests: { storage: '2Gi' } } } }] } });
  assert.ok(await converge(w));
  return w;
}

/** The set as a CRD stores it: claim templates as written, without the defaults (volumeMode, status) a CRD does not add. */
function asCrdStores(set: StatefulSet): StatefulSet {
  const out = structuredClone(set);
  for (const t of out.spec.volumeClaimTemplates ?? []) {
    delete (t as Partial<PersistentVolumeClaim>).status;
    delete t.spec.volumeMode;
  }
  return out;
}

/** The world's user client, reading sets as kube-apiserver stores a CRD's and recording the updates sent. */
function crdClient(user: ClusterClient, sent: KubeObject[]): ClusterClient {
  const client: ClusterClient = Object.create(user);
  client.get = async (res, ns, name) => (res === RES ? asCrdStores(await user.get(res, ns, name)) : user.get(res, ns, name)) as never;
  client.update = async (res, obj, opts) => {
    sent.push(obj);
    return user.update(res, obj, opts);
  };
  return client;
}

describe('rollout undo of an InPlace set', () => {
  it('writes back the claim templates as stored but for labels, annotations and volumeAttributesClassName, so the fixed fields are unchanged', async () => {
    const w = await grownInPlace();
    const sent: KubeObject[] = [];
    const stored = asCrdStores(await w.sim.world.user.get<StatefulSet>(RES, 'default', 'web'));
    assert.equal(await drive(w, rolloutUndoCommand({ ...w.deps, client: crdClient(w.sim.world.user, sent) }, 'osts/web', {})), 0);
    assert.match(take(w).out, /^statefulset\.apps\.ordinal\.dev\/web rolled back\n/);
    const update = sent[0] as StatefulSet;
    assert.deepEqual(update.spec.volumeClaimTemplates, [{ metadata: { name: 'data', labels: { tier: 'bronze' } }, spec: stored.spec.volumeClaimTemplates?.[0]?.spec }]);
    // the check kube-apiserver's CRD rule makes: a claim template's fixed fields, as stored, do not change
    assert.deepEqual(validateStatefulSetUpdate(update, stored, defaultFeatures()), []);
  });

  it('--dry-run=client refuses what the API server refuses (a revision whose template is invalid now), and --dry-run=server says it too', async () => {
    const w = await grownInPlace();
    const set = await w.sim.world.user.get<StatefulSet>(RES, 'default', 'web');
    const [newest] = (await w.sim.world.user.list<ControllerRevision>(Resources.controllerRevisions, 'default')).items.filter((r) => r.revision === 2);
    assert.ok(newest);
    const data = structuredClone(newest.data) as { spec: { template: { spec: Record<string, unknown> } } };
    data.spec.template.spec.restartPolicy = 'Never';
    await w.sim.world.user.create(Resources.controllerRevisions, { ...newest, metadata: { name: 'web-old', namespace: 'default', labels: newest.metadata.labels, ownerReferences: newest.metadata.ownerReferences }, data, revision: 9 });
    const message = 'StatefulSet.apps.ordinal.dev "web" is invalid: spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"';
    assert.equal(await drive(w, rolloutUndoCommand(w.deps, 'osts/web', { toRevision: 9, dryRun: 'client' })), 1);
    assert.deepEqual(take(w), { out: '', err: `error: ${message}\n` });
    assert.equal(await drive(w, rolloutUndoCommand(w.deps, 'osts/web', { toRevision: 9, dryRun: 'server' })), 1);
    assert.deepEqual(take(w), { out: '', err: `Error from server (Invalid): ${message}\n` });
    assert.equal((await w.sim.world.user.get<StatefulSet>(RES, 'default', 'web')).metadata.resourceVersion, set.metadata.resourceVersion);
  });

  it('takes back a removed claim template: the revision\'s list comes back, the kept template as stored, the removed one as the revision holds it', async () => {
    const objects = `  - {apiVersion: storage.k8s.io/v1, kind: StorageClass, metadata: {name: standard}, provisioner: simulated, allowVolumeExpansion: true}
${setYaml({ apiVersion: 'apps.ordinal.dev/v1', replicas: 2, spec: `      volumeClaimUpdatePolicy: InPlace\n      volumeClaimTemplates: [${claims('1Gi', 'bronze').slice(1, -1)}, {metadata: {name: wal}, spec: {accessModes: [ReadWriteOnce], storageClassName: standard, resources: {requests: {storage: 1Gi}}}}]\n` })}`;
    const w = await startWorld(objects, 'cluster: {podStartSeconds: 2, storage: {}}\n');
    assert.ok(await converge(w));
    const before = await w.sim.world.user.get<StatefulSet>(RES, 'default', 'web');
    await w.sim.world.user.patch(RES, 'default', 'web', { spec: { volumeClaimTemplates: before.spec.volumeClaimTemplates?.slice(0, 1) } });
    assert.ok(await converge(w));
    const sent: KubeObject[] = [];
    const stored = asCrdStores(await w.sim.world.user.get<StatefulSet>(RES, 'default', 'web'));
    assert.equal(await drive(w, rolloutUndoCommand({ ...w.deps, client: crdClient(w.sim.world.user, sent) }, 'osts/web', {})), 0);
    const update = sent[0] as StatefulSet;
    assert.deepEqual(update.spec.volumeClaimTemplates?.map((t) => t.metadata.name), ['data', 'wal']);
    assert.deepEqual(update.spec.volumeClaimTemplates?.[0], stored.spec.volumeClaimTemplates?.[0]);
    assert.deepEqual(validateStatefulSetUpdate(update, stored, defaultFeatures()), []);
    assert.ok(await converge(w));
    const pods = (await w.sim.world.user.list<{ metadata: { name?: string }; spec: { volumes?: { name: string }[] } } & KubeObject>(Resources.pods, 'default')).items;
    assert.deepEqual(pods.map((p) => p.spec.volumes?.map((v) => v.name)), [['data', 'wal'], ['data', 'wal']]);
  });
});
