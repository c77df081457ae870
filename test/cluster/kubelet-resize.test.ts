// The simulated kubelet resizing a running pod in place (KEP-1287): the node's allocatable (reported on its
// Node) bounds the resize: Infeasible when the pod alone exceeds it, Deferred when it does not fit beside the
// other pods now (and accepted once they are gone), otherwise PodResizeInProgress for RESIZE_MS and then the
// container status reports the new resources, with no restart and the pod Ready throughout.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import type { KubeObject, Pod } from '../../src/api/types.js';
import { createKubelet } from '../../src/cluster/kubelet/index.js';
import { podResize, RESIZE_MS } from '../../src/cluster/kubelet/resize.js';
import { newEnv, pod, type Env } from './helpers.js';

const small = { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '2', memory: '1Gi' } };
const large = { requests: { cpu: '2', memory: '1Gi' }, limits: { cpu: '3', memory: '1Gi' } };

function sized(name: string): Pod {
  const p = pod(name);
  p.spec.containers = [{ name: 'app', image: 'app:v1', resources: small }];
  return p;
}

async function started(env: Env, names: string[]) {
  const kubelet = createKubelet({ client: env.cluster.client('kubelet'), timers: env.clock, nodeName: 'node-1', config: { podStartSeconds: 1, allocatable: { cpu: '4', memory: '8Gi' } } });
  await kubelet.start();
  for (const n of names) await env.cluster.create(Resources.pods, sized(n));
  await env.clock.advance(2_000);
  return kubelet;
}

const get = (env: Env, name: string) => env.cluster.get<Pod>(Resources.pods, 'default', name);
const resizeTo = async (env: Env, name: string, resources: unknown) => {
  const p = await get(env, name);
  await env.cluster.client('test').patch(Resources.pods, 'default', name, { spec: { containers: [{ ...p.spec.containers[0], resources }] } }, { subresource: 'resize' });
  await env.clock.flush();
};
const view = async (env: Env, name: string) => {
  const p = await get(env, name);
  const c = p.status?.conditions ?? [];
  return {
    resources: p.status?.containerStatuses?.[0]?.['resources'],
    resize: c.filter((x) => x.type.startsWith('PodResize')).map((x) => `${x.type} ${x.reason ?? ''} ${x.message ?? ''}`.trim()),
    ready: c.find((x) => x.type === 'Ready')?.status,
    restarts: p.status?.containerStatuses?.[0]?.restartCount,
  };
};

describe('simulated kubelet: in-place resize', () => {
  it('reports its allocatable on its Node', async () => {
    const env = newEnv();
    await started(env, []);
    const node = await env.cluster.get<KubeObject>(Resources.nodes, undefined, 'node-1');
    assert.deepEqual((node['status'] as { allocatable?: unknown }).allocatable, { cpu: '4', memory: '8Gi' });
  });

  it('resizes a running container without a restart: PodResizeInProgress, then the status reports the new resources', async () => {
    const env = newEnv();
    await started(env, ['db-0']);
    assert.deepEqual(await view(env, 'db-0'), { resources: small, resize: [], ready: 'True', restarts: 0 });
    await resizeTo(env, 'db-0', large);
    assert.deepEqual(await view(env, 'db-0'), { resources: small, resize: ['PodResizeInProgress'], ready: 'True', restarts: 0 });
    await env.clock.advance(RESIZE_MS);
    assert.deepEqual(await view(env, 'db-0'), { resources: large, resize: [], ready: 'True', restarts: 0 });
  });

  it('defers a resize that fits the node but not beside the other pods, and accepts it once they are gone', async () => {
    const env = newEnv();
    await started(env, ['db-0', 'db-1', 'db-2']);
    await resizeTo(env, 'db-0', large);
    await env.clock.advance(RESIZE_MS);
    await resizeTo(env, 'db-1', large);
    assert.deepEqual((await view(env, 'db-1')).resize, ["PodResizePending Deferred Node didn't have enough resource: cpu, requested: 2000, used: 3000, capacity: 4000"]);
    await env.clock.advance(10_000);
    assert.deepEqual((await view(env, 'db-1')).resources, small, 'still deferred');
    await env.cluster.delete(Resources.pods, 'default', 'db-2', { gracePeriodSeconds: 0 });
    await env.clock.flush();
    assert.deepEqual((await view(env, 'db-1')).resize, ['PodResizeInProgress']);
    await env.clock.advance(RESIZE_MS);
    assert.deepEqual((await view(env, 'db-1')).resources, large);
  });

  it('counts only the pods of the same node against a node\'s allocatable, and reports it on every node it runs', async () => {
    const env = newEnv();
    for (const name of ['node-a', 'node-b']) await env.cluster.create(Resources.nodes, { apiVersion: 'v1', kind: 'Node', metadata: { name } });
    const kubelet = createKubelet({
      client: env.cluster.client('kubelet'),
      timers: env.clock,
      nodeName: 'unused',
      nodes: { list: [{ name: 'node-a', labels: {} }, { name: 'node-b', labels: {} }], random: () => 0 },
      config: { podStartSeconds: 1, allocatable: { cpu: '3', memory: '8Gi' } },
    });
    await kubelet.start();
    for (const n of ['db-0', 'db-1', 'db-2']) await env.cluster.create(Resources.pods, sized(n));
    await env.clock.advance(2_000);
    const nodeOf = async (name: string) => (await get(env, name)).spec.nodeName;
    const [alone] = (await Promise.all(['db-0', 'db-1', 'db-2'].map(async (n) => [n, await nodeOf(n)] as const))).filter(([, node], _i, all) => all.filter(([, x]) => x === node).length === 1);
    assert.ok(alone !== undefined, 'one pod has a node to itself');
    // 2 cpu fits a 3-cpu node beside nothing; the pods of the other node (1 cpu each) do not count
    await resizeTo(env, alone[0], large);
    assert.deepEqual((await view(env, alone[0])).resize, ['PodResizeInProgress']);
    for (const name of ['node-a', 'node-b']) {
      const node = await env.cluster.get<KubeObject>(Resources.nodes, undefined, name);
      assert.deepEqual((node['status'] as { allocatable?: unknown }).allocatable, { cpu: '3', memory: '8Gi' }, name);
    }
  });

  it('finds a resize the node can never hold Infeasible (what kube-apiserver\'s admission would refuse up front)', () => {
    const p = sized('db-0');
    p.status = { containerStatuses: [{ name: 'app', ready: true, restartCount: 0, resources: small }] };
    const c = p.spec.containers[0];
    if (c) c['resources'] = { requests: { cpu: '6', memory: '1Gi' }, limits: { cpu: '8', memory: '1Gi' } };
    const r = podResize({ pod: p, allocatable: { cpu: '4', memory: '8Gi' }, others: { cpuMilli: 0, memoryBytes: 0 }, now: 0, accepted: {} });
    assert.deepEqual([r.condition, r.resources.get('app')], [{ type: 'PodResizePending', status: 'True', reason: 'Infeasible', message: "Node didn't have enough capacity: cpu, requested: 6000, capacity: 4000" }, small]);
  });
});
