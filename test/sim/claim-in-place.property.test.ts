// Property (KEP-4650, volumeClaimUpdatePolicy InPlace): over random sizes, policies, partitions, budgets and
// expansion times, a claim-only rollout patches claims only at or above the partition, each once, highest
// ordinal first, and never has more than maxUnavailable replicas in flight (claims patched, pod not yet
// moved to the new revision). Cases are drawn with the process's property seed (test/property-seed.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseScenario } from '../../src/sim/scenario.js';
import { Simulation } from '../../src/sim/simulation.js';
import { propertySeed } from '../property-seed.js';
import { dbSet, growTemplate, storageClass } from './claim-scenario.js';

const cases = fc.record({
  replicas: fc.integer({ min: 1, max: 6 }),
  maxUnavailable: fc.integer({ min: 1, max: 3 }),
  partition: fc.integer({ min: 0, max: 3 }),
  parallel: fc.boolean(),
  expansionSeconds: fc.integer({ min: 0, max: 20 }),
  podStart: fc.integer({ min: 1, max: 5 }),
});

type Case = typeof cases extends fc.Arbitrary<infer T> ? T : never;
const scenario = (c: Case) => `kind: Scenario
cluster: {podStartSeconds: ${c.podStart}, storage: {expansionSeconds: ${c.expansionSeconds}}}
objects:
${storageClass('standard', true)}
${dbSet({
  replicas: c.replicas,
  podManagementPolicy: c.parallel ? 'Parallel' : 'OrderedReady',
  volumeClaimUpdatePolicy: 'InPlace',
  maxUnavailable: c.maxUnavailable,
  partition: c.partition,
  className: 'standard',
})}
steps:
  - waitFor: Converged
${growTemplate('2Gi', 'standard')}
  - waitFor: Converged
    timeoutSeconds: 600
`;

describe('InPlace claim updates (property)', () => {
  it(`patch claims in rollout order and within maxUnavailable (seed ${propertySeed})`, async () => {
    for (const c of fc.sample(cases, { seed: propertySeed, numRuns: 12 })) {
      const sim = new Simulation(parseScenario(scenario(c)));
      await sim.start();
      await sim.runSteps();
      await sim.finish();
      const what = JSON.stringify(c);
      assert.equal(sim.failed, false, `${what}: ${JSON.stringify(sim.records.filter((r) => r.type === 'failure'))}`);
      const writes = sim.records.flatMap((r) => (r.type === 'action' && r.verb === 'patch' && (r.resource === 'pods' || r.resource === 'persistentvolumeclaims') ? [{ t: r.t, resource: r.resource, ordinal: Number(r.name.split('-').pop()) }] : []));
      const patched = writes.filter((w) => w.resource === 'persistentvolumeclaims').map((w) => w.ordinal);
      const expected = Array.from({ length: Math.max(0, c.replicas - c.partition) }, (_, i) => c.replicas - 1 - i);
      assert.deepEqual(patched, expected, `${what}: claims patched highest first, each once, none below the partition`);
      let inFlight = 0;
      for (const w of writes) {
        inFlight += w.resource === 'persistentvolumeclaims' ? 1 : -1;
        assert.ok(inFlight <= c.maxUnavailable, `${what}: ${inFlight} replicas in flight at t=${w.t}`);
      }
      assert.equal(inFlight, 0, `${what}: every patched replica's pod moved to the new revision`);
    }
  });
});
