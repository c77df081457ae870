// Property (onFailure: Rollback): over random sets (size, policy, rolling strategy, maxUnavailable, partition,
// minReadySeconds, InPlace claims that grow with the release), random failures of the new release (which
// pods, how), API faults, watch delays and breaks, controller restarts and retries, the simulator sees
// no broken invariant (the maxUnavailable budget, OrderedReady, the partition, no spec write), and every run
// ends healthy — every pod available on the revision the set moves to — or halted with a reason: Progressing
// False with a failure reason and a planner blocker saying what holds it. Cases are drawn with the process's
// property seed (test/property-seed.ts).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Resources } from '../../src/api/client.js';
import { defaultStatefulSet } from '../../src/api/defaults.js';
import type { ControllerRevision, PersistentVolumeClaim, Pod, StatefulSet } from '../../src/api/types.js';
import { planStatefulSet } from '../../src/controller/plan/plan-statefulset.js';
import { parseScenario } from '../../src/sim/scenario.js';
import { Simulation } from '../../src/sim/simulation.js';
import { propertySeed } from '../property-seed.js';
import { storageClass } from './claim-scenario.js';

const cases = fc.record({
  replicas: fc.integer({ min: 1, max: 8 }),
  parallel: fc.boolean(),
  enforced: fc.boolean(),
  maxUnavailable: fc.constantFrom<number | string>(1, 2, '50%'),
  partition: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 8 }) }),
  minReadySeconds: fc.constantFrom(0, 5),
  deadline: fc.constantFrom(20, 60),
  start: fc.integer({ min: 1, max: 5 }),
  termination: fc.integer({ min: 0, max: 3 }),
  failure: fc.constantFrom('none', 'ImagePullBackOff', 'CrashLoopBackOff', 'NotReadyAfter'),
  failing: fc.oneof(fc.constant<number[] | 'all'>('all'), fc.uniqueArray(fc.integer({ min: 0, max: 7 }), { minLength: 1, maxLength: 3 })),
  inPlaceClaims: fc.boolean(),
  apiErrors: fc.constantFrom(0, 0.05, 0.2),
  conflicts: fc.constantFrom(0, 0.1),
  watch: fc.option(fc.record({ delaySeconds: fc.constantFrom(0, 0.5), breakEverySeconds: fc.integer({ min: 20, max: 120 }), goneRate: fc.constantFrom(0, 0.5) }), { nil: undefined }),
  chaos: fc.array(fc.oneof(fc.integer({ min: 1, max: 60 }).map((s) => `  - advance: ${s}`), fc.constant('  - restartController: {}'), fc.constant('retry')), { maxLength: 5 }),
});

type Case = typeof cases extends fc.Arbitrary<infer T> ? T : never;

function behaviour(c: Case): string {
  if (c.failure === 'none') return '{}';
  const pods = c.failing === 'all' ? '' : `, pods: [${c.failing.map((o) => `web-${o}`).join(', ')}]`;
  // NotReadyAfter: Ready for less than minReadySeconds, so the release never becomes available (a failure of
  // the rollout, not of a pod long after it)
  const behavior = c.failure === 'NotReadyAfter' && c.minReadySeconds === 0 ? 'CrashLoopBackOff' : c.failure;
  const seconds = behavior === 'NotReadyAfter' ? `, seconds: ${c.minReadySeconds - 2}` : '';
  return `{behavior: ${behavior}${seconds}${pods}}`;
}

function scenario(c: Case): string {
  const block = c.enforced ? 'enforcedRollingUpdate' : 'rollingUpdate';
  const partition = Math.min(c.partition, c.replicas);
  const claims = (size: string) => `[{metadata: {name: data}, spec: {accessModes: [ReadWriteOnce], storageClassName: standard, resources: {requests: {storage: ${size}}}}}]`;
  const faults = [
    c.apiErrors > 0 ? `  apiErrors: {rate: ${c.apiErrors}}` : '',
    c.conflicts > 0 ? `  conflicts: {rate: ${c.conflicts}}` : '',
    c.watch ? `  watch: {delaySeconds: ${c.watch.delaySeconds}, breakEverySeconds: ${c.watch.breakEverySeconds}, goneRate: ${c.watch.goneRate}}` : '',
  ].filter((l) => l !== '');
  const change = c.inPlaceClaims
    ? `  - patch: {kind: StatefulSet, name: web, merge: {spec: {template: {spec: {containers: [{name: app, image: "app:v2"}]}}, volumeClaimTemplates: ${claims('2Gi')}}}}`
    : '  - setImage: {name: web, container: app, image: "app:v2"}';
  return `kind: Scenario
seed: 7
endSeconds: 100000
cluster:
  podStartSeconds: ${c.start}
  podTerminationSeconds: ${c.termination}
  storage: {expansionSeconds: 3}
  images:
    "app:v2": ${behaviour(c)}
${faults.length > 0 ? `faults:\n${faults.join('\n')}` : ''}
objects:
${storageClass('standard', true)}
  - apiVersion: apps.ordinal.dev/v1
    kind: StatefulSet
    metadata: {name: web}
    spec:
      replicas: ${c.replicas}
      minReadySeconds: ${c.minReadySeconds}
      progressDeadlineSeconds: ${c.deadline}
      podManagementPolicy: ${c.parallel ? 'Parallel' : 'OrderedReady'}
      volumeClaimUpdatePolicy: ${c.inPlaceClaims ? 'InPlace' : 'OnDelete'}
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec: {containers: [{name: app, image: "app:v1"}]}
      volumeClaimTemplates: ${claims('1Gi')}
      updateStrategy: {type: ${c.enforced ? 'EnforcedRollingUpdate' : 'RollingUpdate'}, ${block}: {maxUnavailable: ${JSON.stringify(c.maxUnavailable)}, partition: ${partition}, onFailure: Rollback}}
steps:
  - waitFor: Converged
    timeoutSeconds: 3000
${change}
${c.chaos.map((step, i) => (step === 'retry' ? `  - patch: {kind: StatefulSet, name: web, merge: {metadata: {annotations: {apps.ordinal.dev/rollout-retry: "retry-${i}"}}}}` : step)).join('\n')}
  - advance: 3000
`;
}

/** The reasons a rollout stops at; with one of them and a blocker that says what holds it, the set is halted with a reason. */
const HALTED = ['RolloutAborted', 'SafetyHalt', 'ProgressDeadlineExceeded'];

describe('onFailure: Rollback (property)', () => {
  it(`keeps the budget and ends healthy or halted with a reason, under random failures and faults (seed ${propertySeed})`, async () => {
    for (const c of fc.sample(cases, { seed: propertySeed, numRuns: 30 })) {
      const what = JSON.stringify(c);
      const sim = new Simulation(parseScenario(scenario(c), 'rollback property'));
      await sim.start();
      await sim.runSteps();
      const user = sim.world.user;
      const set = defaultStatefulSet(await user.get<StatefulSet>(Resources.ordinalStatefulSets, 'default', 'web'), sim.features);
      const pods = (await user.list<Pod>(Resources.pods, 'default')).items;
      const claims = (await user.list<PersistentVolumeClaim>(Resources.persistentVolumeClaims, 'default')).items;
      const revisions = (await user.list<ControllerRevision>(Resources.controllerRevisions, 'default')).items;
      const plan = planStatefulSet({ set, pods, claims, revisions }, sim.now(), sim.features);
      const entry = sim.state.findSet('default', 'web');
      const converged = entry !== undefined && sim.tracker.isConverged(entry.key);
      const summary = await sim.finish();
      assert.equal(sim.failed, false, `${what}: ${JSON.stringify(sim.records.filter((r) => r.type === 'failure'))}`);
      assert.deepEqual(summary.violations, [], what);
      assert.ok(!sim.records.some((r) => r.type === 'action' && r.resource === 'statefulsets'), `${what}: the controller never writes spec`);
      if (converged) continue;
      const progressing = set.status?.conditions?.find((x) => x.type === 'Progressing');
      const holds = plan.blockers.filter((b) => b.kind !== 'rolloutAborted' && b.kind !== 'partition');
      assert.ok(progressing?.status === 'False' && HALTED.includes(progressing.reason ?? ''), `${what}: not converged and Progressing is ${JSON.stringify(progressing)}`);
      assert.ok(holds.length > 0, `${what}: halted without a blocker that says why: ${JSON.stringify(plan.blockers)}`);
    }
  });
});
