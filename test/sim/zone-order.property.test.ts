// Property (rollingUpdate.topologyKey): over random zone counts and nodes per zone, sizes, policies,
// maxUnavailable, start times, partitions reached in one go, injected API errors, conflicts and watch delays,
// and an optional PodDisruptionBudget, the controller never deletes an available pod while a pod of another
// zone is unavailable (the simulator's zoneOrder check on every deletion: at most one zone disrupted at a
// time), no budget is breached, no other invariant breaks, and the rollout completes. Cases are drawn with
// the process's property seed (test/property-seed.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { apiFaults, faultsLine, simulate } from './fault-cases.js';
import { propertySeed } from '../property-seed.js';
import { isPodRemoval } from '../../src/sim/timeline.js';

const cases = fc.record({
  zones: fc.integer({ min: 1, max: 4 }),
  nodesPerZone: fc.integer({ min: 1, max: 2 }),
  /** A node without the zone label (its pods' zone is unknown: they move last). */
  bareNode: fc.boolean(),
  replicas: fc.integer({ min: 2, max: 9 }),
  maxUnavailable: fc.integer({ min: 1, max: 4 }),
  parallel: fc.boolean(),
  budget: fc.boolean(),
  ...apiFaults,
  podStart: fc.integer({ min: 1, max: 6 }),
  seed: fc.integer({ min: 1, max: 1000 }),
});

type Case = typeof cases extends fc.Arbitrary<infer T> ? T : never;

function scenario(c: Case): string {
  const nodes = Array.from({ length: c.zones * c.nodesPerZone }, (_, i) => {
    const zone = `zone-${String.fromCharCode(97 + (i % c.zones))}`;
    return `  - {apiVersion: v1, kind: Node, metadata: {name: node-${i}, labels: {topology.kubernetes.io/zone: ${zone}}}}`;
  });
  if (c.bareNode) nodes.push('  - {apiVersion: v1, kind: Node, metadata: {name: bare}}');
  return `kind: Scenario
seed: ${c.seed}
cluster: {podStartSeconds: ${c.podStart}, podTerminationSeconds: 1}
${faultsLine(c)}
objects:
${nodes.join('\n')}
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
      updateStrategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: ${c.maxUnavailable}, topologyKey: topology.kubernetes.io/zone${c.budget ? ', respectPodDisruptionBudgets: true' : ''}}}
steps:
  - waitFor: Converged
    timeoutSeconds: 600
  - setImage: {name: db, container: postgres, image: "postgres:17.6"}
  - waitFor: Converged
    timeoutSeconds: 3000
`;
}

describe('topologyKey (property)', () => {
  it(`no update deletion disrupts a second zone, and the rollout completes (seed ${propertySeed})`, async () => {
    for (const c of fc.sample(cases, { seed: propertySeed, numRuns: 16 })) {
      const sim = await simulate(scenario(c));
      const what = JSON.stringify(c);
      assert.deepEqual(sim.violations, [], what);
      assert.equal(sim.failed, false, `${what}: ${JSON.stringify(sim.records.filter((r) => r.type === 'failure' || (r.type === 'expect' && !r.ok)))}`);
      const deleted = sim.records.filter((r) => r.type === 'action' && isPodRemoval(r)).length;
      assert.ok(deleted >= c.replicas, `${what}: every pod was replaced (${deleted} deletions and evictions)`);
      const zones = new Set(sim.records.flatMap((r) => (r.type === 'pod' && r.event === 'Scheduled' && r.zone !== undefined ? [r.zone] : [])));
      assert.ok(zones.size === Math.min(c.zones, c.replicas) || c.bareNode, `${what}: the kubelet spread the pods over every zone (${[...zones].join(', ')})`);
    }
  });
});
