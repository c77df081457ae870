import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { httpProbePort } from '../../src/runtime/http-probe.js';
import { createVirtualClock } from '../../src/sim/virtual-clock.js';

/** A local endpoint: `/status/N` answers N; `/hang` never answers. */
function listen(seen: string[]): Promise<Server> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    seen.push(`${req.method} ${req.url}`);
    const code = /^\/status\/(\d+)$/.exec(req.url ?? '')?.[1];
    if (code !== undefined) {
      res.writeHead(Number(code));
      res.end('body');
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('httpProbePort (a real HTTP GET)', () => {
  const seen: string[] = [];
  let server: Server;
  let base: string;
  before(async () => {
    server = await listen(seen);
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  const probe = (path: string, expectedStatus = 200, timeoutMs = 5000) => ({ key: 'web-2/0/', revision: 'web-2', step: 0, kind: 'http' as const, url: `${base}${path}`, expectedStatus, timeoutMs });
  const live = new AbortController().signal;

  it('passes when the status is the expected one, and fails on another', async () => {
    const port = httpProbePort(createVirtualClock());
    assert.deepEqual(await port(probe('/status/200'), live), { ok: true, message: 'HTTP 200' });
    assert.deepEqual(await port(probe('/status/503'), live), { ok: false, message: 'HTTP 503, expected 200' });
    assert.deepEqual(await port(probe('/status/204', 204), live), { ok: true, message: 'HTTP 204' });
    assert.ok(seen.includes('GET /status/503'), seen.join(', '));
  });

  it('reports a refused connection as the connect error', async () => {
    const closed = await listen([]);
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/`;
    await new Promise((resolve) => closed.close(resolve));
    const outcome = await httpProbePort(createVirtualClock())({ key: 'k', revision: 'web-2', step: 0, kind: 'http', url, expectedStatus: 200, timeoutMs: 1000 }, live);
    assert.equal(outcome.ok, false);
    assert.match(outcome.message, /^connect ECONNREFUSED 127\.0\.0\.1:\d+$/);
  });

  it("gives up after the timeout, on the injected clock's time", async () => {
    const clock = createVirtualClock();
    const pending = httpProbePort(clock)(probe('/hang', 200, 2500), live);
    while (!seen.includes('GET /hang')) await new Promise((resolve) => server.once('request', resolve));
    assert.equal(clock.pending(), 1, 'the timeout is a timer of the injected clock');
    clock.advanceBy(2500);
    assert.deepEqual(await pending, { ok: false, message: 'no answer within 2.5s' });
    assert.equal(clock.pending(), 0);
  });

  it('stops a check in flight when the controller stops', async () => {
    const stop = new AbortController();
    const pending = httpProbePort(createVirtualClock())(probe('/hang'), stop.signal);
    stop.abort();
    const outcome = await pending;
    assert.equal(outcome.ok, false);
  });
});
