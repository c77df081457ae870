// The checking view of scoped-client.ts (the in-memory API server's and test fakes' scopes): a refused fence
// stops every write verb before the inner client sees it, eviction included; reads still go.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import type { Pod } from '../../src/api/types.js';
import { FencedError } from '../../src/runtime/lease-fence.js';
import { scopedClient } from '../../src/runtime/scoped-client.js';
import { FakeCluster } from './fake-cluster.js';

const pod: Pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-0', namespace: 'ns' }, spec: { containers: [] } };

describe('scoped client (checking view)', () => {
  it('refuses every write while the fence refuses, without calling the inner client; reads go', async () => {
    const cluster = new FakeCluster();
    await cluster.create(Resources.pods, pod);
    cluster.calls.length = 0;
    const fenced = scopedClient(cluster, { fence: { refusal: () => new FencedError('not the leader (test)') } });
    await assert.rejects(fenced.create(Resources.pods, { ...pod, metadata: { name: 'web-1', namespace: 'ns' } }), FencedError);
    await assert.rejects(fenced.patch(Resources.pods, 'ns', 'web-0', { metadata: { labels: { a: 'b' } } }), FencedError);
    await assert.rejects(fenced.delete(Resources.pods, 'ns', 'web-0'), FencedError);
    await assert.rejects(fenced.evictPod('ns', 'web-0'), FencedError);
    await fenced.get(Resources.pods, 'ns', 'web-0');
    assert.deepEqual(cluster.calls.map((c) => c.verb), ['get']);
  });
});
