import { describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import { runScenario } from '../../src/sim/runner.js';
import { parseScenario } from '../../src/sim/scenario.js';
import { toJsonl, type TimelineRecord } from '../../src/sim/timeline.js';

const SET = `
objects:
  - apiVersion: apps/v1
    kind: StatefulSet
    metadata: {name: web}
    spec:
      replicas: 3
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec: {containers: [{name: c, image: "app:1"}]}
`;

const run = (text: string) => runScenario(parseScenario(`kind: Scenario\n${text}${SET}`));
const failuresOf = (records: TimelineRecord[]) => records.filter((r) => r.type === 'failure' || (r.type === 'expect' && !r.ok));

describe('runScenario', () => {
  it('keeps reconciling after restartController, with a fresh controller', async () => {
    const result = await run(`steps:
  - waitFor: Converged
  - restartController: {}
  - patch: {kind: StatefulSet, name: web, merge: {spec: {replicas: 5}}}
  - waitFor: Converged
  - expect: {status: {web: {replicas: 5, readyReplicas: 5}}}
`);
    assert.deepEqual(failuresOf(result.records), []);
    assert.equal(result.exitCode, 0);
    const lists = result.apiCalls.byVerb['list'] ?? 0;
    assert.ok(lists >= 8, `a restarted controller lists every resource again (lists: ${lists})`);
  });

  it('sees a pod Deleted even when the controller recreates it at once', async () => {
    const result = await run(`steps:
  - waitFor: Converged
  - deletePod: web-1
  - waitFor: {pod: web-1, condition: Deleted}
    timeoutSeconds: 10
  - waitFor: {pod: web-1}
    timeoutSeconds: 10
`);
    assert.deepEqual(failuresOf(result.records), []);
    const events = result.records.filter((r) => r.type === 'pod' && r.name === 'web-1').map((r) => (r as { event: string }).event);
    assert.deepEqual(events.slice(-6), ['Terminating', 'Deleted', 'Created', 'Scheduled', 'Running', 'Ready']);
  });

  it('applies a full object like kubectl apply', async () => {
    const result = await run(`steps:
  - waitFor: Converged
  - apply:
      apiVersion: apps/v1
      kind: StatefulSet
      metadata: {name: web}
      spec:
        replicas: 2
        selector: {matchLabels: {app: web}}
        template:
          metadata: {labels: {app: web}}
          spec: {containers: [{name: c, image: "app:2"}]}
  - waitFor: Converged
  - expect: {status: {web: {replicas: 2, updatedReplicas: 2}}, pods: {web-2: {exists: false}, web-0: {revision: update}}}
`);
    assert.deepEqual(failuresOf(result.records), []);
  });

  it('stops at endSeconds and fails the step that wanted more time', async () => {
    const result = await run(`endSeconds: 30\nsteps:\n  - advance: 20\n  - advance: 20\n  - expect: {converged: true}\n`);
    assert.equal(result.exitCode, 1);
    assert.deepEqual(failuresOf(result.records), [{ t: 30, type: 'failure', index: 1, message: 'advance: stopped at endSeconds' }]);
    assert.equal(result.summary.endedAt, 30);
  });

  it('emits records in time order and ends with a summary of the final state and metrics', async () => {
    const result = await run(`steps:\n  - waitFor: Converged\n  - advance: 5\n`);
    const ts = result.records.map((r) => r.t);
    assert.deepEqual(ts, [...ts].sort((a, b) => a - b));
    const summary = result.records.at(-1)!;
    assert.equal(summary.type, 'summary');
    assert.equal(result.summary.converged, true);
    assert.equal(typeof result.summary.convergedAt, 'number');
    assert.equal(result.summary.endedAt, result.summary.convergedAt! + 5);
    assert.deepEqual(Object.keys(result.summary.sets), ['web']);
    assert.equal(result.summary.sets['web']?.readyReplicas, 3);
    assert.ok(Object.keys(result.summary.metrics).some((k) => k.startsWith('statefulset_controller_statefulset_max_unavailable{')));
  });

  it('is deterministic under API faults and still converges without violations', async () => {
    const text = `seed: 7
faults:
  apiErrors: {rate: 0.2, verbs: [create, delete, update, patch]}
  conflicts: {rate: 0.2}
  watch: {delaySeconds: 0.5}
steps:
  - waitFor: Converged
  - setImage: {name: web, container: c, image: "app:2"}
  - waitFor: Converged
    timeoutSeconds: 3600
`;
    const first = await run(text);
    const second = await run(text);
    assert.deepEqual(failuresOf(first.records), []);
    assert.deepEqual(first.summary.violations, []);
    assert.equal(toJsonl(second.records), toJsonl(first.records));
    const errors = first.records.filter((r) => r.type === 'event' && r.reason.startsWith('Failed'));
    assert.ok(errors.length > 0, 'some writes failed and were retried');
  });

  it('schedules no real timer while simulating (all time is virtual)', async (t) => {
    const setTimeoutSpy = t.mock.method(globalThis, 'setTimeout');
    const setIntervalSpy = t.mock.method(globalThis, 'setInterval');
    await run(`steps:\n  - waitFor: Converged\n  - advance: 3600\n`);
    assert.equal(setTimeoutSpy.mock.callCount(), 0);
    assert.equal(setIntervalSpy.mock.callCount(), 0);
    mock.restoreAll();
  });
});

describe('runScenario expect failures', () => {
  it('keeps running the steps after a failed expect and exits 1', async () => {
    const result = await run(`steps:
  - waitFor: Converged
  - expect: {status: {web: {replicas: 4}}}
  - expect: {status: {web: {replicas: 3}}}
`);
    assert.equal(result.exitCode, 1);
    const expects = result.records.filter((r) => r.type === 'expect').map((r) => (r as { ok: boolean }).ok);
    assert.deepEqual(expects, [false, true]);
  });
});
