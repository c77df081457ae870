// Huge values in a scenario: replicas 2147483647 ends at endSeconds in bounded time and memory, because
// the in-memory API server refuses creates beyond cluster.maxObjects (403 exceeded quota, so the
// controller's FailedCreate and backoff take over), and ordinals.start 2147483647 is explained.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { runScenario } from '../../src/sim/runner.js';
import { parseScenario } from '../../src/sim/scenario.js';
import type { EventRecord } from '../../src/sim/timeline.js';

const scenario = (spec: string, steps: string, cluster = '') =>
  parseScenario(`kind: Scenario
endSeconds: 60
${cluster}
objects:
  - apiVersion: apps/v1
    kind: StatefulSet
    metadata: {name: web}
    spec:
${spec}
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec: {containers: [{name: c, image: "app:1"}]}
steps:
${steps}`);

const eventsOf = (records: readonly { type: string }[], reason: string) =>
  records.filter((r): r is EventRecord => r.type === 'event' && (r as EventRecord).reason === reason);

describe('huge values in the simulator', () => {
  it('replicas 2147483647 stops at cluster.maxObjects with quota errors and still ends at endSeconds', { timeout: 120_000 }, async () => {
    const result = await runScenario(
      scenario(
        '      replicas: 2147483647\n      podManagementPolicy: Parallel',
        `  - advance: 60
  - expect:
      status: {web: {replicas: 60}}
      event: [{reason: FailedCreate, type: Warning, message: 'is forbidden: exceeded quota: max-objects, requested: count/pods=1, used: count/pods=60, limited: count/pods=60'}]
`,
        'cluster: {maxObjects: 60}',
      ),
    );
    const failed = result.records.filter((r) => r.type === 'failure' || (r.type === 'expect' && !r.ok));
    assert.deepEqual(failed, []);
    assert.equal(result.exitCode, 0);
    assert.equal(result.summary.endedAt, 60);
    assert.ok(eventsOf(result.records, 'FailedCreate').length > 0);
  });

  it('a step past endSeconds ends the run there with exit code 1, however busy the controller is', { timeout: 120_000 }, async () => {
    const result = await runScenario(scenario('      replicas: 2147483647\n      podManagementPolicy: Parallel', '  - advance: 3600\n', 'cluster: {maxObjects: 60}'));
    assert.equal(result.exitCode, 1);
    assert.equal(result.summary.endedAt, 60);
    assert.deepEqual(
      result.records.filter((r) => r.type === 'failure').map((r) => r.t),
      [60],
    );
  });

  it('ordinals.start 2147483647 with 2 replicas creates web-2147483647 and explains the other with an OrdinalOverflow Warning', async () => {
    const result = await runScenario(
      scenario(
        '      replicas: 2\n      ordinals: {start: 2147483647}',
        `  - advance: 30
  - expect:
      pods: {web-2147483647: {ready: true}}
      event: [{reason: OrdinalOverflow, type: Warning, message: '1 of 2 replicas (ordinal 2147483648) cannot be created'}]
`,
      ),
    );
    assert.deepEqual(result.records.filter((r) => r.type === 'failure' || (r.type === 'expect' && !r.ok)), []);
    assert.equal(eventsOf(result.records, 'OrdinalOverflow').length, 1, 'once for the generation, not every sync');
  });
});
