// One PodDisruptionBudget over several StatefulSets that respect it (rollingUpdate.respectPodDisruptionBudgets),
// all rolling at once: primary and replicas behind one `tier: db` budget, and a set per rack behind one
// budget over the database. Each set's sync must count the disruptions the others spend: the budget's
// desiredHealthy is never broken, counted from the pods themselves at every change of the timeline (not
// only by the simulator's own check), every update deletion goes through pods/eviction, and none is refused
// (the controller's ledger has counted the other sets' evictions before its caches show them). On 889d344
// both cases went below: 4 of 6 healthy (5 desired) three times, and 3 of 6 in the set per rack.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isPodRemoval, type TimelineRecord } from '../../src/sim/timeline.js';
import { simulate } from './fault-cases.js';

const set = (name: string, replicas: number, labels: Record<string, string>) => `  - apiVersion: apps.ordinal.dev/v1
    kind: StatefulSet
    metadata: {name: ${name}}
    spec:
      replicas: ${replicas}
      podManagementPolicy: Parallel
      selector: {matchLabels: {app: ${name}}}
      template:
        metadata: {labels: ${JSON.stringify({ app: name, ...labels })}}
        spec: {containers: [{name: postgres, image: "postgres:17.5"}]}
      updateStrategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: 2, respectPodDisruptionBudgets: true}}`;

function scenario(budget: string, sets: [string, number, Record<string, string>][]): string {
  return `kind: Scenario
seed: 7
cluster: {podStartSeconds: 5, podTerminationSeconds: 2}
objects:
  - {apiVersion: policy/v1, kind: PodDisruptionBudget, metadata: {name: db}, spec: ${budget}}
${sets.map(([name, replicas, labels]) => set(name, replicas, labels)).join('\n')}
steps:
  - waitFor: Converged
    timeoutSeconds: 120
${sets.map(([name]) => `  - setImage: {name: ${name}, container: postgres, image: "postgres:17.6"}`).join('\n')}
  - waitFor: Converged
    timeoutSeconds: 900
`;
}

/** The fewest pods Ready and not terminating at once from the rollout's start (the first setImage) on. */
function fewestHealthy(records: readonly TimelineRecord[]): { fewest: number; at: number[] } {
  const healthy = new Set<string>();
  let started = false;
  let fewest = Infinity;
  let at: number[] = [];
  for (const r of records) {
    if (r.type === 'step' && r.index === 1) started = true;
    if (r.type !== 'pod') continue;
    if (r.event === 'Ready') healthy.add(r.name);
    else if (['NotReady', 'Terminating', 'Deleted', 'Failed'].includes(r.event)) healthy.delete(r.name);
    if (!started) continue;
    if (healthy.size < fewest) [fewest, at] = [healthy.size, [r.t]];
    else if (healthy.size === fewest && at[at.length - 1] !== r.t) at.push(r.t);
  }
  return { fewest, at };
}

describe('one PodDisruptionBudget over several sets rolling at once', () => {
  const cases = [
    { what: 'primary and replicas behind one tier: db budget (minAvailable 5 of 6)', budget: '{minAvailable: 5, selector: {matchLabels: {tier: db}}}', desired: 5, sets: [['primary', 3, { tier: 'db' }], ['replicas', 3, { tier: 'db' }]] },
    { what: 'a set per rack behind one budget (maxUnavailable 1 of 6)', budget: '{maxUnavailable: 1, selector: {matchLabels: {db: orders}}}', desired: 5, sets: [['rack-a', 2, { db: 'orders' }], ['rack-b', 2, { db: 'orders' }], ['rack-c', 2, { db: 'orders' }]] },
  ] as const;
  for (const c of cases) {
    it(`${c.what}: never fewer than ${c.desired} healthy pods, every pod replaced through pods/eviction`, async () => {
      const sim = await simulate(scenario(c.budget, c.sets.map(([n, r, l]) => [n, r, { ...l }])));
      assert.deepEqual(sim.violations, []);
      assert.equal(sim.failed, false, JSON.stringify(sim.records.filter((r) => r.type === 'failure' || (r.type === 'expect' && !r.ok))));
      const { fewest, at } = fewestHealthy(sim.records);
      assert.equal(fewest, c.desired, `fewest healthy ${fewest} (desired ${c.desired}) at t=${at.join(', ')}`);
      const removals = sim.records.filter((r) => r.type === 'action' && isPodRemoval(r));
      assert.deepEqual(new Set(removals.map((r) => (r.type === 'action' ? r.resource : ''))), new Set(['pods/eviction']));
      // the process's ledger shows each set the others' evictions before the caches do: the API never has to refuse one
      assert.deepEqual(sim.records.filter((r) => r.type === 'event' && r.reason === 'EvictionRefused'), []);
      const pods = c.sets.reduce((n, [, r]) => n + r, 0);
      assert.equal(new Set(removals.map((r) => (r.type === 'action' ? r.name : ''))).size, pods, 'every pod was evicted once at least');
    });
  }
});

describe('a pod that two PodDisruptionBudgets select', () => {
  it('waits (overlappingDisruptionBudgets): the eviction subresource would refuse it (500), so it is never sent; the pods above go, nothing crashes, no budget is broken', async () => {
    const yaml = `kind: Scenario
seed: 3
cluster: {podStartSeconds: 2, podTerminationSeconds: 1}
objects:
  - {apiVersion: policy/v1, kind: PodDisruptionBudget, metadata: {name: all}, spec: {minAvailable: 3, selector: {matchLabels: {app: db}}}}
  - {apiVersion: policy/v1, kind: PodDisruptionBudget, metadata: {name: db-1-only}, spec: {minAvailable: 0, selector: {matchLabels: {statefulset.kubernetes.io/pod-name: db-1}}}}
${set('db', 4, {}).replace('maxUnavailable: 2', 'maxUnavailable: 1')}
steps:
  - waitFor: Converged
    timeoutSeconds: 60
  - setImage: {name: db, container: postgres, image: "postgres:17.6"}
  - advance: 600
`;
    const sim = await simulate(yaml);
    assert.deepEqual(sim.violations, []);
    assert.equal(sim.failed, false);
    const evicted = (name: string) => sim.records.filter((r) => r.type === 'action' && r.resource === 'pods/eviction' && r.name === name).length;
    assert.deepEqual([evicted('db-3'), evicted('db-2'), evicted('db-1'), evicted('db-0')], [1, 1, 0, 0], 'the pods above went; db-1 and the one below it wait');
    assert.deepEqual(sim.records.filter((r) => r.type === 'event' && (r.reason === 'FailedDelete' || r.reason === 'EvictionRefused')), []);
    assert.equal(sim.records.some((r) => r.type === 'pod' && r.name === 'db-1' && r.event === 'Terminating'), false);
  });
});
