// The Helm chart installed on the real kube-apiserver with the helm binary .ci/run builds ($ORDINAL_HELM):
// `helm install` (target=crd, then target=native), `helm upgrade` and `helm uninstall`, as README's
// install section runs them. Every object is accepted, the CRD is Established, no RBAC rule has a
// wildcard, and after uninstall nothing cluster-scoped of the release is left but the CRD, which Helm never
// deletes (crds/). No scheduler or kubelet runs here, so the Deployment's pod never starts; that is not
// waited for (test/e2e/image.test.ts runs the image itself).
import { after, describe, it } from 'node:test';
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { Resources, type Resource } from '../../src/api/client.js';
import { isNotFound } from '../../src/api/errors.js';
import type { KubeObject } from '../../src/api/types.js';
import { CRD_NAME } from '../../src/cli/manifests/crd.js';
import { closeSession, CRDS, deleteNamespace, openSession, uniqueName } from './cluster-session.js';
import { requireControlPlane, type ControlPlane } from './control-plane.js';
import { acquire } from './exclusive.js';
import { waitUntil } from './wait.js';

const CHART = new URL('../../deploy/helm/ordinal', import.meta.url).pathname;
const HELM = process.env.ORDINAL_HELM ?? 'helm';
const RELEASE = 'ordinal';
// The chart's cluster-scoped objects have fixed names (ClusterRole ordinal-controller …): one release at a
// time on a control plane.
const LOCK = 'helm-release-ordinal';
// Helm's own cache and config, away from the user's.
const HELM_HOME = mkdtempSync(join(tmpdir(), 'ordinal-helm-'));

after(() => {
  closeSession();
  rmSync(HELM_HOME, { recursive: true, force: true });
});

const r = (group: string, version: string, plural: string, kind: string, namespaced = true): Resource => ({ group, version, plural, kind, namespaced });
const KINDS: Record<string, Resource> = {
  ServiceAccount: r('', 'v1', 'serviceaccounts', 'ServiceAccount'),
  Service: Resources.services,
  Deployment: r('apps', 'v1', 'deployments', 'Deployment'),
  ClusterRole: r('rbac.authorization.k8s.io', 'v1', 'clusterroles', 'ClusterRole', false),
  ClusterRoleBinding: r('rbac.authorization.k8s.io', 'v1', 'clusterrolebindings', 'ClusterRoleBinding', false),
  Role: r('rbac.authorization.k8s.io', 'v1', 'roles', 'Role'),
  RoleBinding: r('rbac.authorization.k8s.io', 'v1', 'rolebindings', 'RoleBinding'),
};

type Rule = { apiGroups?: string[]; resources?: string[]; verbs?: string[]; resourceNames?: string[]; nonResourceURLs?: string[] };
type Live = KubeObject & { rules?: Rule[]; spec?: { template?: { spec?: { containers?: { args?: string[] }[] } } } };

/** Runs helm against the control plane; a missing binary fails under CI and skips elsewhere. */
function helmRunner(t: TestContext, cp: ControlPlane): ((...args: string[]) => string) | undefined {
  const env = { ...process.env, HELM_CACHE_HOME: join(HELM_HOME, 'cache'), HELM_CONFIG_HOME: join(HELM_HOME, 'config'), HELM_DATA_HOME: join(HELM_HOME, 'data') };
  const run = (...args: string[]) => spawnSync(HELM, ['--kubeconfig', cp.kubeconfigPath, ...args], { encoding: 'utf8', timeout: 120_000, env });
  const probe = run('version', '--short');
  if (probe.error) {
    const why = `no helm binary (${HELM}): ${probe.error.message}; .ci/run builds one (helm.sh/helm/v3/cmd/helm) and sets ORDINAL_HELM`;
    if (process.env.CI) throw new Error(why);
    t.skip(why);
    return undefined;
  }
  return (...args) => {
    const res = run(...args);
    assert.equal(res.status, 0, `helm ${args.join(' ')}\n${res.stdout}\n${res.stderr}`);
    return res.stdout;
  };
}

function manifestObjects(yaml: string): KubeObject[] {
  return parseAllDocuments(yaml).map((d) => d.toJS() as KubeObject | null).filter((o): o is KubeObject => o !== null);
}

function wildcards(obj: Live): string[] {
  return (obj.rules ?? []).flatMap((rule, i) =>
    (['apiGroups', 'resources', 'verbs', 'resourceNames', 'nonResourceURLs'] as const)
      .filter((field) => rule[field]?.some((v) => v.includes('*')))
      .map((field) => `${obj.kind}/${obj.metadata.name} rules[${i}].${field}: ${JSON.stringify(rule[field])}`),
  );
}

for (const target of ['crd', 'native'] as const) {
  describe(`helm install --set target=${target} on kube-apiserver 1.37`, () => {
    it('installs, upgrades and uninstalls the chart, leaving nothing cluster-scoped but the CRD', { timeout: 240_000 }, async (t) => {
      const cp = requireControlPlane(t);
      if (!cp) return;
      const helm = helmRunner(t, cp);
      if (!helm) return;
      const { client } = openSession(cp);
      const release = await acquire(cp, LOCK, 200_000);
      const ns = uniqueName(`ordinal-helm-${target}`);
      try {
        helm('install', RELEASE, CHART, '--namespace', ns, '--create-namespace', '--set', `target=${target}`);
        const objects = manifestObjects(helm('get', 'manifest', RELEASE, '--namespace', ns));
        assert.deepEqual(
          [...new Set(objects.map((o) => o.kind))].sort(),
          ['ClusterRole', 'ClusterRoleBinding', 'Deployment', 'Role', 'RoleBinding', 'Service', 'ServiceAccount'],
        );
        const live: Live[] = [];
        for (const o of objects) {
          const res = KINDS[o.kind ?? ''];
          assert.ok(res, `no resource for ${o.kind}`);
          live.push(await client.get<Live>(res, res.namespaced ? ns : undefined, o.metadata.name ?? ''));
        }
        assert.deepEqual(live.flatMap(wildcards), [], 'no RBAC rule has a wildcard');
        const clusterRole = live.find((o) => o.kind === 'ClusterRole');
        const setsGroup = target === 'native' ? 'apps' : 'apps.ordinal.dev';
        assert.ok(
          clusterRole?.rules?.some((rule) => rule.apiGroups?.includes(setsGroup) && rule.resources?.includes('statefulsets')),
          `the ClusterRole grants ${setsGroup} statefulsets`,
        );
        // The CRD ships in crds/: installed when absent (other tests may have applied deploy/crd.yaml first).
        await waitUntil(`CRD ${CRD_NAME} to be Established`, 30_000, async () => {
          const crd = await client.get<KubeObject & { status?: { conditions?: { type: string; status: string }[] } }>(CRDS, undefined, CRD_NAME);
          return crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') ?? false;
        });

        helm('upgrade', RELEASE, CHART, '--namespace', ns, '--set', `target=${target}`, '--set', 'concurrentSyncs=7');
        const deployment = live.find((o) => o.kind === 'Deployment');
        const upgraded = await client.get<Live>(KINDS.Deployment!, ns, deployment?.metadata.name ?? '');
        assert.ok(upgraded.spec?.template?.spec?.containers?.[0]?.args?.includes('--concurrent-syncs=7'), 'the upgrade reached the Deployment');
        assert.match(helm('status', RELEASE, '--namespace', ns), /REVISION: 2/);

        helm('uninstall', RELEASE, '--namespace', ns);
        const left: string[] = [];
        for (const o of objects.filter((x) => !KINDS[x.kind ?? '']!.namespaced)) {
          const gone = await client.get(KINDS[o.kind ?? '']!, undefined, o.metadata.name ?? '').then(() => false, (e: unknown) => isNotFound(e));
          if (!gone) left.push(`${o.kind}/${o.metadata.name}`);
        }
        assert.deepEqual(left, [], 'helm uninstall removes every cluster-scoped object of the release');
        await client.get(CRDS, undefined, CRD_NAME); // kept by design: deleting it would delete every set
      } finally {
        spawnSync(HELM, ['--kubeconfig', cp.kubeconfigPath, 'uninstall', RELEASE, '--namespace', ns, '--ignore-not-found'], { timeout: 60_000 });
        await deleteNamespace(client, ns);
        release();
      }
    });
  });
}
