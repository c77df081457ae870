// One admission for every disruption (issue 33): where the features meet, every pod that goes down passes the
// same rules in the same order — holds, update order, budget, PodDisruptionBudgets. Each case below was a path
// that deleted a pod past one of them: the in-place fallback and move on, the claim restart, a primary that was
// already down, a restart applied in place, and a replica moving in place counted as available.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Labels, type PersistentVolumeClaim, type Pod, type PodDisruptionBudget, type PodUpdatePolicy, type StatefulSet } from '../../src/api/types.js';
import type { Action, Blocker, Plan } from '../../src/controller/model/plan-types.js';
import { planStatefulSet } from '../../src/controller/plan/plan-statefulset.js';
import { features, newSet, observe, podFor, revisionName, revisionOf, SECOND, T0, withImage, withStatus } from './fixtures.js';
import { Harness } from './harness.js';

const writes = (p: Plan): string[] => p.actions.filter((a) => a.kind !== 'createRevision' && a.kind !== 'deleteRevision').map((a) => `${a.kind} ${'name' in a ? a.name : ''}`);
const deletions = (p: Plan): string[] => p.actions.flatMap((a) => (a.kind === 'deletePod' ? [a.name] : []));
const waits = (p: Plan): Extract<Blocker, { kind: 'disruptionWaits' }>[] => p.blockers.filter((b): b is Extract<Blocker, { kind: 'disruptionWaits' }> => b.kind === 'disruptionWaits');

const burstable = (cpu: string, limit = '1') => ({ requests: { cpu, memory: '64Mi' }, limits: { cpu: limit, memory: '128Mi' } });
const infeasible = { reason: 'Infeasible', message: "Node didn't have enough capacity: cpu, requested: 8000, capacity: 4000" };

/** A budget over every pod of the set with the given status (its pods: the set's, as they are). */
const budgetOver = (status: { disruptionsAllowed: number; currentHealthy: number; desiredHealthy: number }): PodDisruptionBudget => ({
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  metadata: { name: 'web-pdb', namespace: 'default', generation: 1 },
  spec: { minAvailable: status.desiredHealthy, selector: { matchLabels: { app: 'web' } } },
  status: { observedGeneration: 1, expectedPods: 3, ...status },
});

/** Three converged pods under podUpdatePolicy, maxUnavailable 1; `respect`: respectPodDisruptionBudgets under a budget allowing one. */
function converged(policy: PodUpdatePolicy, respect = false): { h: Harness; budget: { current: PodDisruptionBudget } } {
  const set = newSet(3, { maxUnavailable: 1, claims: false, ...(respect ? { respectPodDisruptionBudgets: true } : {}) });
  (set.spec.updateStrategy?.rollingUpdate as { podUpdatePolicy?: string }).podUpdatePolicy = policy;
  const c = set.spec.template.spec.containers[0];
  if (c) c['resources'] = burstable('100m');
  const h = new Harness(set, { autoReady: true });
  const budget = { current: budgetOver({ disruptionsAllowed: 1, currentHealthy: 3, desiredHealthy: 2 }) };
  if (respect) h.budgets = (pods: Pod[]) => [{ budget: budget.current, pods }];
  h.converge();
  (h.opts as { autoReady?: boolean }).autoReady = false;
  for (const name of ['web-0', 'web-1', 'web-2']) h.reportsResources(name);
  return { h, budget };
}

const resize = (cpu: string, limit?: string) => (s: StatefulSet): void => {
  const c = s.spec.template.spec.containers[0];
  if (c) c['resources'] = burstable(cpu, limit);
};
const pause = (paused: boolean) => (s: StatefulSet): void => {
  (s.spec.updateStrategy?.rollingUpdate as { paused?: boolean }).paused = paused;
};

/** web-2 patched in place to a resize its kubelet finds Infeasible. */
function fallingBack(h: Harness): void {
  h.update(resize('8', '9'));
  assert.deepEqual(writes(h.sync()), ['patchPod web-2']);
  h.reportsResources('web-2', { resources: burstable('100m'), pending: infeasible });
}

describe('the in-place fallback goes through the admission', () => {
  it('waits while a PodDisruptionBudget allows no disruption, and goes once it allows one', () => {
    const { h, budget } = converged('InPlaceIfPossible', true);
    fallingBack(h);
    budget.current = budgetOver({ disruptionsAllowed: 0, currentHealthy: 3, desiredHealthy: 3 });
    const held = h.sync();
    assert.deepEqual(deletions(held), []);
    assert.deepEqual(waits(held), [{ kind: 'disruptionWaits', pod: 'web-2', ordinal: 2, cause: 'inPlaceFallback', waitsFor: 'disruptionBudget' }]);
    assert.ok(held.blockers.some((b) => b.kind === 'podDisruptionBudget' && b.pods.includes('web-2')));
    budget.current = budgetOver({ disruptionsAllowed: 1, currentHealthy: 3, desiredHealthy: 2 });
    const gone = h.sync();
    assert.deepEqual(deletions(gone), ['web-2']);
    assert.deepEqual(
      gone.actions.find((a): a is Extract<Action, { kind: 'deletePod' }> => a.kind === 'deletePod')?.eviction,
      true,
      'a deletion under respectPodDisruptionBudgets goes through pods/eviction',
    );
    assert.ok(gone.events.some((e) => e.reason === 'InPlaceFallback' && e.message.includes('web-2')), JSON.stringify(gone.events));
  });

  it('waits while the user pauses the rollout, and goes at the resume', () => {
    const { h } = converged('InPlaceIfPossible');
    fallingBack(h);
    h.update(pause(true));
    const held = h.sync();
    assert.deepEqual(deletions(held), []);
    assert.deepEqual(waits(held).map((w) => [w.pod, w.cause, w.waitsFor]), [['web-2', 'inPlaceFallback', 'resume']]);
    h.update(pause(false));
    assert.deepEqual(deletions(h.sync()), ['web-2']);
  });

  it('waits while another replica is down (the budget the move holds is overdrawn): a Ready pod is not taken down beside it', () => {
    const { h } = converged('InPlaceIfPossible');
    fallingBack(h);
    h.notReady('web-0');
    const held = h.sync();
    assert.deepEqual(deletions(held), []);
    assert.deepEqual(waits(held).map((w) => [w.pod, w.waitsFor]), [['web-2', 'budget']]);
    // the moving pod is not available, as the budget counts it: status and budget agree
    assert.equal(held.status.availableReplicas, 1);
    h.ready('web-0');
    assert.deepEqual(deletions(h.sync()), ['web-2']);
  });
});

describe('a pod moving in place that a newer revision overtakes goes through the admission', () => {
  /** web-2 moving to app:v2 in place; then a template that cannot be applied in place (an env var). */
  function overtaken(h: Harness): void {
    h.setImage('app:v2');
    assert.deepEqual(writes(h.sync()), ['patchPod web-2']);
    h.update((s) => {
      const c = s.spec.template.spec.containers[0];
      if (c) c['env'] = [{ name: 'MODE', value: 'strict' }];
    });
  }

  it('is not recreated while the rollout is paused', () => {
    const { h } = converged('InPlaceIfPossible');
    overtaken(h);
    h.update(pause(true));
    const held = h.sync();
    assert.deepEqual(deletions(held), []);
    assert.deepEqual(waits(held).map((w) => [w.pod, w.cause, w.waitsFor]), [['web-2', 'inPlaceOvertaken', 'resume']]);
  });

  it('is not recreated while a PodDisruptionBudget allows no disruption', () => {
    const { h, budget } = converged('InPlaceIfPossible', true);
    overtaken(h);
    budget.current = budgetOver({ disruptionsAllowed: 0, currentHealthy: 3, desiredHealthy: 3 });
    const held = h.sync();
    assert.deepEqual(deletions(held), []);
    assert.deepEqual(waits(held).map((w) => [w.pod, w.cause, w.waitsFor]), [['web-2', 'inPlaceOvertaken', 'disruptionBudget']]);
  });
});

describe('a claim restart goes through the admission', () => {
  /** An InPlace set whose web-2 was created on the update revision before its claim's offline expansion finished the storage side. */
  function offlineWaiting(paused: boolean, budget?: PodDisruptionBudget): Plan {
    const grown = newSet(3, { maxUnavailable: 1, respectPodDisruptionBudgets: budget !== undefined });
    grown.spec.volumeClaimUpdatePolicy = 'InPlace';
    grown.spec.volumeClaimTemplates = [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '2Gi' } } } }];
    if (paused) (grown.spec.updateStrategy?.rollingUpdate as { paused?: boolean }).paused = true;
    const old = structuredClone(grown);
    old.spec.volumeClaimTemplates = [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }];
    const oldRev = revisionName(old);
    const newRev = revisionName(grown);
    const pods = [podFor(old, 0), podFor(old, 1), podFor(grown, 2)];
    const claimOf = (i: number, revision: string, request: string, pending?: string): PersistentVolumeClaim => ({
      metadata: { name: `data-web-${i}`, namespace: 'default', labels: { app: 'web', [Labels.revisionHash]: revision } },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: request } }, volumeName: `pv-${i}` },
      status: {
        phase: 'Bound',
        capacity: { storage: pending === undefined ? request : '1Gi' },
        ...(pending === undefined ? {} : { conditions: [{ type: 'FileSystemResizePending', status: 'True', lastTransitionTime: pending }] }),
      },
    });
    const claims = [claimOf(0, oldRev, '1Gi'), claimOf(1, oldRev, '1Gi'), claimOf(2, newRev, '2Gi', new Date(T0 + 10 * SECOND).toISOString().replace('.000Z', 'Z'))];
    const stored = withStatus(grown, { observedGeneration: 1, replicas: 3, readyReplicas: 2, currentReplicas: 2, updatedReplicas: 1, currentRevision: oldRev, updateRevision: newRev });
    const observed = observe(stored, pods, { revisions: [revisionOf(old, 1), revisionOf(grown, 2)], claims });
    const withBudgets = budget === undefined ? observed : { ...observed, disruptionBudgets: [{ budget, pods }] };
    return planStatefulSet(withBudgets, T0 + 20 * SECOND, features);
  }

  it('restarts the pod an offline expansion waits for when nothing holds it', () => {
    assert.deepEqual(deletions(offlineWaiting(false)), ['web-2']);
  });

  it('waits while the rollout is paused', () => {
    const held = offlineWaiting(true);
    assert.deepEqual(deletions(held), []);
    assert.deepEqual(waits(held).map((w) => [w.pod, w.cause, w.waitsFor]), [['web-2', 'claimRestart', 'resume']]);
  });

  it('waits while a PodDisruptionBudget allows no disruption', () => {
    const held = offlineWaiting(false, budgetOver({ disruptionsAllowed: 0, currentHealthy: 3, desiredHealthy: 3 }));
    assert.deepEqual(deletions(held), []);
    assert.deepEqual(waits(held).map((w) => [w.pod, w.cause, w.waitsFor]), [['web-2', 'claimRestart', 'disruptionBudget']]);
  });
});

describe('updateOrder Priority under Parallel: a primary that is down waits for its replicas', () => {
  it('does not delete the NotReady primary while the last replica is being replaced', () => {
    const v1 = newSet(3, { policy: 'Parallel', maxUnavailable: 2, claims: false, updateOrder: 'Priority', priority: { label: 'role', values: ['primary'] } });
    const pods = [podFor(v1, 0), podFor(v1, 1), podFor(v1, 2, { ready: false })];
    pods.forEach((p, i) => (p.metadata.labels = { ...p.metadata.labels, role: i === 2 ? 'primary' : 'replica' }));
    const v2 = withImage(v1, 'app:v2');
    const rev = revisionName(v1);
    // db-0 already updated and Ready; db-1, the last replica, terminating (its deletion of the sync before)
    const updated = podFor(v2, 0);
    updated.metadata.labels = { ...updated.metadata.labels, role: 'replica' };
    const terminating = { ...pods[1], metadata: { ...pods[1]?.metadata, deletionTimestamp: new Date(T0).toISOString().replace('.000Z', 'Z') } } as Pod;
    const stored = withStatus(v2, { observedGeneration: 2, replicas: 3, currentRevision: rev, updateRevision: revisionName(v2) });
    const plan = planStatefulSet(observe(stored, [updated, terminating, pods[2] as Pod], { revisions: [revisionOf(v1, 1), revisionOf(v2, 2)] }), T0, features);
    assert.deepEqual(deletions(plan), [], 'the primary waits for the set to be whole');
    assert.ok(plan.blockers.some((b) => b.kind === 'updateOrder' && b.waitingFor?.includes('web-1')), JSON.stringify(plan.blockers));
  });
});

describe('rollout restart under podUpdatePolicy', () => {
  for (const policy of ['InPlaceIfPossible', 'InPlaceOnly'] as const) {
    it(`${policy}: the restart annotation recreates the pods (a restart is never applied in place)`, () => {
      const { h } = converged(policy);
      h.update((s) => {
        s.spec.template.metadata = { ...s.spec.template.metadata, annotations: { 'kubectl.kubernetes.io/restartedAt': '2026-03-01T12:05:00Z' } };
      });
      assert.deepEqual(writes(h.sync()), ['deletePod web-2']);
    });
  }
});

describe('an eviction the API server refuses every time', () => {
  it('is no progress: the rollout runs into progressDeadlineSeconds', () => {
    const set = newSet(3, { maxUnavailable: 1, claims: false, respectPodDisruptionBudgets: true, progressDeadlineSeconds: 60 });
    const h = new Harness(set, { autoReady: true });
    // the budget allows a disruption by its status; kube-apiserver refuses each eviction (429: spent elsewhere)
    const budget = budgetOver({ disruptionsAllowed: 1, currentHealthy: 3, desiredHealthy: 2 });
    h.budgets = (pods: Pod[]) => [{ budget, pods }];
    h.converge();
    h.setImage('app:v2');
    const refused = (a: Action): boolean => a.kind === 'deletePod' && a.eviction === true;
    let last = h.sync(refused);
    assert.ok(last.actions.some(refused), 'the rollout tries to evict web-2');
    for (let i = 0; i < 8; i++) {
      h.advance(10 * SECOND);
      last = h.sync(refused);
    }
    const progressing = last.status.conditions?.find((c) => c.type === 'Progressing');
    assert.deepEqual([progressing?.status, progressing?.reason], ['False', 'ProgressDeadlineExceeded']);
  });
});
