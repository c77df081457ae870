// The simulator's deletion check judges a controller deletion against the cluster and against the view the
// sync planned from: a pod that went unready after that view (a late or broken watch) does not make a
// correct deletion a violation, and a deletion beyond maxUnavailable in both is still one.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Action, Plan } from '../../src/controller/model/plan-types.js';
import type { Planner } from '../../src/runtime/planner-port.js';
import { newPlanner } from '../../src/runtime/statefulset-controller-factory.js';
import { parseScenario } from '../../src/sim/scenario.js';
import { Simulation } from '../../src/sim/simulation.js';

/** 2 replicas, maxUnavailable 50% (1); the new release goes NotReady 3 s after Ready; the watch is late and breaks every 25 s. */
const SCENARIO = `kind: Scenario
seed: 7
endSeconds: 600
cluster:
  podStartSeconds: 4
  podTerminationSeconds: 0
  storage: {expansionSeconds: 3}
  images:
    "app:v2": {behavior: NotReadyAfter, seconds: 3}
faults:
  conflicts: {rate: 0.1}
  watch: {delaySeconds: 0.5, breakEverySeconds: 25, goneRate: 0.5}
objects:
  - apiVersion: storage.k8s.io/v1
    kind: StorageClass
    metadata: {name: standard}
    provisioner: example.com/sim
    allowVolumeExpansion: true
  - apiVersion: apps.ordinal.dev/v1
    kind: StatefulSet
    metadata: {name: web}
    spec:
      replicas: 2
      minReadySeconds: 5
      progressDeadlineSeconds: 60
      podManagementPolicy: OrderedReady
      volumeClaimUpdatePolicy: OnDelete
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec: {containers: [{name: app, image: "app:v1"}]}
      volumeClaimTemplates: [{metadata: {name: data}, spec: {accessModes: [ReadWriteOnce], storageClassName: standard, resources: {requests: {storage: 1Gi}}}}]
      updateStrategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: "50%", partition: 0, onFailure: Rollback}}
steps:
  - waitFor: Converged
    timeoutSeconds: 3000
  - setImage: {name: web, container: app, image: "app:v2"}
  - advance: 300
`;

async function violations(planner?: Planner): Promise<string[]> {
  const sim = new Simulation(parseScenario(SCENARIO, 'deletion-view'), planner === undefined ? {} : { planner });
  await sim.start();
  await sim.runSteps();
  return (await sim.finish()).violations.map((v) => `${v.invariant} at ${v.t}: ${v.message}`);
}

describe('the deletion check and the controller view', () => {
  it('does not flag a deletion its sync planned while a pod it could not see yet had gone unready', async () => {
    assert.deepEqual(await violations(), []);
  });

  it('still flags a deletion beyond maxUnavailable that the view shows too', async () => {
    const base = newPlanner();
    // a broken planner: with every update deletion, it deletes every other pod of the set as well
    const greedy: Planner = {
      plan(...args: Parameters<typeof base.plan>): Plan {
        const plan = base.plan(...args);
        const update = plan.actions.find((a) => a.kind === 'deletePod' && a.cause === 'update');
        if (update === undefined) return plan;
        const others = args[0].replicas?.allPods() ?? args[0].pods;
        const extra: Action[] = others
          .filter((p) => p.metadata.name !== (update as { name: string }).name && p.metadata.deletionTimestamp === undefined)
          .map((p) => ({ ...update, name: p.metadata.name ?? '', uid: p.metadata.uid ?? '' }) as Action);
        return { ...plan, actions: [...plan.actions, ...extra] };
      },
    };
    const found = await violations(greedy);
    assert.ok(found.some((v) => v.startsWith('checkDeletion')), found.join('\n'));
  });
});
