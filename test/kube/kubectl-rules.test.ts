// The adapter as the CLI configures it (kubectl's client behaviour): which failures are retried, how a
// watch gives up on a server that is gone, and how transport errors name the request.

import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Resources } from '../../src/api/client.js';
import { createKubeClient, type KubeClient } from '../../src/cluster/kube/index.js';
import { isRetryableFailure, retryDelay } from '../../src/cluster/kube/retry-policy.js';
import { TransportError } from '../../src/cluster/kube/transport.js';
import { createManualTimers, drive, settle, type ManualTimers } from './manual-timers.js';
import { openWatch, sendStatus, startFakeApiServer, type FakeApiServer } from './fake-apiserver.js';

describe("retryOn: 'server-requested' (client-go's rest client, as kubectl runs it)", () => {
  const kubectl = 'server-requested' as const;

  it('retries a 429 or 5xx only when the server sent Retry-After', () => {
    assert.ok(isRetryableFailure('get', { kind: 'status', status: 429, retryAfterSeconds: 1 }, kubectl));
    assert.ok(isRetryableFailure('create', { kind: 'status', status: 503, retryAfterSeconds: 1 }, kubectl));
    assert.ok(!isRetryableFailure('get', { kind: 'status', status: 500 }, kubectl));
    assert.ok(!isRetryableFailure('get', { kind: 'status', status: 429 }, kubectl));
    assert.ok(!isRetryableFailure('get', { kind: 'status', status: 404, retryAfterSeconds: 1 }, kubectl));
  });

  it('retries a reset connection for reads only, and never a refused or unresolvable one', () => {
    assert.ok(isRetryableFailure('get', { kind: 'transport', code: 'ECONNRESET' }, kubectl));
    assert.ok(isRetryableFailure('list', { kind: 'transport', code: 'ECONNRESET' }, kubectl));
    assert.ok(!isRetryableFailure('delete', { kind: 'transport', code: 'ECONNRESET' }, kubectl));
    for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'ETIMEDOUT', 'DEPTH_ZERO_SELF_SIGNED_CERT']) {
      assert.ok(!isRetryableFailure('get', { kind: 'transport', code }, kubectl), code);
      assert.ok(isRetryableFailure('get', { kind: 'transport', code }), `${code} is still retried by default (the controller)`);
    }
  });

  it('is what retryDelay applies when the policy says so', () => {
    const policy = { maxRetries: 3, backoff: { baseMs: 10, capMs: 100, jitter: 0 }, maxRetryAfterMs: 5000 };
    assert.equal(retryDelay('get', 0, { kind: 'status', status: 500 }, () => 0, policy), 10);
    assert.equal(retryDelay('get', 0, { kind: 'status', status: 500 }, () => 0, { ...policy, retryOn: 'server-requested' }), undefined);
  });
});

const NO_RETRY = { maxRetries: 0, backoff: { baseMs: 1, capMs: 1, jitter: 0 }, maxRetryAfterMs: 1 };

describe('kube adapter failures', () => {
  let api: FakeApiServer;
  let timers: ManualTimers;
  let client: KubeClient | undefined;
  before(async () => {
    api = await startFakeApiServer();
  });
  after(async () => {
    client?.close();
    await api.close();
  });
  beforeEach(() => {
    api.requests.length = 0;
    timers = createManualTimers();
    client?.close();
    client = undefined;
  });

  const connect = (tuning: Parameters<typeof createKubeClient>[0]['tuning'] = {}) => {
    client = createKubeClient({ kubeconfig: api.kubeconfig, qps: 0, timers, random: () => 0, tuning });
    return client;
  };

  it('names the request as Go does (`Get "URL": cause`) and says a refused connection in words', async () => {
    // Port 1: nothing listens there (the fake server's port once closed could be reused by another test).
    const dir = mkdtempSync(join(tmpdir(), 'ordinal-refused-'));
    const kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(kubeconfig, readFileSync(api.kubeconfig, 'utf8').replace(api.url, 'http://127.0.0.1:1'));
    client = createKubeClient({ kubeconfig, qps: 0, timers, random: () => 0, tuning: { retry: NO_RETRY } });
    const e = await drive(timers, client.get(Resources.pods, 'ns', 'web-0')).catch((x: unknown) => x);
    rmSync(dir, { recursive: true, force: true });
    assert.ok(e instanceof TransportError, String(e));
    assert.equal(e.message, 'Get "http://127.0.0.1:1/api/v1/namespaces/ns/pods/web-0": dial tcp 127.0.0.1:1: connect: connection refused');
    assert.equal(e.code, 'ECONNREFUSED');
  });

  it('gives up on a request the server does not answer within requestTimeoutMs', async () => {
    api.handle(() => {}); // accepts the request and never answers
    const c = connect({ requestTimeoutMs: 200, retry: NO_RETRY });
    const e = await drive(timers, c.get(Resources.pods, 'ns', 'web-0')).catch((x: unknown) => x);
    assert.ok(e instanceof TransportError, String(e));
    assert.equal(e.message, `Get "${api.url}/api/v1/namespaces/ns/pods/web-0": no response from the server within 0.2s (request timeout)`);
  });

  it('with watchMaxFailures, closes a watch with the last error once reconnecting has failed that many times in a row', async () => {
    let n = 0;
    api.handle((req, res) => {
      if (req.query.get('watch') !== '1') return sendStatus(res, 404, 'NotFound', 'no');
      if (++n === 1) {
        openWatch(res)({ type: 'ADDED', object: { metadata: { name: 'a', namespace: 'ns', resourceVersion: '2' } } });
        setImmediate(() => res.socket?.destroy());
        return;
      }
      sendStatus(res, 503, 'ServiceUnavailable', 'apiserver is shutting down');
    });
    const closed: (Error | undefined)[] = [];
    const events: unknown[] = [];
    connect({ watchMaxFailures: 3, watchIdleTimeoutMs: 600_000 }).watch(Resources.pods, 'ns', '1', {
      onEvent: (e) => events.push(e),
      onClose: (e) => closed.push(e),
    });
    for (let i = 0; i < 400 && closed.length === 0; i++) {
      await settle(5);
      timers.advance(1000);
    }
    assert.equal(events.length, 1);
    assert.equal(closed.length, 1, 'closed once');
    assert.match(String(closed[0]?.message), /apiserver is shutting down/);
    assert.equal(n, 3, 'the drop and two failed reconnects: three failures in a row');
  });

  it('bounds the wait for a watch response by requestTimeoutMs too (the stream itself is not timed)', async () => {
    api.handle(() => {}); // never sends the response headers
    const closed: (Error | undefined)[] = [];
    connect({ requestTimeoutMs: 200, watchMaxFailures: 1 }).watch(Resources.pods, 'ns', '1', { onEvent: () => {}, onClose: (e) => closed.push(e) });
    for (let i = 0; i < 200 && closed.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    assert.ok(closed[0] instanceof TransportError, String(closed[0]));
    assert.match(closed[0].message, /^Get "http:\/\/127\.0\.0\.1:\d+\/api\/v1\/namespaces\/ns\/pods\?watch=1.*": no response from the server within 0\.2s \(request timeout\)$/);
  });

  it('without watchMaxFailures (the controller), keeps reconnecting and never closes', async () => {
    let n = 0;
    api.handle((_req, res) => {
      n++;
      sendStatus(res, 503, 'ServiceUnavailable', 'apiserver is shutting down');
    });
    const closed: (Error | undefined)[] = [];
    const h = connect({ watchIdleTimeoutMs: 600_000 }).watch(Resources.pods, 'ns', '1', { onEvent: () => {}, onClose: (e) => closed.push(e) });
    for (let i = 0; i < 400 && n < 6; i++) {
      await settle(5);
      timers.advance(1000);
    }
    h.stop();
    assert.ok(n >= 6, `reconnected ${n} times`);
    assert.deepEqual(closed, []);
  });
});
