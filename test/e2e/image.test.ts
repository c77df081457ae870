// The container image, run for real: podman starts the image scripts/image/build.sh built ($ORDINAL_IMAGE)
// against the end-to-end kube-apiserver the way a pod of deploy/deployment.yaml runs — the Deployment's
// args, the Dockerfile's non-root user, a read-only root filesystem with a tmpfs /tmp, no capabilities,
// and the in-cluster ServiceAccount token (minted by TokenRequest) bound by the generated least-privilege
// RBAC. It takes the Lease, reconciles a set, serves /healthz, /readyz and /metrics, and exits 0 on
// SIGTERM after releasing the Lease. Skipped locally without an image; under CI a missing image fails.
import { after as afterAll, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { Resources, type Resource } from '../../src/api/client.js';
import type { KubeObject, Lease } from '../../src/api/types.js';
import { controllerArgs } from '../../src/cli/manifests/deployment.js';
import { buildRbac } from '../../src/cli/manifests/rbac.js';
import { manifestOptions } from '../../src/cli/manifests/render.js';
import { applyObject, closeSession, uniqueName } from './cluster-session.js';
import { kubeRequester } from './control-plane.js';
import { ControllerProcess } from './controller-process.js';
import { exampleSet, fastKubelet, loadExample } from './examples.js';
import { e2eTest, type TestEnv } from './harness.js';
import { waitUntil } from './wait.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const IMAGE = process.env.ORDINAL_IMAGE;
// The driver scripts/image/lib.sh builds with; podman must open the same storage.
const STORAGE = ['--storage-driver', process.env.ORDINAL_IMAGE_STORAGE_DRIVER ?? 'vfs'];
const SA_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';
const example = loadExample('scale-up-down.yaml');

afterAll(() => closeSession());

function podman(...args: string[]): { status: number | null; stdout: string; stderr: string; error?: Error } {
  return spawnSync('podman', [...STORAGE, ...args], { encoding: 'utf8', timeout: 120_000 });
}

/** Why the image cannot be run here, or undefined when it can. */
function imageMissing(): string | undefined {
  const how = 'build it with `export ORDINAL_IMAGE=$(scripts/image/build.sh)` (needs buildah, podman and runc)';
  if (!IMAGE) return `ORDINAL_IMAGE is not set (.ci/run sets it after scripts/image/build.sh succeeds); ${how}`;
  const res = podman('image', 'exists', IMAGE);
  if (res.error) return `no podman: ${res.error.message}; ${how}`;
  if (res.status !== 0) return `ORDINAL_IMAGE=${IMAGE} is not in the local image store; ${how}`;
  return undefined;
}

const missing = imageMissing();

/** N distinct free TCP ports (the container shares the host's network, so its servers bind here). */
async function freePorts(n: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: n }, () => new Promise<ReturnType<typeof createServer>>((done) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => done(s));
    })),
  );
  const ports = servers.map((s) => (s.address() as { port: number }).port);
  await Promise.all(servers.map((s) => new Promise((done) => s.close(done))));
  return ports;
}

async function httpGet(url: string): Promise<{ status: number; body: string }> {
  const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
  return { status: res.status, body: await res.text() };
}

const r = (group: string, plural: string, kind: string, namespaced = true): Resource => ({ group, version: 'v1', plural, kind, namespaced });
const RBAC: Record<string, Resource> = {
  ServiceAccount: r('', 'serviceaccounts', 'ServiceAccount'),
  ClusterRole: r('rbac.authorization.k8s.io', 'clusterroles', 'ClusterRole', false),
  ClusterRoleBinding: r('rbac.authorization.k8s.io', 'clusterrolebindings', 'ClusterRoleBinding', false),
  Role: r('rbac.authorization.k8s.io', 'roles', 'Role'),
  RoleBinding: r('rbac.authorization.k8s.io', 'rolebindings', 'RoleBinding'),
};

/** The image's `USER`, which must be the uid:gid deploy/deployment.yaml's pod securityContext names. */
function imageUser(image: string): string {
  const res = podman('image', 'inspect', '--format', '{{.Config.User}}', image);
  assert.equal(res.status, 0, res.stderr);
  return res.stdout.trim();
}

function deploymentUser(): string {
  const docs = readFileSync(join(ROOT, 'deploy/deployment.yaml'), 'utf8').split(/^---$/m).map((d) => parseYaml(d) as KubeObject & { spec?: { template?: { spec?: { securityContext?: { runAsUser?: number; runAsGroup?: number } } } } });
  const sc = docs.find((d) => d.kind === 'Deployment')?.spec?.template?.spec?.securityContext;
  return `${sc?.runAsUser}:${sc?.runAsGroup}`;
}

/**
 * The generated RBAC (what deploy/rbac.yaml holds, with this test's namespace and a unique name so that it
 * does not collide with other tests' cluster-scoped objects), a TokenRequest token for its
 * ServiceAccount, and a directory laid out like the kubelet's projected ServiceAccount volume.
 */
async function serviceAccount(env: TestEnv, name: string): Promise<string> {
  const o = manifestOptions('0.0.0-e2e', { namespace: env.ns, name });
  const objects = buildRbac(o) as KubeObject[];
  env.onClose(async () => {
    for (const obj of objects.filter((x) => !RBAC[x.kind ?? '']!.namespaced)) {
      await env.client.delete(RBAC[obj.kind ?? '']!, undefined, obj.metadata.name ?? '').catch(() => undefined);
    }
  });
  for (const obj of objects) await applyObject(env.client, RBAC[obj.kind ?? '']!, obj);
  const admin = kubeRequester(env.cp.kubeconfigPath);
  const minted = await admin<{ status?: { token?: string } }>('POST', `/api/v1/namespaces/${env.ns}/serviceaccounts/${name}/token`, {
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'TokenRequest',
    spec: { expirationSeconds: 3600 },
  });
  assert.equal(minted.status, 201, JSON.stringify(minted.body));
  const kc = parseYaml(readFileSync(env.cp.kubeconfigPath, 'utf8')) as { clusters: { cluster: { 'certificate-authority-data': string } }[] };
  const dir = mkdtempSync(join(tmpdir(), 'ordinal-sa-'));
  env.onClose(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'token'), minted.body.status?.token ?? '');
  writeFileSync(join(dir, 'ca.crt'), Buffer.from(kc.clusters[0]?.cluster['certificate-authority-data'] ?? '', 'base64'));
  writeFileSync(join(dir, 'namespace'), env.ns);
  // The kubelet projects these 0644 (defaultMode) for any uid; the container's user is not root.
  chmodSync(dir, 0o755);
  for (const f of ['token', 'ca.crt', 'namespace']) chmodSync(join(dir, f), 0o644);
  return dir;
}

function serverPort(kubeconfigPath: string): string {
  const kc = parseYaml(readFileSync(kubeconfigPath, 'utf8')) as { clusters: { cluster: { server: string } }[] };
  return new URL(kc.clusters[0]?.cluster.server ?? '').port;
}

describe('the controller image on the real API server', { skip: process.env.CI ? false : missing }, () => {
  e2eTest('runs as a pod would: takes the Lease, reconciles, serves probes and metrics, exits 0 on SIGTERM releasing the Lease', {
    timeout: 240_000,
    kubelet: fastKubelet(example),
    controller: false,
  }, async (env) => {
    if (missing) throw new Error(`CI=${process.env.CI} but ${missing}`);
    const image = IMAGE ?? '';
    const user = imageUser(image);
    assert.match(user, /^[1-9]\d*:\d+$/, 'the image runs as a numeric non-root user');
    assert.equal(user, deploymentUser(), 'the image USER is the uid:gid deploy/deployment.yaml runs as');

    const name = uniqueName('ordinal-image');
    const saDir = await serviceAccount(env, name);
    const [metricsPort, healthPort] = await freePorts(2);
    const args = [...controllerArgs(manifestOptions('0.0.0-e2e', { namespace: env.ns, name, metricsPort, healthPort })), `--namespace=${env.ns}`];
    const container = name;
    env.onClose(() => void podman('rm', '--force', '--ignore', container));
    const startedAt = Date.now();
    const c = new ControllerProcess({ kubeconfig: '', namespaces: [env.ns], label: 'image' }, ['podman', [
      ...STORAGE,
      // runc: crun refuses the hybrid cgroup v1/v2 hierarchy of some hosts (this CI machine's among them).
      '--runtime', 'runc',
      'run', '--rm', '--name', container,
      // kube-apiserver listens on the host's 127.0.0.1.
      '--network', 'host',
      '--user', user,
      '--read-only', '--tmpfs', '/tmp:size=64m',
      '--cap-drop', 'ALL', '--security-opt', 'no-new-privileges',
      // Limits at or below the host's: raising RLIMIT_NOFILE/NPROC needs CAP_SYS_RESOURCE, which
      // sandboxed CI machines may not grant to the engine.
      '--ulimit', 'nofile=4096:4096', '--ulimit', 'nproc=4096:4096',
      '--volume', `${saDir}:${SA_DIR}:ro`,
      '--env', 'KUBERNETES_SERVICE_HOST=127.0.0.1', '--env', `KUBERNETES_SERVICE_PORT=${serverPort(env.cp.kubeconfigPath)}`,
      '--env', `POD_NAME=${container}`, '--env', `POD_NAMESPACE=${env.ns}`,
      image, ...args,
    ]]);
    env.controllers.push(c);
    env.onClose(async () => void (await c.stop()));

    const health = `http://127.0.0.1:${healthPort}`;
    await waitUntil('/readyz to answer 200', 90_000, async () => {
      if (!c.isRunning()) throw new Error(`the container exited:\n${c.tail()}`);
      return (await httpGet(`${health}/readyz`).catch(() => ({ status: 0 }))).status === 200;
    }, 100);
    const readyAt = Date.now();
    const readyMs = readyAt - startedAt;
    const firstLog = c.logs()[0]?.time;
    const firstLogAt = typeof firstLog === 'number' ? firstLog : Date.parse(String(firstLog));
    const leader = await c.waitForLog('became leader', 60_000);
    const leaderMs = Date.now() - startedAt;
    // The container's main process as the host sees it: the image's user, with no capabilities.
    const pid = podman('inspect', '--format', '{{.State.Pid}}', container).stdout.trim();
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const [uid, gid] = user.split(':');
    assert.match(status, new RegExp(`^Uid:\\s+${uid}\\s+${uid}\\s`, 'm'), status);
    assert.match(status, new RegExp(`^Gid:\\s+${gid}\\s+${gid}\\s`, 'm'), status);
    assert.match(status, /^CapEff:\s+0+$/m, 'no effective capabilities');

    const lease = await env.client.get<Lease>(Resources.leases, env.ns, name);
    assert.equal(lease.spec.holderIdentity, String(leader.identity), 'the Lease names the containerised controller');

    await env.createConverged(exampleSet(example, 'parallel', { namespace: env.ns, apiVersion: env.apiVersion }));
    await env.patch('parallel', { spec: { replicas: 4 } });
    await env.waitConverged('parallel', 60_000);

    assert.equal((await httpGet(`${health}/healthz`)).status, 200);
    assert.equal((await httpGet(`${health}/readyz`)).status, 200);
    const metrics = await httpGet(`http://127.0.0.1:${metricsPort}/metrics`);
    assert.equal(metrics.status, 200);
    const synced = /^ordinal_reconcile_total\{result="success"\} (\d+)$/m.exec(metrics.body);
    assert.ok(synced && Number(synced[1]) > 0, `successful syncs counted in /metrics:\n${metrics.body.slice(0, 2000)}`);
    assert.match(metrics.body, /^process_start_time_seconds \d+$/m);

    const exit = await c.stop();
    assert.deepEqual(exit, { code: 0, signal: null }, `exits 0 on SIGTERM:\n${c.tail()}`);
    const released = await env.client.get<Lease>(Resources.leases, env.ns, name);
    assert.equal(released.spec.holderIdentity ?? '', '', 'the Lease is released (holderIdentity cleared)');

    const size = podman('image', 'inspect', '--format', '{{.Size}}', image);
    env.note(`image ${image}: ${(Number(size.stdout.trim()) / 1e6).toFixed(0)} MB; podman run → /readyz 200 in ${readyMs} ms ` +
      `(first log line → /readyz ${readyAt - firstLogAt} ms), → Lease taken in ${leaderMs} ms`);
  });
});
