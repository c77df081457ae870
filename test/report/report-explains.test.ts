// The report explains a rollout, not only draws it: each set's rollouts and how long they took, the steps in
// words, every Event, and the replicas not available against the set's maxUnavailable.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { renderReport } from '../../src/report/index.js';
import { buildModel, rolloutsOf } from '../../src/report/model.js';
import { describeStep } from '../../src/report/step-labels.js';
import { runScenario } from '../../src/sim/runner.js';
import { loadScenario, parseScenario } from '../../src/sim/scenario.js';

const SCENARIO = `kind: Scenario
cluster: {podStartSeconds: 3, podTerminationSeconds: 1}
objects:
  - apiVersion: apps/v1
    kind: StatefulSet
    metadata: {name: web}
    spec:
      replicas: 4
      podManagementPolicy: Parallel
      updateStrategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: 2}}
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec: {containers: [{name: app, image: "app:1"}]}
steps:
  - waitFor: Converged
  - setImage: {name: web, container: app, image: "app:2"}
  - waitFor: Converged
`;

describe('report explanations', () => {
  it('says each step in words', () => {
    assert.equal(describeStep({ setImage: { name: 'web', container: 'nginx', image: 'nginx:1.28' } }), 'image web/nginx → nginx:1.28');
    assert.equal(describeStep({ waitFor: 'Converged', timeoutSeconds: 300 }), 'wait until Converged');
    assert.equal(describeStep({ waitFor: { pod: 'web-2', condition: 'Deleted' } }), 'wait until pod web-2 is Deleted');
    assert.equal(describeStep({ deletePod: 'web-3' }), 'delete pod web-3');
    assert.equal(describeStep({ delete: { kind: 'PersistentVolumeClaim', name: 'data-web-3' } }), 'delete PersistentVolumeClaim data-web-3');
    assert.equal(describeStep({ apply: { kind: 'StatefulSet', metadata: { name: 'db' } } }), 'apply StatefulSet db');
    assert.equal(describeStep({ patch: { kind: 'StatefulSet', name: 'web', merge: { spec: { replicas: 2 } } } }), 'patch StatefulSet web: {"spec":{"replicas":2}}');
    assert.equal(describeStep({ advance: 30 }), 'let 30 s pass');
  });

  it('lists the rollout with its duration, the steps, the events, and draws unavailable against maxUnavailable 2', async () => {
    const { records } = await runScenario(parseScenario(SCENARIO));
    const model = buildModel(records, 't');
    const [rollout, ...more] = rolloutsOf(model);
    assert.equal(more.length, 0);
    // Two waves of two pods: 1 s to stop, 3 s to start each; two ordinals unavailable from the first deletion.
    assert.deepEqual([rollout?.name, (rollout?.convergedAt ?? 0) - (rollout?.startedAt ?? 0)], ['web', 8]);
    assert.deepEqual(rollout?.lowestAvailable, { replicas: 2, of: 4, at: rollout?.startedAt });
    const html = renderReport(records);
    assert.match(html, /<h2>Rollouts<\/h2><table><tr><th>set<\/th><th>to revision<\/th><th>started<\/th><th>took<\/th><th>lowest available<\/th><\/tr><tr><td>default\/web<\/td><td><code>web-\w+<\/code><\/td><td>[^<]+<\/td><td>8(\.0)?s<\/td><td>2 of 4 at [^<]+<\/td>/);
    assert.match(html, /<td>image web\/app → app:2<\/td>/);
    assert.match(html, /<h2>Events<\/h2>.*<td>SuccessfulDelete<\/td><td>delete Pod web-3 in StatefulSet web successful<\/td>/s);
    assert.match(html, /<polyline class="unavailable"/);
    assert.match(html, /<g class="budget">.*maxUnavailable 2<\/text><\/g>/);
    // Durations summed on virtual time are always 0: not listed; the rollout's own duration is.
    assert.doesNotMatch(html, /<code>workqueue_work_duration_seconds_sum/);
    assert.match(html, /<code>statefulset_update_duration_seconds_sum\{[^<]*<\/code><\/td><td>8<\/td>/);
  });

  it('draws no maxUnavailable line for a Recreate set, which takes every pod down at once', async () => {
    const recreate = new URL('../../examples/recreate.yaml', import.meta.url).pathname;
    const { records } = await runScenario(loadScenario(recreate));
    const html = renderReport(records);
    assert.match(html, /<svg class="counters"/);
    assert.doesNotMatch(html, /class="budget"/);
  });

  it('marks an aborted rollout (onFailure: Rollback) and its way back', async () => {
    const { records } = await runScenario(loadScenario(new URL('../../examples/rollback-rolling-update.yaml', import.meta.url).pathname));
    const html = renderReport(records);
    assert.match(html, /<th>aborted \(onFailure: Rollback\)<\/th><\/tr>/);
    // the broken release: aborted at 2m11s, every pod back 3 s later; the fix that follows: not aborted
    assert.match(html, /<td><span class="bad">at 2m11s<\/span>; back in 3(\.0)?s, lowest available 4 of 5<\/td><\/tr>/);
    assert.match(html, /<td><span class="muted">no<\/span><\/td><\/tr><\/table>/);
    assert.match(html, /RolloutAborted: Rollout to revision app-\w+ aborted/, 'the abort is a warning marker on the set');
  });

  it('draws a pod updated in place as restarting, not as a pod that stopped being ready', async () => {
    const { records } = await runScenario(loadScenario(new URL('../../examples/in-place-image.yaml', import.meta.url).pathname));
    const html = renderReport(records);
    const restarting = html.match(/<g class="seg st-restarting" data-state="Restarting"/g) ?? [];
    assert.equal(restarting.length, 5, 'each of the 5 replicas restarts once, in place');
    assert.doesNotMatch(html, /data-state="NotReady"/);
    assert.match(html, /updated in place: the same pod, its container starting again on the new image/);
  });

  it('says a rollout was replaced when a newer change came before it finished', async () => {
    const stuck = new URL('../../examples/stuck-rollout-rolling-update.yaml', import.meta.url).pathname;
    const { records } = await runScenario(loadScenario(stuck));
    const rollouts = rolloutsOf(buildModel(records, 't'));
    assert.equal(rollouts.length, 2);
    assert.equal(rollouts[0]?.convergedAt, null);
    assert.equal(rollouts[0]?.replacedAt, rollouts[1]?.startedAt);
    assert.ok(rollouts[1]?.convergedAt !== null);
    assert.ok(renderReport(records).includes('replaced by the next change at 1m10s'));
  });

  it('draws the last value of every counter for a visible stretch after the last write', async () => {
    const { records } = await runScenario(parseScenario(SCENARIO));
    const html = renderReport(records);
    const available = /<polyline class="counter" fill="none" stroke="#59a14f" stroke-width="2" points="([^"]+)">/.exec(html)?.[1] ?? '';
    const points = available.split(' ').map((p) => p.split(',').map(Number));
    const [x1, y1] = points.at(-2) ?? [];
    const [x2, y2] = points.at(-1) ?? [];
    assert.equal(y1, y2, 'the last value runs to the edge');
    assert.ok((x2 ?? 0) - (x1 ?? 0) >= 20, `the final stretch is ${(x2 ?? 0) - (x1 ?? 0)} px`);
  });

  it('draws a Ready pod within minReadySeconds as its own state, then available', async () => {
    const { records } = await runScenario(parseScenario(SCENARIO.replace('replicas: 4', 'replicas: 4\n      minReadySeconds: 5')));
    const ready = records.find((r) => r.type === 'pod' && r.event === 'Ready');
    assert.equal(ready?.type === 'pod' ? (ready.availableAt ?? 0) - ready.t : undefined, 5);
    const row = buildModel(records, 't').rows[0];
    const states = row?.segments.map((s) => [s.state, s.end - s.start]) ?? [];
    const i = states.findIndex(([s]) => s === 'NotAvailable');
    assert.deepEqual(states[i], ['NotAvailable', 5]);
    assert.equal(states[i + 1]?.[0], 'Ready');
    assert.ok(renderReport(records).includes('data-state="NotAvailable"'));
  });
});
