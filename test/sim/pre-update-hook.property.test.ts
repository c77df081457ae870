// Property (spec.lifecycle.preUpdate) on the simulator, with the real controller: over random sizes, policies,
// maxUnavailable, hook durations, API errors, conflicts and watch delays, and a controller restart while the
// hooks run, the simulator sees no invariant violation (the hook invariant among them: no pod deleted for the
// update before its hook passed), each pod's hook is called (PreUpdateHookCalled) once per revision and answers
// its expected status once, and the rollout completes. Cases from the property seed (test/property-seed.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { apiFaults, faultsLine, simulate } from './fault-cases.js';
import { propertySeed } from '../property-seed.js';

const cases = fc.record({
  replicas: fc.integer({ min: 1, max: 5 }),
  maxUnavailable: fc.integer({ min: 1, max: 3 }),
  parallel: fc.boolean(),
  hookSeconds: fc.integer({ min: 0, max: 30 }),
  restartAt: fc.integer({ min: 1, max: 60 }),
  ...apiFaults,
  seed: fc.integer({ min: 1, max: 1000 }),
});
type Case = typeof cases extends fc.Arbitrary<infer T> ? T : never;

const scenario = (c: Case): string => `kind: Scenario
seed: ${c.seed}
cluster: {podStartSeconds: 2, podTerminationSeconds: 1, preUpdateHookSeconds: ${c.hookSeconds}}
${faultsLine(c)}
objects:
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
      lifecycle: {preUpdate: {http: {url: "http://op.example/switchover"}, timeoutSeconds: 600}}
      updateStrategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: ${c.maxUnavailable}}}
steps:
  - waitFor: Converged
    timeoutSeconds: 600
  - setImage: {name: db, container: postgres, image: "postgres:17.6"}
  - advance: ${c.restartAt}
  - restartController: {}
  - waitFor: Converged
    timeoutSeconds: 3000
`;

describe('preUpdate hook on the simulator (property)', () => {
  it(`no violation, one call and one pass per pod, across a controller restart and API faults (seed ${propertySeed})`, async () => {
    for (const c of fc.sample(cases, { seed: propertySeed, numRuns: 24 })) {
      const sim = await simulate(scenario(c));
      const what = JSON.stringify(c);
      assert.deepEqual(sim.violations, [], what);
      assert.equal(sim.failed, false, `${what}: ${JSON.stringify(sim.records.filter((r) => r.type === 'failure' || (r.type === 'expect' && !r.ok)))}`);
      const called = sim.records.flatMap((r) => (r.type === 'event' && r.reason === 'PreUpdateHookCalled' ? [/Pod (db-\d+)/.exec(r.message)?.[1] ?? '?'] : []));
      assert.deepEqual([...called].sort(), Array.from({ length: c.replicas }, (_, i) => `db-${i}`).sort(), `${what}: PreUpdateHookCalled once per pod`);
      const passed = sim.records.flatMap((r) => (r.type === 'analysis' && r.pod !== undefined && r.ok ? [r.pod] : []));
      assert.equal(new Set(passed).size, passed.length, `${what}: a hook answered its expected status more than once: ${passed.join(', ')}`);
    }
  });
});
