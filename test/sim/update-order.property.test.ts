// Property (rollingUpdate.updateOrder: Priority): over random sizes, the primary's ordinal, labelled or
// unlabelled replicas, policies, maxUnavailable, an optional PodDisruptionBudget, injected API errors,
// conflicts and watch delays, the primary is the last pod deleted and only once every other pod is updated
// and Ready, no budget is breached, no other invariant breaks, and the rollout completes. Cases are drawn
// with the process's property seed (test/property-seed.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { apiFaults, faultsLine, simulate } from './fault-cases.js';
import { propertySeed } from '../property-seed.js';

const cases = fc
  .integer({ min: 2, max: 7 })
  .chain((replicas) =>
    fc.record({
      replicas: fc.constant(replicas),
      primary: fc.integer({ min: 0, max: replicas - 1 }),
      /** The replicas labelled role=replica and listed before primary. */
      labelReplicas: fc.boolean(),
      maxUnavailable: fc.integer({ min: 1, max: 4 }),
      parallel: fc.boolean(),
      budget: fc.boolean(),
      ...apiFaults,
      podStart: fc.integer({ min: 1, max: 6 }),
      seed: fc.integer({ min: 1, max: 1000 }),
    }),
  );

type Case = typeof cases extends fc.Arbitrary<infer T> ? T : never;

function scenario(c: Case): string {
  const labels = Array.from({ length: c.replicas }, (_, i) => (i === c.primary ? 'primary' : c.labelReplicas ? 'replica' : undefined))
    .map((role, i) => (role === undefined ? '' : `  - patch: {kind: Pod, name: db-${i}, merge: {metadata: {labels: {role: ${role}}}}}`))
    .filter(Boolean);
  return `kind: Scenario
seed: ${c.seed}
cluster: {podStartSeconds: ${c.podStart}, podTerminationSeconds: 1}
${faultsLine(c)}
objects:
${c.budget ? '  - {apiVersion: policy/v1, kind: PodDisruptionBudget, metadata: {name: db}, spec: {maxUnavailable: 1, selector: {matchLabels: {app: db}}}}' : ''}
  - apiVersion: apps.ordinal.dev/v1
    kind: StatefulSet
    metadata: {name: db}
    spec:
      replicas: ${c.replicas}
      podManagementPolicy: ${c.parallel ? 'Parallel' : 'OrderedReady'}
      selector: {matchLabels: {app: db}}
      template:
        metadata: {labels: {app: db}}
        spec: {containers: [{name: postgres, image: "postgres:17.5"}]}
      updateStrategy:
        type: RollingUpdate
        rollingUpdate:
          maxUnavailable: ${c.maxUnavailable}
          updateOrder: Priority
          priority: {label: role, values: [${c.labelReplicas ? 'replica, ' : ''}primary]}${c.budget ? '\n          respectPodDisruptionBudgets: true' : ''}
steps:
  - waitFor: Converged
    timeoutSeconds: 600
${labels.join('\n')}
  - setImage: {name: db, container: postgres, image: "postgres:17.6"}
  - waitFor: Converged
    timeoutSeconds: 3000
`;
}

describe('updateOrder: Priority (property)', () => {
  it(`the primary is deleted last, once every other pod is updated and Ready, and the rollout completes (seed ${propertySeed})`, async () => {
    for (const c of fc.sample(cases, { seed: propertySeed, numRuns: 32 })) {
      const sim = await simulate(scenario(c));
      const what = JSON.stringify(c);
      assert.deepEqual(sim.violations, [], what);
      assert.equal(sim.failed, false, `${what}: ${JSON.stringify(sim.records.filter((r) => r.type === 'failure' || (r.type === 'expect' && !r.ok)))}`);
      const records = sim.records;
      const start = records.findIndex((r) => r.type === 'step' && JSON.stringify(r.step).includes('setImage'));
      const pods = records.slice(start).flatMap((r) => (r.type === 'pod' ? [r] : []));
      const old = records.flatMap((r) => (r.type === 'pod' && r.event === 'Created' ? [r.revision] : []))[0];
      const primary = `db-${c.primary}`;
      const primaryGoes = pods.findIndex((r) => r.name === primary && r.event === 'Terminating');
      assert.ok(primaryGoes >= 0, `${what}: the primary was replaced`);
      for (let i = 0; i < c.replicas; i++) {
        if (i === c.primary) continue;
        const updatedReady = pods.findIndex((r) => r.name === `db-${i}` && r.event === 'Ready' && r.revision !== old);
        assert.ok(updatedReady >= 0 && updatedReady < primaryGoes, `${what}: db-${i} was updated and Ready before the primary went`);
      }
    }
  });
});
