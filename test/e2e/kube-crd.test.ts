// deploy/'s manifests on a real kube-apiserver, through the kube adapter: the CRD installs and becomes
// Established, every generated object is accepted, and the CRD's schema and CEL rules give the verdicts
// and field paths of the table in test/deploy/crd-cases.ts (which validateStatefulSet also meets).
import { after, describe, it } from 'node:test';
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { Resources, type Resource } from '../../src/api/client.js';
import { InvalidError, isAlreadyExists, isConflict, isNotFound } from '../../src/api/errors.js';
import type { KubeObject, StatefulSet } from '../../src/api/types.js';
import { commonLabels } from '../../src/cli/manifests/options.js';
import { allManifests, apiManifests, manifestOptions } from '../../src/cli/manifests/render.js';
import { createKubeClient, type KubeClient } from '../../src/cluster/kube/index.js';
import { realTimers } from '../../src/runtime/real-clock.js';
import { baseSet, CREATE_CASES, UPDATE_CASES, type Mutable } from '../deploy/crd-cases.js';
import { requireControlPlane } from './control-plane.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const RUN = `${process.pid.toString(36)}${Date.now().toString(36).slice(-4)}`;
const NS = `kube-crd-${RUN}`;
const OSTS = Resources.ordinalStatefulSets;

const r = (group: string, plural: string, kind: string, namespaced = true): Resource => ({ group, version: 'v1', plural, kind, namespaced });
const RESOURCES: Record<string, Resource> = {
  CustomResourceDefinition: r('apiextensions.k8s.io', 'customresourcedefinitions', 'CustomResourceDefinition', false),
  Namespace: Resources.namespaces,
  ServiceAccount: r('', 'serviceaccounts', 'ServiceAccount'),
  ClusterRole: r('rbac.authorization.k8s.io', 'clusterroles', 'ClusterRole', false),
  ClusterRoleBinding: r('rbac.authorization.k8s.io', 'clusterrolebindings', 'ClusterRoleBinding', false),
  Role: r('rbac.authorization.k8s.io', 'roles', 'Role'),
  RoleBinding: r('rbac.authorization.k8s.io', 'rolebindings', 'RoleBinding'),
  Deployment: r('apps', 'deployments', 'Deployment'),
  Service: Resources.services,
  ValidatingAdmissionPolicy: r('admissionregistration.k8s.io', 'validatingadmissionpolicies', 'ValidatingAdmissionPolicy', false),
  ValidatingAdmissionPolicyBinding: r('admissionregistration.k8s.io', 'validatingadmissionpolicybindings', 'ValidatingAdmissionPolicyBinding', false),
};

let client: KubeClient | undefined;
let installed: Promise<void> | undefined;

async function poll(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Creates, or replaces keeping the resourceVersion, an object (other test files may apply it concurrently). */
async function apply(c: KubeClient, obj: KubeObject, attempts = 5): Promise<void> {
  const res = RESOURCES[obj.kind ?? ''];
  assert.ok(res, `no resource for ${obj.kind}`);
  try {
    const live = await c.get(res, obj.metadata.namespace, obj.metadata.name ?? '');
    await c.update(res, { ...obj, metadata: { ...obj.metadata, resourceVersion: live.metadata.resourceVersion } });
  } catch (e) {
    if (attempts > 1 && (isConflict(e) || isAlreadyExists(e))) return apply(c, obj, attempts - 1);
    if (!isNotFound(e)) throw e;
    await c.create(res, obj).catch((err: unknown) => (attempts > 1 && isAlreadyExists(err) ? apply(c, obj, attempts - 1) : Promise.reject(err)));
  }
}

async function setup(t: TestContext): Promise<KubeClient | undefined> {
  const cp = requireControlPlane(t);
  if (!cp) return undefined;
  client ??= createKubeClient({ kubeconfig: cp.kubeconfigPath, qps: 0, timers: realTimers(), random: Math.random });
  const c = client;
  installed ??= (async () => {
    const [crd, ...policy] = parseAllDocuments(readFileSync(`${ROOT}deploy/crd.yaml`, 'utf8')).map((d) => d.toJS() as KubeObject);
    await apply(c, crd!);
    for (const d of policy) await apply(c, d);
    await poll('the CRD to be Established', async () => {
      const live = (await c.get(RESOURCES.CustomResourceDefinition!, undefined, crd!.metadata.name ?? '')) as KubeObject & { status?: { conditions?: { type: string; status: string }[] } };
      return live.status?.conditions?.some((x) => x.type === 'Established' && x.status === 'True') ?? false;
    });
    await c.create(Resources.namespaces, { metadata: { name: NS } });
    await poll('the StatefulSet resource to be served', async () => c.list(OSTS, NS).then(() => true, () => false));
    // the admission policy takes effect a moment after it is written: wait until it refuses a dry-run shrink
    const probe = await c.create(OSTS, build('policy-probe', (s) => (s.spec.volumeClaimTemplates = [{ metadata: { name: 'd' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '2Gi' } } } }])));
    const shrunk = structuredClone(probe) as Mutable;
    shrunk.spec.volumeClaimTemplates[0].spec.resources.requests.storage = '1Gi';
    await poll('the claim storage policy to take effect', async () => c.update(OSTS, shrunk, { dryRun: true }).then(() => false, () => true));
  })();
  await installed;
  return c;
}

after(async () => {
  await client?.delete(Resources.namespaces, undefined, NS).catch(() => undefined);
  client?.close();
});

function build(name: string, mutate: (s: Mutable) => void): StatefulSet {
  const s = structuredClone(baseSet(NS, name));
  mutate(s);
  return s;
}

describe('deploy/ manifests on kube-apiserver 1.37', () => {
  it('accepts every generated object: namespace, RBAC, Deployment and Service', async (t) => {
    const c = await setup(t);
    if (!c) return;
    const o = manifestOptions('0.0.0-e2e', { namespace: `ordinal-sys-${RUN}`, name: `ordinal-e2e-${RUN}` });
    // the API (the CRD and its admission policy) was applied by setup and stays: later cases rely on it
    const api = new Set(apiManifests(commonLabels(o)).map((d) => (d as KubeObject).kind));
    const docs = allManifests(o).filter((d) => !api.has((d as KubeObject).kind ?? '')) as KubeObject[];
    try {
      for (const d of docs) await apply(c, d);
    } finally {
      for (const d of docs.filter((x) => !RESOURCES[x.kind ?? '']!.namespaced)) {
        await c.delete(RESOURCES[d.kind ?? '']!, undefined, d.metadata.name ?? '').catch(() => undefined);
      }
    }
  });
});

describe('the CRD on kube-apiserver 1.37 agrees with the validation table', () => {
  CREATE_CASES.forEach((c, i) => {
    const verdict = c.path && !c.controllerOnly ? `rejects at ${c.path}` : 'accepts';
    it(`${verdict}: ${c.desc}${c.controllerOnly ? ` (controller-only: ${c.controllerOnly})` : ''}`, async (t) => {
      const k = await setup(t);
      if (!k) return;
      const obj = build(`c${i}`, c.mutate);
      const result = await k.create(OSTS, obj).then(() => undefined, (e: unknown) => e);
      if (!c.path || c.controllerOnly) return assert.equal(result, undefined, `rejected: ${String(result)}`);
      assert.ok(result instanceof InvalidError, `want 422 Invalid, got ${String(result)}`);
      const where = c.path === 'metadata.name' ? 'metadata.name: a lowercase RFC 1123 label' : c.path;
      assert.ok(result.message.includes(where), `${result.message} should name ${where}`);
    });
  });

  UPDATE_CASES.forEach((c, i) => {
    it(`${c.path && !c.controllerOnly ? `forbids at ${c.crdPath ?? c.path}` : 'allows'} an update with ${c.desc}${c.controllerOnly ? ` (controller-only: ${c.controllerOnly})` : ''}`, async (t) => {
      const k = await setup(t);
      if (!k) return;
      const live = await k.create(OSTS, build(`u${i}`, c.base ?? (() => {})));
      const next = structuredClone(live) as Mutable;
      c.mutate(next);
      const result = await k.update(OSTS, next).then(() => undefined, (e: unknown) => e);
      if (!c.path || c.controllerOnly) return assert.equal(result, undefined, `rejected: ${String(result)}`);
      assert.ok(result instanceof InvalidError, `want 422 Invalid, got ${String(result)}`);
      const where = c.crdPath ?? c.path;
      assert.ok(result.message.includes(where), `${result.message} should name ${where}`);
      if (c.says) assert.ok(result.message.includes(c.says), `${result.message} should say ${c.says}`);
    });
  });

  it('checks status writes: counters within status.replicas, collisionCount never decremented, claim template status kept', async (t) => {
    const k = await setup(t);
    if (!k) return;
    const live = await k.create(OSTS, build('st', () => {}));
    const claims = [{ name: 'data', compatible: 1, updating: 1, overSized: 0, totalCapacity: '6Gi' }];
    const ok = await k.updateStatus(OSTS, { ...live, status: { replicas: 2, readyReplicas: 2, availableReplicas: 1, collisionCount: 3, volumeClaimTemplates: claims } });
    assert.deepEqual(ok.status?.volumeClaimTemplates, claims, 'the claim template status is stored, not pruned');
    const tooMany = await k.updateStatus(OSTS, { ...ok, status: { replicas: 2, readyReplicas: 3 } }).catch((e: unknown) => e);
    assert.ok(tooMany instanceof InvalidError && tooMany.message.includes('status.readyReplicas'), String(tooMany));
    const backwards = await k.updateStatus(OSTS, { ...ok, status: { replicas: 2, collisionCount: 1 } }).catch((e: unknown) => e);
    assert.ok(backwards instanceof InvalidError && backwards.message.includes('status.collisionCount'), String(backwards));
  });

  it('applies the apps/v1 defaults a StatefulSet gets from the API server', async (t) => {
    const k = await setup(t);
    if (!k) return;
    const live = await k.create(OSTS, build('defaults', (s) => delete s.spec.replicas));
    assert.equal(live.spec.replicas, 1);
    assert.equal(live.spec.podManagementPolicy, 'OrderedReady');
    assert.equal(live.spec.revisionHistoryLimit, 10);
    assert.deepEqual(live.spec.updateStrategy, { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 1, batchStartPolicy: 'Ordered', podUpdatePolicy: 'Recreate', onFailure: 'Halt' } });
    assert.deepEqual(live.spec.persistentVolumeClaimRetentionPolicy, { whenDeleted: 'Retain', whenScaled: 'Retain' });
  });
});
