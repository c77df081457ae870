// Watches and requests do not share one socket pool: a controller that watches five resources in many
// namespaces holds a socket per watch, and requests (lists, writes) must still get through.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import { createKubeClient } from '../../src/cluster/kube/index.js';
import { createManualTimers, settle } from './manual-timers.js';
import { openWatch, sendJson, startFakeApiServer, type FakeApiServer } from './fake-apiserver.js';

const WATCHES = 70;

describe('kube client connection pools', () => {
  let api: FakeApiServer;
  before(async () => {
    api = await startFakeApiServer();
  });
  after(async () => {
    await api.close();
  });

  it(`answers a GET while ${WATCHES} watches hold their connections open`, async () => {
    api.handle((req, res) => {
      if (req.query.get('watch') === '1') openWatch(res);
      else sendJson(res, 200, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns', resourceVersion: '1' } });
    });
    const client = createKubeClient({ kubeconfig: api.kubeconfig, qps: 0, timers: createManualTimers(), random: () => 0 });
    const watches = Array.from({ length: WATCHES }, (_, i) => client.watch(Resources.pods, `ns-${i}`, '1', { onEvent: () => {}, onClose: () => {} }));
    try {
      for (let i = 0; i < 400 && api.requests.filter((r) => r.query.get('watch') === '1').length < WATCHES; i++) await settle(5);
      assert.equal(api.requests.filter((r) => r.query.get('watch') === '1').length, WATCHES, 'every watch reached the server');
      const got = await Promise.race([client.get(Resources.pods, 'ns', 'p'), settle(2000).then(() => 'still queued' as const)]);
      assert.notEqual(got, 'still queued', 'the GET waited for a socket held by a watch');
    } finally {
      for (const w of watches) w.stop();
      client.close();
    }
  });
});
