// rollingUpdate.topologyKey on a real kube-apiserver 1.37: `ordinal controller` (its own process) watches the
// Nodes the pods run on and rolls examples/zone-by-zone.yaml's set one zone at a time. Three Nodes labelled
// with their zones are created for the test; the simulated kubelet runs them and spreads the pods over them.
// Each zone's pods are deleted only after every pod of the zone before is Ready again, in the zones' order.
import { after as afterAll, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import type { KubeObject, Pod } from '../../src/api/types.js';
import { createKubelet, ZONE_LABEL, type SimNode } from '../../src/cluster/kubelet/index.js';
import { realTimers } from '../../src/runtime/real-clock.js';
import { createRandom } from '../../src/runtime/random.js';
import { closeSession, openSession } from './cluster-session.js';
import { controlPlaneFromEnv } from './control-plane.js';
import { exampleSet, fastKubelet, loadExample } from './examples.js';
import { e2eTest } from './harness.js';
import { after, assertBefore, first, mark, names } from './pod-order.js';

const example = loadExample('zone-by-zone.yaml');

before(() => {
  const cp = controlPlaneFromEnv();
  if ('kubeconfigPath' in cp) openSession(cp); // else each test skips, or fails under CI
});
afterAll(() => closeSession());

describe('topologyKey on kube-apiserver', () => {
  e2eTest('the controller reads the zones of the pods\' nodes and replaces the pods one zone at a time, zones in order', { timeout: 180_000 }, async (env) => {
    // Nodes are cluster-scoped: named after the test's namespace, so concurrent tests never share one
    const nodes: SimNode[] = ['a', 'b', 'c'].map((z) => ({ name: `${env.ns}-${z}`.slice(-63), labels: { [ZONE_LABEL]: `zone-${z}` } }));
    for (const n of nodes) {
      await env.client.create(Resources.nodes, { apiVersion: 'v1', kind: 'Node', metadata: { name: n.name, labels: { ...n.labels } } } as KubeObject);
      env.onClose(() => env.client.delete(Resources.nodes, undefined, n.name).then(() => undefined, () => undefined));
    }
    const errors: unknown[] = [];
    const kubelet = createKubelet({ client: env.client, timers: realTimers(), nodeName: nodes[0]?.name ?? '', config: fastKubelet(example), namespace: env.ns, nodes: { list: nodes, random: createRandom(1) }, onError: (e) => errors.push(e) });
    await kubelet.start();
    env.onClose(() => kubelet.stop());

    const set = exampleSet(example, 'cassandra', { namespace: env.ns, apiVersion: env.apiVersion });
    assert.equal(set.spec.updateStrategy?.rollingUpdate?.topologyKey, ZONE_LABEL);
    await env.createConverged(set);
    const zoneOfNode = new Map(nodes.map((n) => [n.name, n.labels[ZONE_LABEL] ?? '']));
    const pods = (await env.client.list<Pod>(Resources.pods, env.ns)).items;
    const zoneOf = new Map(pods.map((p) => [p.metadata.name ?? '', zoneOfNode.get(p.spec?.nodeName ?? '') ?? '?']));
    assert.deepEqual([...zoneOf.values()].sort(), ['zone-a', 'zone-a', 'zone-b', 'zone-b', 'zone-c', 'zone-c'], 'two pods per zone');

    const from = mark(env);
    await env.setImage('cassandra', 'cassandra', 'cassandra:5.0.5');
    await env.waitConverged('cassandra', 120_000);
    const terminated = names(after(env, 'cassandra', 'Terminating', from));
    assert.deepEqual(terminated.map((n) => zoneOf.get(n)), ['zone-a', 'zone-a', 'zone-b', 'zone-b', 'zone-c', 'zone-c'], `zone by zone, in order: ${terminated.join(', ')}`);
    // every pod of a zone is Ready on the new revision before the first pod of the next zone goes
    for (const [done, next] of [[terminated.slice(0, 2), terminated[2]], [terminated.slice(2, 4), terminated[4]]] as const) {
      for (const pod of done) assertBefore(first(env, pod, 'Ready', from), first(env, next ?? '', 'Terminating', from), `${next ?? ''} waits for the new ${pod}`);
    }
    assert.deepEqual(errors, [], 'the kubelet saw no API error');
  });
});
