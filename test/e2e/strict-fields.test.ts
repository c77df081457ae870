// Strict field validation on a real kube-apiserver: with `fieldValidation=Strict` (kubectl's default) an
// apps/v1 StatefulSet and an apps.ordinal.dev/v1 one (the CRD's structural schema, its pod template
// Kubernetes' own) with a misspelt field are refused with the same 400 message, and `ordinal validate` names
// the same field path; so is a StorageClass, by kube-apiserver and the simulated API server alike.
import { after as afterAll, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import { defaultFeatures } from '../../src/api/features.js';
import { createMemoryCluster } from '../../src/cluster/memory/index.js';
import { createVirtualClock } from '../../src/sim/virtual-clock.js';
import { APPS_V1 } from '../../src/api/types.js';
import { strictDecodingMessage } from '../../src/api/validation/index.js';
import { validateObject } from '../../src/cli/commands/validate.js';
import { baseSet } from '../deploy/crd-cases.js';
import { closeSession, uniqueName } from './cluster-session.js';
import { kubeRequester } from './control-plane.js';
import { e2eTest, type Target } from './harness.js';

afterAll(() => closeSession());

/** A misspelt field at each level the schema covers, set at `path` on a valid set. */
const TYPOS: { path: string; value: unknown }[] = [
  { path: 'spec.replicaz', value: 5 },
  { path: 'spec.podManagmentPolicy', value: 'Parallel' },
  { path: 'spec.updateStrategy.rollingUpdate.maxUnavailble', value: 3 },
  { path: 'spec.template.metadata.labelz', value: { app: 'web' } },
  { path: 'spec.template.spec.containers[0].imagePullPolicyy', value: 'Always' },
  { path: 'spec.template.spec.volumes[0].persistentVolumeClaim.claimNam', value: 'data' },
];

/** Sets `path` (dotted, with `[i]` list indices) in `set`, making objects and lists on the way. */
function withField(set: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const names = path.split(/\.|(?=\[)/).map((n) => (n.startsWith('[') ? Number(n.slice(1, -1)) : n));
  let node = set as Record<string | number, unknown>;
  for (const [i, name] of names.slice(0, -1).entries()) node = (node[name] ??= typeof names[i + 1] === 'number' ? [] : {}) as Record<string | number, unknown>;
  node[names.at(-1) ?? ''] = value;
  return set;
}

describe('strict field validation on kube-apiserver', () => {
  for (const target of ['native', 'crd'] as Target[]) {
    e2eTest(`refuses unknown fields of ${target === 'native' ? 'apps/v1' : 'apps.ordinal.dev/v1'} as ordinal validate does`, {
      timeout: 60_000,
      controller: false,
      target,
    }, async (env) => {
      const request = kubeRequester(env.cp.kubeconfigPath);
      const group = env.apiVersion === APPS_V1 ? 'apps' : 'apps.ordinal.dev';
      for (const [i, typo] of TYPOS.entries()) {
        const set = { ...structuredClone(baseSet(env.ns, `typo-${i}`)), apiVersion: env.apiVersion } as unknown as Record<string, unknown>;
        if (typo.path.startsWith('spec.updateStrategy')) withField(set, 'spec.updateStrategy.type', 'RollingUpdate');
        withField(set, typo.path, typo.value);
        const res = await request<{ message?: string }>('POST', `/apis/${group}/v1/namespaces/${env.ns}/statefulsets?fieldValidation=Strict`, set);
        assert.equal(res.status, 400, `${typo.path}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.message, strictDecodingMessage('StatefulSet', 'v1', [typo.path]));
        const local = validateObject('set.yaml', { where: 'document 1', value: set }, defaultFeatures());
        assert.equal(local.outcome, 'invalid');
        assert.equal(local.message, res.body.message);
        assert.deepEqual(local.issues.map((x) => x.path), [typo.path]);
      }
    });
  }

  e2eTest('refuses unknown fields of a StorageClass as the simulated API server does', { timeout: 60_000, controller: false }, async (env) => {
    const request = kubeRequester(env.cp.kubeconfigPath);
    const name = uniqueName('typo');
    const sc = { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name }, provisioner: 'example.com/none', allowVolumeExpension: true };
    const res = await request<{ message?: string }>('POST', '/apis/storage.k8s.io/v1/storageclasses?fieldValidation=Strict', sc);
    assert.equal(res.status, 400, JSON.stringify(res.body));
    const memory = createMemoryCluster({ timers: createVirtualClock({ start: 0 }), features: defaultFeatures(), random: () => 0 }).client('user');
    await assert.rejects(memory.create(Resources.storageClasses, sc), (e: Error) => (assert.equal(e.message, res.body.message), true));
    assert.equal(res.body.message, strictDecodingMessage('StorageClass', 'v1', ['allowVolumeExpension']));
  });
});
