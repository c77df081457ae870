import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { Resources, type WatchEvent } from '../../src/api/client.js';
import { ApiError, GoneError } from '../../src/api/errors.js';
import type { KubeObject } from '../../src/api/types.js';
import { createKubeClient, type KubeClient } from '../../src/cluster/kube/index.js';
import { createManualTimers, settle, type ManualTimers } from './manual-timers.js';
import { openWatch, sendStatus, startFakeApiServer, type FakeApiServer, type RecordedRequest } from './fake-apiserver.js';

const obj = (name: string, rv: string) => ({ metadata: { name, namespace: 'ns', resourceVersion: rv } });
const IDLE_MS = 60_000;

interface Recorder {
  events: WatchEvent<KubeObject>[];
  closed: (Error | undefined)[];
}

async function until(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !cond(); i++) await settle(5);
  assert.ok(cond(), `timed out waiting for ${what}`);
}

describe('createKubeClient watch', () => {
  let api: FakeApiServer;
  let timers: ManualTimers;
  let client: KubeClient;
  let rec: Recorder;
  let streams: ServerResponse[];
  let streamClosed: boolean[];
  const watches = () => api.requests.filter((r) => r.query.get('watch') === '1');
  const start = (rv = '10') =>
    client.watch(Resources.pods, 'ns', rv, {
      onEvent: (e) => rec.events.push(e),
      onClose: (e) => rec.closed.push(e),
    });
  /** Serves each watch request with `script(n, req, res)`, n counting from 1. */
  const serve = (script: (n: number, req: RecordedRequest, res: ServerResponse) => void) => {
    let n = 0;
    api.handle((req, res) => {
      const i = streams.push(res) - 1;
      streamClosed[i] = false;
      res.on('close', () => (streamClosed[i] = true));
      script(++n, req, res);
    });
  };

  before(async () => {
    api = await startFakeApiServer();
  });
  after(async () => {
    await api.close();
  });
  beforeEach(() => {
    api.requests.length = 0;
    streams = [];
    streamClosed = [];
    rec = { events: [], closed: [] };
    timers = createManualTimers();
    client?.close();
    client = createKubeClient({ kubeconfig: api.kubeconfig, qps: 0, timers, random: () => 0, tuning: { watchIdleTimeoutMs: IDLE_MS } });
  });

  it('asks for bookmarks from the given resourceVersion and delivers events in order with apiVersion/kind', async () => {
    serve((_n, _req, res) => {
      const send = openWatch(res);
      send({ type: 'ADDED', object: obj('a', '11') });
      send({ type: 'MODIFIED', object: obj('a', '12') });
      send({ type: 'DELETED', object: obj('a', '13') });
    });
    const h = start('10');
    await until(() => rec.events.length === 3, 'three events');
    h.stop();
    const q = watches()[0]?.query;
    assert.equal(watches()[0]?.path, '/api/v1/namespaces/ns/pods');
    assert.equal(q?.get('resourceVersion'), '10');
    assert.equal(q?.get('allowWatchBookmarks'), 'true');
    assert.ok(Number(q?.get('timeoutSeconds')) >= 300, 'server-side timeout of at least five minutes');
    assert.deepEqual(rec.events.map((e) => [e.type, e.object.metadata.resourceVersion, e.object.kind]), [
      ['ADDED', '11', 'Pod'],
      ['MODIFIED', '12', 'Pod'],
      ['DELETED', '13', 'Pod'],
    ]);
    assert.deepEqual(rec.closed, []);
  });

  it('passes BOOKMARK events through and resumes from the bookmark when the server ends the stream', async () => {
    serve((n, _req, res) => {
      const send = openWatch(res);
      if (n === 1) {
        send({ type: 'ADDED', object: obj('a', '11') });
        send({ type: 'BOOKMARK', object: { kind: 'Pod', apiVersion: 'v1', metadata: { resourceVersion: '50' } } });
        res.end();
      }
    });
    const h = start('10');
    await until(() => timers.scheduled.some((s) => s.label === 'watch-reconnect'), 'reconnect timer');
    timers.advance(0);
    await until(() => watches().length === 2, 'reconnect after a clean close');
    h.stop();
    assert.deepEqual(rec.events.map((e) => e.type), ['ADDED', 'BOOKMARK']);
    assert.equal(watches()[1]?.query.get('resourceVersion'), '50');
    assert.deepEqual(timers.scheduled.filter((s) => s.label === 'watch-reconnect').map((s) => s.delay), [0], 'a clean close reconnects at once');
    assert.deepEqual(rec.closed, []);
  });

  it('closes with GoneError on a 410 ERROR event mid-watch and does not reconnect', async () => {
    serve((_n, _req, res) => {
      const send = openWatch(res);
      send({ type: 'ADDED', object: obj('a', '11') });
      send({ type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired', message: 'too old resource version: 10 (40)' } });
    });
    start('10');
    await until(() => rec.closed.length === 1, 'onClose');
    assert.ok(rec.closed[0] instanceof GoneError);
    assert.match(rec.closed[0].message, /too old resource version/);
    assert.equal(rec.events.length, 1);
    await settle();
    assert.equal(timers.pendingCount(), 0, 'no watchdog or reconnect left behind');
    assert.equal(watches().length, 1);
  });

  it('closes with GoneError when the server answers the watch request itself with 410', async () => {
    serve((_n, _req, res) => sendStatus(res, 410, 'Gone', 'too old'));
    start('1');
    await until(() => rec.closed.length === 1, 'onClose');
    assert.ok(rec.closed[0] instanceof GoneError);
  });

  it('reconnects from the last resourceVersion after a dropped connection, with backoff and no onClose', async () => {
    serve((n, _req, res) => {
      const send = openWatch(res);
      if (n === 1) {
        send({ type: 'ADDED', object: obj('a', '21') });
        setImmediate(() => res.socket?.destroy());
      }
    });
    const h = start('20');
    await until(() => timers.scheduled.some((s) => s.label === 'watch-reconnect'), 'a reconnect timer');
    assert.equal(watches().length, 1, 'waits for the backoff before reconnecting');
    const delay = timers.scheduled.find((s) => s.label === 'watch-reconnect')?.delay;
    assert.equal(delay, 800, 'first backoff step is 800 ms (random() = 0, so no jitter)');
    timers.advance(800);
    await until(() => watches().length === 2, 'second watch');
    h.stop();
    assert.equal(watches()[1]?.query.get('resourceVersion'), '21');
    assert.deepEqual(rec.closed, []);
  });

  it('restarts a watch that has been silent past the idle timeout (inactivity watchdog)', async () => {
    serve((n, _req, res) => {
      const send = openWatch(res);
      if (n === 1) send({ type: 'ADDED', object: obj('a', '31') });
    });
    const h = start('30');
    await until(() => rec.events.length === 1, 'first event');
    timers.advance(IDLE_MS - 1);
    await settle();
    assert.equal(watches().length, 1, 'not restarted before the idle timeout');
    timers.advance(1);
    await until(() => timers.scheduled.some((s) => s.label === 'watch-reconnect'), 'restart scheduled');
    timers.advance(800);
    await until(() => watches().length === 2, 'second watch');
    h.stop();
    assert.equal(watches()[1]?.query.get('resourceVersion'), '31');
    await until(() => streamClosed[0] === true, 'the silent stream was closed by the client');
  });

  it('keeps a watch alive while bookmarks arrive, even with no object events', async () => {
    let send: ((e: unknown) => void) | undefined;
    serve((_n, _req, res) => {
      send = openWatch(res);
    });
    const h = start('40');
    await until(() => send !== undefined, 'stream open');
    for (let i = 0; i < 3; i++) {
      timers.advance(IDLE_MS / 2);
      send?.({ type: 'BOOKMARK', object: { metadata: { resourceVersion: String(41 + i) } } });
      await until(() => rec.events.length === i + 1, `bookmark ${i}`);
    }
    timers.advance(IDLE_MS / 2);
    await settle();
    h.stop();
    assert.equal(watches().length, 1, 'no restart: each bookmark reset the watchdog');
  });

  it('waits Retry-After on a 429 answer to the watch request, then reconnects', async () => {
    serve((n, _req, res) => (n === 1 ? sendStatus(res, 429, 'TooManyRequests', 'slow', {}, { 'retry-after': '7' }) : openWatch(res)));
    const h = start('5');
    await until(() => timers.scheduled.some((s) => s.label === 'watch-reconnect'), 'reconnect timer');
    assert.equal(timers.scheduled.find((s) => s.label === 'watch-reconnect')?.delay, 7000);
    timers.advance(7000);
    await until(() => watches().length === 2, 'second watch');
    h.stop();
    assert.deepEqual(rec.closed, []);
  });

  it('closes with the ApiError on a non-retryable answer such as 403', async () => {
    serve((_n, _req, res) => sendStatus(res, 403, 'Forbidden', 'pods is forbidden: cannot watch'));
    start('5');
    await until(() => rec.closed.length === 1, 'onClose');
    assert.ok(rec.closed[0] instanceof ApiError && rec.closed[0].code === 403);
  });

  it('delivers nothing after stop() and leaves no timers', async () => {
    let send: ((e: unknown) => void) | undefined;
    serve((_n, _req, res) => {
      send = openWatch(res);
    });
    const h = start('5');
    await until(() => send !== undefined, 'stream open');
    h.stop();
    send?.({ type: 'ADDED', object: obj('late', '6') });
    await settle();
    assert.deepEqual(rec.events, []);
    assert.deepEqual(rec.closed, []);
    assert.equal(timers.pendingCount(), 0);
  });
});
