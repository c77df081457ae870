// Property (rollingUpdate.respectPodDisruptionBudgets): over random sizes, policies, maxUnavailable, one
// PodDisruptionBudget of every kind (minAvailable or maxUnavailable, integer or percentage) or two that split
// the pods (one over a few pods, one over the rest: a pod two budgets select cannot be evicted, kube-apiserver
// refuses it, and shared-budget.test.ts shows what the controller then does), injected API errors, conflicts
// and watch delays, and a selected pod of no controller that a user deletes mid-rollout, no update deletion of
// the controller takes a budget below its desiredHealthy (the simulator's podDisruptionBudget check, on every
// deletion), no other invariant breaks, and the rollout completes. Cases are drawn with the process's
// property seed (test/property-seed.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { apiFaults, faultsLine, simulate } from './fault-cases.js';
import { propertySeed } from '../property-seed.js';
import { isPodRemoval } from '../../src/sim/timeline.js';

/** minAvailable as the disruption controller scales it (a percentage rounded up). */
const desiredOf = (v: number | string, replicas: number): number => (typeof v === 'number' ? v : Math.ceil((Number(v.slice(0, -1)) * replicas) / 100));

const cases = fc
  .record({
    replicas: fc.integer({ min: 2, max: 7 }),
    maxUnavailable: fc.integer({ min: 1, max: 4 }),
    parallel: fc.boolean(),
    budget: fc.oneof(
      fc.record({ field: fc.constant('minAvailable'), value: fc.oneof(fc.integer({ min: 1, max: 6 }), fc.constantFrom('50%', '60%', '80%')) }),
      fc.record({ field: fc.constant('maxUnavailable'), value: fc.oneof(fc.integer({ min: 1, max: 2 }), fc.constantFrom('20%', '34%', '50%')) }),
    ),
    /** Two budgets instead: one over the pods of these ordinals and one over the others, each keeping all but one. */
    subset: fc.option(fc.uniqueArray(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 3 }), { nil: undefined }),
    ...apiFaults,
    /** A pod of no controller that the budgets select too, which a user deletes that many seconds into the rollout. */
    userDelete: fc.option(fc.integer({ min: 1, max: 30 }), { nil: undefined }),
    podStart: fc.integer({ min: 1, max: 6 }),
  })
  .map((c) => ({
    ...c,
    // a minAvailable of every replica would hold the rollout for good: keep one disruption possible
    budget: c.budget.field === 'minAvailable' && desiredOf(c.budget.value, c.replicas) >= c.replicas ? { ...c.budget, value: c.replicas - 1 } : c.budget,
    subset: c.subset?.filter((o) => o < c.replicas),
    // a deletion the controller cannot see yet (its watch is late) is a race no controller wins, with or without
    // budgets (the eviction handler does not count a plain delete either): user deletions only with a prompt watch
    userDelete: c.watchDelay > 0 ? undefined : c.userDelete,
  }));

type Case = typeof cases extends fc.Arbitrary<infer T> ? T : never;

const budget = (name: string, field: string, value: number | string, selector: string) =>
  `  - {apiVersion: policy/v1, kind: PodDisruptionBudget, metadata: {name: ${name}}, spec: {${field}: ${JSON.stringify(value)}, selector: ${selector}}}`;

const names = (ordinals: readonly number[]): string => ordinals.map((o) => `db-${o}`).join(', ');

function scenario(c: Case): string {
  const subset = c.subset && c.subset.length > 0 ? c.subset : undefined;
  return `kind: Scenario
seed: ${c.replicas * 1000 + c.podStart}
cluster: {podStartSeconds: ${c.podStart}, podTerminationSeconds: 1}
${faultsLine(c)}
objects:
${c.userDelete !== undefined ? '  - {apiVersion: v1, kind: Pod, metadata: {name: helper, labels: {app: db}}, spec: {containers: [{name: c, image: "busybox:1.36"}]}}' : ''}
${subset ? budget('rest', 'minAvailable', Math.max(0, c.replicas - subset.length - 1), `{matchLabels: {app: db}, matchExpressions: [{key: statefulset.kubernetes.io/pod-name, operator: NotIn, values: [${names(subset)}]}]}`) : budget('all', c.budget.field, c.budget.value, '{matchLabels: {app: db}}')}
${subset ? budget('some', 'minAvailable', subset.length - 1, `{matchExpressions: [{key: statefulset.kubernetes.io/pod-name, operator: In, values: [${names(subset)}]}]}`) : ''}
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
      updateStrategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: ${c.maxUnavailable}, respectPodDisruptionBudgets: true}}
steps:
  - waitFor: Converged
    timeoutSeconds: 600
  - setImage: {name: db, container: postgres, image: "postgres:17.6"}
${c.userDelete !== undefined ? `  - advance: ${c.userDelete}\n  - deletePod: helper` : ''}
  - waitFor: Converged
    timeoutSeconds: 3000
`;
}

describe('respectPodDisruptionBudgets (property)', () => {
  it(`no update deletion breaches a PodDisruptionBudget, and the rollout completes (seed ${propertySeed})`, async () => {
    for (const c of fc.sample(cases, { seed: propertySeed, numRuns: 16 })) {
      const sim = await simulate(scenario(c));
      const what = JSON.stringify(c);
      assert.deepEqual(sim.violations, [], what);
      assert.equal(sim.failed, false, `${what}: ${JSON.stringify(sim.records.filter((r) => r.type === 'failure' || (r.type === 'expect' && !r.ok)))}`);
      const deleted = sim.records.filter((r) => r.type === 'action' && isPodRemoval(r)).length;
      assert.ok(deleted >= c.replicas, `${what}: every pod was replaced (${deleted} deletions and evictions)`);
    }
  });
});
