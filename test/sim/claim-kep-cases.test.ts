// KEP-4650 cases a database team meets first, on the simulated cluster with its storage: the migration to
// InPlace, claim-only edits under every strategy, claims that cannot grow, offline expansion with a new image,
// pods on an intermediate revision, and minReadySeconds after an expansion. Each case failed before the
// planner decided replace-or-relabel by the pod template alone and never held a pod's creation on its claims.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ClaimAnnotations, claimCapacity, Labels, type PersistentVolumeClaim } from '../../src/api/types.js';
import type { TimelineRecord } from '../../src/sim/timeline.js';
import { claimTemplates, dbSet, growTemplate, runDbScenario, storageClass, type DbSetOptions } from './claim-scenario.js';

const CLUSTER = 'cluster: {podStartSeconds: 2, storage: {expansionSeconds: 5, classes: {slow: {expansion: Offline}}}}';

const scenario = (set: DbSetOptions, steps: string[], extraObjects: string[] = []) => `kind: Scenario
endSeconds: 3600
${CLUSTER}
objects:
${storageClass('standard', true)}
${storageClass('slow', true)}
${storageClass('fixed', false)}
${extraObjects.join('\n')}
${dbSet(set)}
steps:
  - waitFor: Converged
    timeoutSeconds: 120
${steps.join('\n')}
`;

const run = runDbScenario;

const converge = '  - waitFor: Converged\n    timeoutSeconds: 300';
const deleted = (records: readonly TimelineRecord[]) => records.flatMap((r) => (r.type === 'pod' && r.event === 'Deleted' ? [r.name] : []));
const capacities = (claims: readonly PersistentVolumeClaim[]) => claims.map((c) => `${c.metadata.name}=${claimCapacity(c) ?? '-'}`).sort();
const failures = (records: readonly TimelineRecord[]) => JSON.stringify(records.filter((r) => r.type === 'failure' || (r.type === 'expect' && !r.ok)));
const patchSet = (spec: string) => `  - patch: {kind: StatefulSet, name: db, merge: {spec: ${spec}}}`;

describe('KEP-4650: a set switched to InPlace', () => {
  it('compares its existing claims with the template and grows them, restarting no pod', async () => {
    const r = await run(scenario({ replicas: 3, className: 'standard', maxUnavailable: 1 }, [patchSet('{volumeClaimUpdatePolicy: InPlace}'), converge, growTemplate('2Gi', 'standard'), converge]));
    assert.equal(r.failed, false, failures(r.records));
    assert.deepEqual(capacities(r.claims), ['data-db-0=2Gi', 'data-db-1=2Gi', 'data-db-2=2Gi']);
    assert.deepEqual(deleted(r.records), []);
    assert.deepEqual(r.set.status?.volumeClaimTemplates, [{ name: 'data', compatible: 3, updating: 0, overSized: 0, totalCapacity: '6Gi' }]);
    assert.ok(r.claims.every((c) => c.metadata.labels?.[Labels.revisionHash] === r.set.status?.updateRevision));
  });

  it('and back to OnDelete: the first revision again, and the pods are relabelled, not replaced', async () => {
    const steps = [patchSet('{volumeClaimUpdatePolicy: InPlace}'), converge, patchSet('{volumeClaimUpdatePolicy: OnDelete}'), converge];
    const r = await run(scenario({ replicas: 3, className: 'standard', maxUnavailable: 1 }, steps));
    assert.equal(r.failed, false, failures(r.records));
    assert.deepEqual(deleted(r.records), []);
    const relabels = r.records.filter((x) => x.type === 'action' && x.verb === 'patch' && x.resource === 'pods').length;
    assert.equal(relabels, 6, 'each pod relabelled to the InPlace revision and back');
    assert.ok(r.pods.every((p) => p.metadata.labels?.[Labels.revisionHash] === r.set.status?.updateRevision));
  });
});

describe('KEP-4650: a change of claim templates only never deletes a pod', () => {
  for (const strategy of ['{type: Recreate}', '{type: RollingUpdate}', '{type: EnforcedRollingUpdate}']) {
    it(`under ${strategy}`, async () => {
      const set = { replicas: 3, className: 'standard', volumeClaimUpdatePolicy: 'InPlace', podManagementPolicy: 'Parallel' as const, updateStrategy: strategy };
      const r = await run(scenario(set, [growTemplate('2Gi', 'standard'), converge]));
      assert.equal(r.failed, false, failures(r.records));
      assert.deepEqual(deleted(r.records), []);
      assert.deepEqual(capacities(r.claims), ['data-db-0=2Gi', 'data-db-1=2Gi', 'data-db-2=2Gi']);
      assert.equal(r.records.some((x) => x.type === 'event' && x.reason === 'RecreateStarted'), false);
    });
  }

  it('a pod already on the final pod template (an intermediate revision) is relabelled, the others replaced', async () => {
    const set = { replicas: 3, className: 'standard', volumeClaimUpdatePolicy: 'InPlace', maxUnavailable: 1, partition: 2 };
    const steps = [
      '  - setImage: {name: db, container: c, image: "db:2"}',
      converge,
      patchSet(`{updateStrategy: {rollingUpdate: {partition: 0}}, volumeClaimTemplates: ${claimTemplates('2Gi', 'standard')}}`),
      converge,
    ];
    const r = await run(scenario(set, steps));
    assert.equal(r.failed, false, failures(r.records));
    assert.deepEqual(deleted(r.records).sort(), ['db-0', 'db-1', 'db-2'], 'db-2 once for the image, db-1 and db-0 once for both changes');
    assert.deepEqual(capacities(r.claims), ['data-db-0=2Gi', 'data-db-1=2Gi', 'data-db-2=2Gi']);
  });
});

describe('KEP-4650: a claim that cannot grow holds the rolling update, never a pod', () => {
  it('recreates a deleted pod and a scaled-up one on their smaller claims, and does not count them updated', async () => {
    const steps = [
      growTemplate('2Gi', 'fixed'),
      '  - advance: 5',
      '  - deletePod: db-1',
      '  - waitFor: {pod: db-1, condition: Ready}\n    timeoutSeconds: 60',
      patchSet('{replicas: 4}'),
      '  - waitFor: {pod: db-3, condition: Ready}\n    timeoutSeconds: 60',
      '  - advance: 5',
    ];
    const r = await run(scenario({ replicas: 3, className: 'fixed', volumeClaimUpdatePolicy: 'InPlace', maxUnavailable: 1 }, steps, [retainedClaim('data-db-3', 'fixed')]));
    assert.equal(r.failed, false, failures(r.records));
    const revision = r.set.status?.updateRevision;
    const onUpdate = r.pods.filter((p) => p.metadata.labels?.[Labels.revisionHash] === revision).map((p) => p.metadata.name).sort();
    assert.deepEqual(onUpdate, ['db-1', 'db-3'], 'both created on the new revision');
    assert.equal(r.set.status?.readyReplicas, 4);
    assert.equal(r.set.status?.updatedReplicas, 0, 'their claims are still 1Gi');
    assert.deepEqual(capacities(r.claims), ['data-db-0=1Gi', 'data-db-1=1Gi', 'data-db-2=1Gi', 'data-db-3=1Gi']);
  });

  it('a claim on another StorageClass than the template holds its replica with claimIncompatible', async () => {
    const r = await run(scenario({ replicas: 3, className: 'standard', volumeClaimUpdatePolicy: 'InPlace', maxUnavailable: 1 }, [growTemplate('2Gi', 'standard'), '  - advance: 60'], [retainedClaim('data-db-0', 'slow')]));
    const warning = r.records.find((x) => x.type === 'event' && x.reason === 'ClaimIncompatible');
    assert.ok(warning?.type === 'event');
    assert.equal(warning.message, 'Claim data-db-0 for Pod db-0 in StatefulSet db does not match its template: spec.storageClassName is "slow", the template says "standard"');
    const db0 = r.pods.find((p) => p.metadata.name === 'db-0');
    assert.equal(db0?.metadata.labels?.[Labels.revisionHash], r.set.status?.currentRevision, 'not relabelled');
    assert.equal(r.set.status?.updatedReplicas, 2);
    assert.deepEqual(r.set.status?.volumeClaimTemplates?.[0]?.compatible, 2);
  });
});

/** A claim that exists before the set (retained from an earlier one, or made by hand) on `className`. */
function retainedClaim(name: string, className: string): string {
  return `  - {apiVersion: v1, kind: PersistentVolumeClaim, metadata: {name: ${name}, labels: {app: db}}, spec: {accessModes: [ReadWriteOnce], storageClassName: ${className}, resources: {requests: {storage: 1Gi}}}}`;
}

describe('KEP-4650: offline expansion with a new image under RollingUpdate', () => {
  it('grows each claim with its new pod and restarts that pod if the volume grew after it mounted it: no one has to delete a pod', async () => {
    const steps = [patchSet(`{template: {spec: {containers: [{name: c, image: "db:2"}]}}, volumeClaimTemplates: ${claimTemplates('2Gi', 'slow')}}`), converge];
    const r = await run(scenario({ replicas: 3, className: 'slow', volumeClaimUpdatePolicy: 'InPlace', maxUnavailable: 1 }, steps));
    assert.equal(r.failed, false, failures(r.records));
    assert.deepEqual(capacities(r.claims), ['data-db-0=2Gi', 'data-db-1=2Gi', 'data-db-2=2Gi']);
    // the old pod for the image; its successor, created with the claim patch before the volume had grown, once more
    assert.deepEqual(deleted(r.records).sort(), ['db-0', 'db-0', 'db-1', 'db-1', 'db-2', 'db-2']);
    for (const name of ['data-db-0', 'data-db-1', 'data-db-2']) {
      const pending = r.records.find((x) => x.type === 'claim' && x.name === name && x.event === 'FileSystemResizePending')?.t ?? Infinity;
      const pod = name.replace('data-', '');
      const second = r.records.filter((x) => x.type === 'pod' && x.name === pod && x.event === 'Terminating')[1]?.t;
      assert.ok(second !== undefined && second >= pending, `${pod} restarted for its claim only once the volume had grown`);
    }
    assert.ok(r.set.status?.updatedReplicas === 3 && r.set.status.availableReplicas === 3);
  });
});

describe('KEP-4650: minReadySeconds after an expansion', () => {
  it('counts a replica available minReadySeconds after its claims finished growing, and only then moves on', async () => {
    const r = await run(scenario({ replicas: 3, className: 'standard', volumeClaimUpdatePolicy: 'InPlace', maxUnavailable: 1, minReadySeconds: 10 }, [growTemplate('2Gi', 'standard'), converge]));
    assert.equal(r.failed, false, failures(r.records));
    const at = (type: string, name: string, event?: string) =>
      r.records.find((x) => (x.type === type && 'name' in x && x.name === name && (event === undefined || ('event' in x && x.event === event))) || (x.type === 'action' && x.verb === 'patch' && x.name === name && type === 'patch'))?.t;
    const resized2 = at('claim', 'data-db-2', 'Resized');
    const patched1 = at('patch', 'data-db-1');
    assert.ok(resized2 !== undefined && patched1 !== undefined);
    assert.ok(patched1 >= resized2 + 10, `data-db-1 patched at ${patched1}, data-db-2 resized at ${resized2}`);
    assert.ok(r.claims.every((c) => c.metadata.annotations?.[ClaimAnnotations.resizedAt] !== undefined), 'each claim records when its expansion ended');
  });
});
