// `ordinal controller` (src/cli/controller/run.ts) against a real kube-apiserver: it syncs an
// apps.ordinal.dev/v1 StatefulSet into pods and status, serves /readyz and /metrics, holds and on
// shutdown releases its Lease, and exits 0. No kubelet runs, so pods stay Pending; that is enough here.
import { after, it } from 'node:test';
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { Resources } from '../../src/api/client.js';
import { isAlreadyExists, isConflict, isNotFound } from '../../src/api/errors.js';
import type { KubeObject, Lease, Pod, StatefulSet } from '../../src/api/types.js';
import { parseControllerFlags } from '../../src/cli/controller/controller-options.js';
import { runController } from '../../src/cli/controller/run.js';
import { createKubeClient, type KubeClient } from '../../src/cluster/kube/index.js';
import { realTimers } from '../../src/runtime/real-clock.js';
import { ALERTS } from '../../src/cli/manifests/alert-rules.js';
import { dashboardQueries, grafanaDashboard } from '../../src/cli/manifests/grafana-dashboard.js';
import { isServed, metricNames, scrapedFamilies } from '../deploy/promql-names.js';
import { requireControlPlane } from './control-plane.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const RUN = `${process.pid.toString(36)}${Date.now().toString(36).slice(-4)}`;
const NS = `kube-ctl-${RUN}`;
const CRDS = { group: 'apiextensions.k8s.io', version: 'v1', plural: 'customresourcedefinitions', kind: 'CustomResourceDefinition', namespaced: false };

let client: KubeClient | undefined;
after(async () => {
  await client?.delete(Resources.namespaces, undefined, NS).catch(() => undefined);
  client?.close();
});

async function poll<T>(what: string, get: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  for (let waited = 0; waited < ms; waited += 100) {
    const v = await get().catch(() => undefined);
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function installCrd(c: KubeClient, attempts = 5): Promise<void> {
  const [crd] = parseAllDocuments(readFileSync(`${ROOT}deploy/crd.yaml`, 'utf8')).map((d) => d.toJS() as KubeObject);
  try {
    const live = await c.get(CRDS, undefined, crd!.metadata.name ?? '');
    await c.update(CRDS, { ...crd!, metadata: { ...crd!.metadata, resourceVersion: live.metadata.resourceVersion } });
  } catch (e) {
    // Another test file may install it at the same moment.
    if (attempts > 1 && (isConflict(e) || isAlreadyExists(e))) return installCrd(c, attempts - 1);
    if (!isNotFound(e)) throw e;
    await c.create(CRDS, crd!).catch((err: unknown) => (attempts > 1 && isAlreadyExists(err) ? installCrd(c, attempts - 1) : Promise.reject(err)));
  }
  await poll('the StatefulSet resource', () => c.list(Resources.ordinalStatefulSets, 'default').then(() => true));
}

async function get(port: number, path: string): Promise<{ status: number; body: string }> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`);
  return { status: res.status, body: await res.text() };
}

async function setup(t: TestContext): Promise<{ c: KubeClient; kubeconfig: string } | undefined> {
  const cp = requireControlPlane(t);
  if (!cp) return undefined;
  client = createKubeClient({ kubeconfig: cp.kubeconfigPath, qps: 0, timers: realTimers(), random: Math.random });
  await installCrd(client);
  await client.create(Resources.namespaces, { metadata: { name: NS } });
  return { c: client, kubeconfig: cp.kubeconfigPath };
}

it('ordinal controller syncs a CRD StatefulSet, serves probes and metrics, and releases its Lease on shutdown', async (t) => {
  const env = await setup(t);
  if (!env) return;
  const { c } = env;
  const config = parseControllerFlags(
    {
      kubeconfig: env.kubeconfig,
      namespace: [NS],
      leaderElect: true,
      leaderElectNamespace: NS,
      metricsBindAddress: '127.0.0.1:0',
      healthProbeBindAddress: '127.0.0.1:0',
      logLevel: process.env.ORDINAL_E2E_LOG_LEVEL ?? 'warn',
    },
    { fileExists: () => true },
  );
  const logs: string[] = [];
  const running = await runController(config, { onSignal: () => {}, hostname: 'e2e', forceExit: () => assert.fail('forced exit'), logWrite: (l) => logs.push(l), version: 'e2e' });
  t.after(() => { if (process.env.ORDINAL_E2E_LOG_LEVEL) process.stderr.write(logs.join('')); });
  try {
    const lease = await poll('the Lease', () => c.get<Lease>(Resources.leases, NS, 'ordinal-controller').then((l) => (l.spec.holderIdentity ? l : undefined)));
    assert.match(lease.spec.holderIdentity ?? '', /^e2e_/);
    const set: StatefulSet = {
      apiVersion: 'apps.ordinal.dev/v1',
      kind: 'StatefulSet',
      metadata: { name: 'web', namespace: NS },
      spec: {
        replicas: 2,
        podManagementPolicy: 'Parallel',
        selector: { matchLabels: { app: 'web' } },
        // Pod defaults spelled out: the runtime validates CRD objects without pod-template defaulting (reported).
        template: { metadata: { labels: { app: 'web' } }, spec: { restartPolicy: 'Always', containers: [{ name: 'app', image: 'nginx:1.27', imagePullPolicy: 'IfNotPresent' }] } },
      },
    };
    await c.create(Resources.ordinalStatefulSets, set);
    const pods = await poll('two pods', () => c.list<Pod>(Resources.pods, NS).then((l) => (l.items.length === 2 ? l.items : undefined)));
    assert.deepEqual(pods.map((p) => p.metadata.name).sort(), ['web-0', 'web-1']);
    assert.equal(pods[0]?.metadata.ownerReferences?.[0]?.kind, 'StatefulSet');
    assert.equal(pods[0]?.metadata.ownerReferences?.[0]?.apiVersion, 'apps.ordinal.dev/v1');
    const status = await poll('status.replicas 2', () =>
      c.get<StatefulSet>(Resources.ordinalStatefulSets, NS, 'web').then((s) => (s.status?.replicas === 2 ? s.status : undefined)),
    );
    assert.ok(status.updateRevision?.startsWith('web-'));
    assert.equal((await get(running.ports.health!, '/readyz')).status, 200);
    assert.equal((await get(running.ports.health!, '/healthz')).status, 200);
    const metrics = await get(running.ports.metrics!, '/metrics');
    assert.match(metrics.body, /workqueue_adds_total\{name="statefulset"\}/);
    assert.match(metrics.body, /ordinal_reconcile_total/);
    // the observability package reads only what this scrape serves (test/deploy/dashboard.test.ts, on the fake API server)
    const families = scrapedFamilies(metrics.body);
    const queries = [...dashboardQueries(grafanaDashboard('e2e')), ...ALERTS.map((a) => a.expr)];
    assert.deepEqual(queries.flatMap((q) => metricNames(q).filter((n) => !isServed(n, families)).map((n) => `${n} in ${q}`)), []);
    assert.match(metrics.body, /^statefulset_status_condition\{statefulset_namespace="[^"]+",statefulset_name="web",pod_management_policy="Parallel",condition="Progressing",status="(True|False)",reason="\w+"\} 1$/m);
  } finally {
    running.shutdown();
  }
  assert.equal(await running.exited, 0);
  const released = await c.get<Lease>(Resources.leases, NS, 'ordinal-controller');
  assert.ok(!released.spec.holderIdentity, `lease still held by ${released.spec.holderIdentity}`);
  assert.deepEqual(logs.filter((l) => /"level":(50|60)/.test(l)), [], 'no error logs');
});

it('the `ordinal controller` process takes the Lease, and on SIGTERM drains, releases it and exits 0', async (t) => {
  const cp = requireControlPlane(t);
  if (!cp) return;
  client ??= createKubeClient({ kubeconfig: cp.kubeconfigPath, qps: 0, timers: realTimers(), random: Math.random });
  const c = client;
  const ns = `${NS}-proc`;
  await c.create(Resources.namespaces, { metadata: { name: ns } });
  t.after(() => c.delete(Resources.namespaces, undefined, ns).catch(() => undefined));
  const args = ['bin/ordinal.js', 'controller', `--kubeconfig=${cp.kubeconfigPath}`, `--namespace=${ns}`, '--leader-elect', `--leader-elect-namespace=${ns}`];
  const child = spawn(process.execPath, [...args, '--metrics-bind-address=0', '--health-probe-bind-address=0', '--log-format=text'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    await poll('the Lease', () => c.get<Lease>(Resources.leases, ns, 'ordinal-controller').then((l) => (l.spec.holderIdentity ? l : undefined)), 30_000);
  } catch (e) {
    child.kill('SIGKILL');
    throw new Error(`${String(e)}\n${stderr}`);
  }
  child.kill('SIGTERM');
  assert.equal(await exited, 0, stderr);
  assert.match(stderr, /shutting down .*reason="received SIGTERM"/);
  const lease = await c.get<Lease>(Resources.leases, ns, 'ordinal-controller');
  assert.ok(!lease.spec.holderIdentity, `lease still held by ${lease.spec.holderIdentity}`);
});
