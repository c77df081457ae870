// Where a forecast's runs start: the manifests created once, every pod at once, leave what an OrderedReady
// creation leaves; a run started there begins with the set converged, at t=0, with nothing to create.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import type { KubeObject, Pod } from '../../src/api/types.js';
import { runScenario } from '../../src/sim/runner.js';
import { scenarioFromDocument } from '../../src/sim/scenario.js';
import { scenarioFromManifests } from '../../src/sim/scenario-from-manifests.js';
import { Simulation } from '../../src/sim/simulation.js';
import { createdState, observedState, StartStateError, withSetFields } from '../../src/sim/start-state.js';
import type { TimelineRecord } from '../../src/sim/timeline.js';

const manifest = (name: string, extra: Record<string, unknown> = {}, apiVersion = 'apps/v1') => ({
  apiVersion,
  kind: 'StatefulSet',
  metadata: { name },
  spec: {
    replicas: 4,
    minReadySeconds: 3,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: 'app:1' }] } },
    ...extra,
  },
});

const NO_CHANGE = { images: [], set: [], replacements: [] };
const IMAGE = { images: [{ container: 'app', image: 'app:2' }], set: [], replacements: [] };

/** Every object but Events and the Node, without what differs between two runs (UIDs, timestamps, resourceVersions). */
function comparable(resources: Record<string, KubeObject[]>): unknown {
  const varying = new Set(['uid', 'resourceVersion', 'creationTimestamp', 'lastTransitionTime', 'startTime', 'startedAt', 'lastUpdateTime']);
  const kept = Object.fromEntries(Object.entries(resources).filter(([k]) => k !== 'events' && k !== 'nodes'));
  return JSON.parse(JSON.stringify(kept, (k, v: unknown) => (varying.has(k) ? '*' : v)));
}

describe('start state', () => {
  it('created every pod at once, a set is what an OrderedReady creation makes of it, its own policy kept', async () => {
    const manifests = [manifest('web'), manifest('db', { podManagementPolicy: 'Parallel' }, 'apps.ordinal.dev/v1')];
    const fast = await createdState('web', manifests);
    const ordered = new Simulation(scenarioFromDocument(scenarioFromManifests('web', manifests, NO_CHANGE)));
    await ordered.start();
    await ordered.runSteps();
    assert.equal(ordered.failed, false);
    assert.deepEqual(comparable(fast.snapshot.resources), comparable(ordered.world.cluster.snapshot().resources));
    await ordered.finish();
    assert.equal(fast.at, Date.UTC(2026, 0, 1, 0, 0, 3), 'converged once the pods, all Ready at once, were available');
    assert.deepEqual(Object.keys(fast.snapshot.resources), ['statefulsets.apps', 'statefulsets.apps.ordinal.dev', 'controllerrevisions.apps', 'pods']);
    assert.deepEqual(manifests[0]?.spec, manifest('web').spec, 'the manifests given are left as they were');
  });

  it('a run from it starts converged at t=0 and writes nothing before the change', async () => {
    const manifests = [manifest('web')];
    const start = await createdState('web', manifests);
    const records: TimelineRecord[] = [];
    const doc = scenarioFromManifests('web', manifests, IMAGE, { podStartSeconds: 2, podTerminationSeconds: 1 });
    const result = await runScenario(scenarioFromDocument(doc), { start, onRecord: (r) => records.push(r) });
    assert.equal(result.exitCode, 0);
    const change = records.findIndex((r) => r.type === 'step' && r.index === 1);
    assert.equal(records[change]?.t, 0, 'the first wait for convergence is over at once');
    assert.deepEqual(records.slice(0, change).filter((r) => r.type === 'action'), [], 'no write before the change');
    assert.equal(records.slice(0, change).filter((r) => r.type === 'pod' && r.event === 'Ready').length, 4, 'the restored pods, Ready');
    // Four pods one after another: 1 s to go, 2 s to start, 3 s to be available.
    assert.equal(result.summary.convergedAt, 4 * (1 + 2 + 3));
  });

  it('a candidate that needs the set recreated starts from the set with that field; a set that does not converge is refused', async () => {
    const start = await createdState('web', [manifest('web')]);
    const parallel = withSetFields(start, [{ path: 'spec.podManagementPolicy', value: 'Parallel' }]);
    const setOf = (s: typeof start) => s.snapshot.resources['statefulsets.apps']?.[0] as KubeObject & { spec: { podManagementPolicy: string } };
    assert.equal(setOf(parallel).spec.podManagementPolicy, 'Parallel');
    assert.equal(setOf(start).spec.podManagementPolicy, 'OrderedReady', 'the start it came from is unchanged');
    // Available only after longer than a forecast waits.
    await assert.rejects(
      createdState('web', [manifest('web', { replicas: 1, minReadySeconds: 10 * 86400 })]),
      (e: unknown) => e instanceof StartStateError && /web does not converge when created on the simulated cluster: web: pod web-0 is not available/.test(e.message),
    );
  });

  it('observed objects: bound to the simulated node, time starting at the newest timestamp they hold', () => {
    const pod: Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web-0', namespace: 'default', creationTimestamp: '2026-03-01T10:00:00Z' },
      spec: { nodeName: 'worker-7', containers: [{ name: 'app', image: 'app:1' }] },
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-03-01T10:00:09.5Z' }] },
    };
    const observed = observedState([{ resource: Resources.pods, object: pod }], Date.UTC(2026, 2, 1, 9));
    assert.equal(observed.at, Date.UTC(2026, 2, 1, 10, 0, 10));
    assert.equal((observed.snapshot.resources['pods']?.[0] as Pod).spec.nodeName, 'sim-node-1');
    assert.equal(pod.spec.nodeName, 'worker-7', 'the observed pod is left as it was');
    assert.equal(observedState([{ resource: Resources.pods, object: pod }], Date.UTC(2026, 2, 2)).at, Date.UTC(2026, 2, 2), 'now, when later');
  });
});
