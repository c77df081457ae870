// The controller's wiring (informers → handlers → queue → sync → executor → status, events, metrics,
// requeue, expectations) with a stand-in planner, so it is tested apart from the real planner.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { defaultFeatures } from '../../src/api/features.js';
import type { KubeEvent, Pod, StatefulSet } from '../../src/api/types.js';
import { createEventRecorder } from '../../src/runtime/event-recorder.js';
import { createControllerMetrics } from '../../src/runtime/metrics.js';
import { StatefulSetController } from '../../src/runtime/statefulset-controller.js';
import type { ReconcileOutcome } from '../../src/runtime/reconcile.js';
import { createVirtualClock } from '../../src/sim/virtual-clock.js';
import { FakeCluster } from './fake-cluster.js';
import { podFor, standInPlanner } from './stand-in-planner.js';

const newSet = (name: string, replicas: number, namespace = 'default'): StatefulSet => ({
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name, namespace, generation: 1 },
  spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c' }] } } },
});

function setup(opts: { target?: 'native' | 'crd' | 'both'; namespaces?: string[]; wakeAfterMs?: number } = {}) {
  const clock = createVirtualClock({ start: Date.UTC(2026, 0, 1) });
  const cluster = new FakeCluster();
  const metrics = createControllerMetrics();
  const events = createEventRecorder({ client: cluster, clock });
  const { planner, seen } = standInPlanner(opts);
  const outcomes: [number, string, ReconcileOutcome['kind']][] = [];
  const controller = new StatefulSetController({
    client: cluster,
    timers: clock,
    features: defaultFeatures(),
    target: opts.target ?? 'native',
    ...(opts.namespaces ? { namespaces: opts.namespaces } : {}),
    metrics,
    events,
    random: () => 0,
    planner,
    onReconcile: (key, o) => outcomes.push([clock.now(), key, o.kind]),
  });
  const pods = (ns = 'default') => cluster.list<Pod>(Resources.pods, ns).then((r) => r.items.map((p) => p.metadata.name).sort());
  const run = (ms = 1000) => clock.run({ until: clock.now() + ms });
  return { clock, cluster, metrics, controller, seen, outcomes, pods, run };
}

describe('statefulset controller: wiring', () => {
  it('does nothing until started', async () => {
    const { cluster, controller, run } = setup();
    cluster.seed(Resources.statefulSets, newSet('web', 2));
    await run();
    assert.equal(cluster.calls.length, 0);
    assert.equal(controller.hasSynced(), false);
  });

  it('creates the pods of a new set and writes its status', async () => {
    const { cluster, controller, pods, run } = setup();
    cluster.seed(Resources.statefulSets, newSet('web', 3));
    await controller.start();
    await run();
    assert.deepEqual(await pods(), ['web-0', 'web-1', 'web-2']);
    const set = cluster.peek<StatefulSet>(Resources.statefulSets, 'default', 'web')!;
    assert.deepEqual(set.status, { observedGeneration: 1, replicas: 3 });
    assert.equal(controller.idle(), true);
    await controller.stop();
  });

  it('makes no writes in a steady state', async () => {
    const { cluster, controller, run } = setup();
    cluster.seed(Resources.statefulSets, newSet('web', 2));
    await controller.start();
    await run();
    const before = cluster.writes().length;
    controller.enqueue('default/web');
    await run();
    assert.equal(cluster.writes().length, before);
    await controller.stop();
  });

  it('recreates a pod deleted behind its back (pod delete → owner key)', async () => {
    const { cluster, controller, pods, run } = setup();
    cluster.seed(Resources.statefulSets, newSet('web', 2));
    await controller.start();
    await run();
    await cluster.delete(Resources.pods, 'default', 'web-1');
    await run();
    assert.deepEqual(await pods(), ['web-0', 'web-1']);
    await controller.stop();
  });

  it('passes orphans matching the selector to the planner and ignores pods owned by others', async () => {
    const { cluster, controller, seen, run } = setup();
    cluster.seed(Resources.statefulSets, newSet('web', 0));
    await controller.start();
    await run();
    cluster.seed(Resources.pods, { ...podFor(newSet('web', 0), 'web-0'), metadata: { name: 'web-0', namespace: 'default', labels: { app: 'web' } } });
    cluster.seed(Resources.pods, {
      ...podFor(newSet('web', 0), 'other-0'),
      metadata: { name: 'other-0', namespace: 'default', labels: { app: 'web' }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'x', uid: 'x', controller: true }] },
    });
    const syncs = seen.length;
    await run();
    assert.ok(seen.length > syncs, 'an orphan matching the selector enqueues the set');
    assert.deepEqual(seen.at(-1)!.pods.map((p) => p.metadata.name), ['web-0']);
    await controller.stop();
  });

  it('records events for each action outcome on the set', async () => {
    const { cluster, controller, run } = setup();
    cluster.seed(Resources.statefulSets, newSet('web', 1));
    await controller.start();
    await run();
    const [e] = (await cluster.list<KubeEvent>(Resources.events, 'default')).items;
    assert.equal(e?.reason, 'SuccessfulCreate');
    assert.equal(e?.message, 'create Pod web-0 in StatefulSet web successful');
    assert.equal(e?.involvedObject.kind, 'StatefulSet');
    await controller.stop();
  });
});

describe('statefulset controller: requeue', () => {
  it('retries a failed sync with rate-limited backoff and records the failure event', async () => {
    const { cluster, controller, pods, outcomes, run } = setup();
    cluster.seed(Resources.statefulSets, newSet('web', 1));
    cluster.failNext('create', new ApiError('etcd is sad', 500, 'InternalError'), 'pods');
    await controller.start();
    await run();
    assert.deepEqual(await pods(), ['web-0']);
    const kinds = outcomes.map(([, , k]) => k);
    assert.equal(kinds[0], 'retry');
    const events = (await cluster.list<KubeEvent>(Resources.events, 'default')).items.map((e) => e.reason).sort();
    assert.deepEqual(events, ['FailedCreate', 'SuccessfulCreate']);
    await controller.stop();
  });

  it('syncs again at the planner wakeAt with no other event', async () => {
    const { cluster, controller, outcomes, clock, run } = setup({ wakeAfterMs: 30_000 });
    cluster.seed(Resources.statefulSets, newSet('web', 0));
    await controller.start();
    const t0 = clock.now();
    await run(31_000);
    // at t0: the first sync, and one more caused by its own status write
    const later = outcomes.map(([t]) => t - t0).filter((t) => t > 0);
    assert.deepEqual(later, [30_000]);
    await controller.stop();
  });

  it('skips a sync while the cache has not seen its own writes (counted by resource, as upstream), and resumes when it has', async () => {
    const { cluster, controller, outcomes, pods, run, metrics } = setup();
    cluster.seed(Resources.statefulSets, newSet('web', 2));
    await controller.start();
    cluster.holdEvents = true;
    await run(100);
    assert.deepEqual(await pods(), ['web-0', 'web-1']);
    controller.enqueue('default/web');
    await run(100);
    assert.equal(outcomes.at(-1)![2], 'waiting');
    assert.match(await metrics.registry.metrics(), /^statefulset_controller_stale_sync_skips_total\{group="",resource="pods"\} [1-9]\d*$/m);
    cluster.releaseEvents();
    await run(100);
    assert.equal(outcomes.at(-1)![2], 'done');
    assert.deepEqual(await pods(), ['web-0', 'web-1'], 'no pod was created twice');
    assert.equal(cluster.calls.filter((c) => c.verb === 'create' && c.resource === 'pods').length, 2);
    await controller.stop();
  });
});

describe('statefulset controller: targets and lifecycle', () => {
  it('reconciles native and CRD sets of the same name separately when the target is both', async () => {
    const { cluster, controller, outcomes, run } = setup({ target: 'both' });
    cluster.seed(Resources.statefulSets, newSet('web', 1));
    const crd = { ...newSet('web', 1, 'other'), apiVersion: 'apps.ordinal.dev/v1' };
    cluster.seed(Resources.ordinalStatefulSets, crd);
    await controller.start();
    await run();
    const keys = [...new Set(outcomes.map(([, k]) => k))].sort();
    assert.deepEqual(keys, ['apps.ordinal.dev:other/web', 'apps:default/web']);
    assert.equal(cluster.peek<StatefulSet>(Resources.ordinalStatefulSets, 'other', 'web')!.status?.replicas, 1);
    await controller.stop();
  });

  it('hands the node labels to the planner of a set with topologyKey, and syncs it again when a node\'s labels change (not its status)', async () => {
    const { cluster, controller, seen, outcomes, run } = setup({ target: 'crd' });
    const zoned = { ...newSet('db', 1), apiVersion: 'apps.ordinal.dev/v1' };
    zoned.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { topologyKey: 'topology.kubernetes.io/zone' } };
    cluster.seed(Resources.ordinalStatefulSets, zoned);
    cluster.seed(Resources.ordinalStatefulSets, { ...newSet('web', 1), apiVersion: 'apps.ordinal.dev/v1' });
    const node = cluster.seed(Resources.nodes, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', labels: { 'topology.kubernetes.io/zone': 'a' } } });
    await controller.start();
    await run();
    const last = (name: string) => seen.filter((o) => o.set.metadata.name === name).at(-1);
    assert.deepEqual([...(last('db')?.nodeLabels ?? new Map())], [['n1', { 'topology.kubernetes.io/zone': 'a' }]]);
    assert.equal(last('web')?.nodeLabels, undefined, 'a set without topologyKey reads no nodes');
    const syncs = () => outcomes.filter(([, k]) => k === 'apps.ordinal.dev:default/db' || k === 'default/db').length;
    const before = syncs();
    await cluster.update(Resources.nodes, { ...node, status: { conditions: [{ type: 'Ready', status: 'True' }] } });
    await run();
    assert.equal(syncs(), before, 'a status change of a node brings nothing back');
    const current = cluster.peek<typeof node>(Resources.nodes, undefined, 'n1')!;
    await cluster.update(Resources.nodes, { ...current, metadata: { ...current.metadata, labels: { 'topology.kubernetes.io/zone': 'b' } } });
    await run();
    assert.equal(syncs(), before + 1, 'a label change syncs the set again');
    assert.deepEqual([...(last('db')?.nodeLabels ?? new Map())], [['n1', { 'topology.kubernetes.io/zone': 'b' }]]);
    await controller.stop();
  });

  it('watches only the given namespaces', async () => {
    const { cluster, controller, pods, run } = setup({ namespaces: ['a'] });
    cluster.seed(Resources.statefulSets, newSet('web', 1, 'a'));
    cluster.seed(Resources.statefulSets, newSet('web', 1, 'b'));
    await controller.start();
    await run();
    assert.deepEqual(await pods('a'), ['web-0']);
    assert.deepEqual(await pods('b'), []);
    await controller.stop();
  });

  it('forgets a deleted set: its metrics series go away', async () => {
    const { cluster, controller, metrics, run } = setup();
    cluster.seed(Resources.statefulSets, newSet('web', 0));
    await controller.start();
    await run();
    assert.match(await metrics.registry.metrics(), /statefulset_controller_statefulset_max_unavailable\{statefulset_namespace="default",statefulset_name="web"/);
    await cluster.delete(Resources.statefulSets, 'default', 'web');
    await run();
    assert.doesNotMatch(await metrics.registry.metrics(), /statefulset_name="web"/);
    await controller.stop();
  });

  it('stops cleanly: idle, no watch and no timer left behind', async () => {
    const { cluster, controller, clock, run } = setup({ wakeAfterMs: 60_000 });
    cluster.seed(Resources.statefulSets, newSet('web', 1));
    await controller.start();
    await run();
    await controller.stop({ drain: true });
    assert.equal(controller.idle(), true);
    assert.equal(clock.pending(), 0);
    assert.equal(cluster.openWatches(), 0);
    await controller.stop(); // idempotent
  });

  it('stops when the start signal is aborted', async () => {
    const { cluster, controller, clock, run } = setup();
    cluster.seed(Resources.statefulSets, newSet('web', 1));
    const ac = new AbortController();
    await controller.start(ac.signal);
    await run();
    ac.abort();
    await run();
    assert.equal(clock.pending(), 0);
    await assert.rejects(controller.start(), /cannot start/);
  });
});
