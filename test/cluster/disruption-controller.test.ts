// The simulated disruption controller against the in-memory API server: it writes a budget's status when the
// budget, a pod it selects or a controller's scale changes; and the API server validates budgets as
// kube-apiserver's policy/v1 registry does.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import { InvalidError } from '../../src/api/errors.js';
import type { Pod, PodDisruptionBudget, StatefulSet } from '../../src/api/types.js';
import { DisruptionController } from '../../src/cluster/disruption/disruption-controller.js';
import { newEnv, pod, statefulSet } from './helpers.js';

const PDB = Resources.podDisruptionBudgets;

function budget(spec: PodDisruptionBudget['spec']): PodDisruptionBudget {
  return { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'db', namespace: 'default' }, spec };
}

async function readyPod(env: ReturnType<typeof newEnv>, name: string, set: StatefulSet): Promise<void> {
  const p: Pod = { ...pod(name, { labels: { app: 'db' } }) };
  p.metadata.ownerReferences = [{ apiVersion: set.apiVersion ?? '', kind: 'StatefulSet', name: set.metadata.name ?? '', uid: set.metadata.uid ?? '', controller: true }];
  const created = await env.cluster.create(Resources.pods, p);
  await env.cluster.updateStatus(Resources.pods, { ...created, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } });
}

const status = async (env: ReturnType<typeof newEnv>) => {
  const s = (await env.cluster.get<PodDisruptionBudget>(PDB, 'default', 'db')).status;
  return s && [s.expectedPods, s.desiredHealthy, s.currentHealthy, s.disruptionsAllowed, s.observedGeneration];
};

describe('simulated disruption controller', () => {
  it('keeps the status of a budget as its pods and their set change', async () => {
    const env = newEnv();
    const dc = new DisruptionController({ client: env.cluster.client('disruption-controller'), timers: env.clock, random: () => 0.5 });
    dc.start();
    const set = await env.cluster.create(Resources.ordinalStatefulSets, statefulSet('db', { replicas: 3, selector: { matchLabels: { app: 'db' } }, template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'c', image: 'postgres:17' }] } } }, 'apps.ordinal.dev/v1'));
    for (const i of [0, 1, 2]) await readyPod(env, `db-${i}`, set);
    await env.cluster.create(PDB, budget({ maxUnavailable: 1, selector: { matchLabels: { app: 'db' } } }));
    await env.clock.flush();
    assert.deepEqual(await status(env), [3, 2, 3, 1, 1]);
    await env.cluster.delete(Resources.pods, 'default', 'db-2');
    await env.clock.flush();
    assert.deepEqual((await status(env))?.slice(0, 4), [3, 2, 2, 0]);
    await env.cluster.patch(Resources.ordinalStatefulSets, 'default', 'db', { spec: { replicas: 2 } });
    await env.clock.flush();
    assert.deepEqual((await status(env))?.slice(0, 4), [2, 1, 2, 1]);
    const edited = await env.cluster.get<PodDisruptionBudget>(PDB, 'default', 'db');
    await env.cluster.update(PDB, { ...edited, spec: { ...edited.spec, maxUnavailable: 0 } });
    await env.clock.flush();
    assert.deepEqual(await status(env), [2, 2, 2, 0, 2]);
    dc.stop();
  });
});

describe('PodDisruptionBudget admission (policy/v1 validation)', () => {
  const refused = async (spec: Record<string, unknown>): Promise<string> => {
    const env = newEnv();
    try {
      await env.cluster.create(PDB, budget(spec as PodDisruptionBudget['spec']));
    } catch (e) {
      assert.ok(e instanceof InvalidError, String(e));
      return e.message;
    }
    return 'accepted';
  };

  it('refuses minAvailable with maxUnavailable, a negative or over-100% value, a bad selector and an unknown policy', async () => {
    assert.match(await refused({ minAvailable: 1, maxUnavailable: 1 }), /spec: Invalid value: .*minAvailable and maxUnavailable cannot be both set/);
    assert.match(await refused({ minAvailable: -1 }), /spec\.minAvailable: Invalid value: -1: must be greater than or equal to 0/);
    assert.match(await refused({ maxUnavailable: '150%' }), /spec\.maxUnavailable: Invalid value: "150%": must not be greater than 100%/);
    assert.match(await refused({ minAvailable: 1, selector: { matchExpressions: [{ key: 'app', operator: 'Near' }] } }), /spec\.selector: Invalid value/);
    assert.match(await refused({ minAvailable: 1, unhealthyPodEvictionPolicy: 'Sometimes' }), /spec\.unhealthyPodEvictionPolicy: Unsupported value: "Sometimes": supported values: "AlwaysAllow", "IfHealthyBudget"/);
    assert.equal(await refused({ minAvailable: '50%', selector: { matchLabels: { app: 'db' } } }), 'accepted');
  });
});
