// checkPlan's PodDisruptionBudget rule (disruptionBudgetsRespected): judged over every pod the budget selects,
// another set's included, and every disruption of the instant (the plan's, and those in flight).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod, PodDisruptionBudget } from '../../src/api/types.js';
import { disruptionBudgetsRespected } from '../../src/controller/checks/budget-invariant.js';
import type { Action, ObservedDisruptionBudget, Plan } from '../../src/controller/model/plan-types.js';
import { features, newSet, observe, podFor, readyPods, T0 } from './fixtures.js';

const set = newSet(3, { maxUnavailable: 2, respectPodDisruptionBudgets: true });
const other = { ...newSet(3, { maxUnavailable: 2 }), metadata: { ...newSet(3).metadata, name: 'db' } };
const tierPods = (): Pod[] => [...readyPods(set, 3), ...readyPods(other, 3)].map((p) => ({ ...p, metadata: { ...p.metadata, labels: { ...p.metadata.labels, tier: 'db' } } }));

function budget(status: Partial<NonNullable<PodDisruptionBudget['status']>>, generation = 1): PodDisruptionBudget {
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'tier', namespace: 'default', generation },
    spec: { minAvailable: 5, selector: { matchLabels: { tier: 'db' } } },
    status: { observedGeneration: 1, disruptionsAllowed: 1, currentHealthy: 6, desiredHealthy: 5, expectedPods: 6, ...status },
  };
}

const del = (name: string, cause: 'update' | 'condemned' | 'failed' = 'update'): Action => ({ kind: 'deletePod', name, uid: name, ordinal: Number(name.split('-')[1]), cause, batch: 0 });
const planOf = (actions: Action[]): Plan => ({ actions } as unknown as Plan);

function check(actions: Action[], observed: ObservedDisruptionBudget[], target = set): string[] {
  const pods = tierPods().filter((p) => p.metadata.name?.startsWith(`${target.metadata.name}-`));
  return disruptionBudgetsRespected({ ...observe(target, pods), disruptionBudgets: observed }, planOf(actions), T0, features);
}

describe('disruptionBudgetsRespected', () => {
  it('holds for one disruption a budget over two sets allows, and fails for two', () => {
    const b = { budget: budget({}), pods: tierPods() };
    assert.deepEqual(check([del('web-2')], [b]), []);
    assert.equal(check([del('web-2'), del('web-1')], [b]).length, 2);
  });

  it("counts the other set's disruption in flight: none is left for this set", () => {
    const found = check([del('web-2')], [{ budget: budget({}), pods: tierPods(), inFlight: ['db-2'] }]);
    assert.match(found.join('\n'), /allowed 0/);
    assert.match(found.join('\n'), /4 healthy pods, below its desiredHealthy 5/);
  });

  it("counts the other set's NotReady pod against desiredHealthy even when the stored status still allows one", () => {
    const pods = tierPods().map((p) => (p.metadata.name === 'db-0' ? { ...podFor(other, 0, { ready: false }), metadata: p.metadata } : p));
    assert.match(check([del('web-2')], [{ budget: budget({}), pods }]).join('\n'), /below its desiredHealthy/);
  });

  it('refuses every disruption while the status is older than the spec', () => {
    assert.match(check([del('web-2')], [{ budget: budget({}, 2), pods: tierPods() }]).join('\n'), /no current status/);
  });

  it('counts an in-place patch as a disruption, and never scale-down or a failed pod', () => {
    const patch = { kind: 'patchPod', name: 'web-1', uid: 'web-1', ordinal: 1, revision: 'r', patch: {}, batch: 0 } as unknown as Action;
    const b = { budget: budget({ disruptionsAllowed: 0, currentHealthy: 5 }), pods: tierPods() };
    assert.equal(check([patch], [b]).length, 1);
    assert.deepEqual(check([del('web-2', 'condemned'), del('web-1', 'failed')], [b]), []);
  });

  it('leaves alone a set that does not respect budgets', () => {
    const plain = newSet(3, { maxUnavailable: 2 });
    assert.deepEqual(check([del('web-2'), del('web-1')], [{ budget: budget({ disruptionsAllowed: 0 }), pods: tierPods() }], plain), []);
  });
});
