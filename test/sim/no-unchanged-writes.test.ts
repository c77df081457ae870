// No write whose content equals what the API server already has: across every example's rollout, each
// status write the controller makes changes the stored status (the in-memory server, like kube-apiserver,
// keeps the resourceVersion of a write that changes nothing, so no status record follows it), and a
// converged world stays without writes however long it runs.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { runScenario } from '../../src/sim/runner.js';
import { parseScenario } from '../../src/sim/scenario.js';
import type { TimelineRecord } from '../../src/sim/timeline.js';

const EXAMPLES = new URL('../../examples/', import.meta.url);

function statusWritesAndChanges(records: readonly TimelineRecord[]): { writes: number; changes: number } {
  const writes = records.filter((r) => r.type === 'action' && r.resource === 'statefulsets/status').length;
  const changes = records.filter((r) => r.type === 'status').length;
  return { writes, changes };
}

describe('no unchanged writes', () => {
  for (const file of readdirSync(EXAMPLES).filter((f) => f.endsWith('.yaml')).sort()) {
    it(`${file}: every status write changes the stored status`, async () => {
      const { records } = await runScenario(parseScenario(readFileSync(new URL(file, EXAMPLES), 'utf8'), file));
      const { writes, changes } = statusWritesAndChanges(records);
      assert.ok(writes > 0, 'the example writes status');
      assert.equal(writes, changes, `${writes} status writes for ${changes} distinct statuses`);
    });
  }

  it('a converged world makes no write in an hour (apps/v1 and apps.ordinal.dev/v1)', async () => {
    const set = (apiVersion: string, name: string) => ({
      apiVersion,
      kind: 'StatefulSet',
      metadata: { name },
      spec: {
        replicas: 3,
        minReadySeconds: 5,
        selector: { matchLabels: { app: name } },
        template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: 'app:1' }] } },
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 2 } },
      },
    });
    const scenario = parseScenario(
      JSON.stringify({
        kind: 'Scenario',
        objects: [set('apps/v1', 'native'), set('apps.ordinal.dev/v1', 'ordinal')],
        steps: [{ waitFor: 'Converged' }, { setImage: { name: 'native', container: 'app', image: 'app:2' } }, { setImage: { name: 'ordinal', container: 'app', image: 'app:2' } }, { waitFor: 'Converged' }, { advance: 3600 }],
      }),
    );
    const { records } = await runScenario(scenario);
    const converged = records.filter((r) => r.type === 'step').at(-1)!.t;
    const late = records.filter((r) => r.type === 'action' && r.t > converged);
    assert.deepEqual(late, [], 'writes after convergence');
    const { writes, changes } = statusWritesAndChanges(records);
    assert.equal(writes, changes);
  });
});
