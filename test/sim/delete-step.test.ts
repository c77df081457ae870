// The `delete` step deletes any object by hand, as `kubectl delete` does: a claim, then its pod, is how a
// claim is shrunk (the controller creates both again from the template).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import { claimCapacity, type PersistentVolumeClaim } from '../../src/api/types.js';
import { parseScenario } from '../../src/sim/scenario.js';
import { Simulation } from '../../src/sim/simulation.js';
import { dbSet, growTemplate, storageClass } from './claim-scenario.js';

async function run(steps: string) {
  const text = `kind: Scenario\ncluster: {storage: {}}\nobjects:\n${storageClass('standard', true)}\n${dbSet({ replicas: 2, className: 'standard' })}\nsteps:\n  - waitFor: Converged\n${steps}`;
  const sim = new Simulation(parseScenario(text));
  await sim.start();
  await sim.runSteps();
  const claims = (await sim.world.user.list<PersistentVolumeClaim>(Resources.persistentVolumeClaims, 'default')).items;
  const records = sim.records;
  await sim.finish();
  return { claims, records };
}

describe('the delete step', () => {
  it('deletes a claim; with its pod deleted too, the controller creates it again from the template as it is now', async () => {
    const { claims, records } = await run(`${growTemplate('2Gi', 'standard')}\n  - delete: {kind: PersistentVolumeClaim, name: data-db-1}\n  - deletePod: db-1\n  - waitFor: Converged`);
    assert.deepEqual(records.filter((r) => r.type === 'failure'), []);
    assert.deepEqual(claims.map((c) => [c.metadata.name, claimCapacity(c)]), [['data-db-0', '1Gi'], ['data-db-1', '2Gi']]);
    const events = records.flatMap((r) => (r.type === 'claim' && r.name === 'data-db-1' ? [r.event] : []));
    assert.deepEqual(events, ['Created', 'Bound', 'Deleted', 'Created', 'Bound']);
  });

  it('fails the scenario for an object that does not exist', async () => {
    const { records } = await run('  - delete: {kind: PersistentVolumeClaim, name: data-db-7}');
    assert.deepEqual(records.flatMap((r) => (r.type === 'failure' ? [r.message] : [])), ['delete: persistentvolumeclaims "data-db-7" not found']);
  });
});
