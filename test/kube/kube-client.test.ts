import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Resources } from '../../src/api/client.js';
import { AlreadyExistsError, ApiError, ConflictError, DisruptionBudgetRefusal, InvalidError, MULTIPLE_BUDGETS_MESSAGE, MultipleBudgetsError, NotFoundError } from '../../src/api/errors.js';
import { createKubeClient, type KubeClient } from '../../src/cluster/kube/index.js';
import { TransportError } from '../../src/cluster/kube/transport.js';
import type { KubeObject } from '../../src/api/types.js';
import { createEventRecorder, objectReference } from '../../src/runtime/event-recorder.js';
import { createManualTimers, drive, type ManualTimers } from './manual-timers.js';
import { sendJson, sendStatus, startFakeApiServer, TOKEN, type FakeApiServer } from './fake-apiserver.js';

const pod = (name: string, rv = '1') => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns', resourceVersion: rv }, spec: { containers: [] } });

describe('createKubeClient requests', () => {
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
    timers = createManualTimers();
    client?.close();
    client = createKubeClient({ kubeconfig: api.kubeconfig, qps: 0, timers, random: () => 0.5 });
  });

  it('gets a namespaced core object at /api/v1/namespaces/NS/pods/NAME with the kubeconfig token', async () => {
    api.handle((_req, res) => sendJson(res, 200, pod('web-0')));
    const got = await drive(timers, client.get(Resources.pods, 'ns', 'web-0'));
    assert.equal(got.metadata.name, 'web-0');
    assert.equal(api.requests[0]?.path, '/api/v1/namespaces/ns/pods/web-0');
    assert.equal(api.requests[0]?.headers.authorization, `Bearer ${TOKEN}`);
    assert.match(String(api.requests[0]?.headers['user-agent']), /ordinal/);
  });

  it('maps 404, 409 AlreadyExists, 409 Conflict and 422 to the ApiError classes', async () => {
    const cases: [number, string, new (...a: never[]) => ApiError][] = [
      [404, 'NotFound', NotFoundError],
      [409, 'AlreadyExists', AlreadyExistsError],
      [409, 'Conflict', ConflictError],
    ];
    for (const [code, reason, cls] of cases) {
      api.handle((_req, res) => sendStatus(res, code, reason, `${reason} happened`));
      const err = await drive(timers, client.get(Resources.pods, 'ns', 'x')).catch((e: unknown) => e);
      assert.ok(err instanceof cls, `${code} ${reason} → ${String(err)}`);
      assert.equal((err as ApiError).message, `${reason} happened`);
    }
  });

  it('turns a 422 Status with causes into InvalidError issues with field paths', async () => {
    api.handle((_req, res) =>
      sendStatus(res, 422, 'Invalid', 'StatefulSet.apps "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0', {
        details: { causes: [{ reason: 'FieldValueInvalid', field: 'spec.replicas', message: 'Invalid value: -1: must be greater than or equal to 0' }] },
      }),
    );
    const err = await drive(timers, client.create(Resources.statefulSets, { metadata: { name: 'web', namespace: 'ns' } })).catch((e: unknown) => e);
    assert.ok(err instanceof InvalidError);
    assert.deepEqual(err.issues, [{ path: 'spec.replicas', type: 'Invalid', detail: 'Invalid value: -1: must be greater than or equal to 0' }]);
    assert.equal(api.requests.length, 1, 'a 422 is not retried');
  });

  it('retries a 429 after the Retry-After seconds, even for a POST', async () => {
    let calls = 0;
    api.handle((_req, res) => (++calls === 1 ? sendStatus(res, 429, 'TooManyRequests', 'slow down', {}, { 'retry-after': '3' }) : sendJson(res, 201, pod('web-0'))));
    const created = await drive(timers, client.create(Resources.pods, pod('web-0')));
    assert.equal(created.metadata.name, 'web-0');
    assert.equal(api.requests.length, 2);
    assert.deepEqual(timers.scheduled.map((s) => s.delay), [3000]);
  });

  it('retries a 503 on GET with jittered backoff, then succeeds', async () => {
    let calls = 0;
    api.handle((_req, res) => (++calls <= 2 ? sendStatus(res, 503, 'ServiceUnavailable', 'down') : sendJson(res, 200, pod('web-0'))));
    await drive(timers, client.get(Resources.pods, 'ns', 'web-0'));
    assert.equal(api.requests.length, 3);
    // base 200 ms doubled per attempt, plus half of the 0.5 jitter drawn from random() = 0.5
    assert.deepEqual(timers.scheduled.map((s) => s.delay), [250, 500]);
  });

  it('does not retry a 500 on POST or PATCH, whose first attempt may have been applied', async () => {
    api.handle((_req, res) => sendStatus(res, 500, 'InternalError', 'boom'));
    const err = await drive(timers, client.create(Resources.pods, pod('web-0'))).catch((e: unknown) => e);
    assert.ok(err instanceof ApiError && err.code === 500 && err.reason === 'InternalError');
    const perr = await drive(timers, client.patch(Resources.pods, 'ns', 'web-0', { metadata: { labels: { a: 'b' } } })).catch((e: unknown) => e);
    assert.ok(perr instanceof ApiError && perr.code === 500);
    assert.equal(api.requests.length, 2);
  });

  it('gives up after the retry budget and throws the last error', async () => {
    api.handle((_req, res) => sendStatus(res, 503, 'ServiceUnavailable', 'still down'));
    const err = await drive(timers, client.get(Resources.pods, 'ns', 'web-0')).catch((e: unknown) => e);
    assert.ok(err instanceof ApiError && err.code === 503);
    assert.equal(api.requests.length, 6, 'one attempt plus five retries');
  });

  it('reports a non-Status error body with the status code and a reason derived from it', async () => {
    api.handle((_req, res) => {
      res.writeHead(403, { 'content-type': 'text/plain' });
      res.end('forbidden by proxy');
    });
    const err = await drive(timers, client.get(Resources.pods, 'ns', 'web-0')).catch((e: unknown) => e);
    assert.ok(err instanceof ApiError);
    assert.equal(err.code, 403);
    assert.equal(err.reason, 'Forbidden');
    assert.match(err.message, /status code 403/);
  });

  it('sends update to the object, updateStatus to /status, both as PUT with the object', async () => {
    api.handle((req, res) => sendJson(res, 200, JSON.parse(req.body) as object));
    const set: KubeObject = { metadata: { name: 'web', namespace: 'ns', resourceVersion: '7' }, spec: {}, status: { replicas: 1 } };
    await drive(timers, client.update(Resources.ordinalStatefulSets, set));
    const back = await drive(timers, client.updateStatus(Resources.ordinalStatefulSets, set));
    assert.deepEqual(api.requests.map((r) => `${r.method} ${r.path}`), [
      'PUT /apis/apps.ordinal.dev/v1/namespaces/ns/statefulsets/web',
      'PUT /apis/apps.ordinal.dev/v1/namespaces/ns/statefulsets/web/status',
    ]);
    assert.equal(JSON.parse(api.requests[0]?.body ?? '{}').metadata.resourceVersion, '7');
    assert.equal(back.apiVersion, 'apps.ordinal.dev/v1', 'apiVersion/kind filled in from the Resource');
    assert.equal(back.kind, 'StatefulSet');
  });

  it('patches with application/merge-patch+json', async () => {
    api.handle((_req, res) => sendJson(res, 200, pod('web-0')));
    await drive(timers, client.patch(Resources.pods, 'ns', 'web-0', { metadata: { ownerReferences: null } }));
    assert.equal(api.requests[0]?.method, 'PATCH');
    assert.equal(api.requests[0]?.headers['content-type'], 'application/merge-patch+json');
    assert.deepEqual(JSON.parse(api.requests[0]?.body ?? ''), { metadata: { ownerReferences: null } });
  });

  it('deletes with DeleteOptions carrying the uid precondition, grace period and propagation policy', async () => {
    api.handle((_req, res) => sendJson(res, 200, { kind: 'Status', status: 'Success' }));
    await drive(timers, client.delete(Resources.pods, 'ns', 'web-0', { uid: 'u-1', gracePeriodSeconds: 0, propagationPolicy: 'Background' }));
    assert.equal(api.requests[0]?.method, 'DELETE');
    assert.deepEqual(JSON.parse(api.requests[0]?.body ?? ''), {
      apiVersion: 'v1',
      kind: 'DeleteOptions',
      preconditions: { uid: 'u-1' },
      gracePeriodSeconds: 0,
      propagationPolicy: 'Background',
    });
  });

  it('evicts with a POST of a policy/v1 Eviction to pods/NAME/eviction carrying the deleteOptions', async () => {
    api.handle((_req, res) => sendJson(res, 201, { kind: 'Status', apiVersion: 'v1', status: 'Success', code: 201 }));
    await drive(timers, client.evictPod('ns', 'web-0', { uid: 'u-1', resourceVersion: '9', gracePeriodSeconds: 3, dryRun: true }));
    assert.deepEqual([api.requests[0]?.method, api.requests[0]?.path], ['POST', '/api/v1/namespaces/ns/pods/web-0/eviction']);
    assert.deepEqual(JSON.parse(api.requests[0]?.body ?? ''), {
      apiVersion: 'policy/v1',
      kind: 'Eviction',
      metadata: { name: 'web-0', namespace: 'ns' },
      deleteOptions: { preconditions: { uid: 'u-1', resourceVersion: '9' }, gracePeriodSeconds: 3, dryRun: ['All'] },
    });
  });

  it("takes a budget's 429 to an eviction as its answer (DisruptionBudgetRefusal, not retried, Retry-After or not), but retries a throttling 429", async () => {
    const cause = { reason: 'DisruptionBudget', message: 'The disruption budget db is still being processed by the server.' };
    api.handle((_req, res) => sendStatus(res, 429, 'TooManyRequests', "Cannot evict pod as it would violate the pod's disruption budget.", { details: { causes: [cause], retryAfterSeconds: 10 } }, { 'retry-after': '10' }));
    const err = await drive(timers, client.evictPod('ns', 'web-0')).catch((e: unknown) => e);
    assert.ok(err instanceof DisruptionBudgetRefusal, String(err));
    assert.deepEqual([err.causes, err.retryAfterSeconds, err.budgetMessage, api.requests.length], [[cause], 10, cause.message, 1]);
    let calls = 0;
    api.handle((_req, res) => (++calls === 1 ? sendStatus(res, 429, 'TooManyRequests', 'Too many requests, please try again later.', {}, { 'retry-after': '1' }) : sendJson(res, 201, { kind: 'Status', status: 'Success' })));
    await drive(timers, client.evictPod('ns', 'web-0'));
    assert.equal(calls, 2, 'an API Priority and Fairness 429 is throttling: sent again');
  });

  it('maps the 500 of a pod two budgets select to MultipleBudgetsError, and does not retry it', async () => {
    api.handle((_req, res) => sendJson(res, 500, { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: MULTIPLE_BUDGETS_MESSAGE, code: 500 }));
    const err = await drive(timers, client.evictPod('ns', 'web-0')).catch((e: unknown) => e);
    assert.ok(err instanceof MultipleBudgetsError, String(err));
    assert.deepEqual([err.code, err.reason, api.requests.length], [500, '', 1]);
  });

  it('lists across pages with limit/continue, keeps the label selector and fills item apiVersion/kind', async () => {
    api.handle((req, res) => {
      const page = req.query.get('continue') === 'p2' ? 2 : 1;
      sendJson(res, 200, {
        kind: 'PodList',
        metadata: { resourceVersion: '42', ...(page === 1 ? { continue: 'p2' } : {}) },
        items: [{ metadata: { name: `web-${page}`, namespace: 'ns' } }],
      });
    });
    const list = await drive(timers, client.list(Resources.pods, undefined, { labelSelector: 'app=web' }));
    assert.deepEqual(list.items.map((p) => [p.metadata.name, p.apiVersion, p.kind]), [['web-1', 'v1', 'Pod'], ['web-2', 'v1', 'Pod']]);
    assert.equal(list.resourceVersion, '42');
    assert.equal(api.requests[0]?.path, '/api/v1/pods', 'no namespace lists across all namespaces');
    assert.equal(api.requests[0]?.query.get('labelSelector'), 'app=web');
    assert.equal(api.requests[0]?.query.get('limit'), '500');
    assert.equal(api.requests[1]?.query.get('continue'), 'p2');
  });

  it('falls back to one unpaginated list when the continue token expired (410)', async () => {
    api.handle((req, res) => {
      if (req.query.get('continue')) return sendStatus(res, 410, 'Expired', 'The provided continue parameter is too old');
      const paged = req.query.has('limit');
      sendJson(res, 200, { metadata: { resourceVersion: paged ? '5' : '9', ...(paged ? { continue: 'old' } : {}) }, items: paged ? [pod('a')] : [pod('a'), pod('b')] });
    });
    const list = await drive(timers, client.list(Resources.pods, 'ns'));
    assert.deepEqual(list.items.map((p) => p.metadata.name), ['a', 'b']);
    assert.equal(list.resourceVersion, '9');
  });

  it('retries a GET whose connection was reset, and fails a POST with TransportError', async () => {
    let calls = 0;
    api.handle((req, res) => (req.method === 'GET' && ++calls > 1 ? sendJson(res, 200, pod('web-0')) : res.socket?.destroy()));
    const got = await drive(timers, client.get(Resources.pods, 'ns', 'web-0'));
    assert.equal(got.metadata.name, 'web-0');
    const err = await drive(timers, client.create(Resources.pods, pod('web-1'))).catch((e: unknown) => e);
    assert.ok(err instanceof TransportError, String(err));
  });

  it('refuses to create a namespaced object without metadata.namespace', async () => {
    await assert.rejects(client.create(Resources.pods, { metadata: { name: 'x' } }), /metadata.namespace is required/);
    assert.equal(api.requests.length, 0);
  });
});

describe('createKubeClient kubeconfig', () => {
  it('uses the given context instead of current-context, and rejects an unknown one', async () => {
    const api = await startFakeApiServer();
    try {
      api.handle((_req, res) => sendJson(res, 200, pod('web-0')));
      const dir = mkdtempSync(join(tmpdir(), 'ordinal-ctx-'));
      const path = join(dir, 'kubeconfig');
      writeFileSync(
        path,
        readFileSync(api.kubeconfig, 'utf8')
          .replace('current-context: fake', 'current-context: other')
          .replace('contexts:\n', 'contexts:\n- name: other\n  context: {cluster: nowhere, user: tester}\n')
          .replace('clusters:\n', 'clusters:\n- name: nowhere\n  cluster: {server: "http://127.0.0.1:1", insecure-skip-tls-verify: true}\n'),
      );
      const timers = createManualTimers();
      const client = createKubeClient({ kubeconfig: path, context: 'fake', qps: 0, timers, random: () => 0 });
      assert.equal(client.server, api.url);
      await drive(timers, client.get(Resources.pods, 'ns', 'web-0'));
      client.close();
      assert.throws(() => createKubeClient({ kubeconfig: path, context: 'missing', timers, random: () => 0 }), /context "missing" does not exist/);
      rmSync(dir, { recursive: true, force: true });
    } finally {
      await api.close();
    }
  });
});

describe('createKubeClient rate limit', () => {
  it('holds requests beyond the burst until the injected clock has refilled the bucket', async () => {
    const api = await startFakeApiServer();
    try {
      api.handle((_req, res) => sendJson(res, 200, pod('web-0')));
      const timers = createManualTimers();
      const client = createKubeClient({ kubeconfig: api.kubeconfig, qps: 2, burst: 2, timers, random: () => 0 });
      const all = Promise.all([1, 2, 3, 4].map(() => client.get(Resources.pods, 'ns', 'web-0')));
      await drive(timers, all);
      assert.deepEqual(timers.scheduled.map((s) => s.delay), [500, 1000], 'two go at once, then one per 500 ms');
      client.close();
    } finally {
      await api.close();
    }
  });

  it('Events through withOwnBudget() have a budget of their own: a flood of them does not delay a pod write', async () => {
    const api = await startFakeApiServer();
    try {
      api.handle((req, res) => sendJson(res, 201, req.path.endsWith('/events') ? { metadata: { name: 'e', namespace: 'ns' } } : pod('web-0')));
      const timers = createManualTimers();
      const client = createKubeClient({ kubeconfig: api.kubeconfig, qps: 2, burst: 2, timers, random: () => 0 });
      const recorder = createEventRecorder({ client: client.withOwnBudget(), clock: timers });
      const set = { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'web', namespace: 'ns', uid: 'u' } };
      for (let i = 0; i < 40; i++) void recorder.event(objectReference(set, Resources.statefulSets), 'Normal', 'SuccessfulCreate', `create Pod web-${i} in StatefulSet web successful`);
      // The Events take their budget's two tokens and wait for more; the pod write waits for none: no timer
      // fires here, so a pod write that needed a token would never be sent.
      const waited = new Promise((_, reject) => setTimeout(() => reject(new Error('the pod write waited for a token')), 5000));
      await Promise.race([client.create(Resources.pods, pod('web-0')), waited]);
      assert.equal(api.requests.filter((r) => r.path.endsWith('/pods')).length, 1);
      assert.equal(timers.now(), 1_000_000, 'no time had to pass for the pod write');
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(api.requests.filter((r) => r.path.endsWith('/events')).length, 2, 'the Events within their own burst went out; the rest wait their turn');
      client.close();
    } finally {
      await api.close();
    }
  });
});
