// volumeClaimUpdatePolicy: InPlace (KEP-4650) on the simulated cluster with its storage: a grown claim
// template is a new revision; each replica, highest ordinal first and within maxUnavailable, has its claims
// patched, waits for the expansion, and then its pod relabelled (template unchanged) or replaced (changed).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import { claimCapacity, Labels, type PersistentVolumeClaim, type StatefulSet } from '../../src/api/types.js';
import { parseScenario } from '../../src/sim/scenario.js';
import { Simulation } from '../../src/sim/simulation.js';
import type { TimelineRecord } from '../../src/sim/timeline.js';
import { claimTemplates, dbSet, runDbScenario, storageClass } from './claim-scenario.js';

const scenario = (opts: { policy?: string; maxUnavailable?: number; change: string; className?: string }) => `kind: Scenario
cluster: {storage: {expansionSeconds: 10, classes: {slow: {expansion: Offline}}}}
objects:
${storageClass('standard', true)}
${storageClass('fixed', false)}
${dbSet({ replicas: 3, volumeClaimUpdatePolicy: opts.policy ?? 'InPlace', maxUnavailable: opts.maxUnavailable ?? 1, className: opts.className ?? 'standard' })}
steps:
  - waitFor: Converged
  - patch: {kind: StatefulSet, name: db, merge: {spec: ${opts.change}}}
  - waitFor: {statefulset: db}
    timeoutSeconds: 300
`;

const grown = (image?: string) =>
  `{${image ? `template: {spec: {containers: [{name: c, image: "${image}"}]}}, ` : ''}volumeClaimTemplates: ${claimTemplates('2Gi', 'standard')}}`;

const run = (opts: Parameters<typeof scenario>[0]) => runDbScenario(scenario(opts));

/** The controller's writes to claims and pods after the template change, in order: `verb resource/name`. */
const writes = (records: TimelineRecord[]) =>
  records.flatMap((r) => (r.type === 'action' && (r.resource === 'persistentvolumeclaims' || r.resource === 'pods') && r.verb !== 'create' ? [`${r.verb} ${r.name}`] : []));

describe('volumeClaimUpdatePolicy: InPlace', () => {
  it('grows every claim highest ordinal first, one replica at a time, and relabels the pods it does not need to replace', async () => {
    const { failed, claims, pods, set, records } = await run({ change: grown() });
    assert.equal(failed, false, JSON.stringify(records.filter((r) => r.type === 'failure')));
    assert.deepEqual(claims.map((c) => [c.metadata.name, c.spec.resources?.requests?.storage, claimCapacity(c)]).sort(), [
      ['data-db-0', '2Gi', '2Gi'],
      ['data-db-1', '2Gi', '2Gi'],
      ['data-db-2', '2Gi', '2Gi'],
    ]);
    assert.deepEqual(writes(records), ['patch data-db-2', 'patch db-2', 'patch data-db-1', 'patch db-1', 'patch data-db-0', 'patch db-0']);
    assert.equal(records.filter((r) => r.type === 'pod' && r.event === 'Deleted').length, 0, 'no pod was replaced');
    assert.ok(pods.every((p) => p.metadata.labels?.[Labels.revisionHash] === set.status?.updateRevision));
    assert.ok(claims.every((c) => c.metadata.labels?.[Labels.revisionHash] === set.status?.updateRevision));
    assert.deepEqual(set.status?.volumeClaimTemplates, [{ name: 'data', compatible: 3, updating: 0, overSized: 0, totalCapacity: '6Gi' }]);
    assert.equal(set.status?.updatedReplicas, 3);
  });

  it('replaces a pod whose template changed and brings its claims to the template with the new pod, within maxUnavailable 2', async () => {
    const { claims, records } = await run({ change: grown('db:2'), maxUnavailable: 2 });
    assert.ok(claims.every((c) => claimCapacity(c) === '2Gi'));
    const order = writes(records);
    // KEP-4650: "When patching the PVC, if we also re-create the Pod, update the PVC after old Pod deleted, together with creating new pod"
    for (const i of [0, 1, 2]) assert.ok(order.indexOf(`delete db-${i}`) < order.indexOf(`patch data-db-${i}`), order.join(', '));
    assert.deepEqual(order.slice(0, 2).sort(), ['delete db-1', 'delete db-2'], 'two replicas at once');
    const created = records.flatMap((r) => (r.type === 'action' && r.verb === 'create' && r.resource === 'pods' ? [records.indexOf(r)] : []));
    const patched = records.flatMap((r) => (r.type === 'action' && r.verb === 'patch' && r.resource === 'persistentvolumeclaims' ? [records.indexOf(r)] : []));
    assert.equal(patched.length, 3);
    for (const at of patched) assert.ok(created.some((c) => c > at), 'each claim patch comes right before a pod creation');
  });

  it('leaves claims alone with the default OnDelete: same revision, no claim write', async () => {
    const { claims, records } = await run({ policy: 'OnDelete', change: grown() });
    assert.deepEqual(writes(records), []);
    assert.ok(claims.every((c) => c.spec.resources?.requests?.storage === '1Gi'));
  });
});

describe('InPlace claims are updated by server-side apply', () => {
  it('removes a label the controller applied once the template drops it, and keeps the labels users set', async () => {
    const template = (storage: string, labels: string) =>
      `[{metadata: {name: data, labels: {${labels}}}, spec: {accessModes: [ReadWriteOnce], storageClassName: standard, resources: {requests: {storage: ${storage}}}}}]`;
    const sim = new Simulation(
      parseScenario(`kind: Scenario
cluster: {storage: {expansionSeconds: 5}}
objects:
${storageClass('standard', true)}
${dbSet({ replicas: 2, volumeClaimUpdatePolicy: 'InPlace', className: 'standard' })}
steps:
  - waitFor: Converged
  - patch: {kind: StatefulSet, name: db, merge: {spec: {volumeClaimTemplates: ${template('2Gi', 'backup: daily')}}}}
  - waitFor: {statefulset: db}
  - patch: {kind: PersistentVolumeClaim, name: data-db-0, merge: {metadata: {labels: {owner: me}}}}
  - patch: {kind: StatefulSet, name: db, merge: {spec: {volumeClaimTemplates: ${template('3Gi', 'tier: gold')}}}}
  - waitFor: {statefulset: db}
`),
    );
    await sim.start();
    await sim.runSteps();
    assert.equal(sim.failed, false, JSON.stringify(sim.records.filter((r) => r.type === 'failure')));
    const claims = (await sim.world.user.list<PersistentVolumeClaim>(Resources.persistentVolumeClaims, 'default')).items;
    const set = await sim.world.user.get<StatefulSet>(Resources.ordinalStatefulSets, 'default', 'db');
    await sim.finish();
    const labels = Object.fromEntries(claims.map((c) => [c.metadata.name, c.metadata.labels]));
    const revision = set.status?.updateRevision ?? '';
    assert.deepEqual(labels['data-db-0'], { app: 'db', owner: 'me', tier: 'gold', [Labels.revisionHash]: revision }, 'backup removed, owner kept');
    assert.deepEqual(labels['data-db-1'], { app: 'db', tier: 'gold', [Labels.revisionHash]: revision });
    assert.ok(claims.every((c) => claimCapacity(c) === '3Gi'));
  });
});
