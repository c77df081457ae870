// volumeClaimUpdatePolicy: InPlace on the simulated cluster: a claim template added or removed is a new
// revision that changes every pod's volumes, so each pod is replaced (never relabelled, never patched in
// place) in rollout order; a new template's claims are created before their pod, a removed one's are kept,
// and a pod held below the partition keeps its revision's list of claims.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Labels, type PersistentVolumeClaim, type Pod } from '../../src/api/types.js';
import type { TimelineRecord } from '../../src/sim/timeline.js';
import { dbSet, runDbScenario, storageClass } from './claim-scenario.js';

const DATA = '{metadata: {name: data}, spec: {accessModes: [ReadWriteOnce], storageClassName: standard, resources: {requests: {storage: 1Gi}}}}';
const WAL = '{metadata: {name: wal}, spec: {accessModes: [ReadWriteOnce], storageClassName: standard, resources: {requests: {storage: 1Gi}}}}';
const templates = (...list: string[]) => `  - patch: {kind: StatefulSet, name: db, merge: {spec: {volumeClaimTemplates: [${list.join(', ')}]}}}`;

const scenario = (steps: string[], set: Parameters<typeof dbSet>[0] = { replicas: 3, volumeClaimUpdatePolicy: 'InPlace', maxUnavailable: 1, className: 'standard' }) => `kind: Scenario
cluster: {storage: {}}
objects:
${storageClass('standard', true)}
${dbSet(set)}
steps:
  - waitFor: Converged
${steps.join('\n')}
`;
const converged = ['  - waitFor: Converged', '    timeoutSeconds: 300'];

/** The controller's pod deletions and creations, claim creations, in order. */
const writes = (records: TimelineRecord[]) =>
  records.flatMap((r) => (r.type === 'action' && ((r.resource === 'pods' && (r.verb === 'delete' || r.verb === 'create')) || (r.resource === 'persistentvolumeclaims' && r.verb === 'create')) ? [`${r.verb} ${r.resource === 'pods' ? 'pod' : 'claim'} ${r.name}`] : []));
const claimVolumes = (p: Pod) => (p.spec.volumes ?? []).flatMap((v) => (v.persistentVolumeClaim ? [v.persistentVolumeClaim.claimName] : [])).sort();
const uids = (claims: PersistentVolumeClaim[]) => Object.fromEntries(claims.map((c) => [c.metadata.name, c.metadata.uid]));
const byName = (pods: Pod[]) => [...pods].sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));

describe('claim templates added and removed (InPlace)', () => {
  it('an added template: its claims created before each new pod, pods replaced highest ordinal first, one at a time', async () => {
    const { failed, claims, pods, set, records } = await runDbScenario(scenario([templates(DATA, WAL), ...converged]));
    assert.equal(failed, false, JSON.stringify(records.filter((r) => r.type === 'failure')));
    const after = writes(records).slice(writes(records).indexOf('delete pod db-2'));
    assert.deepEqual(after, ['delete pod db-2', 'create claim wal-db-2', 'create pod db-2', 'delete pod db-1', 'create claim wal-db-1', 'create pod db-1', 'delete pod db-0', 'create claim wal-db-0', 'create pod db-0']);
    assert.deepEqual(byName(pods).map(claimVolumes), [0, 1, 2].map((i) => [`data-db-${i}`, `wal-db-${i}`]));
    assert.ok(claims.every((c) => c.metadata.labels?.[Labels.revisionHash] === set.status?.updateRevision), 'every claim is at the new revision');
    assert.deepEqual(set.status?.volumeClaimTemplates?.map((t) => [t.name, t.compatible]), [['data', 3], ['wal', 3]]);
  });

  it('a removed template: pods replaced again without it, its claims kept; added back, the same claims are mounted', async () => {
    const removed = await runDbScenario(scenario([templates(DATA, WAL), ...converged, templates(DATA), ...converged]));
    assert.equal(removed.failed, false);
    assert.deepEqual(byName(removed.pods).map(claimVolumes), [0, 1, 2].map((i) => [`data-db-${i}`]));
    assert.deepEqual(removed.claims.map((c) => c.metadata.name).sort(), ['data-db-0', 'data-db-1', 'data-db-2', 'wal-db-0', 'wal-db-1', 'wal-db-2'], 'the removed template keeps its claims');
    assert.deepEqual(removed.set.status?.volumeClaimTemplates?.map((t) => t.name), ['data'], 'the status lists the current templates only');
    assert.equal(writes(removed.records).filter((w) => w.startsWith('delete pod')).length, 6, 'each pod replaced twice');

    const back = await runDbScenario(scenario([templates(DATA, WAL), ...converged, templates(DATA), ...converged, templates(DATA, WAL), ...converged]));
    assert.deepEqual(byName(back.pods).map(claimVolumes), [0, 1, 2].map((i) => [`data-db-${i}`, `wal-db-${i}`]));
    assert.equal(writes(back.records).filter((w) => w.startsWith('create claim wal')).length, 3, 'the claims of the first addition, not new ones');
    assert.deepEqual(uids(back.claims), uids(removed.claims));
  });

  it('a partition holds the pods below it on the old list: a deleted one comes back without the new claim', async () => {
    const { failed, pods, claims } = await runDbScenario(
      scenario([templates(DATA, WAL), ...converged, '  - deletePod: db-0', ...converged], { replicas: 3, volumeClaimUpdatePolicy: 'InPlace', maxUnavailable: 1, partition: 2, className: 'standard' }),
    );
    assert.equal(failed, false);
    assert.deepEqual(byName(pods).map(claimVolumes), [['data-db-0'], ['data-db-1'], ['data-db-2', 'wal-db-2']]);
    assert.deepEqual(claims.map((c) => c.metadata.name).sort(), ['data-db-0', 'data-db-1', 'data-db-2', 'wal-db-2']);
  });

});
