// Node objects in a scenario: the simulated kubelet runs them all, spreads a set's pods over their zones and
// puts a recreated pod back on the node its name ran on; without them, the one default node as before.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseScenario } from '../../src/sim/scenario.js';
import { Resources } from '../../src/api/client.js';
import type { KubeObject } from '../../src/api/types.js';
import { Simulation } from '../../src/sim/simulation.js';
import type { PodRecord } from '../../src/sim/timeline.js';

function scenario(nodes: string): string {
  return `kind: Scenario
seed: 7
objects:
${nodes}
  - apiVersion: apps/v1
    kind: StatefulSet
    metadata: {name: db}
    spec:
      replicas: 6
      podManagementPolicy: Parallel
      selector: {matchLabels: {app: db}}
      template:
        metadata: {labels: {app: db}}
        spec: {containers: [{name: c, image: "postgres:17.5"}]}
      updateStrategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: 6}}
steps:
  - waitFor: Converged
  - setImage: {name: db, container: c, image: "postgres:17.6"}
  - waitFor: Converged
`;
}

async function scheduled(text: string): Promise<PodRecord[]> {
  const sim = new Simulation(parseScenario(text));
  await sim.start();
  await sim.runSteps();
  await sim.finish();
  assert.equal(sim.failed, false);
  return sim.records.filter((r): r is PodRecord => r.type === 'pod' && r.event === 'Scheduled');
}

describe('scenario Node objects', () => {
  it('spreads the pods over the zones, two each, and binds a recreated pod to its node again', async () => {
    const nodes = ['a', 'b', 'c'].map((z) => `  - {apiVersion: v1, kind: Node, metadata: {name: node-${z}, labels: {topology.kubernetes.io/zone: zone-${z}}}}`).join('\n');
    const records = await scheduled(scenario(nodes));
    assert.equal(records.length, 12, 'six pods, each scheduled twice');
    const first = records.slice(0, 6);
    const perZone = new Map<string, number>();
    for (const r of first) perZone.set(r.zone ?? '', (perZone.get(r.zone ?? '') ?? 0) + 1);
    assert.deepEqual([...perZone.entries()].sort(), [['zone-a', 2], ['zone-b', 2], ['zone-c', 2]]);
    for (const r of records.slice(6)) assert.equal(r.node, first.find((f) => f.name === r.name)?.node, `${r.name} back on its node`);
  });

  it('without Node objects, pods run on the one default node and their records name none', async () => {
    const records = await scheduled(scenario(''));
    assert.equal(records.length, 12);
    assert.ok(records.every((r) => r.node === undefined && r.zone === undefined));
  });

  it("reports cluster.allocatable on every Node it runs, so kube-apiserver admits resizes against each", async () => {
    const nodes = ['a', 'b'].map((z) => `  - {apiVersion: v1, kind: Node, metadata: {name: node-${z}}}`).join('\n');
    const sim = new Simulation(parseScenario(scenario(nodes).replace('seed: 7\n', 'seed: 7\ncluster: {allocatable: {cpu: "8", memory: 32Gi}}\n')));
    await sim.start();
    await sim.runSteps();
    await sim.finish();
    const listed = await sim.world.user.list<KubeObject & { status?: { allocatable?: unknown } }>(Resources.nodes, undefined);
    assert.deepEqual(listed.items.map((n) => [n.metadata.name, n.status?.allocatable]), [['node-a', { cpu: '8', memory: '32Gi' }], ['node-b', { cpu: '8', memory: '32Gi' }]]);
  });
});
