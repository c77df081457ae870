// The simulator's API server is kubectl-default strict: StatefulSet creates, updates and merge patches with
// fields the schema does not declare are refused with kube-apiserver's 400, the patch judged after merging.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import { StrictDecodingError } from '../../src/api/errors.js';
import type { StatefulSet } from '../../src/api/types.js';
import { newEnv, statefulSet } from '../cluster/helpers.js';

const strict = (field: string) => (e: unknown) =>
  e instanceof StrictDecodingError &&
  e.code === 400 &&
  e.message === `StatefulSet in version "v1" cannot be handled as a StatefulSet: strict decoding error: unknown field "${field}"`;

for (const res of [Resources.statefulSets, Resources.ordinalStatefulSets]) {
  const apiVersion = res.group === 'apps' ? 'apps/v1' : 'apps.ordinal.dev/v1';
  describe(`in-memory API server, ${apiVersion} strict fields`, () => {
    it('refuses a create with an unknown field and stores nothing', async () => {
      const { cluster } = newEnv();
      const set = { ...statefulSet('web', {}, apiVersion), spec: { ...statefulSet('web').spec, replicaz: 5 } } as StatefulSet;
      await assert.rejects(cluster.create(res, set), strict('spec.replicaz'));
      assert.equal((await cluster.list(res, 'default')).items.length, 0);
    });

    it('refuses a merge patch whose result has an unknown field', async () => {
      const { cluster } = newEnv();
      await cluster.create(res, statefulSet('web', {}, apiVersion));
      const merge = { spec: { updateStrategy: { rollingUpdate: { maxUnavailble: 2 } } } };
      await assert.rejects(cluster.patch(res, 'default', 'web', merge), strict('spec.updateStrategy.rollingUpdate.maxUnavailble'));
      const ok = await cluster.patch<StatefulSet>(res, 'default', 'web', { spec: { replicas: 5 } });
      assert.equal(ok.spec.replicas, 5);
    });

    it('refuses an update with a __proto__ key without polluting any prototype', async () => {
      const { cluster } = newEnv();
      const live = await cluster.create<StatefulSet>(res, statefulSet('web', {}, apiVersion));
      const next = structuredClone(live);
      Object.defineProperty(next.spec, '__proto__', { value: { polluted: true }, enumerable: true });
      await assert.rejects(cluster.update(res, next), strict('spec.__proto__'));
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
    });
  });
}
