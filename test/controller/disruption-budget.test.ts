// rollingUpdate.respectPodDisruptionBudgets through the whole planner: an update deletion goes only when every
// PodDisruptionBudget selecting the pod would admit its eviction, counting the deletions of the same sync and
// the pods as they are now (the disruption controller's status trails them).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { planStatefulSet } from '../../src/controller/plan/plan-statefulset.js';
import type { Action, Blocker, ObservedDisruptionBudget, Plan } from '../../src/controller/model/plan-types.js';
import type { Pod, PodDisruptionBudget } from '../../src/api/types.js';
import { features, newSet, observe, podFor, revisionOf, T0, withImage, withStatus, type PodState, type SetOptions } from './fixtures.js';

const deleted = (plan: Plan): number[] => plan.actions.filter((a): a is Extract<Action, { kind: 'deletePod' }> => a.kind === 'deletePod').map((a) => a.ordinal);
const budgetBlockers = (plan: Plan): Extract<Blocker, { kind: 'podDisruptionBudget' }>[] =>
  plan.blockers.filter((b): b is Extract<Blocker, { kind: 'podDisruptionBudget' }> => b.kind === 'podDisruptionBudget');

interface BudgetOptions {
  name?: string;
  /** Pod names it selects (default: every pod of the set, through app=web). */
  pods?: string[];
  status: { disruptionsAllowed: number; currentHealthy: number; desiredHealthy: number; observedGeneration?: number };
  generation?: number;
  unhealthyPodEvictionPolicy?: 'IfHealthyBudget' | 'AlwaysAllow';
}

function budget(o: BudgetOptions): PodDisruptionBudget {
  const selector = o.pods ? { matchExpressions: [{ key: 'statefulset.kubernetes.io/pod-name', operator: 'In', values: o.pods }] } : { matchLabels: { app: 'web' } };
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: o.name ?? 'web-pdb', namespace: 'default', generation: o.generation ?? 1 },
    spec: { minAvailable: 1, selector, ...(o.unhealthyPodEvictionPolicy ? { unhealthyPodEvictionPolicy: o.unhealthyPodEvictionPolicy } : {}) },
    status: { observedGeneration: 1, expectedPods: 5, ...o.status },
  };
}

/** A converged set of `replicas` on v1 (pods in `states` by ordinal), the image changed to v2, observed with `budgets`. */
function firstUpdateSync(replicas: number, opts: SetOptions, budgets: PodDisruptionBudget[], states: Record<number, PodState> = {}): Plan {
  const v1 = newSet(replicas, opts);
  const pods = Array.from({ length: replicas }, (_, i) => podFor(v1, i, states[i] ?? {}));
  const rev = revisionOf(v1).metadata.name ?? '';
  const v2 = withStatus(withImage(v1, 'app:v2'), { replicas, readyReplicas: replicas, currentReplicas: replicas, updatedReplicas: 0, currentRevision: rev, updateRevision: rev, observedGeneration: 1 });
  return planStatefulSet({ ...observe(v2, pods, { revisions: [revisionOf(v1)] }), disruptionBudgets: observedBudgets(budgets, pods) }, T0, features);
}

function observedBudgets(budgets: PodDisruptionBudget[], pods: Pod[]): ObservedDisruptionBudget[] {
  return budgets.map((b) => {
    const names = (b.spec.selector?.matchExpressions?.[0]?.values as string[] | undefined) ?? pods.map((p) => p.metadata.name ?? '');
    return { budget: b, pods: pods.filter((p) => names.includes(p.metadata.name ?? '')) };
  });
}

const respecting = (o: SetOptions = {}): SetOptions => ({ maxUnavailable: 3, respectPodDisruptionBudgets: true, ...o });
/** minAvailable 4 of 5 replicas, all healthy: one disruption allowed. */
const oneAllowed = (o: Partial<BudgetOptions> = {}): PodDisruptionBudget => budget({ status: { disruptionsAllowed: 1, currentHealthy: 5, desiredHealthy: 4 }, ...o });

describe('respectPodDisruptionBudgets: maxUnavailable 3 under a budget allowing one disruption', () => {
  for (const policy of ['OrderedReady', 'Parallel'] as const) {
    it(`${policy}: deletes only the top pod, and names the budget holding the next`, () => {
      const plan = firstUpdateSync(5, respecting({ policy }), [oneAllowed()]);
      assert.deepEqual(deleted(plan), [4]);
      assert.deepEqual(budgetBlockers(plan), [
        { kind: 'podDisruptionBudget', budget: 'web-pdb', pods: ['web-3'], count: 1, disruptionsAllowed: 0, currentHealthy: 4, desiredHealthy: 4, expectedPods: 5, stale: false, unready: false },
      ]);
      assert.ok(!plan.blockers.some((b) => b.kind === 'budgetExhausted'), 'maxUnavailable is not what holds the rollout');
    });
  }

  it('without the field, the same budget is ignored, as upstream ignores budgets', () => {
    const plan = firstUpdateSync(5, { maxUnavailable: 3 }, [oneAllowed()]);
    assert.deepEqual(deleted(plan), [4, 3, 2]);
    assert.deepEqual(budgetBlockers(plan), []);
  });

  it('a budget with room for more lets maxUnavailable limit the batch', () => {
    const plan = firstUpdateSync(5, respecting(), [budget({ status: { disruptionsAllowed: 4, currentHealthy: 5, desiredHealthy: 1 } })]);
    assert.deepEqual(deleted(plan), [4, 3, 2]);
    assert.deepEqual(budgetBlockers(plan), []);
  });

  it('the legacy one-at-a-time update waits on the budget too', () => {
    const legacy = { ...features, MaxUnavailableStatefulSet: false };
    const v1 = newSet(3, { respectPodDisruptionBudgets: true });
    const pods = [0, 1, 2].map((i) => podFor(v1, i));
    const rev = revisionOf(v1).metadata.name ?? '';
    const v2 = withStatus(withImage(v1, 'app:v2'), { replicas: 3, readyReplicas: 3, currentReplicas: 3, currentRevision: rev, updateRevision: rev, observedGeneration: 1 });
    const none = budget({ status: { disruptionsAllowed: 0, currentHealthy: 3, desiredHealthy: 3 } });
    const plan = planStatefulSet({ ...observe(v2, pods, { revisions: [revisionOf(v1)] }), disruptionBudgets: observedBudgets([none], pods) }, T0, legacy);
    assert.deepEqual(deleted(plan), []);
    assert.deepEqual(budgetBlockers(plan).map((b) => [b.budget, b.pods]), [['web-pdb', ['web-2']]]);
  });
});

describe('respectPodDisruptionBudgets: the status trails the pods', () => {
  it('a pod already terminating counts as a disruption even before the disruption controller has seen it', () => {
    // the status still says 5 healthy and 1 allowed, but web-4 went in the last sync
    const plan = firstUpdateSync(5, respecting({ policy: 'Parallel' }), [oneAllowed()], { 4: { terminating: true } });
    assert.deepEqual(deleted(plan), []);
    assert.deepEqual(budgetBlockers(plan).map((b) => [b.pods, b.currentHealthy, b.disruptionsAllowed]), [[['web-3'], 4, 0]]);
  });

  it('a budget whose status is older than its spec allows nothing, and says why', () => {
    const plan = firstUpdateSync(5, respecting(), [oneAllowed({ generation: 2 })]);
    assert.deepEqual(deleted(plan), []);
    assert.deepEqual(budgetBlockers(plan).map((b) => [b.pods, b.stale]), [[['web-4'], true]]);
  });

  it('a budget without a status allows nothing', () => {
    const b = oneAllowed();
    delete b.status;
    assert.deepEqual(deleted(firstUpdateSync(5, respecting(), [b])), []);
  });
});

describe('respectPodDisruptionBudgets: several budgets, unhealthy pods', () => {
  it('a pod two budgets select waits, as the Eviction API refuses it whatever they allow; a lower ordinal never goes before it', () => {
    const all = budget({ name: 'all', status: { disruptionsAllowed: 3, currentHealthy: 5, desiredHealthy: 2 } });
    const three = budget({ name: 'only-3', pods: ['web-3'], status: { disruptionsAllowed: 1, currentHealthy: 1, desiredHealthy: 0 } });
    const plan = firstUpdateSync(5, respecting(), [all, three]);
    assert.deepEqual(deleted(plan), [4]);
    assert.deepEqual(
      plan.blockers.filter((b) => b.kind === 'overlappingDisruptionBudgets'),
      [{ kind: 'overlappingDisruptionBudgets', pod: 'web-3', budgets: ['all', 'only-3'] }],
    );
  });

  it('every budget selecting a pod must admit it', () => {
    const four = budget({ name: 'only-4', pods: ['web-4'], status: { disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1 } });
    const three = budget({ name: 'only-3', pods: ['web-3'], status: { disruptionsAllowed: 1, currentHealthy: 1, desiredHealthy: 0 } });
    const plan = firstUpdateSync(5, respecting({ maxUnavailable: 2, policy: 'Parallel' }), [four, three]);
    assert.deepEqual(deleted(plan), []);
    assert.deepEqual(budgetBlockers(plan).map((b) => [b.budget, b.pods]), [['only-4', ['web-4']]]);
  });

  it('Parallel: a stale pod that is not Ready goes while the budget is met (it takes nothing from currentHealthy)', () => {
    const met = budget({ status: { disruptionsAllowed: 0, currentHealthy: 4, desiredHealthy: 4 } });
    const plan = firstUpdateSync(5, respecting({ policy: 'Parallel' }), [met], { 2: { ready: false } });
    assert.deepEqual(deleted(plan), [2]);
    assert.deepEqual(budgetBlockers(plan).map((b) => b.pods), [['web-4']]);
  });

  it('Parallel: a stale pod that is not Ready waits while the budget is not met, unless it says AlwaysAllow', () => {
    const short = { status: { disruptionsAllowed: 0, currentHealthy: 3, desiredHealthy: 4 } };
    const states = { 2: { ready: false }, 1: { ready: false } };
    const held = firstUpdateSync(5, respecting({ policy: 'Parallel' }), [budget(short)], states);
    assert.deepEqual(deleted(held), []);
    assert.deepEqual(budgetBlockers(held).map((b) => [b.pods, b.unready]), [[['web-2', 'web-1', 'web-4'], true]]);
    assert.deepEqual(deleted(firstUpdateSync(5, respecting({ policy: 'Parallel' }), [budget({ ...short, unhealthyPodEvictionPolicy: 'AlwaysAllow' })], states)), [2, 1]);
  });
});

describe('respectPodDisruptionBudgets: evictions and the process ledger', () => {
  it('marks every update deletion of a set that respects budgets eviction (the API server checks again), and none of a set that does not', () => {
    const roomy = budget({ status: { disruptionsAllowed: 3, currentHealthy: 5, desiredHealthy: 2 } });
    const respected = firstUpdateSync(5, respecting(), [roomy]).actions.filter((a) => a.kind === 'deletePod');
    assert.deepEqual(respected.map((a) => [a.ordinal, a.kind === 'deletePod' && a.eviction]), [[4, true], [3, true], [2, true]]);
    const ignored = firstUpdateSync(5, { maxUnavailable: 3 }, [roomy]).actions.filter((a) => a.kind === 'deletePod');
    assert.deepEqual(ignored.map((a) => a.kind === 'deletePod' && a.eviction), [undefined, undefined, undefined]);
  });

  it('counts a pod the process has in flight under the budget as not healthy and as a disruption spent: the one allowed is gone', () => {
    const v1 = newSet(5, respecting());
    const pods = Array.from({ length: 5 }, (_, i) => podFor(v1, i, {}));
    const rev = revisionOf(v1).metadata.name ?? '';
    const v2 = withStatus(withImage(v1, 'app:v2'), { replicas: 5, readyReplicas: 5, currentReplicas: 5, updatedReplicas: 0, currentRevision: rev, updateRevision: rev, observedGeneration: 1 });
    // another set's pod behind the same budget, evicted by this process a moment ago: neither its pod nor the status shows it yet
    const other = { ...podFor(v1, 0, {}), metadata: { ...podFor(v1, 0, {}).metadata, name: 'replica-0', uid: 'uid-replica-0' } };
    const shared = budget({ status: { disruptionsAllowed: 1, currentHealthy: 6, desiredHealthy: 5 } });
    const observed = (inFlight?: string[]) => ({
      ...observe(v2, pods, { revisions: [revisionOf(v1)] }),
      disruptionBudgets: [{ budget: shared, pods: [...pods, other], ...(inFlight ? { inFlight } : {}) }],
    });
    assert.deepEqual(deleted(planStatefulSet(observed(), T0, features)), [4], 'without the ledger the disruption looks free');
    const held = planStatefulSet(observed(['replica-0']), T0, features);
    assert.deepEqual(deleted(held), []);
    assert.deepEqual(budgetBlockers(held).map((b) => [b.budget, b.pods, b.currentHealthy, b.disruptionsAllowed]), [['web-pdb', ['web-4'], 5, 0]]);
  });
});

describe('respectPodDisruptionBudgets with minReadySeconds: the stricter of the budget and the rollout', () => {
  // web-4 is updated and Ready, so the budget's status counts it healthy and allows one disruption; the rollout
  // does not count it available until minReadySeconds has passed, so no other pod may go yet (a Kafka set went
  // to 3 of 5 this way under a budget allowing one down)
  function secondPod(readyFor: number): Plan {
    const v1 = newSet(5, respecting({ minReadySeconds: 30, policy: 'Parallel' }));
    const v2 = withImage(v1, 'app:v2');
    const pods = [0, 1, 2, 3].map((i) => podFor(v1, i)).concat(podFor(v2, 4, { from: v2, readySince: T0 - readyFor * 1000 }));
    const [r1, r2] = [revisionOf(v1, 1), revisionOf(v2, 2)];
    const stored = withStatus(v2, { replicas: 5, readyReplicas: 5, currentReplicas: 4, updatedReplicas: 1, currentRevision: r1.metadata.name ?? '', updateRevision: r2.metadata.name ?? '', observedGeneration: 1 });
    return planStatefulSet({ ...observe(stored, pods, { revisions: [r1, r2] }), disruptionBudgets: observedBudgets([oneAllowed()], pods) }, T0, features);
  }

  it('a new pod Ready for less than minReadySeconds frees no disruption: the next pod waits, the budget named', () => {
    const plan = secondPod(10);
    assert.deepEqual(deleted(plan), []);
    assert.deepEqual(budgetBlockers(plan).map((b) => b.budget), ['web-pdb']);
  });

  it('once it has been available minReadySeconds, the next pod goes', () => {
    assert.deepEqual(deleted(secondPod(40)), [3]);
  });
});
