// The in-memory API server's object-count limit (MemoryClusterOptions.maxObjects): creates beyond it are
// refused as kube-apiserver's ResourceQuota admission refuses them, 403 Forbidden `exceeded quota`.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import { ApiError, isRetryable } from '../../src/api/errors.js';
import { DEFAULT_MAX_OBJECTS } from '../../src/cluster/memory/index.js';
import { CR, newEnv, pod, revision } from './helpers.js';

const refusal = async (p: Promise<unknown>): Promise<ApiError> => {
  const error = await p.then(
    () => assert.fail('the create was accepted'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof ApiError, `not an ApiError: ${String(error)}`);
  return error;
};

describe('memory cluster object-count limit', () => {
  it(`holds at most DEFAULT_MAX_OBJECTS (${DEFAULT_MAX_OBJECTS}) of one resource unless told otherwise`, async () => {
    const { cluster } = newEnv();
    for (let i = 0; i < DEFAULT_MAX_OBJECTS; i++) await cluster.create(CR, revision(`r-${i}`));
    const error = await refusal(cluster.create(CR, revision('one-more')));
    assert.equal(error.code, 403);
    assert.match(error.message, new RegExp(`limited: count/controllerrevisions.apps=${DEFAULT_MAX_OBJECTS}$`));
  });

  it('refuses a create beyond maxObjects per resource with 403 Forbidden exceeded quota', async () => {
    const { cluster } = newEnv({ maxObjects: 2 });
    await cluster.create(Resources.pods, pod('web-0'));
    await cluster.create(Resources.pods, pod('web-1'));
    const error = await refusal(cluster.create(Resources.pods, pod('web-2')));
    assert.equal(error.code, 403);
    assert.equal(error.reason, 'Forbidden');
    assert.equal(error.message, 'pods "web-2" is forbidden: exceeded quota: max-objects, requested: count/pods=1, used: count/pods=2, limited: count/pods=2');
    assert.equal(isRetryable(error), false);
    assert.deepEqual((await cluster.list(Resources.pods, 'default')).items.map((p) => p.metadata.name), ['web-0', 'web-1']);
  });

  it('counts each resource on its own and names the group in the quota resource', async () => {
    const { cluster } = newEnv({ maxObjects: 1 });
    await cluster.create(Resources.pods, pod('web-0'));
    await cluster.create(CR, revision('web-1a'));
    const error = await refusal(cluster.create(CR, revision('web-2b')));
    assert.match(error.message, /^controllerrevisions\.apps "web-2b" is forbidden: exceeded quota: max-objects, requested: count\/controllerrevisions\.apps=1, used: count\/controllerrevisions\.apps=1,/);
  });

  it('names no object for generateName, as the quota admission sees the request before the name is generated', async () => {
    const { cluster } = newEnv({ maxObjects: 1 });
    await cluster.create(Resources.pods, pod('web-0'));
    const error = await refusal(cluster.create(Resources.pods, { ...pod(''), metadata: { generateName: 'web-', namespace: 'default' } }));
    assert.match(error.message, /^pods is forbidden: exceeded quota: max-objects,/);
  });

  it('frees room when an object is removed, and never limits updates', async () => {
    const { cluster } = newEnv({ maxObjects: 1 });
    await cluster.create(CR, revision('a'));
    await cluster.patch(CR, 'default', 'a', { metadata: { labels: { x: 'y' } } });
    await refusal(cluster.create(CR, revision('b')));
    await cluster.delete(CR, 'default', 'a');
    await cluster.create(CR, revision('b'));
  });
});
