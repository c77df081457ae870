// The real Prometheus port (prometheus-probe.ts) against a local HTTP server that answers /api/v1/query as
// Prometheus' HTTP API does: the query and the baseline query both asked, their values judged by the CEL
// successCondition; no series, NaN, several series, an error answer, a refused connection and a timeout each
// become a check with no verdict, with words that say why. (test/e2e/prometheus-analysis.test.ts runs the
// controller against a real Prometheus server.)

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AnalysisProbe } from '../../src/controller/model/plan-types.js';
import { prometheusProbePort } from '../../src/runtime/prometheus-probe.js';
import { createVirtualClock } from '../../src/sim/virtual-clock.js';

const vector = (...values: string[]) => ({ status: 'success', data: { resultType: 'vector', result: values.map((v, i) => ({ metric: { pod: `web-${i}` }, value: [1, v] })) } });
/** What the server answers, by query text. */
const ANSWERS: Record<string, unknown> = {
  canary: vector('0.03'),
  old: vector('0.01'),
  none: vector(),
  nan: vector('NaN'),
  many: vector('1', '2'),
  scalar: { status: 'success', data: { resultType: 'scalar', result: [1, '0.5'] } },
};

let server: Server;
let base = '';
const asked: string[] = [];
before(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const query = url.searchParams.get('query') ?? '';
    asked.push(`${url.pathname} ${query}`);
    if (query === 'hang') return;
    const answer = ANSWERS[query];
    res.writeHead(answer === undefined ? 400 : 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer ?? { status: 'error', errorType: 'bad_data', error: '1:1: parse error: unexpected identifier' }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
after(() => {
  server.closeAllConnections();
  server.close();
});

const probe = (query: string, extra: Partial<Extract<AnalysisProbe, { kind: 'prometheus' }>> = {}): Extract<AnalysisProbe, { kind: 'prometheus' }> => ({
  key: 'web-2/0/',
  revision: 'web-2',
  step: 0,
  timeoutMs: 2000,
  kind: 'prometheus',
  address: base,
  query,
  successCondition: 'result < 0.05',
  ...extra,
});
const live = new AbortController().signal;

describe('prometheusProbePort (instant queries of a Prometheus HTTP API)', () => {
  it('asks /api/v1/query for both queries and judges their values with the successCondition', async () => {
    asked.length = 0;
    const port = prometheusProbePort(createVirtualClock());
    const outcome = await port(probe('canary', { baselineQuery: 'old', successCondition: 'result <= baseline * 1.5' }), live);
    assert.deepEqual(outcome, { ok: false, message: 'result 0.03, baseline 0.01: result <= baseline * 1.5 is false' });
    assert.deepEqual(asked.sort(), ['/api/v1/query canary', '/api/v1/query old']);
    assert.deepEqual(await port(probe('canary'), live), { ok: true, message: 'result 0.03: result < 0.05 is true' });
    assert.deepEqual(await port(probe('scalar', { successCondition: 'result == 0.5' }), live), { ok: true, message: 'result 0.5: result == 0.5 is true' });
  });

  it('no series and NaN are no data; several series, an error answer and a refused connection are errors', async () => {
    const port = prometheusProbePort(createVirtualClock());
    assert.deepEqual(await port(probe('none'), live), { ok: false, inconclusive: 'noData', message: 'query returned no series' });
    assert.deepEqual(await port(probe('canary', { baselineQuery: 'nan', successCondition: 'result < baseline' }), live), { ok: false, inconclusive: 'noData', message: 'baselineQuery returned NaN' });
    assert.deepEqual(await port(probe('many'), live), { ok: false, inconclusive: 'error', message: 'query returned 2 series; successCondition judges one value: aggregate them (sum, max, avg)' });
    assert.deepEqual(await port(probe('sum(('), live), { ok: false, inconclusive: 'error', message: 'query: Prometheus answered bad_data: 1:1: parse error: unexpected identifier' });
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const address = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((r) => closed.close(() => r()));
    const refused = await port(probe('canary', { address }), live);
    assert.equal(refused.inconclusive, 'error');
    assert.match(refused.message, /^query: connect ECONNREFUSED 127\.0\.0\.1:\d+$/);
  });

  it('gives up after the timeout on the injected timers', async () => {
    const clock = createVirtualClock();
    asked.length = 0;
    const pending = prometheusProbePort(clock)(probe('hang', { timeoutMs: 1500 }), live);
    while (!asked.includes('/api/v1/query hang')) await new Promise((resolve) => server.once('request', resolve));
    clock.advanceBy(1500);
    assert.deepEqual(await pending, { ok: false, inconclusive: 'error', message: 'query: no answer within 1.5s' });
  });

  it('answers a probe whose outcome is known without asking', async () => {
    asked.length = 0;
    const known = { inconclusive: 'noData' as const, message: 'no pod is on revision web-1, so {{pods}} matches nothing' };
    assert.deepEqual(await prometheusProbePort(createVirtualClock())(probe('canary', { known }), live), { ok: false, ...known });
    assert.deepEqual(asked, []);
  });

  it('a runtime CEL error is an error, not a verdict', async () => {
    const outcome = await prometheusProbePort(createVirtualClock())(probe('canary', { successCondition: "result > 0.0 && result < 'x'" }), live);
    assert.equal(outcome.inconclusive, 'error');
    assert.match(outcome.message, /^result 0\.03: successCondition: found no matching overload/);
  });
});
