import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import { AlreadyExistsError, ApiError, ConflictError, GoneError, InvalidError, NotFoundError } from '../../src/api/errors.js';
import { backoffDelay } from '../../src/runtime/backoff.js';
import { resourcePath, withQuery } from '../../src/cluster/kube/paths.js';
import { isRetryableFailure, parseRetryAfter, retryDelay } from '../../src/cluster/kube/retry-policy.js';
import { toApiError, watchStatusError } from '../../src/cluster/kube/status-errors.js';
import { createTokenBucket } from '../../src/runtime/token-bucket.js';

describe('resourcePath', () => {
  const cases: [string, string][] = [
    [resourcePath(Resources.pods, 'ns'), '/api/v1/namespaces/ns/pods'],
    [resourcePath(Resources.pods, undefined), '/api/v1/pods'],
    [resourcePath(Resources.nodes, 'ignored', 'n1'), '/api/v1/nodes/n1'],
    [resourcePath(Resources.statefulSets, 'a', 'web', 'scale'), '/apis/apps/v1/namespaces/a/statefulsets/web/scale'],
    [resourcePath(Resources.leases, 'kube-system', 'ordinal'), '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/ordinal'],
  ];
  for (const [got, want] of cases) it(`builds ${want}`, () => assert.equal(got, want));

  it('encodes the query and leaves out undefined values', () => {
    assert.equal(withQuery('/p', { labelSelector: 'app in (a,b)', limit: undefined, watch: 1 }), '/p?labelSelector=app+in+%28a%2Cb%29&watch=1');
    assert.equal(withQuery('/p', {}), '/p');
  });
});

describe('backoffDelay', () => {
  it('doubles from the base, caps, and adds up to jitter × delay', () => {
    const p = { baseMs: 100, capMs: 1000, jitter: 1 };
    assert.deepEqual([0, 1, 2, 3, 4, 10].map((a) => backoffDelay(a, () => 0, p)), [100, 200, 400, 800, 1000, 1000]);
    assert.equal(backoffDelay(0, () => 0.999, p), 200);
  });
});

describe('retry policy', () => {
  it('retries 429 for every verb, since the server did not process the request', () => {
    for (const verb of ['create', 'patch', 'get'] as const) assert.ok(isRetryableFailure(verb, { kind: 'status', status: 429 }));
  });
  it('retries 5xx and broken connections only for idempotent verbs', () => {
    assert.ok(isRetryableFailure('get', { kind: 'status', status: 503 }));
    assert.ok(isRetryableFailure('update', { kind: 'status', status: 500 }));
    assert.ok(!isRetryableFailure('create', { kind: 'status', status: 500 }));
    assert.ok(!isRetryableFailure('patch', { kind: 'transport', code: 'ECONNRESET' }));
    assert.ok(isRetryableFailure('delete', { kind: 'transport', code: 'ECONNRESET' }));
  });
  it('retries any verb when the connection was refused, since nothing was sent', () => {
    assert.ok(isRetryableFailure('create', { kind: 'transport', code: 'ECONNREFUSED' }));
  });
  it('never retries 4xx other than 429', () => {
    for (const status of [400, 401, 403, 404, 409, 410, 422]) assert.ok(!isRetryableFailure('get', { kind: 'status', status }));
  });
  it('uses Retry-After (bounded) over backoff, and stops after maxRetries', () => {
    const policy = { maxRetries: 2, backoff: { baseMs: 10, capMs: 100, jitter: 0 }, maxRetryAfterMs: 5000 };
    assert.equal(retryDelay('get', 0, { kind: 'status', status: 429, retryAfterSeconds: 2 }, () => 0, policy), 2000);
    assert.equal(retryDelay('get', 0, { kind: 'status', status: 429, retryAfterSeconds: 600 }, () => 0, policy), 5000);
    assert.equal(retryDelay('get', 1, { kind: 'status', status: 503 }, () => 0, policy), 20);
    assert.equal(retryDelay('get', 2, { kind: 'status', status: 503 }, () => 0, policy), undefined);
  });
  it('parses Retry-After seconds and ignores other forms', () => {
    assert.equal(parseRetryAfter('3'), 3);
    assert.equal(parseRetryAfter(['4']), 4);
    assert.equal(parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT'), undefined);
    assert.equal(parseRetryAfter(undefined), undefined);
  });
});

describe('createTokenBucket', () => {
  it('allows the burst at once, then one token per 1/qps on the injected clock', () => {
    let now = 0;
    const b = createTokenBucket({ qps: 10, burst: 3, clock: { now: () => now } });
    assert.deepEqual([b.reserve(), b.reserve(), b.reserve(), b.reserve(), b.reserve()], [0, 0, 0, 100, 200]);
    now = 1000; // refilled to the burst size, minus the two reservations already handed out
    assert.deepEqual([b.reserve(), b.reserve()], [0, 0]);
  });
  it('is unlimited when qps is not positive', () => {
    const b = createTokenBucket({ qps: 0, burst: 1, clock: { now: () => 0 } });
    assert.deepEqual([b.reserve(), b.reserve(), b.reserve()], [0, 0, 0]);
  });
});

describe('toApiError', () => {
  const status = (code: number, reason: string) => JSON.stringify({ kind: 'Status', code, reason, message: `m ${reason}` });
  it('classifies by status code and reason', () => {
    assert.ok(toApiError(404, status(404, 'NotFound'), 'x') instanceof NotFoundError);
    assert.ok(toApiError(409, status(409, 'AlreadyExists'), 'x') instanceof AlreadyExistsError);
    assert.ok(toApiError(409, status(409, 'Conflict'), 'x') instanceof ConflictError);
    assert.ok(toApiError(410, status(410, 'Expired'), 'x') instanceof GoneError);
    assert.ok(toApiError(422, status(422, 'Invalid'), 'x') instanceof InvalidError);
    const e = toApiError(429, status(429, 'TooManyRequests'), 'x');
    assert.ok(e instanceof ApiError && e.code === 429 && e.reason === 'TooManyRequests' && e.message === 'm TooManyRequests');
  });
  it('maps watch ERROR Status objects, 410 included', () => {
    assert.ok(watchStatusError({ kind: 'Status', code: 410, reason: 'Expired', message: 'too old' }) instanceof GoneError);
    assert.equal(watchStatusError({ message: 'no code' }).code, 500);
  });
});
