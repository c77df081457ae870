import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import { GoneError, ApiError } from '../../src/api/errors.js';
import type { Pod } from '../../src/api/types.js';
import { Informer, trimManagedFields } from '../../src/runtime/informer.js';
import { backoffDelay } from '../../src/runtime/backoff.js';
import { createVirtualClock } from '../../src/sim/virtual-clock.js';
import { FakeCluster } from './fake-cluster.js';

const pod = (name: string, namespace = 'default', labels: Record<string, string> = {}): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace, labels },
  spec: { containers: [{ name: 'c' }] },
});

function setup(namespaces?: string[]) {
  const clock = createVirtualClock();
  const cluster = new FakeCluster();
  const informer = new Informer<Pod>({
    client: cluster,
    resource: Resources.pods,
    timers: clock,
    random: () => 0.5,
    ...(namespaces ? { namespaces } : {}),
  });
  const log: string[] = [];
  informer.addHandler({
    onAdd: (p) => log.push(`add ${p.metadata.name}`),
    onUpdate: (o, n) => log.push(`update ${n.metadata.name} ${o.metadata.resourceVersion}->${n.metadata.resourceVersion}`),
    onDelete: (p) => log.push(`delete ${p.metadata.name}`),
  });
  return { clock, cluster, informer, log };
}

describe('informer: list and watch', () => {
  it('does nothing until started', async () => {
    const { cluster, informer, clock } = setup();
    await clock.settle();
    assert.equal(cluster.calls.length, 0);
    assert.equal(informer.hasSynced(), false);
  });

  it('syncs from the first list and serves sorted lists and gets from the cache', async () => {
    const { cluster, informer, clock, log } = setup();
    cluster.seed(Resources.pods, pod('web-1'));
    cluster.seed(Resources.pods, pod('web-0'));
    cluster.seed(Resources.pods, pod('db-0', 'other'));
    informer.start();
    assert.equal(await informer.waitForSync(), true);
    await clock.settle();
    assert.equal(informer.hasSynced(), true);
    assert.deepEqual(informer.list('default').map((p) => p.metadata.name), ['web-0', 'web-1']);
    assert.deepEqual(informer.list().map((p) => p.metadata.name), ['web-0', 'web-1', 'db-0']);
    assert.deepEqual(informer.list(undefined, (p) => p.metadata.name === 'db-0').length, 1);
    assert.equal(informer.get('other', 'db-0')?.metadata.name, 'db-0');
    assert.equal(informer.lastSyncResourceVersion(), '3');
    assert.deepEqual(log, ['add web-1', 'add web-0', 'add db-0']);
  });

  it('calls add, update and delete handlers in watch order and advances the resourceVersion', async () => {
    const { cluster, informer, clock, log } = setup();
    informer.start();
    await informer.waitForSync();
    const created = await cluster.create(Resources.pods, pod('web-0'));
    await cluster.update(Resources.pods, { ...created, metadata: { ...created.metadata, labels: { a: 'b' } } });
    await cluster.delete(Resources.pods, 'default', 'web-0');
    await clock.settle();
    assert.deepEqual(log, ['add web-0', 'update web-0 1->2', 'delete web-0']);
    assert.equal(informer.get('default', 'web-0'), undefined);
    assert.equal(informer.lastSyncResourceVersion(), '3');
  });

  it('watches only the given namespaces', async () => {
    const { cluster, informer, clock } = setup(['a', 'b']);
    cluster.seed(Resources.pods, pod('x', 'a'));
    cluster.seed(Resources.pods, pod('y', 'c'));
    informer.start();
    await informer.waitForSync();
    await cluster.create(Resources.pods, pod('z', 'b'));
    await cluster.create(Resources.pods, pod('w', 'c'));
    await clock.settle();
    assert.deepEqual(informer.list().map((p) => `${p.metadata.namespace}/${p.metadata.name}`), ['a/x', 'b/z']);
  });
});

describe('informer: recovering the stream', () => {
  it('relists after 410 Gone, reporting what changed while it was away', async () => {
    const { cluster, informer, clock, log } = setup();
    cluster.seed(Resources.pods, pod('keep'));
    cluster.seed(Resources.pods, pod('change'));
    cluster.seed(Resources.pods, pod('vanish'));
    informer.start();
    await informer.waitForSync();
    await clock.settle();
    log.length = 0;
    cluster.closeWatches(new GoneError('too old'));
    await clock.settle();
    const changed = await cluster.get<Pod>(Resources.pods, 'default', 'change');
    await cluster.update(Resources.pods, changed);
    await cluster.delete(Resources.pods, 'default', 'vanish');
    await cluster.create(Resources.pods, pod('new'));
    cluster.compactedBefore = 6; // history before rv 6 is gone: only a relist can catch up
    const lists = cluster.calls.filter((c) => c.verb === 'list').length;
    await clock.run({ until: 10_000 });
    assert.equal(cluster.calls.filter((c) => c.verb === 'list').length, lists + 1);
    assert.deepEqual(log, ['delete vanish', 'update change 2->4', 'add new']);
    assert.equal(cluster.openWatches(), 1);
  });

  it('resumes the watch from the last resourceVersion after a clean close, without relisting', async () => {
    const { cluster, informer, clock, log } = setup();
    informer.start();
    await informer.waitForSync();
    cluster.closeWatches();
    await clock.settle();
    await cluster.create(Resources.pods, pod('during-gap'));
    await clock.run({ until: 10_000 });
    assert.deepEqual(log, ['add during-gap']);
    assert.equal(cluster.calls.filter((c) => c.verb === 'list').length, 1);
    assert.equal(cluster.calls.filter((c) => c.verb === 'watch').length, 2);
  });

  it('waits a jittered backoff from the injected clock before reconnecting', async () => {
    const { cluster, informer, clock } = setup();
    informer.start();
    await informer.waitForSync();
    cluster.closeWatches(new GoneError('too old'));
    await clock.settle();
    // random() = 0.5: 800 ms + 0.5·800 ms
    assert.equal(clock.nextDue(), 1200);
    assert.match(clock.pendingItems()[0]!.label, /informer relist pods/);
  });

  it('retries a failed list with growing delays until it succeeds, and only then has synced', async () => {
    const { cluster, informer, clock } = setup();
    cluster.failNext('list', new ApiError('boom', 500, 'InternalError'));
    cluster.failNext('list', new ApiError('boom', 500, 'InternalError'));
    informer.start();
    await clock.settle();
    assert.equal(informer.hasSynced(), false);
    assert.equal(clock.nextDue(), 1200);
    await clock.run({ until: 1200 });
    assert.equal(informer.hasSynced(), false);
    assert.equal(clock.nextDue(), 1200 + 2400);
    await clock.run({ until: 10_000 });
    assert.equal(informer.hasSynced(), true);
  });

  it('hands every failed list to onListError, with the error, before it retries', async () => {
    const clock = createVirtualClock();
    const cluster = new FakeCluster();
    const seen: unknown[] = [];
    const informer = new Informer<Pod>({ client: cluster, resource: Resources.pods, timers: clock, random: () => 0.5, onListError: (err) => seen.push(err) });
    const boom = new ApiError('boom', 500, 'InternalError');
    cluster.failNext('list', boom);
    informer.start();
    await clock.settle();
    assert.deepEqual(seen, [boom]);
    await clock.run({ until: 10_000 });
    assert.equal(informer.hasSynced(), true);
    assert.equal(seen.length, 1, 'a list that succeeds is not reported');
    informer.stop();
  });

  it('stops cleanly: no timers, no watch, no more handler calls', async () => {
    const { cluster, informer, clock, log } = setup();
    informer.start();
    await informer.waitForSync();
    cluster.closeWatches(new GoneError('x'));
    await clock.settle();
    informer.stop();
    assert.equal(clock.pending(), 0);
    await cluster.create(Resources.pods, pod('after-stop'));
    await clock.run({ until: 60_000 });
    assert.deepEqual(log, []);
    assert.equal(await informer.waitForSync(), false);
  });
});

describe('informer: backoff', () => {
  it('doubles from 800 ms up to 30 s and adds up to 100% jitter', () => {
    const opts = { baseMs: 800, capMs: 30_000, jitter: 1 };
    assert.equal(backoffDelay(0, () => 0, opts), 800);
    assert.equal(backoffDelay(1, () => 0, opts), 1600);
    assert.equal(backoffDelay(0, () => 0.999, opts), 1599);
    assert.equal(backoffDelay(10, () => 0, opts), 30_000);
    assert.equal(backoffDelay(1000, () => 0.5, opts), 45_000);
  });
});

describe('informer: transform', () => {
  it('caches what the transform returns, from the list and from the watch, leaving the source objects alone', async () => {
    const clock = createVirtualClock();
    const cluster = new FakeCluster();
    const informer = new Informer<Pod>({ client: cluster, resource: Resources.pods, timers: clock, random: () => 0.5, transform: trimManagedFields });
    const managed = (name: string): Pod => ({ ...pod(name), metadata: { ...pod(name).metadata, managedFields: [{ manager: 'kubelet', operation: 'Update' }] } });
    cluster.seed(Resources.pods, managed('listed'));
    informer.start();
    await clock.settle();
    cluster.seed(Resources.pods, managed('watched'));
    await clock.settle();
    for (const name of ['listed', 'watched']) {
      assert.equal(informer.get('default', name)?.metadata.managedFields, undefined, name);
      assert.equal(informer.get('default', name)?.metadata.name, name);
      assert.deepEqual(cluster.peek<Pod>(Resources.pods, 'default', name)?.metadata.managedFields, [{ manager: 'kubelet', operation: 'Update' }]);
    }
    informer.stop();
  });
});
