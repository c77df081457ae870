// `dashboard` as a process runs it (serveDashboard): the URL it prints once the first lists are in, exit 0
// when stopped (and the port closed), exit 1 with one line per list when nothing could be listed, or when it
// cannot listen; the warning of a non-loopback address names the port it really listens on.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { ClusterClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { defaultFeatures } from '../../src/api/features.js';
import { serveDashboard } from '../../src/cli/dashboard/serve.js';
import { driveWithTurns, setYaml, startWorld, type TestWorld } from './world.js';

/** Serves until the URL is printed, then stops; the exit code and what was printed. */
async function serveOnce(w: TestWorld, host: string, port = 0): Promise<{ code: number; out: string; err: string }> {
  let stop: () => void = () => {};
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const served = serveDashboard(w.deps, { host, port }, defaultFeatures(), {}, stopped);
  const printed = (async () => {
    while (!w.io.out.includes('(Ctrl-C stops it)') && !w.io.err.startsWith('error')) await new Promise((r) => setImmediate(r));
    stop();
  })();
  const code = await driveWithTurns(w, served);
  await printed;
  return { code, out: w.io.out, err: w.io.err };
}

describe('dashboard, serving', () => {
  it('prints its URL once the sets and pods are listed, and exits 0 when stopped, its port closed', async () => {
    const w = await startWorld(setYaml());
    const r = await serveOnce(w, '127.0.0.1');
    assert.equal(r.code, 0, r.err);
    const m = /^Ordinal dashboard of context in-memory, namespace default: http:\/\/127\.0\.0\.1:(\d+)\/ \(Ctrl-C stops it\)\n$/.exec(r.out);
    assert.ok(m, r.out);
    await assert.rejects(fetch(`http://127.0.0.1:${m[1]}/`), 'nothing listens any more');
  });

  it('exits 1 with one line per failed list when neither sets nor pods could be listed', async () => {
    const w = await startWorld(setYaml());
    const refused = new Proxy(w.sim.world.user, {
      get(target, prop, receiver) {
        if (prop !== 'list') return Reflect.get(target, prop, receiver) as unknown;
        return () => Promise.reject(new ApiError('pods is forbidden: User "nobody" cannot list resource "pods"', 403, 'Forbidden'));
      },
    }) as ClusterClient;
    const r = await serveOnce({ ...w, deps: { ...w.deps, client: refused } }, '127.0.0.1');
    assert.equal(r.code, 1);
    assert.equal(r.out, '');
    const lines = r.err.trimEnd().split('\n');
    assert.deepEqual(lines.map((l) => l.split(':')[0] + ':' + l.split(':')[1]), [
      'error: cannot list statefulsets.apps',
      'error: cannot list statefulsets.apps.ordinal.dev',
      'error: cannot list pods',
      'error: cannot list events',
      'error: cannot list persistentvolumeclaims',
      'error: cannot list controllerrevisions.apps',
    ]);
    assert.match(lines[2] ?? '', /: Error from server \(Forbidden\): pods is forbidden: User "nobody" cannot list resource "pods"$/);
  });

  it('exits 1 when it cannot listen', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const w = await startWorld(setYaml());
      const r = await serveOnce(w, '127.0.0.1', (taken.address() as AddressInfo).port);
      assert.equal(r.code, 1);
      assert.match(r.err, /^error: cannot listen on 127\.0\.0\.1:\d+: listen EADDRINUSE: .* \(pick another with --address HOST:PORT\)\n$/);
    } finally {
      taken.close();
    }
  });

  it('warns of a non-loopback address with the port it listens on', async () => {
    const w = await startWorld(setYaml());
    const r = await serveOnce(w, '0.0.0.0');
    assert.equal(r.code, 0, r.err);
    const port = /http:\/\/localhost:(\d+)\//.exec(r.out)?.[1];
    assert.ok(port, r.out);
    assert.equal(r.err, `warning: serving on 0.0.0.0:${port}, which is not loopback: anyone who can reach it can read these sets and pause, promote, abort, retry, undo or restart them with the credentials of context in-memory\n`);
  });
});
