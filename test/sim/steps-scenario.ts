// The staged rollouts of the steps property (steps.property.test.ts): the cases it draws, their scenario, and
// one run of a case with the user's signals (pause, resume, promote: the merge patches of
// src/api/rollout-signals.ts), scales, pod deletions and controller restarts made between stretches of time.

import fc from 'fast-check';
import type { Plan } from '../../src/controller/model/plan-types.js';
import { parseScenario } from '../../src/sim/scenario.js';
import { Simulation } from '../../src/sim/simulation.js';
import { apiFaults, faultsLine } from './fault-cases.js';
import { storageClass } from './claim-scenario.js';
import { playSignals, tappedPlanner, type PauseSignal, type Sync } from './user-signals.js';

const gate = fc.constantFrom('', 'pause: {}', 'pause: {duration: 5s}', 'analysis: {readiness: {duration: 4s}}', 'analysis: {readiness: {duration: 3s, failureLimit: 1}}');
const step = fc.record({
  to: fc.oneof(fc.integer({ min: 0, max: 5 }).map((n) => `partition: ${n}`), fc.integer({ min: 0, max: 5 }).map((n) => `replicas: ${n}`), fc.constantFrom('replicas: "25%"', 'replicas: "50%"', 'replicas: "100%"')),
  gate,
});
const signal = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 1, max: 8 }).map((s) => ({ kind: 'advance' as const, seconds: s })) },
  { weight: 2, arbitrary: fc.constant({ kind: 'pause' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'resume' as const }) },
  { weight: 2, arbitrary: fc.boolean().map((full) => ({ kind: 'promote' as const, full })) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 5 }).map((n) => ({ kind: 'scale' as const, replicas: n })) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 4 }).map((o) => ({ kind: 'deletePod' as const, ordinal: o })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'restart' as const }) },
);

export const cases = fc.record({
  replicas: fc.integer({ min: 1, max: 5 }),
  parallel: fc.boolean(),
  enforced: fc.boolean(),
  together: fc.boolean(),
  maxUnavailable: fc.constantFrom<number | string>(1, 2, '50%'),
  partition: fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 3 }) }),
  inPlaceClaims: fc.boolean(),
  startPaused: fc.boolean(),
  flaky: fc.boolean(),
  steps: fc.array(step, { minLength: 1, maxLength: 3 }),
  signals: fc.array(signal, { maxLength: 8 }),
  ...apiFaults,
}).map((c) =>
  // a change the controller cannot see yet (its watch is late: a pod deleted or gone NotReady, replicas added)
  // is a race no controller wins, with or without steps: those only with a prompt watch
  c.watchDelay > 0 ? { ...c, flaky: false, signals: c.signals.filter((s) => s.kind !== 'deletePod' && s.kind !== 'scale') } : c,
);

export type Case = typeof cases extends fc.Arbitrary<infer T> ? T : never;

function scenario(c: Case): string {
  const block = c.enforced ? 'enforcedRollingUpdate' : 'rollingUpdate';
  const claims = (size: string) => `[{metadata: {name: data}, spec: {accessModes: [ReadWriteOnce], storageClassName: standard, resources: {requests: {storage: ${size}}}}}]`;
  const together = c.together && !c.enforced ? ', batchStartPolicy: Together' : '';
  const steps = c.steps.map((s) => `{${[s.to, s.gate].filter(Boolean).join(', ')}}`).join(', ');
  const change = c.inPlaceClaims
    ? `  - patch: {kind: StatefulSet, name: web, merge: {spec: {template: {spec: {containers: [{name: app, image: "app:v2"}]}}, volumeClaimTemplates: ${claims('2Gi')}}}}`
    : '  - setImage: {name: web, container: app, image: "app:v2"}';
  return `kind: Scenario
seed: 7
endSeconds: 100000
cluster:
  podStartSeconds: 1
  podTerminationSeconds: 1
  storage: {expansionSeconds: 2}
  images:
    "app:v2": ${c.flaky ? '{behavior: NotReadyAfter, seconds: 3, pods: [web-4]}' : '{}'}
${faultsLine(c)}
objects:
${storageClass('standard', true)}
  - apiVersion: apps.ordinal.dev/v1
    kind: StatefulSet
    metadata: {name: web}
    spec:
      replicas: ${c.replicas}
      podManagementPolicy: ${c.parallel ? 'Parallel' : 'OrderedReady'}
      volumeClaimUpdatePolicy: ${c.inPlaceClaims ? 'InPlace' : 'OnDelete'}
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec: {containers: [{name: app, image: "app:v1"}]}
      volumeClaimTemplates: ${claims('1Gi')}
      updateStrategy: {type: ${c.enforced ? 'EnforcedRollingUpdate' : 'RollingUpdate'}, ${block}: {maxUnavailable: ${JSON.stringify(c.maxUnavailable)}, partition: ${c.partition}${together}, paused: ${c.startPaused}, steps: [${steps}]}}
steps:
  - waitFor: Converged
    timeoutSeconds: 300
${change}
`;
}

/**
 * The plan's writes that update a pod or claim: update deletions, in-place patches, claim growth (but for the
 * claims of a pod the plan creates: a missing pod is created on the update revision, paused or not).
 */
function updates(plan: Plan): string[] {
  const created = new Set(plan.actions.flatMap((a) => (a.kind === 'createPod' ? [a.pod.metadata.name] : [])));
  return plan.actions.flatMap((a) => {
    if (a.kind === 'deletePod' && a.cause === 'update') return [`delete ${a.name}`];
    if (a.kind === 'patchPod') return [`patch ${a.name}`];
    if (a.kind === 'patchClaim' && a.growsTo !== undefined && !created.has(a.podName)) return [`grow ${a.name}`];
    return [];
  });
}

export async function run(c: Case, keepRecords = false): Promise<{ sim: Simulation; syncs: Sync[]; pauses: PauseSignal[] }> {
  const syncs: Sync[] = [];
  const planner = tappedPlanner(c.enforced ? 'enforcedRollingUpdate' : 'rollingUpdate', updates, syncs);
  const sim = new Simulation(parseScenario(scenario(c), 'steps property'), { planner, keepRecords });
  await sim.start();
  await sim.runSteps();
  const pauses = await playSignals(sim, c.signals, c.startPaused);
  await sim.runFor(sim.now() + 20_000);
  return { sim, syncs, pauses };
}
