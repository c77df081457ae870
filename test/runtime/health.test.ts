import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Counter, Registry } from 'prom-client';
import { startHealthServer, startHttpEndpoints, startMetricsServer } from '../../src/runtime/health.js';

const get = async (port: number, path: string) => {
  const res = await fetch(`http://127.0.0.1:${port}${path}`);
  return { status: res.status, body: await res.text(), type: res.headers.get('content-type') };
};

describe('health and metrics endpoints', () => {
  it('answers /healthz and /readyz from the callbacks', async () => {
    let ready = false;
    const server = await startHealthServer({ port: 0, host: '127.0.0.1', healthz: () => true, readyz: () => ready });
    try {
      assert.deepEqual(await get(server.port, '/healthz').then((r) => [r.status, r.body]), [200, 'ok']);
      assert.equal((await get(server.port, '/readyz')).status, 503);
      ready = true;
      assert.equal((await get(server.port, '/readyz')).status, 200);
      assert.equal((await get(server.port, '/metrics')).status, 404);
    } finally {
      await server.close();
    }
  });

  it('serves the registry on /metrics in the Prometheus text format', async () => {
    const registry = new Registry();
    new Counter({ name: 'ordinal_test_total', help: 'test', registers: [registry] }).inc(3);
    const server = await startMetricsServer({ port: 0, host: '127.0.0.1', registry });
    try {
      const r = await get(server.port, '/metrics');
      assert.equal(r.status, 200);
      assert.match(r.body, /ordinal_test_total 3/);
      assert.match(r.type ?? '', /text\/plain/);
      assert.equal((await get(server.port, '/healthz')).status, 404);
    } finally {
      await server.close();
    }
  });

  it('serves all three on one port when given everything, and rejects other methods', async () => {
    const server = await startHttpEndpoints({ port: 0, host: '127.0.0.1', healthz: () => true, readyz: () => true, registry: new Registry() });
    try {
      assert.equal((await get(server.port, '/metrics')).status, 200);
      assert.equal((await get(server.port, '/readyz?verbose')).status, 200);
      const post = await fetch(`http://127.0.0.1:${server.port}/healthz`, { method: 'POST' });
      assert.equal(post.status, 405);
    } finally {
      await server.close();
    }
  });
});
