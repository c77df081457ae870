// The in-memory API server's strict decoding, as kube-apiserver's under kubectl's fieldValidation=Strict:
// a StorageClass or a StatefulSet's pod template with a field its Kubernetes schema does not declare is
// refused with a 400 naming the field, on create and after merging a patch (test/e2e/strict-fields.test.ts
// holds kube-apiserver to the same message).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import { StrictDecodingError } from '../../src/api/errors.js';
import type { KubeObject, StatefulSet } from '../../src/api/types.js';
import { newEnv } from './helpers.js';

const strict = (kind: string, field: string) => (e: unknown) => {
  assert.ok(e instanceof StrictDecodingError, String(e));
  assert.equal(e.message, `${kind} in version "v1" cannot be handled as a ${kind}: strict decoding error: unknown field "${field}"`);
  return true;
};

const storageClass = (extra: Record<string, unknown>): KubeObject => ({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'fast' }, provisioner: 'x', ...extra });

describe('strict decoding in the in-memory API server', () => {
  it('refuses a StorageClass with an unknown field, created or patched in', async () => {
    const user = newEnv().cluster.client('user');
    await assert.rejects(user.create(Resources.storageClasses, storageClass({ allowVolumeExpension: true })), strict('StorageClass', 'allowVolumeExpension'));
    await user.create(Resources.storageClasses, storageClass({ allowVolumeExpansion: false }));
    await assert.rejects(user.patch(Resources.storageClasses, undefined, 'fast', { allowVolumeExpension: true }), strict('StorageClass', 'allowVolumeExpension'));
    const patched = await user.patch<KubeObject>(Resources.storageClasses, undefined, 'fast', { allowVolumeExpansion: true });
    assert.equal(patched['allowVolumeExpansion'], true);
  });

  it('refuses an apps/v1 StatefulSet whose pod template has an unknown field', async () => {
    const user = newEnv().cluster.client('user');
    const set: StatefulSet = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'web', namespace: 'default' },
      spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'app:1', imagePullPolicyy: 'Always' }] } } },
    };
    await assert.rejects(user.create(Resources.statefulSets, set), strict('StatefulSet', 'spec.template.spec.containers[0].imagePullPolicyy'));
  });
});
