// The kube adapter's request scopes: the write fence is read before every attempt and once more when the
// request's socket is ready (a refused write never reaches the server), a scope's signal drops its queued
// requests, flows share the budget in turn, and resetConnections() ends every connection with a TCP reset.
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import { createKubeClient, type KubeClient } from '../../src/cluster/kube/index.js';
import { createEventRecorder, objectReference } from '../../src/runtime/event-recorder.js';
import { FencedError } from '../../src/runtime/lease-fence.js';
import { createManualTimers, drive, type ManualTimers } from './manual-timers.js';
import { sendJson, startFakeApiServer, type FakeApiServer } from './fake-apiserver.js';

const pod = (name: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns' }, spec: { containers: [] } });

/** A fence that allows its first `allowed` reads and refuses every later one. */
function fenceAllowing(allowed: number) {
  let reads = 0;
  return { reads: () => reads, refusal: () => (++reads > allowed ? new FencedError('not the leader (test): write refused') : undefined) };
}

describe('kube client scopes', () => {
  let api: FakeApiServer;
  let timers: ManualTimers;
  let client: KubeClient;
  before(async () => {
    api = await startFakeApiServer();
  });
  after(async () => {
    await api.close();
  });
  beforeEach(() => {
    api.requests.length = 0;
    api.connectionEnds.length = 0;
    api.handle((req, res) => sendJson(res, req.method === 'POST' ? 201 : 200, pod('web-0')));
    timers = createManualTimers();
    client?.close();
    client = createKubeClient({ kubeconfig: api.kubeconfig, qps: 0, timers, random: () => 0 });
  });

  it('refuses a write whose fence refuses, without sending it; reads still go', async () => {
    const fenced = client.withScope({ fence: fenceAllowing(0) });
    await assert.rejects(drive(timers, fenced.create(Resources.pods, pod('web-0'))), FencedError);
    await assert.rejects(drive(timers, fenced.delete(Resources.pods, 'ns', 'web-0')), FencedError);
    await assert.rejects(drive(timers, fenced.patch(Resources.pods, 'ns', 'web-0', { metadata: { labels: { a: 'b' } } })), FencedError);
    await assert.rejects(drive(timers, fenced.evictPod('ns', 'web-0')), FencedError, 'an eviction deletes a pod: it is a write');
    await drive(timers, fenced.get(Resources.pods, 'ns', 'web-0'));
    assert.deepEqual(api.requests.map((r) => r.method), ['GET']);
  });

  it('reads the fence again once the socket is ready: a write it refuses then never reaches the server', async () => {
    const fence = fenceAllowing(1);
    await assert.rejects(drive(timers, client.withScope({ fence }).create(Resources.pods, pod('web-0'))), FencedError);
    assert.equal(fence.reads(), 2, 'before the attempt, and when the socket was ready');
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(api.requests, []);
  });

  it('sends a write the fence allows at both reads', async () => {
    const fence = fenceAllowing(2);
    await drive(timers, client.withScope({ fence }).create(Resources.pods, pod('web-0')));
    assert.deepEqual(api.requests.map((r) => r.method), ['POST']);
  });

  it('drops a scope\'s requests waiting for the budget when its signal aborts', async () => {
    const slow = createKubeClient({ kubeconfig: api.kubeconfig, qps: 1, burst: 1, timers, random: () => 0 });
    const deleted = new AbortController();
    const scoped = slow.withScope({ flow: 'ns/huge', signal: deleted.signal });
    const writes = [1, 2, 3].map((i) => scoped.create(Resources.pods, pod(`huge-${i}`)).then(() => 'sent', (e: Error) => e.message));
    await new Promise((r) => setTimeout(r, 50));
    deleted.abort(new Error('the StatefulSet was deleted'));
    assert.deepEqual(await Promise.all(writes), ['sent', 'the StatefulSet was deleted', 'the StatefulSet was deleted']);
    assert.equal(api.requests.length, 1);
    slow.close();
  });

  it('shares the budget between flows in turn: one request of a small flow goes before a big flow\'s queue', async () => {
    const slow = createKubeClient({ kubeconfig: api.kubeconfig, qps: 10, burst: 1, timers, random: () => 0 });
    const big = Array.from({ length: 6 }, (_, i) => slow.withScope({ flow: 'ns/big' }).create(Resources.pods, pod(`big-${i}`)));
    await new Promise((r) => setTimeout(r, 20));
    const small = slow.withScope({ flow: 'ns/small' }).create(Resources.pods, pod('small-0'));
    await drive(timers, Promise.all([...big, small]));
    const order = api.requests.map((r) => (JSON.parse(r.body) as { metadata: { name: string } }).metadata.name);
    assert.deepEqual(order.slice(0, 3), ['big-0', 'big-1', 'small-0']);
    slow.close();
  });

  it('lets a set\'s write go after one turn of a flood of Events on the same budget (a flow of their own)', async () => {
    api.handle((req, res) => sendJson(res, 201, req.path.endsWith('/events') ? { metadata: { name: 'e', namespace: 'ns' } } : pod('web-0')));
    const shared = createKubeClient({ kubeconfig: api.kubeconfig, qps: 2, burst: 2, timers, random: () => 0 });
    const recorder = createEventRecorder({ client: shared.withScope({ flow: 'events:' }), clock: timers });
    const set = { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'web', namespace: 'ns', uid: 'u' } };
    for (let i = 0; i < 40; i++) void recorder.event(objectReference(set, Resources.statefulSets), 'Normal', 'SuccessfulCreate', `create Pod web-${i} in StatefulSet web successful`);
    await new Promise((r) => setTimeout(r, 50));
    const start = timers.now();
    await drive(timers, shared.withScope({ flow: 'ns/web' }).create(Resources.pods, pod('web-0')));
    assert.equal(timers.now() - start, 1000, 'one token to the Events, the next to the write: not the 39th');
    shared.close();
  });

  it('resets every connection, so the server sees a TCP reset rather than a clean close', async () => {
    const ends: string[] = [];
    let held = false;
    api.handle((_req, res) => {
      held = true;
      res.socket?.on('end', () => ends.push('end'));
      res.socket?.on('error', (e: NodeJS.ErrnoException) => ends.push(e.code ?? e.message));
    });
    const noRetry = createKubeClient({ kubeconfig: api.kubeconfig, qps: 0, timers, random: () => 0, tuning: { retry: { maxRetries: 0, backoff: { baseMs: 1, capMs: 1, jitter: 0 }, maxRetryAfterMs: 0 } } });
    const pending = noRetry.get(Resources.pods, 'ns', 'web-0').then(() => 'answered', (e: Error) => e.message);
    for (let i = 0; i < 100 && !held; i++) await new Promise((r) => setTimeout(r, 10));
    noRetry.resetConnections();
    for (let i = 0; i < 100 && ends.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(ends, ['ECONNRESET']);
    assert.match(await pending, /ECONNRESET|socket hang up/);
    noRetry.close();
  });
});
