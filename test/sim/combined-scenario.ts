// The rollouts of the combined property (combined.property.test.ts): every feature that takes a pod down, at
// once — steps and the user's pause, onFailure: Rollback of a broken image, in-place image updates and resizes
// (Infeasible ones included), claims that grow, a PodDisruptionBudget over the set or over it and a second set
// rolling beside it, zones, updateOrder Priority, EnforcedRollingUpdate — under API faults, watch delays, pod
// deletions and controller restarts.

import fc from 'fast-check';
import type { Plan } from '../../src/controller/model/plan-types.js';
import { parseScenario } from '../../src/sim/scenario.js';
import { Simulation } from '../../src/sim/simulation.js';
import { storageClass } from './claim-scenario.js';
import { apiFaults, faultsLine } from './fault-cases.js';
import { playSignals, tappedPlanner, type PauseSignal, type Sync } from './user-signals.js';

const signal = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 1, max: 10 }).map((s) => ({ kind: 'advance' as const, seconds: s })) },
  { weight: 2, arbitrary: fc.constant({ kind: 'pause' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'resume' as const }) },
  { weight: 1, arbitrary: fc.boolean().map((full) => ({ kind: 'promote' as const, full })) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 4 }).map((o) => ({ kind: 'deletePod' as const, ordinal: o })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'restart' as const }) },
);

export const cases = fc
  .record({
    replicas: fc.integer({ min: 2, max: 5 }),
    parallel: fc.boolean(),
    enforced: fc.boolean(),
    maxUnavailable: fc.constantFrom<number | string>(1, 2, '50%'),
    podUpdatePolicy: fc.constantFrom('Recreate', 'InPlaceIfPossible', 'InPlaceOnly'),
    /** What the rollout changes: an image, cpu that fits the node, cpu that never fits, an image and a claim that grows, or an image that never becomes Ready. */
    change: fc.constantFrom('image', 'resize', 'infeasible', 'claim', 'broken'),
    rollback: fc.boolean(),
    steps: fc.constantFrom('', '{partition: 2}', '{partition: 1, pause: {duration: 4s}}', '{replicas: "50%", pause: {}}'),
    startPaused: fc.boolean(),
    budget: fc.constantFrom('none', 'one', 'two'),
    zones: fc.boolean(),
    priority: fc.boolean(),
    signals: fc.array(signal, { maxLength: 8 }),
    ...apiFaults,
    seed: fc.integer({ min: 1, max: 1000 }),
  })
  // a change the controller cannot see yet (a pod deleted under a late watch) is a race no controller wins
  .map((c) => (c.watchDelay > 0 ? { ...c, signals: c.signals.filter((s) => s.kind !== 'deletePod') } : c));

export type Case = typeof cases extends fc.Arbitrary<infer T> ? T : never;

const resources = (cpu: string, limit: string): string => `{requests: {cpu: ${cpu}, memory: 64Mi}, limits: {cpu: "${limit}", memory: 128Mi}}`;
const claims = (size: string): string => `[{metadata: {name: data}, spec: {accessModes: [ReadWriteOnce], storageClassName: standard, resources: {requests: {storage: ${size}}}}}]`;

/** The template change of the case, as a merge patch of the set (a merge patch replaces the containers list whole). */
function change(c: Case): string {
  const image = c.change === 'broken' ? 'app:broken' : c.change === 'resize' || c.change === 'infeasible' ? 'app:v1' : 'app:v2';
  const cpu = c.change === 'resize' ? resources('200m', '2') : c.change === 'infeasible' ? resources('8', '9') : resources('100m', '1');
  const claimPatch = c.change === 'claim' ? `, volumeClaimTemplates: ${claims('2Gi')}` : '';
  return `{spec: {template: {spec: {containers: [{name: app, image: "${image}", resources: ${cpu}}]}}${claimPatch}}}`;
}

function set(name: string, replicas: number, c: Case, main: boolean): string {
  const rolling = main && c.enforced ? 'enforcedRollingUpdate' : 'rollingUpdate';
  const knobs = [
    `maxUnavailable: ${JSON.stringify(c.maxUnavailable)}`,
    c.budget !== 'none' ? 'respectPodDisruptionBudgets: true' : '',
    main && c.zones ? 'topologyKey: topology.kubernetes.io/zone' : '',
    main && c.priority ? 'updateOrder: Priority, priority: {label: role, values: [replica, primary]}' : '',
    main ? `podUpdatePolicy: ${c.podUpdatePolicy}` : '',
    main && c.rollback ? 'onFailure: Rollback' : '',
    main ? `paused: ${c.startPaused}` : '',
    main && c.steps ? `steps: [${c.steps}]` : '',
  ].filter((k) => k && !(rolling === 'enforcedRollingUpdate' && /^(respect|topology|updateOrder|podUpdatePolicy)/.test(k)));
  return `  - apiVersion: apps.ordinal.dev/v1
    kind: StatefulSet
    metadata: {name: ${name}}
    spec:
      replicas: ${replicas}
      podManagementPolicy: ${c.parallel ? 'Parallel' : 'OrderedReady'}
      progressDeadlineSeconds: 40
      volumeClaimUpdatePolicy: ${main && c.change === 'claim' ? 'InPlace' : 'OnDelete'}
      selector: {matchLabels: {app: ${name}}}
      template:
        metadata: {labels: {app: ${name}, tier: db}}
        spec: {containers: [{name: app, image: "app:v1", resources: ${resources('100m', '1')}}]}
      volumeClaimTemplates: ${claims('1Gi')}
      updateStrategy: {type: ${main && c.enforced ? 'EnforcedRollingUpdate' : 'RollingUpdate'}, ${rolling}: {${knobs.join(', ')}}}`;
}

function scenario(c: Case): string {
  const objects = [storageClass('standard', true)];
  if (c.zones) for (const [i, zone] of ['zone-a', 'zone-b', 'zone-a'].entries()) objects.push(`  - {apiVersion: v1, kind: Node, metadata: {name: node-${i}, labels: {topology.kubernetes.io/zone: ${zone}}}}`);
  if (c.budget === 'one') objects.push('  - {apiVersion: policy/v1, kind: PodDisruptionBudget, metadata: {name: web}, spec: {maxUnavailable: 1, selector: {matchLabels: {app: web}}}}');
  if (c.budget === 'two') objects.push('  - {apiVersion: policy/v1, kind: PodDisruptionBudget, metadata: {name: tier}, spec: {maxUnavailable: 1, selector: {matchLabels: {tier: db}}}}');
  objects.push(set('web', c.replicas, c, true));
  if (c.budget === 'two') objects.push(set('db', 2, c, false));
  const roles = c.priority ? Array.from({ length: c.replicas }, (_, i) => `  - patch: {kind: Pod, name: web-${i}, merge: {metadata: {labels: {role: ${i === 0 ? 'primary' : 'replica'}}}}}`) : [];
  const second = c.budget === 'two' ? ['  - setImage: {name: db, container: app, image: "app:v2"}'] : [];
  return `kind: Scenario
seed: ${c.seed}
endSeconds: 100000
cluster:
  podStartSeconds: 1
  podTerminationSeconds: 1
  allocatable: {cpu: "4", memory: 8Gi}
  storage: {expansionSeconds: 2}
  images:
    "app:broken": {behavior: CrashLoopBackOff}
${faultsLine(c)}
objects:
${objects.join('\n')}
steps:
  - waitFor: Converged
    timeoutSeconds: 300
${[...roles, `  - patch: {kind: StatefulSet, name: web, merge: ${change(c)}}`, ...second].join('\n')}
`;
}

/** The plan's update disruptions: update deletions (in-place fallbacks and claim restarts included) and in-place patches. */
const updates = (plan: Plan): string[] =>
  plan.actions.flatMap((a) => (a.kind === 'deletePod' && a.cause === 'update' ? [`delete ${a.name}`] : a.kind === 'patchPod' ? [`patch ${a.name}`] : []));

export async function run(c: Case): Promise<{ sim: Simulation; syncs: Sync[]; pauses: PauseSignal[] }> {
  const syncs: Sync[] = [];
  const planner = tappedPlanner(c.enforced ? 'enforcedRollingUpdate' : 'rollingUpdate', updates, syncs);
  const sim = new Simulation(parseScenario(scenario(c), 'combined property'), { planner });
  await sim.start();
  await sim.runSteps();
  const pauses = await playSignals(sim, c.signals, c.startPaused);
  await sim.runFor(sim.now() + 60_000);
  return { sim, syncs, pauses };
}
