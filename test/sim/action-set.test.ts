// The `set` of an `action` record names the StatefulSet a controller write concerns: for a claim, the set
// whose claim template names it (claims carry no owner reference unless the retention policy deletes them).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseScenario } from '../../src/sim/scenario.js';
import { Simulation } from '../../src/sim/simulation.js';
import { dbSet, growTemplate, storageClass } from './claim-scenario.js';

describe('action records', () => {
  it('name the set of the claims the controller creates and patches', async () => {
    const set = dbSet({ replicas: 2, className: 'standard', volumeClaimUpdatePolicy: 'InPlace' });
    const text = `kind: Scenario\ncluster: {storage: {}}\nobjects:\n${storageClass('standard', true)}\n${set}\nsteps:\n  - waitFor: Converged\n${growTemplate('2Gi', 'standard')}\n  - waitFor: Converged`;
    const sim = new Simulation(parseScenario(text));
    await sim.start();
    await sim.runSteps();
    await sim.finish();
    const claimWrites = sim.records.flatMap((r) => (r.type === 'action' && r.resource === 'persistentvolumeclaims' ? [`${r.verb} ${r.name} ${r.set}`] : []));
    assert.deepEqual(claimWrites, ['create data-db-0 db', 'create data-db-1 db', 'patch data-db-1 db', 'patch data-db-0 db']);
  });
});
