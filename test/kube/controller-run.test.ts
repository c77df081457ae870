// `ordinal controller`'s run loop (src/cli/controller/run.ts) against the fake API server: it takes the
// Lease, serves probes and metrics, and on a signal drains, releases the Lease and resolves exit code 0;
// a second signal forces the exit. (test/e2e/kube-controller.test.ts does the same on kube-apiserver.)
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Lease } from '../../src/api/types.js';
import { parseControllerFlags } from '../../src/cli/controller/controller-options.js';
import { LOST_EXIT_MS, runController } from '../../src/cli/controller/run.js';
import { openWatch, sendJson, sendStatus, startFakeApiServer, type FakeApiServer } from './fake-apiserver.js';

const LEASE_PATH = '/apis/coordination.k8s.io/v1/namespaces/ops/leases/ordinal-controller';

describe('runController', () => {
  let api: FakeApiServer;
  let lease: Lease | undefined;
  let rv = 10;
  before(async () => {
    api = await startFakeApiServer();
    api.handle((req, res) => {
      if (req.path === LEASE_PATH && req.method === 'GET') return lease ? sendJson(res, 200, lease) : sendStatus(res, 404, 'NotFound', 'no lease');
      if (req.path === LEASE_PATH && req.method === 'PUT') {
        const body = JSON.parse(req.body) as Lease;
        if (lease && body.metadata.resourceVersion !== lease.metadata.resourceVersion) return sendStatus(res, 409, 'Conflict', 'the object has been modified');
        lease = { ...body, metadata: { ...body.metadata, resourceVersion: String(++rv) } };
        return sendJson(res, 200, lease);
      }
      if (req.path.endsWith('/leases') && req.method === 'POST') {
        lease = { ...(JSON.parse(req.body) as Lease), metadata: { ...(JSON.parse(req.body) as Lease).metadata, resourceVersion: String(++rv) } };
        return sendJson(res, 201, lease);
      }
      if (req.method === 'GET' && req.query.get('watch') === '1') return void openWatch(res);
      if (req.method === 'GET') return sendJson(res, 200, { metadata: { resourceVersion: String(rv) }, items: [] });
      sendStatus(res, 405, 'MethodNotAllowed', 'unexpected');
    });
  });
  after(async () => {
    await api.close();
  });

  const config = () =>
    parseControllerFlags(
      { kubeconfig: api.kubeconfig, leaderElect: true, leaderElectNamespace: 'ops', metricsBindAddress: '127.0.0.1:0', healthProbeBindAddress: '127.0.0.1:0', gracefulShutdownTimeout: '5s' },
      { fileExists: () => true },
    );

  it('leads, serves /readyz and /metrics, and on SIGTERM releases the Lease and exits 0', async () => {
    const handlers = new Map<string, () => void>();
    const logs: string[] = [];
    const running = await runController(config(), {
      onSignal: (sig, h) => handlers.set(sig, h),
      hostname: 'unit',
      forceExit: () => assert.fail('no forced exit expected'),
      logWrite: (l) => logs.push(l),
    });
    for (let i = 0; i < 100 && !lease?.spec.holderIdentity; i++) await new Promise((r) => setTimeout(r, 20));
    assert.match(lease?.spec.holderIdentity ?? '', /^unit_[0-9a-f-]{36}$/);
    let ready = 0;
    for (let i = 0; i < 100 && ready !== 200; i++) {
      ready = (await fetch(`http://127.0.0.1:${running.ports.health}/readyz`)).status;
      if (ready !== 200) await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(ready, 200, 'ready once leading with synced caches');
    const exposition = await (await fetch(`http://127.0.0.1:${running.ports.metrics}/metrics`)).text();
    assert.match(exposition, /process_cpu_seconds_total/);
    assert.match(exposition, /^leader_election_master_status\{name="ordinal-controller"\} 1$/m, 'it leads');
    assert.deepEqual([...handlers.keys()].sort(), ['SIGINT', 'SIGTERM']);
    handlers.get('SIGTERM')!();
    assert.equal(await running.exited, 0);
    assert.equal(lease?.spec.holderIdentity, '', 'the Lease was released');
    assert.ok(logs.some((l) => l.includes('"reason":"received SIGTERM"')));
    const leading = logs.filter((l) => l.includes('"msg":"became leader"'));
    assert.equal(leading.length, 1, `one 'became leader' line: ${leading.join('')}`);
    assert.match(leading[0] ?? '', /"lease":"ops\/ordinal-controller"/);
  });

  it('exits 1 soon after another holder takes the Lease, sending nothing more', async () => {
    lease = undefined;
    const logs: string[] = [];
    const fast = { leaderElectLeaseDuration: '2s', leaderElectRenewDeadline: '1s', leaderElectRetryPeriod: '200ms' };
    const flags = { kubeconfig: api.kubeconfig, leaderElect: true, leaderElectNamespace: 'ops', metricsBindAddress: '0', healthProbeBindAddress: '0', ...fast };
    const running = await runController(parseControllerFlags(flags, { fileExists: () => true }), {
      onSignal: () => {},
      hostname: 'unit',
      forceExit: () => assert.fail('no forced exit expected'),
      logWrite: (l) => logs.push(l),
    });
    const held = (): Lease | undefined => lease;
    for (let i = 0; i < 200 && !held()?.spec.holderIdentity; i++) await new Promise((r) => setTimeout(r, 10));
    const mine = held()!;
    assert.match(mine.spec.holderIdentity ?? '', /^unit_/);
    lease = { ...mine, metadata: { ...mine.metadata, resourceVersion: String(++rv) }, spec: { ...mine.spec, holderIdentity: 'other' } };
    const taken = Date.now();
    const seen = api.requests.length;
    assert.equal(await running.exited, 1);
    const took = Date.now() - taken;
    assert.ok(took < 200 + LOST_EXIT_MS + 500, `exited ${took} ms after the Lease was taken`);
    assert.ok(logs.some((l) => l.includes('"msg":"leader election lost"')));
    assert.equal(held()?.spec.holderIdentity, 'other', 'it did not take the Lease back');
    const writes = api.requests.slice(seen).filter((r) => r.method !== 'GET');
    assert.deepEqual(writes.map((r) => `${r.method} ${r.path}`), [`PUT ${LEASE_PATH}`], 'only the renewal that found the Lease taken');
  });

  it('exits at once with 1 on a second signal during shutdown', async () => {
    lease = undefined;
    const handlers = new Map<string, () => void>();
    const forced: number[] = [];
    const running = await runController(
      { ...config(), leaderElection: undefined, metrics: undefined, health: undefined },
      { onSignal: (sig, h) => handlers.set(sig, h), hostname: 'unit', forceExit: (code) => forced.push(code), logWrite: () => {} },
    );
    handlers.get('SIGINT')!();
    handlers.get('SIGINT')!();
    assert.deepEqual(forced, [1]);
    assert.equal(await running.exited, 0);
  });
});
