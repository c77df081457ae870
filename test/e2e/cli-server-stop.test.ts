// `kubectl ordinal rollout status` watching a set on the real kube-apiserver when the server goes away
// mid-watch: it must end with one `error:` line naming the server and the cause, and exit 1 — from the
// clone (bin/) and as the single-file bundle.
//
// The server that goes away is a TCP proxy in front of the real kube-apiserver, not the kube-apiserver
// itself: every e2e file shares that one server and runs concurrently, so stopping it would fail them.
// Cutting the proxy (closing its listener and every connection through it) is what a client sees when
// the server process stops: the open watch breaks and new connections are refused. TLS passes through
// the proxy untouched (the serving certificate is for 127.0.0.1, which the proxy address also is).

import { before, after as afterAll, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { closeSession } from './cluster-session.js';
import { e2eTest, twoReplicaSet } from './harness.js';

const root = new URL('../..', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'ordinal-cli-stop-'));
const bundle = join(dir, 'kubectl-ordinal');

before(() => {
  const outfile = join(dir, 'kubectl-ordinal.cjs');
  const build = spawnSync(process.execPath, [join(root, 'scripts', 'bundle.mjs'), '--outfile', outfile], { encoding: 'utf8' });
  assert.equal(build.status, 0, build.stderr);
  copyFileSync(outfile, bundle);
});

afterAll(() => {
  closeSession();
  rmSync(dir, { recursive: true, force: true });
});

interface Proxy {
  url: string;
  /** Refuses new connections and breaks every open one, as a stopped server does. */
  cut(): Promise<void>;
}

async function startProxy(target: URL): Promise<Proxy> {
  const sockets = new Set<Socket>();
  const track = (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => s.destroy());
  };
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    track(client);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    cut: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}

/** The e2e admin kubeconfig with its server replaced by `server`. */
function kubeconfigVia(original: string, server: string, name: string): string {
  const kc = parseYaml(readFileSync(original, 'utf8')) as { clusters: { cluster: { server: string } }[] };
  for (const c of kc.clusters) c.cluster.server = server;
  const file = join(dir, `${name}.kubeconfig`);
  writeFileSync(file, toYaml(kc));
  return file;
}

interface Running {
  stdout: string;
  stderr: string;
  exited: Promise<number | null>;
}

function startStatus(command: string[], args: string[]): Running {
  const child = spawn(process.execPath, [...command, ...args], { cwd: dir, env: { ...process.env, NO_COLOR: '1', KUBECONFIG: '' } });
  const run: Running = { stdout: '', stderr: '', exited: new Promise((resolve) => child.on('exit', (code) => resolve(code))) };
  child.stdout.on('data', (c: Buffer) => (run.stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (run.stderr += c.toString()));
  return run;
}

async function until(cond: () => boolean, what: string, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('kubectl ordinal rollout status when the API server stops mid-watch', () => {
  // No controller and no kubelet: the set never converges, so rollout status keeps watching.
  e2eTest('reports the lost server on one line and exits 1', { timeout: 240_000, controller: false }, async (env) => {
    await env.create(twoReplicaSet(env, 'web'));
    const proxy = await startProxy(new URL(env.client.server));
    const kubeconfig = kubeconfigVia(env.cp.kubeconfigPath, proxy.url, 'via-proxy');
    const args = ['rollout', 'status', 'web', '-n', env.ns, '--kubeconfig', kubeconfig];
    const runs = { bin: startStatus([join(root, 'bin', 'kubectl-ordinal.js')], args), bundle: startStatus([bundle], args) };
    try {
      const started = Date.now();
      await until(() => Object.values(runs).every((r) => r.stdout.includes('Waiting for')), 'both to be watching', 120_000);
      env.note(`watching after ${Date.now() - started} ms`);
      await proxy.cut();
      const cutAt = Date.now();
      for (const [variant, r] of Object.entries(runs)) {
        const code = await Promise.race([r.exited, new Promise<'running'>((resolve) => setTimeout(() => resolve('running'), 90_000))]);
        env.note(`${variant}: exited ${Date.now() - cutAt} ms after the server went away`);
        const what = `${variant}: exit ${code}, stderr ${JSON.stringify(r.stderr)}, stdout ${JSON.stringify(r.stdout)}`;
        assert.equal(code, 1, what);
        assert.equal(r.stderr.split('\n').length, 2, `one line: ${what}`);
        const port = new URL(proxy.url).port;
        assert.match(
          r.stderr.trimEnd(),
          new RegExp(`^error: cannot list (pods|statefulsets): Get "https://127\\.0\\.0\\.1:${port}/.*": dial tcp 127\\.0\\.0\\.1:${port}: connect: connection refused$`),
          what,
        );
      }
    } finally {
      await proxy.cut().catch(() => {});
    }
  });
});
