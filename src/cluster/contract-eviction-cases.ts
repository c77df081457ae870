// Contract cases of pods/eviction (policy/v1 Eviction) as kube-apiserver 1.37 answers it. No disruption
// controller runs beside them: each case writes its budgets' status itself, as kube-controller-manager would,
// so what is checked is the API server's own part (the check, the decrement and the refusals).

import assert from 'node:assert/strict';
import { Resources } from '../api/client.js';
import { isBudgetRefusal, isMultipleBudgets, isNotFound, type DisruptionBudgetRefusal } from '../api/errors.js';
import type { Pod, PodDisruptionBudget } from '../api/types.js';
import type { ContractHarness } from './contract-cases.js';

const PDB = Resources.podDisruptionBudgets;
type BudgetStatus = NonNullable<PodDisruptionBudget['status']>;

/** A Running, Ready pod with `labels`, bound to a node no kubelet runs (its deletion stays graceful). */
async function readyPod(h: ContractHarness, name: string, labels: Record<string, string>): Promise<Pod> {
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: h.namespace, labels },
    spec: { nodeName: 'nowhere', containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.10' }], terminationGracePeriodSeconds: 20 },
  };
  const created = await h.client.create<Pod>(Resources.pods, pod);
  const at = '2026-01-01T00:00:00Z';
  const conditions = [{ type: 'Ready', status: 'True' as const, lastProbeTime: null, lastTransitionTime: at }];
  return h.client.updateStatus<Pod>(Resources.pods, { ...created, status: { phase: 'Running', conditions } });
}

/** A budget over `labels` with the status a disruption controller would have written (observedGeneration current). */
async function budget(h: ContractHarness, name: string, labels: Record<string, string>, status: Partial<BudgetStatus>): Promise<PodDisruptionBudget> {
  const spec = { minAvailable: 1, selector: { matchLabels: labels } };
  const created = await h.client.create<PodDisruptionBudget>(PDB, { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name, namespace: h.namespace }, spec });
  const full: BudgetStatus = { disruptionsAllowed: 1, currentHealthy: 2, desiredHealthy: 1, expectedPods: 2, observedGeneration: created.metadata.generation ?? 1, ...status };
  return h.client.updateStatus<PodDisruptionBudget>(PDB, { ...created, status: full });
}

const terminating = async (h: ContractHarness, name: string): Promise<boolean> => (await h.client.get<Pod>(Resources.pods, h.namespace, name)).metadata.deletionTimestamp !== undefined;

async function refusalOf(p: Promise<void>): Promise<DisruptionBudgetRefusal> {
  const e: unknown = await p.then(() => assert.fail('the eviction went through'), (x: unknown) => x);
  if (!isBudgetRefusal(e)) return assert.fail(`a DisruptionBudgetRefusal, not ${String(e)}`);
  assert.deepEqual([e.code, e.reason, e.message], [429, 'TooManyRequests', "Cannot evict pod as it would violate the pod's disruption budget."]);
  return e;
}

export const evictionCases = {
  'pods/eviction of a pod no budget selects deletes it gracefully, marked DisruptionTarget by the Eviction API; a missing pod is 404': {
    async test(h: ContractHarness) {
      await readyPod(h, 'free', { app: 'free' });
      await h.client.evictPod(h.namespace, 'free', { gracePeriodSeconds: 7 });
      const pod = await h.client.get<Pod>(Resources.pods, h.namespace, 'free');
      assert.equal(pod.metadata.deletionGracePeriodSeconds, 7);
      const target = pod.status?.conditions?.find((c) => c.type === 'DisruptionTarget');
      assert.deepEqual(target && [target.status, target.reason, target.message], ['True', 'EvictionByEvictionAPI', 'Eviction API: evicting']);
      await assert.rejects(h.client.evictPod(h.namespace, 'missing'), isNotFound);
    },
  },
  "pods/eviction under a budget allowing one disruption spends it (disruptionsAllowed − 1, the pod in disruptedPods, DisruptionAllowed False) and deletes the pod; the next is refused with 429 and the budget's DisruptionBudget cause; a dry run writes nothing": {
    async test(h: ContractHarness) {
      await readyPod(h, 'db-0', { app: 'db' });
      await readyPod(h, 'db-1', { app: 'db' });
      await budget(h, 'db', { app: 'db' }, { disruptionsAllowed: 1, currentHealthy: 2, desiredHealthy: 1 });
      await h.client.evictPod(h.namespace, 'db-0', { dryRun: true });
      const untouched = (await h.client.get<PodDisruptionBudget>(PDB, h.namespace, 'db')).status;
      assert.deepEqual([untouched?.disruptionsAllowed, untouched?.disruptedPods, await terminating(h, 'db-0')], [1, undefined, false], 'a dry run spends nothing');
      await h.client.evictPod(h.namespace, 'db-0');
      const spent = (await h.client.get<PodDisruptionBudget>(PDB, h.namespace, 'db')).status;
      assert.deepEqual([spent?.disruptionsAllowed, Object.keys(spent?.disruptedPods ?? {})], [0, ['db-0']]);
      const allowed = spent?.conditions?.find((c) => c.type === 'DisruptionAllowed');
      assert.deepEqual(allowed && [allowed.status, allowed.reason], ['False', 'InsufficientPods']);
      assert.equal(await terminating(h, 'db-0'), true);
      const refused = await refusalOf(h.client.evictPod(h.namespace, 'db-1'));
      // the status still counts 2 healthy of 1 desired, and the condition the decrement set has no message
      assert.deepEqual([refused.causes, refused.retryAfterSeconds], [[{ reason: 'DisruptionBudget', message: 'The disruption budget db does not allow evicting pods currently' }], 0]);
      assert.equal(await terminating(h, 'db-1'), false, 'a refused pod stays');
    },
  },
  'pods/eviction is refused with 429 while the budget status is older than its spec (observedGeneration), retry after 10 seconds': {
    async test(h: ContractHarness) {
      await readyPod(h, 'web-0', { app: 'web' });
      await budget(h, 'web', { app: 'web' }, { disruptionsAllowed: 1 });
      await h.client.patch(PDB, h.namespace, 'web', { spec: { minAvailable: 0 } });
      const refused = await refusalOf(h.client.evictPod(h.namespace, 'web-0'));
      assert.deepEqual([refused.causes, refused.retryAfterSeconds], [[{ reason: 'DisruptionBudget', message: 'The disruption budget web is still being processed by the server.' }], 10]);
    },
  },
  'pods/eviction of a pod two PodDisruptionBudgets select is refused with 500 and no reason, both budgets allowing: nothing is spent or deleted': {
    async test(h: ContractHarness) {
      await readyPod(h, 'two-0', { app: 'two', tier: 'db' });
      await budget(h, 'by-app', { app: 'two' }, { disruptionsAllowed: 1 });
      await budget(h, 'by-tier', { tier: 'db' }, { disruptionsAllowed: 1 });
      await assert.rejects(
        h.client.evictPod(h.namespace, 'two-0'),
        (e: unknown) => (isMultipleBudgets(e) && e.code === 500 && e.reason === '' && e.message === 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.') || assert.fail(`unexpected ${String(e)}`),
      );
      assert.equal(await terminating(h, 'two-0'), false);
      for (const name of ['by-app', 'by-tier']) assert.equal((await h.client.get<PodDisruptionBudget>(PDB, h.namespace, name)).status?.disruptionsAllowed, 1);
    },
  },
};
