// The controller runtime against the in-memory API server (src/cluster/memory): first with the stand-in
// planner (the runtime's own guarantees under slow watches and API faults), then end to end with the real
// planner and the simulated kubelet.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources, type ClusterClient } from '../../src/api/client.js';
import { isAlreadyExists } from '../../src/api/errors.js';
import { defaultFeatures, withFeatures, type Features } from '../../src/api/features.js';
import type { KubeEvent, Pod, StatefulSet } from '../../src/api/types.js';
import { createMemoryCluster, type FaultConfig, type WriteRecord } from '../../src/cluster/memory/index.js';
import { createEventRecorder } from '../../src/runtime/event-recorder.js';
import { createControllerMetrics } from '../../src/runtime/metrics.js';
import type { Planner } from '../../src/runtime/planner-port.js';
import { StatefulSetController } from '../../src/runtime/statefulset-controller.js';
import { createVirtualClock } from '../../src/sim/virtual-clock.js';
import { createKubelet } from '../../src/cluster/kubelet/index.js';
import { createStatefulSetController } from '../../src/runtime/statefulset-controller-factory.js';
import { createRandom } from '../../src/runtime/random.js';
import { standInPlanner } from './stand-in-planner.js';

const statefulSet = (name: string, replicas: number): StatefulSet => ({
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name, namespace: 'default' },
  spec: {
    replicas,
    serviceName: name,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } },
  },
});

function env(planner: Planner, faults?: FaultConfig, seed = 1, features: Features = defaultFeatures()) {
  const clock = createVirtualClock({ start: Date.UTC(2026, 0, 1) });
  const random = createRandom(seed);
  const cluster = createMemoryCluster({ timers: clock, features: defaultFeatures(), random });
  const client = countingAlreadyExists(cluster.client('controller', faults));
  const writes: WriteRecord[] = [];
  cluster.onWrite((w) => writes.push(w));
  const controller = new StatefulSetController({
    client,
    timers: clock,
    features,
    target: 'native',
    metrics: createControllerMetrics(),
    events: createEventRecorder({ client, clock }),
    random,
    planner,
  });
  return { clock, cluster, controller, writes, alreadyExists: () => client.alreadyExists };
}

/** Counts creates refused with AlreadyExists: the controller acting on a cache that missed its own write. */
function countingAlreadyExists(inner: ClusterClient): ClusterClient & { alreadyExists: number } {
  const counted = Object.assign(Object.create(inner) as ClusterClient, { alreadyExists: 0 });
  counted.create = async (res, obj) => {
    try {
      return await inner.create(res, obj);
    } catch (err) {
      if (isAlreadyExists(err)) counted.alreadyExists++;
      throw err;
    }
  };
  return counted;
}

describe('controller runtime on the in-memory API server (stand-in planner)', () => {
  it('creates each pod exactly once despite slow watches, conflicts and API errors', async () => {
    for (const seed of [1, 2, 3]) {
      const faults: FaultConfig = { apiErrors: { rate: 0.2 }, conflicts: { rate: 0.3 }, watch: { delaySeconds: 0.5 } };
      const { clock, cluster, controller, writes, alreadyExists } = env(standInPlanner().planner, faults, seed);
      await cluster.create(Resources.statefulSets, statefulSet('web', 4));
      await controller.start();
      await clock.run({ until: clock.now() + 120_000 });
      const pods = (await cluster.list<Pod>(Resources.pods, 'default')).items.map((p) => p.metadata.name).sort();
      assert.deepEqual(pods, ['web-0', 'web-1', 'web-2', 'web-3'], `seed ${seed}`);
      const creates = writes.filter((w) => w.verb === 'create' && w.resource.plural === 'pods');
      assert.equal(creates.length, 4, `seed ${seed}: every pod created once`);
      assert.equal(alreadyExists(), 0, `seed ${seed}: no sync acted on a cache behind its own writes`);
      const set = await cluster.get<StatefulSet>(Resources.statefulSets, 'default', 'web');
      assert.equal(set.status?.replicas, 4, `seed ${seed}`);
      await controller.stop();
    }
  });

  it('acts on a stale cache with StaleControllerConsistencyStatefulSet off, as upstream before 1.36', async () => {
    const faults: FaultConfig = { apiErrors: { rate: 0.2 }, conflicts: { rate: 0.3 }, watch: { delaySeconds: 0.5 } };
    const off = withFeatures(defaultFeatures(), { StaleControllerConsistencyStatefulSet: false });
    const { clock, cluster, controller, alreadyExists } = env(standInPlanner().planner, faults, 1, off);
    await cluster.create(Resources.statefulSets, statefulSet('web', 4));
    await controller.start();
    await clock.run({ until: clock.now() + 120_000 });
    assert.ok(alreadyExists() > 0, 'creates refused with AlreadyExists: the sync acted before its cache saw its own writes');
    const pods = (await cluster.list<Pod>(Resources.pods, 'default')).items.map((p) => p.metadata.name).sort();
    assert.deepEqual(pods, ['web-0', 'web-1', 'web-2', 'web-3'], 'still converges');
    await controller.stop();
  });

  it('recovers from watch streams that break and resume with 410 Gone', async () => {
    const faults: FaultConfig = { watch: { breakEverySeconds: 5, goneRate: 1 } };
    const { clock, cluster, controller } = env(standInPlanner().planner, faults);
    await controller.start();
    await clock.run({ until: clock.now() + 12_000 });
    await cluster.create(Resources.statefulSets, statefulSet('web', 2));
    await clock.run({ until: clock.now() + 30_000 });
    const pods = (await cluster.list<Pod>(Resources.pods, 'default')).items.map((p) => p.metadata.name).sort();
    assert.deepEqual(pods, ['web-0', 'web-1']);
    await controller.stop();
  });
});

describe('controller end to end (real planner, memory cluster, simulated kubelet)', () => {
  it('turns a new StatefulSet into Ready pods and an up-to-date status', async () => {
    const clock = createVirtualClock({ start: Date.UTC(2026, 0, 1) });
    const random = createRandom(7);
    const cluster = createMemoryCluster({ timers: clock, features: defaultFeatures(), random });
    const kubelet = createKubelet({ client: cluster.client('kubelet'), timers: clock, nodeName: 'node-1', config: { podStartSeconds: 2 } });
    const client = cluster.client('controller');
    const controller = createStatefulSetController({
      client,
      timers: clock,
      features: defaultFeatures(),
      target: 'native',
      metrics: createControllerMetrics(),
      events: createEventRecorder({ client, clock }),
      random,
      // an apps/v1 set has no analysis steps: no check is ever asked for
      probePort: () => Promise.reject(new Error('no analysis check expected')),
    });
    await kubelet.start();
    await cluster.create(Resources.statefulSets, statefulSet('web', 3));
    await controller.start();
    await clock.run({ until: clock.now() + 60_000 });
    const pods = (await cluster.list<Pod>(Resources.pods, 'default')).items;
    assert.deepEqual(pods.map((p) => p.metadata.name).sort(), ['web-0', 'web-1', 'web-2']);
    assert.ok(pods.every((p) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')));
    const set = await cluster.get<StatefulSet>(Resources.statefulSets, 'default', 'web');
    assert.equal(set.status?.readyReplicas, 3);
    assert.equal(set.status?.observedGeneration, set.metadata.generation);
    const reasons = (await cluster.list<KubeEvent>(Resources.events, 'default')).items.map((e) => e.reason);
    assert.equal(reasons.filter((r) => r === 'SuccessfulCreate').length, 3);
    // once converged, the controller writes nothing
    const writes: WriteRecord[] = [];
    cluster.onWrite((w) => writes.push(w));
    controller.enqueue('default/web');
    await clock.run({ until: clock.now() + 600_000 });
    assert.deepEqual(writes.filter((w) => w.actor === 'controller').map((w) => `${w.verb} ${w.resource.plural}`), []);
    await controller.stop();
    kubelet.stop();
  });
});
