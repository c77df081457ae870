// The simulated storage (cluster.storage): claims are bound to new PersistentVolumes of their size, and a
// larger request is expanded after the class's delay — online, offline (finished by a pod that starts
// afterwards) or failing — while the API server refuses to expand a claim whose class does not allow it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import { isNotFound } from '../../src/api/errors.js';
import { claimCapacity, type KubeObject, type PersistentVolumeClaim } from '../../src/api/types.js';
import { parseScenario } from '../../src/sim/scenario.js';
import { Simulation } from '../../src/sim/simulation.js';
import { compareQuantities } from '../../src/api/validation/quantity.js';
import { StorageActor } from '../../src/cluster/storage/storage-actor.js';
import { dbSet, growTemplate, storageClass } from '../sim/claim-scenario.js';
import { newEnv } from './helpers.js';

const scenario = (className: string, steps: string) => `kind: Scenario
cluster:
  storage:
    expansionSeconds: 20
    classes: {slow: {expansion: Offline, expansionSeconds: 5}, broken: {expansion: Fails}}
objects:
${storageClass('standard', true)}
${storageClass('fixed', false)}
${storageClass('slow', true)}
${storageClass('broken', true)}
${dbSet({ replicas: 2, className })}
steps:
  - waitFor: Converged
${steps}`;

const grow = (claim: string, size: string) => `  - patch: {kind: PersistentVolumeClaim, name: ${claim}, merge: {spec: {resources: {requests: {storage: ${size}}}}}}`;

async function run(className: string, steps: string) {
  return runScenario(scenario(className, steps));
}

async function runScenario(text: string) {
  const sim = new Simulation(parseScenario(text));
  await sim.start();
  await sim.runSteps();
  const claims = new Map((await sim.world.user.list<PersistentVolumeClaim>(Resources.persistentVolumeClaims, 'default')).items.map((c) => [c.metadata.name, c]));
  const volumes = (await sim.world.user.list<KubeObject & { spec: { capacity: { storage: string }; claimRef: { name: string } } }>(Resources.persistentVolumes, undefined)).items;
  const failures = sim.records.flatMap((r) => (r.type === 'failure' ? [r.message] : []));
  await sim.finish();
  return { claims, volumes, failures };
}

const capacity = (c: PersistentVolumeClaim | undefined) => (c === undefined ? undefined : claimCapacity(c));
const conditions = (c: PersistentVolumeClaim | undefined) => ((c?.status?.['conditions'] ?? []) as { type: string }[]).map((x) => x.type);

describe('the simulated storage', () => {
  it('refuses bad settings with their paths', () => {
    const bad = `kind: Scenario\ncluster: {storage: {bindSecs: 1, expansionSeconds: -1, classes: {x: {expansion: Sometimes}}}}\n`;
    assert.throws(() => parseScenario(bad), (e: Error & { issues?: { path: string; message: string }[] }) => {
      const got = (e.issues ?? []).map((i) => i.path).sort();
      assert.deepEqual(got, ['cluster.storage.bindSecs', 'cluster.storage.classes.x.expansion', 'cluster.storage.expansionSeconds']);
      return true;
    });
  });

  it('binds every claim to a volume of its size', async () => {
    const { claims, volumes, failures } = await run('standard', '');
    assert.deepEqual(failures, []);
    for (const name of ['data-db-0', 'data-db-1']) {
      const claim = claims.get(name);
      assert.equal(claim?.status?.phase, 'Bound');
      assert.equal(capacity(claim), '1Gi');
      assert.equal(claim?.spec.volumeName, `pvc-${claim?.metadata.uid}`);
    }
    assert.deepEqual(volumes.map((v) => [v.spec.claimRef.name, v.spec.capacity.storage]).sort(), [['data-db-0', '1Gi'], ['data-db-1', '1Gi']]);
  });

  it('expands online after the delay: Resizing meanwhile, then the new capacity on the claim and its volume', async () => {
    const during = await run('standard', `${grow('data-db-0', '5Gi')}\n  - advance: 10`);
    assert.equal(capacity(during.claims.get('data-db-0')), '1Gi');
    assert.deepEqual(conditions(during.claims.get('data-db-0')), ['Resizing']);
    const after = await run('standard', `${grow('data-db-0', '5Gi')}\n  - advance: 21`);
    assert.equal(capacity(after.claims.get('data-db-0')), '5Gi');
    assert.deepEqual(conditions(after.claims.get('data-db-0')), []);
    assert.equal(after.volumes.find((v) => v.spec.claimRef.name === 'data-db-0')?.spec.capacity.storage, '5Gi');
    assert.equal(capacity(after.claims.get('data-db-1')), '1Gi');
  });

  it('leaves an offline expansion pending until a pod that mounts the claim starts again', async () => {
    const pending = await run('slow', `${grow('data-db-1', '3Gi')}\n  - advance: 30`);
    assert.deepEqual(conditions(pending.claims.get('data-db-1')), ['FileSystemResizePending']);
    assert.equal(capacity(pending.claims.get('data-db-1')), '1Gi');
    const restarted = await run('slow', `${grow('data-db-1', '3Gi')}\n  - advance: 30\n  - deletePod: db-1\n  - waitFor: Converged`);
    assert.equal(capacity(restarted.claims.get('data-db-1')), '3Gi');
    assert.deepEqual(conditions(restarted.claims.get('data-db-1')), []);
  });

  it('reports a failed expansion and keeps the old capacity', async () => {
    const { claims } = await run('broken', `${grow('data-db-0', '2Gi')}\n  - advance: 30`);
    const claim = claims.get('data-db-0');
    assert.equal(capacity(claim), '1Gi');
    assert.deepEqual(conditions(claim), ['ControllerResizeError']);
    assert.equal((claim?.status?.['allocatedResourceStatuses'] as Record<string, string>)?.storage, 'ControllerResizeInfeasible');
  });

  it('is refused by the API server when the class does not allow expansion, and below capacity', async () => {
    const fixed = await run('fixed', grow('data-db-0', '2Gi'));
    assert.deepEqual(fixed.failures.map((f) => f.replace(/^.*?persistentvolumeclaims/, 'persistentvolumeclaims')), [
      'persistentvolumeclaims "data-db-0" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize',
    ]);
    const smaller = await run('standard', grow('data-db-0', '512Mi'));
    assert.match(smaller.failures.join(), /spec\.resources\.requests\.storage: Forbidden: field can not be less than status\.capacity/);
    const other = await run('standard', '  - patch: {kind: PersistentVolumeClaim, name: data-db-0, merge: {spec: {storageClassName: fixed}}}');
    assert.match(other.failures.join(), /spec: Forbidden: spec is immutable after creation except resources\.requests and volumeAttributesClassName for bound claims/);
  });

  it('binds and grows, InPlace, claims whose storage is a JSON number, as the quantity it is', async () => {
    const set = dbSet({ replicas: 2, className: 'standard', volumeClaimUpdatePolicy: 'InPlace', storage: String(2 ** 30) });
    const text = `kind: Scenario\ncluster: {storage: {expansionSeconds: 5}}\nobjects:\n${storageClass('standard', true)}\n${set}\nsteps:\n  - waitFor: Converged\n${growTemplate(String(2 ** 31), 'standard')}\n  - waitFor: Converged`;
    const { claims, volumes, failures } = await runScenario(text);
    assert.deepEqual(failures, []);
    const sizes = [...claims.values()].map((c) => [c.metadata.name, c.status?.phase, compareQuantities(capacity(c) ?? '', '2Gi')]);
    assert.deepEqual(sizes, [['data-db-0', 'Bound', 0], ['data-db-1', 'Bound', 0]]);
    assert.deepEqual(volumes.map((v) => compareQuantities(v.spec.capacity.storage, '2Gi')), [0, 0]);
    const patched = await run('standard', `${grow('data-db-0', String(3 * 2 ** 30))}\n  - advance: 21`);
    assert.deepEqual([compareQuantities(capacity(patched.claims.get('data-db-0')) ?? '', '3Gi'), conditions(patched.claims.get('data-db-0'))], [0, []]);
  });

  it('grows a claim restored without its PersistentVolume (a live claim a forecast starts from)', async () => {
    const env = newEnv();
    env.cluster.restore({
      resourceVersion: '0',
      resources: {
        'storageclasses.storage.k8s.io': [{ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'standard' }, allowVolumeExpansion: true } as KubeObject],
        persistentvolumeclaims: [
          {
            apiVersion: 'v1',
            kind: 'PersistentVolumeClaim',
            metadata: { name: 'data-db-0', namespace: 'default', uid: 'c0' },
            spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'standard', volumeName: 'pvc-on-the-real-cluster', resources: { requests: { storage: '1Gi' } } },
            status: { phase: 'Bound', capacity: { storage: '1Gi' } },
          } as KubeObject,
        ],
      },
    });
    const errors: unknown[] = [];
    const actor = new StorageActor({ client: env.cluster.client('storage'), timers: env.clock, random: () => 0, config: { bindSeconds: 0, expansionSeconds: 5, classes: {} }, onError: (e) => errors.push(e) });
    actor.start();
    await env.cluster.patch(Resources.persistentVolumeClaims, 'default', 'data-db-0', { spec: { resources: { requests: { storage: '2Gi' } } } });
    await env.clock.advance(10_000);
    actor.stop();
    assert.equal(capacity(await env.cluster.get<PersistentVolumeClaim>(Resources.persistentVolumeClaims, 'default', 'data-db-0')), '2Gi');
    assert.deepEqual(errors.filter(isNotFound), [], 'no volume to find, and none looked for');
  });
});
