// The PodDisruptionBudget status kube-controller-manager's disruption controller keeps, as the simulated one
// works it out (pkg/controller/disruption/disruption.go getExpectedPodCount, countHealthyPods,
// buildDisruptedPodMap, updatePdbStatus, failSafe).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { toTimestamp, type IntOrString, type OwnerReference, type Pod, type PodDisruptionBudget } from '../../src/api/types.js';
import { syncBudget, type BudgetInputs } from '../../src/cluster/disruption/disruption-status.js';
import { EPOCH } from './fake-timers.js';

const NOW = EPOCH + 3_600_000;
const owner: OwnerReference = { apiVersion: 'apps.ordinal.dev/v1', kind: 'StatefulSet', name: 'db', uid: 'uid-db', controller: true };

function pod(name: string, o: { ready?: boolean; terminating?: boolean; unowned?: boolean } = {}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels: { app: 'db' }, ...(o.unowned ? {} : { ownerReferences: [owner] }), ...(o.terminating ? { deletionTimestamp: toTimestamp(NOW) } : {}) },
    spec: { containers: [{ name: 'c', image: 'postgres:17' }] },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }] },
  };
}

function budget(spec: { minAvailable?: IntOrString; maxUnavailable?: IntOrString }, status?: PodDisruptionBudget['status']): PodDisruptionBudget {
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'db', namespace: 'default', generation: 3 },
    spec: { ...spec, selector: { matchLabels: { app: 'db' } } },
    ...(status ? { status } : {}),
  };
}

const inputs = (b: PodDisruptionBudget, pods: Pod[], scale = 5): BudgetInputs => ({ budget: b, pods, scaleOf: (ref) => (ref.uid === 'uid-db' ? scale : undefined), now: NOW });
const five = (): Pod[] => [0, 1, 2, 3, 4].map((i) => pod(`db-${i}`));
const counts = (s: NonNullable<PodDisruptionBudget['status']>) => [s.expectedPods, s.desiredHealthy, s.currentHealthy, s.disruptionsAllowed];

describe('syncBudget: expectedPods, desiredHealthy, currentHealthy, disruptionsAllowed', () => {
  it('minAvailable as an integer: the selected pods are expected, minAvailable desired', () => {
    assert.deepEqual(counts(syncBudget(inputs(budget({ minAvailable: 4 }), five())).status), [5, 4, 5, 1]);
  });

  it('minAvailable as a percentage of the controllers\' scale, rounded up', () => {
    assert.deepEqual(counts(syncBudget(inputs(budget({ minAvailable: '50%' }), five(), 5)).status), [5, 3, 5, 2]);
  });

  it('maxUnavailable: the scale less maxUnavailable (a percentage rounded up), never below 0', () => {
    assert.deepEqual(counts(syncBudget(inputs(budget({ maxUnavailable: 1 }), five())).status), [5, 4, 5, 1]);
    assert.deepEqual(counts(syncBudget(inputs(budget({ maxUnavailable: '30%' }), five())).status), [5, 3, 5, 2]);
    assert.deepEqual(counts(syncBudget(inputs(budget({ maxUnavailable: 9 }), five())).status), [5, 0, 5, 5]);
  });

  it('a pod that is not Ready or is terminating is not healthy, and disruptionsAllowed never goes below 0', () => {
    const pods = five();
    pods[4] = pod('db-4', { terminating: true });
    pods[3] = pod('db-3', { ready: false });
    assert.deepEqual(counts(syncBudget(inputs(budget({ minAvailable: 4 }), pods)).status), [5, 4, 3, 0]);
  });

  it('no pod selected: nothing is allowed (expectedPods 0)', () => {
    assert.deepEqual(counts(syncBudget(inputs(budget({ maxUnavailable: 1 }), [])).status), [0, 0, 0, 0]);
  });

  it('a pod without a controller is left out of the scale; one whose controller is not found fails safe', () => {
    assert.deepEqual(counts(syncBudget(inputs(budget({ maxUnavailable: 1 }), [...five(), pod('extra', { unowned: true })])).status), [5, 4, 6, 2]);
    const old = { disruptionsAllowed: 2, currentHealthy: 5, desiredHealthy: 3, expectedPods: 5, observedGeneration: 2 };
    const failed = syncBudget({ ...inputs(budget({ maxUnavailable: 1 }, old), five()), scaleOf: () => undefined }).status;
    assert.deepEqual(counts(failed), [5, 3, 5, 0]);
    assert.deepEqual(failed.conditions?.map((c) => [c.type, c.status, c.reason, c.message]), [['DisruptionAllowed', 'False', 'SyncFailed', 'found no controllers for pod "db-0"']]);
  });

  it('observedGeneration is the budget\'s generation; the DisruptionAllowed condition says whether one is allowed', () => {
    const allowed = syncBudget(inputs(budget({ minAvailable: 4 }), five())).status;
    assert.equal(allowed.observedGeneration, 3);
    assert.deepEqual(allowed.conditions?.map((c) => [c.type, c.status, c.reason, c.lastTransitionTime]), [['DisruptionAllowed', 'True', 'SufficientPods', toTimestamp(NOW)]]);
    const later = syncBudget({ ...inputs(budget({ minAvailable: 5 }, allowed), five()), now: NOW + 1000 }).status;
    assert.deepEqual(later.conditions?.map((c) => [c.status, c.reason, c.lastTransitionTime]), [['False', 'InsufficientPods', toTimestamp(NOW + 1000)]]);
  });
});

describe('syncBudget: disruptedPods (pods the eviction handler let go)', () => {
  const evictedAt = (seconds: number) => ({ disruptionsAllowed: 0, currentHealthy: 5, desiredHealthy: 4, expectedPods: 5, disruptedPods: { 'db-4': toTimestamp(NOW - seconds * 1000) } });

  it('a pod evicted less than two minutes ago is not healthy, and the budget is synced again when its entry expires', () => {
    const sync = syncBudget(inputs(budget({ minAvailable: 4 }, evictedAt(30)), five()));
    assert.deepEqual(counts(sync.status), [5, 4, 4, 0]);
    assert.deepEqual(sync.status.disruptedPods, { 'db-4': toTimestamp(NOW - 30_000) });
    assert.equal(sync.recheckAt, NOW + 90_000);
  });

  it('an entry older than two minutes is dropped (the pod was not deleted), and so is a terminating pod\'s', () => {
    const expired = syncBudget(inputs(budget({ minAvailable: 4 }, evictedAt(121)), five()));
    assert.deepEqual([counts(expired.status), expired.status.disruptedPods, expired.recheckAt], [[5, 4, 5, 1], undefined, undefined]);
    const pods = five();
    pods[4] = pod('db-4', { terminating: true });
    assert.equal(syncBudget(inputs(budget({ minAvailable: 4 }, evictedAt(30)), pods)).status.disruptedPods, undefined);
  });
});
