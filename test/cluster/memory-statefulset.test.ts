// StatefulSets on the in-memory API server: defaulting, validation (422 with field paths), generation
// and the status and scale subresources, for apps/v1 and apps.ordinal.dev/v1 alike.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import { InvalidError, isConflict, isInvalid } from '../../src/api/errors.js';
import type { StatefulSet } from '../../src/api/types.js';
import { newEnv, statefulSet } from './helpers.js';

const KINDS = [
  { res: Resources.statefulSets, apiVersion: 'apps/v1', qualified: 'StatefulSet.apps' },
  { res: Resources.ordinalStatefulSets, apiVersion: 'apps.ordinal.dev/v1', qualified: 'StatefulSet.apps.ordinal.dev' },
];

for (const { res, apiVersion, qualified } of KINDS) {
  describe(`memory cluster ${apiVersion} StatefulSets`, () => {
    it('defaults the set on create, as the API server does', async () => {
      const { cluster } = newEnv();
      const set = await cluster.create<StatefulSet>(res, statefulSet('web', {}, apiVersion));
      assert.equal(set.spec.podManagementPolicy, 'OrderedReady');
      assert.equal(set.spec.updateStrategy?.type, 'RollingUpdate');
      assert.equal(set.spec.revisionHistoryLimit, 10);
      assert.equal(set.spec.template.spec.restartPolicy, 'Always');
    });

    it('rejects an invalid set with 422 and a field-pathed message', async () => {
      const { cluster } = newEnv();
      await assert.rejects(cluster.create(res, statefulSet('web', { replicas: -1 }, apiVersion)), (e: unknown) => {
        assert.ok(e instanceof InvalidError);
        assert.equal(e.code, 422);
        assert.ok(e.issues.some((i) => i.path === 'spec.replicas'));
        assert.match(e.message, new RegExp(`^${qualified.replace(/\./g, '\\.')} "web" is invalid: .*spec\\.replicas: Invalid value: -1: must be greater than or equal to 0`));
        return true;
      });
    });

    it('rejects a change to an immutable field on update', async () => {
      const { cluster } = newEnv();
      await cluster.create(res, statefulSet('web', {}, apiVersion));
      await assert.rejects(cluster.patch(res, 'default', 'web', { spec: { podManagementPolicy: 'Parallel' } }), isInvalid);
    });

    it('bumps generation on spec changes only', async () => {
      const { cluster } = newEnv();
      await cluster.create(res, statefulSet('web', {}, apiVersion));
      const labelled = await cluster.patch<StatefulSet>(res, 'default', 'web', { metadata: { labels: { a: 'b' } } });
      assert.equal(labelled.metadata.generation, 1);
      const image = { spec: { template: { spec: { containers: [{ name: 'app', image: 'nginx:1.28' }] } } } };
      const updated = await cluster.patch<StatefulSet>(res, 'default', 'web', image);
      assert.equal(updated.metadata.generation, 2);
    });

    it('validates status writes: readyReplicas may not exceed replicas', async () => {
      const { cluster } = newEnv();
      const set = await cluster.create<StatefulSet>(res, statefulSet('web', {}, apiVersion));
      await assert.rejects(cluster.updateStatus(res, { ...set, status: { replicas: 1, readyReplicas: 2 } }), isInvalid);
    });

    it('exposes /scale: reading replicas and selector, and writing spec.replicas', async () => {
      const { cluster } = newEnv();
      await cluster.create(res, statefulSet('web', {}, apiVersion));
      const scale = await cluster.getScale(res, 'default', 'web');
      assert.equal(scale.spec.replicas, 3);
      assert.equal(scale.status?.selector, 'app=web');
      const out = await cluster.updateScale(res, 'default', 'web', { ...scale, spec: { replicas: 5 } });
      assert.equal(out.spec.replicas, 5);
      const set = await cluster.get<StatefulSet>(res, 'default', 'web');
      assert.equal(set.spec.replicas, 5);
      assert.equal(set.metadata.generation, 2);
      await assert.rejects(cluster.updateScale(res, 'default', 'web', scale), isConflict);
      await assert.rejects(cluster.updateScale(res, 'default', 'web', { ...scale, metadata: {}, spec: { replicas: -2 } }), isInvalid);
    });
  });
}
