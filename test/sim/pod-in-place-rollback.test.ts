// podUpdatePolicy InPlaceIfPossible with onFailure: Rollback on the simulator: a bad image patched in place
// fails, the rollout is aborted, and the way back patches the pod in place again (no pod deleted): the same
// pod restarts on the good image and is relabelled to the revision it went back to.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseScenario } from '../../src/sim/scenario.js';
import { Simulation } from '../../src/sim/simulation.js';

const SCENARIO = `kind: Scenario
cluster:
  podStartSeconds: 2
  podTerminationSeconds: 2
  images: {"db:bad": {behavior: ImagePullBackOff}}
objects:
  - apiVersion: apps.ordinal.dev/v1
    kind: StatefulSet
    metadata: {name: db}
    spec:
      replicas: 3
      progressDeadlineSeconds: 30
      selector: {matchLabels: {app: db}}
      template: {metadata: {labels: {app: db}}, spec: {containers: [{name: db, image: "db:1"}]}}
      updateStrategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: 1, podUpdatePolicy: InPlaceIfPossible, onFailure: Rollback}}
steps:
  - waitFor: Converged
  - setImage: {name: db, container: db, image: "db:bad"}
  - waitFor: {statefulset: db, condition: RolloutAborted}
    timeoutSeconds: 120
  - waitFor: Converged
    timeoutSeconds: 120
  - expect:
      pods:
        db-2: {revision: current, ready: true}
        db-0: {revision: current, ready: true}
      event: [{reason: RolloutAborted}, {reason: SuccessfulDelete, present: false}]
`;

describe('podUpdatePolicy with onFailure: Rollback', () => {
  it('goes back in place: the failed pod is patched back to the good image and restarts in the same pod', async () => {
    const sim = new Simulation(parseScenario(SCENARIO));
    await sim.start();
    await sim.runSteps();
    await sim.finish();
    assert.equal(sim.failed, false, JSON.stringify(sim.records.filter((r) => r.type === 'failure' || (r.type === 'expect' && !r.ok))));
    const restarts = sim.records.flatMap((r) => (r.type === 'pod' && r.event === 'Restarted' ? [r.name] : []));
    assert.deepEqual(restarts, ['db-2', 'db-2'], 'db-2 restarted on the bad image, then on the good one');
    assert.deepEqual(sim.records.filter((r) => r.type === 'pod' && r.event === 'Created' && r.t > 6), [], 'no pod created after the first rollout');
  });
});
