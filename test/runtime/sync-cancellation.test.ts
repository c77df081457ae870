// A sync stopped part-way: its set deleted, or the leader's write fence shut (revoked, or its deadline
// passed while the process was not looking). Every write takes 100 ms of virtual time, so a sync is still
// under way when the test acts; the fake cluster's call log says what was written when.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources, type ClusterClient } from '../../src/api/client.js';
import { defaultFeatures } from '../../src/api/features.js';
import type { StatefulSet } from '../../src/api/types.js';
import { createEventRecorder } from '../../src/runtime/event-recorder.js';
import { LeaseFence } from '../../src/runtime/lease-fence.js';
import { createControllerMetrics } from '../../src/runtime/metrics.js';
import type { ReconcileOutcome } from '../../src/runtime/reconcile.js';
import { scopedClient } from '../../src/runtime/scoped-client.js';
import { newPlanner } from '../../src/runtime/statefulset-controller-factory.js';
import { StatefulSetController } from '../../src/runtime/statefulset-controller.js';
import { createVirtualClock, type VirtualClock } from '../../src/sim/virtual-clock.js';
import { FakeCluster, type Verb } from './fake-cluster.js';
import { standInPlanner } from './stand-in-planner.js';

const WRITE_MS = 100;

const newSet = (name: string, replicas: number, policy: 'OrderedReady' | 'Parallel' = 'OrderedReady'): StatefulSet => ({
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name, namespace: 'default', generation: 1 },
  spec: {
    replicas,
    podManagementPolicy: policy,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'app:1' }] } },
  },
});

const WRITES = new Set<string>(['create', 'update', 'updateStatus', 'patch', 'apply', 'delete']);

/** The cluster behind a network: each write reaches it at once and answers 100 ms later; `sent` logs `verb resource@t`. */
function slowNetwork(clock: VirtualClock, cluster: FakeCluster, sent: string[]): ClusterClient {
  return new Proxy(cluster, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== 'function' || !WRITES.has(String(prop))) return v;
      return async (...args: unknown[]) => {
        const res = args[0] as { plural: string };
        sent.push(`${String(prop) as Verb} ${res.plural}@${clock.now()}`);
        const result: unknown = await (v as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        await new Promise((done) => clock.at(clock.now() + WRITE_MS, () => done(undefined)));
        return result;
      };
    },
  });
}

function setup(opts: { fence?: LeaseFence; realPlanner?: boolean; clock?: VirtualClock } = {}) {
  const clock = opts.clock ?? createVirtualClock();
  const cluster = new FakeCluster();
  const sent: string[] = [];
  const client = slowNetwork(clock, cluster, sent);
  const fence = opts.fence;
  const events = createEventRecorder({ client: fence ? scopedClient(client, { fence, signal: fence.signal }) : client, clock, ...(fence ? { fence } : {}) });
  const outcomes: ReconcileOutcome['kind'][] = [];
  const controller = new StatefulSetController({
    client,
    timers: clock,
    features: defaultFeatures(),
    target: 'native',
    metrics: createControllerMetrics(),
    events,
    random: () => 0,
    planner: opts.realPlanner ? newPlanner() : standInPlanner().planner,
    onReconcile: (_key, o) => outcomes.push(o.kind),
    ...(fence ? { fence } : {}),
  });
  const after = (t: number) => sent.filter((s) => Number(s.split('@')[1]) > t);
  return { clock, cluster, sent, controller, outcomes, after };
}

describe('sync cancellation', () => {
  it('drops the batches of a sync under way when its set is deleted, and writes nothing more for it', async () => {
    const { clock, cluster, sent, controller, outcomes, after } = setup();
    cluster.seed(Resources.statefulSets, newSet('web', 20));
    await controller.start();
    await clock.run({ until: 250 });
    await cluster.delete(Resources.statefulSets, 'default', 'web');
    await clock.run({ until: 5_000 });
    assert.deepEqual(sent, ['create pods@0', 'create pods@100', 'create pods@200']);
    assert.deepEqual(after(250), []);
    assert.ok(outcomes.includes('cancelled'), `outcomes: ${outcomes.join(', ')}`);
    await controller.stop();
  });

  it('paces a huge Parallel set by slow-start batches of 1, 2, 4, … and stops them when it is deleted', async () => {
    const { clock, cluster, sent, controller, after } = setup({ realPlanner: true });
    cluster.seed(Resources.statefulSets, newSet('huge', 1_000_000_000, 'Parallel'));
    await controller.start();
    await clock.run({ until: 450 });
    await cluster.delete(Resources.statefulSets, 'default', 'huge');
    await clock.run({ until: 5_000 });
    const creates = new Map<number, number>();
    for (const s of sent.filter((x) => x.startsWith('create pods'))) {
      const t = Number(s.split('@')[1]);
      creates.set(t, (creates.get(t) ?? 0) + 1);
    }
    const first = Math.min(...creates.keys());
    assert.deepEqual([...creates.entries()].map(([t, n]) => [t - first, n]), [[0, 1], [100, 2], [200, 4], [300, 8]]);
    assert.deepEqual(after(450), []);
    await controller.stop();
  });

  it('stops every sync before its next batch when the fence is revoked, and drops the Events still queued', async () => {
    const fence = new LeaseFence({ now: () => 0 });
    fence.grant(Infinity);
    const { clock, cluster, sent, controller, after } = setup({ fence });
    cluster.seed(Resources.statefulSets, newSet('a', 10));
    cluster.seed(Resources.statefulSets, newSet('b', 10));
    await controller.start();
    await clock.run({ until: 350 });
    fence.revoke('another holder took the Lease');
    await clock.run({ until: 5_000 });
    assert.deepEqual(after(350), [], 'nothing is sent after the fence shut');
    assert.equal(sent.filter((s) => s.startsWith('create pods')).length, 8, 'two sets, four creates each');
    assert.equal(cluster.writes().filter((c) => c.resource === 'events').length, 0, 'the Events of the creates never went out');
    await controller.stop({ drain: false });
  });

  it('refuses the next batch once the fence\'s deadline has passed, before anything revokes it', async () => {
    const clock = createVirtualClock();
    const fence = new LeaseFence(clock);
    fence.grant(250);
    const { cluster, sent, controller, after } = setup({ fence, clock });
    cluster.seed(Resources.statefulSets, newSet('web', 10));
    await controller.start();
    await clock.run({ until: 5_000 });
    assert.deepEqual(sent, ['create pods@0', 'create pods@100', 'create pods@200']);
    assert.deepEqual(after(250), []);
    assert.equal(fence.signal.aborted, false, 'nothing revoked it');
    await controller.stop({ drain: false });
  });
});
