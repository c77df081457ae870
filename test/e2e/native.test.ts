// `ordinal controller --target=native` on apps/v1 StatefulSets, as on a cluster whose built-in statefulset
// controller is off (kube-controller-manager runs none here; the APPS_V1_STATEFULSETS lock keeps
// revision-names.test.ts from starting one meanwhile).
import { after as afterAll, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import type { ControllerRevision, KubeObject, StatefulSet } from '../../src/api/types.js';
import { closeSession, ensureCrd } from './cluster-session.js';
import { exampleSet, fastKubelet, loadExample, renamed } from './examples.js';
import { APPS_V1_STATEFULSETS } from './exclusive.js';
import { e2eTest, type TestEnv } from './harness.js';
import { after, mark, names } from './pod-order.js';
import { pause, waitUntil } from './wait.js';

afterAll(() => closeSession());

const blog = loadExample('blog-max-unavailable.yaml');

interface ManagedField {
  manager?: string;
  subresource?: string;
}

/** Whether `manager` wrote the set's status (server-side field ownership). */
function statusWrittenBy(set: KubeObject, manager: string): boolean {
  const fields = (set.metadata as { managedFields?: ManagedField[] }).managedFields ?? [];
  return fields.some((f) => f.manager === manager && f.subresource === 'status');
}

async function revisionsOf(env: TestEnv, set: StatefulSet): Promise<ControllerRevision[]> {
  const list = await env.client.list<ControllerRevision>(Resources.controllerRevisions, env.ns);
  return list.items.filter((r) => r.metadata.ownerReferences?.some((o) => o.uid === set.metadata.uid && o.controller));
}

describe('--target=native on apps/v1 StatefulSets', () => {
  e2eTest('rolls out the blog example on apps/v1 with maxUnavailable 2 and writes the apps/v1 status', {
    timeout: 240_000,
    target: 'native',
    kubelet: fastKubelet(blog),
    exclusive: APPS_V1_STATEFULSETS,
  }, async (env) => {
    await env.createConverged(exampleSet(blog, 'web', { namespace: env.ns, apiVersion: env.apiVersion }));
    const from = mark(env);
    await env.setImage('web', 'nginx', 'registry.k8s.io/nginx-slim:0.9');
    await env.waitConverged('web', 60_000);

    const terminated = names(after(env, 'web', 'Terminating', from));
    assert.deepEqual(terminated.slice(0, 2).sort(), ['web-3', 'web-4'], `terminations: ${terminated.join(', ')}`);
    const { max, worst } = env.observer.maxUnavailable('web');
    assert.equal(max, 2, `most unavailable at once: ${worst}`);
    const set = await env.client.get<StatefulSet>(Resources.statefulSets, env.ns, 'web');
    const s = set.status!;
    assert.deepEqual([s.replicas, s.readyReplicas, s.availableReplicas, s.updatedReplicas, s.currentReplicas], [5, 5, 5, 5, 5]);
    assert.ok(statusWrittenBy(set, 'ordinal-controller'), 'the status was written by Ordinal');
    const revisions = (await revisionsOf(env, set)).map((r) => r.metadata.name).sort();
    assert.ok(revisions.includes(s.updateRevision ?? ''), `ControllerRevisions ${revisions.join(', ')} include ${s.updateRevision}`);
    assert.equal(revisions.length, 2, 'one revision per template');
    for (const pod of env.observer.podsOf('web')) {
      const owner = pod.metadata.ownerReferences?.find((o) => o.controller);
      assert.deepEqual([owner?.apiVersion, owner?.kind, owner?.uid], ['apps/v1', 'StatefulSet', set.metadata.uid], `${pod.metadata.name} owner`);
    }
  });

  e2eTest('leaves apps.ordinal.dev/v1 objects alone; --target=both manages both kinds', {
    timeout: 240_000,
    target: 'native',
    kubelet: fastKubelet(blog),
    controller: false,
    exclusive: APPS_V1_STATEFULSETS,
  }, async (env) => {
    await ensureCrd(env.client);
    const small = { replicas: 2 };
    await env.create(renamed(exampleSet(blog, 'web', { namespace: env.ns, apiVersion: env.apiVersion }, small), 'native'));
    const custom = renamed(exampleSet(blog, 'web', { namespace: env.ns, apiVersion: 'apps.ordinal.dev/v1' }, small), 'custom');
    await env.client.create(Resources.ordinalStatefulSets, custom);

    const native = env.startController({ target: 'native', label: 'native' });
    await env.waitConverged('native', 60_000);
    await pause(2000);
    assert.equal(env.observer.podsOf('custom').length, 0, 'a --target=native controller creates no pod for apps.ordinal.dev/v1 sets');
    const untouched = await env.client.get<StatefulSet>(Resources.ordinalStatefulSets, env.ns, 'custom');
    assert.equal(untouched.status?.observedGeneration, undefined, 'nor writes their status');

    await native.stop();
    env.startController({ target: 'both', label: 'both' });
    await waitUntil('the apps.ordinal.dev/v1 set to become ready under --target=both', 60_000, async () => {
      const custom = await env.client.get<StatefulSet>(Resources.ordinalStatefulSets, env.ns, 'custom');
      return custom.status?.readyReplicas === 2 || JSON.stringify(custom.status);
    });
    assert.equal(env.observer.converged('native'), true, 'the apps/v1 set stays converged under --target=both');
  });
});
