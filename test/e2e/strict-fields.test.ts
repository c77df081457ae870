// Strict field validation on a real kube-apiserver: with `fieldValidation=Strict` (kubectl's default) an
// apps/v1 StatefulSet and an apps.ordinal.dev/v1 one (the CRD's structural schema) with a misspelt field are
// refused with the same 400 message, and `ordinal validate` names the same field path.
import { after as afterAll, describe } from 'node:test';
import assert from 'node:assert/strict';
import { defaultFeatures } from '../../src/api/features.js';
import { APPS_V1 } from '../../src/api/types.js';
import { strictDecodingMessage } from '../../src/api/validation/index.js';
import { validateObject } from '../../src/cli/commands/validate.js';
import { baseSet } from '../deploy/crd-cases.js';
import { closeSession } from './cluster-session.js';
import { kubeRequester } from './control-plane.js';
import { e2eTest, type Target } from './harness.js';

afterAll(() => closeSession());

/** A misspelt field at each level the schema covers, set at `path` on a valid set. */
const TYPOS: { path: string; value: unknown }[] = [
  { path: 'spec.replicaz', value: 5 },
  { path: 'spec.podManagmentPolicy', value: 'Parallel' },
  { path: 'spec.updateStrategy.rollingUpdate.maxUnavailble', value: 3 },
  { path: 'spec.template.metadata.labelz', value: { app: 'web' } },
];

function withField(set: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const names = path.split('.');
  let node = set;
  for (const name of names.slice(0, -1)) node = (node[name] ??= {}) as Record<string, unknown>;
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
});
