// apps.ordinal.dev/v1 claim templates may grow (KEP-4650's API part): the edit rolls no pod, leaves the
// claims that exist as they are, and a claim created afterwards (a scale-up) follows the template; a
// smaller request is refused with the way to shrink.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import type { PersistentVolumeClaim, StatefulSet } from '../../src/api/types.js';
import { parseScenario } from '../../src/sim/scenario.js';
import { Simulation } from '../../src/sim/simulation.js';
import { dbSet, growTemplate, storageClass } from './claim-scenario.js';

const scenario = (storage: string) => `kind: Scenario
objects:
${dbSet({ replicas: 2 })}
steps:
  - waitFor: Converged
${growTemplate(storage)}
  - waitFor: Converged
  - patch: {kind: StatefulSet, name: db, merge: {spec: {replicas: 3}}}
  - waitFor: Converged
`;

async function run(storage: string) {
  const sim = new Simulation(parseScenario(scenario(storage)));
  await sim.start();
  await sim.runSteps();
  const claims = await sim.world.user.list<PersistentVolumeClaim>(Resources.persistentVolumeClaims, 'default');
  const sizes = Object.fromEntries(claims.items.map((c) => [c.metadata.name, c.spec.resources?.requests?.storage]));
  await sim.finish();
  return { sim, sizes };
}

describe('editing a claim template', () => {
  it('rolls no pod, keeps existing claims, and creates new claims from the new template', async () => {
    const { sim, sizes } = await run('5Gi');
    assert.equal(sim.failed, false);
    assert.deepEqual(sizes, { 'data-db-0': '1Gi', 'data-db-1': '1Gi', 'data-db-2': '5Gi' });
    const deleted = sim.records.filter((r) => r.type === 'pod' && r.event === 'Deleted');
    assert.deepEqual(deleted, [], 'no pod was replaced');
  });

  it('refuses a smaller request and says how to shrink, at the field', async () => {
    const { sim, sizes } = await run('512Mi');
    const failures = sim.records.flatMap((r) => (r.type === 'failure' ? [r.message] : []));
    assert.equal(failures.length, 1, failures.join('\n'));
    assert.match(failures[0]!, /spec\.volumeClaimTemplates\[0\]\.spec\.resources\.requests\[storage\]: Forbidden: may not be less than the previous value 1Gi: .*delete the claim and its pod/);
    assert.deepEqual(sizes, { 'data-db-0': '1Gi', 'data-db-1': '1Gi' }, 'the refused step ends the run before the scale-up');
  });
});

const withStorage = (steps: string) => `kind: Scenario
cluster: {storage: {expansionSeconds: 10}}
objects:
${storageClass('standard', true)}
${dbSet({ replicas: 2, className: 'standard' })}
steps:
  - waitFor: Converged
${growTemplate('5Gi', 'standard')}
  - advance: 1
${steps}`;

async function claimStatus(steps: string) {
  const sim = new Simulation(parseScenario(withStorage(steps)));
  await sim.start();
  await sim.runSteps();
  const set = await sim.world.user.get<StatefulSet>(Resources.ordinalStatefulSets, 'default', 'db');
  assert.equal(sim.failed, false, JSON.stringify(sim.records.filter((r) => r.type === 'failure')));
  await sim.finish();
  return set.status?.volumeClaimTemplates;
}

describe('status.volumeClaimTemplates', () => {
  it('counts the claims behind an edited template, an expansion under way, and a new claim at the new size', async () => {
    assert.deepEqual(await claimStatus(''), [{ name: 'data', compatible: 0, updating: 0, overSized: 0, totalCapacity: '2Gi' }]);
    const grow = '  - patch: {kind: PersistentVolumeClaim, name: data-db-0, merge: {spec: {resources: {requests: {storage: 5Gi}}}}}';
    assert.deepEqual(await claimStatus(`${grow}\n  - advance: 5`), [{ name: 'data', compatible: 0, updating: 1, overSized: 0, totalCapacity: '2Gi' }]);
    assert.deepEqual(await claimStatus(`${grow}\n  - advance: 11`), [{ name: 'data', compatible: 1, updating: 0, overSized: 0, totalCapacity: '6Gi' }]);
    const scaleUp = '  - patch: {kind: StatefulSet, name: db, merge: {spec: {replicas: 3}}}\n  - waitFor: Converged';
    assert.deepEqual(await claimStatus(`${grow}\n  - advance: 11\n${scaleUp}`), [{ name: 'data', compatible: 2, updating: 0, overSized: 0, totalCapacity: '11Gi' }]);
  });
});
