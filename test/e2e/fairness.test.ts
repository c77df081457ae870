// run-tests: alone (it compares wall times or lease timings: another file beside it would skew them)
// One set cannot starve another: beside a Parallel set of 10^9 replicas creating pods as fast as the client's
// budget allows (kube-controller-manager's default 20 QPS, burst 30), a normal set rolls out within 1.5x of
// the time it takes alone; once the huge set is deleted, its pending creates are dropped at once. The huge set
// lives in a namespace of its own that no kubelet serves (its pods stay Pending, as Parallel allows): the
// test's kubelet then times only the normal set's pods, so what it measures is the controller's fairness.
import { after as afterAll, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { StatefulSet } from '../../src/api/types.js';
import { closeSession, createNamespace, deleteNamespace } from './cluster-session.js';
import { e2eTest, type TestEnv } from './harness.js';
import { NamespaceObserver } from './observer.js';
import { percentile, readyToAction } from '../../bench/upstream/latency.js';
import { pause } from './wait.js';

afterAll(() => closeSession());

const set = (env: TestEnv, name: string, replicas: number, policy: 'OrderedReady' | 'Parallel'): StatefulSet => ({
  apiVersion: env.apiVersion,
  kind: 'StatefulSet',
  metadata: { name, namespace: env.ns },
  spec: {
    replicas,
    podManagementPolicy: policy,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: 'app:1' }] } },
  },
});

/** Rolls `web` to `image`: how long it took to converge, and where the time went (ms). */
async function rollout(env: TestEnv, image: string): Promise<{ ms: number; explain: string }> {
  const started = Date.now();
  await env.setImage('web', 'app', image);
  await env.waitConverged('web', 120_000);
  const ms = Date.now() - started;
  const events = env.observer.eventsOf('web').filter((e) => e.at >= started);
  const reactions = readyToAction(events, [started]);
  const starts = events.filter((e) => e.type === 'Ready').map((e) => e.at - (events.find((c) => c.type === 'Created' && c.uid === e.uid)?.at ?? NaN));
  const explain = `controller's ready → next action p50 ${percentile(reactions, 50)} ms, max ${Math.max(...reactions)} ms; pod created → ready p50 ${percentile(starts, 50)} ms`;
  return { ms, explain };
}

describe('fairness between sets', () => {
  e2eTest('a 10^9-replica set neither slows another set\'s rollout past 1.5x nor creates pods 2 s after its deletion', {
    timeout: 240_000,
    kubelet: { podStartSeconds: 1, podTerminationSeconds: 1 },
    controller: false,
  }, async (env) => {
    const hugeNs = await createNamespace(env.client, 'e2e-huge');
    env.onClose(() => deleteNamespace(env.client, hugeNs));
    const huge = new NamespaceObserver(env.client, hugeNs, env.res);
    env.onClose(() => huge.stop());
    await huge.start();
    env.startController({ rate: { qps: 20, burst: 30 }, namespaces: [env.ns, hugeNs] });
    await env.createConverged(set(env, 'web', 5, 'OrderedReady'));
    const { ms: alone, explain: aloneWhy } = await rollout(env, 'app:2');

    await env.client.create(env.res, { ...set(env, 'huge', 1_000_000_000, 'Parallel'), metadata: { name: 'huge', namespace: hugeNs } });
    await huge.waitFor('the huge set to be creating pods', 60_000, () => huge.eventsOf('huge', 'Created').length >= 20);
    const { ms: beside, explain: besideWhy } = await rollout(env, 'app:3');
    const during = huge.eventsOf('huge', 'Created').length;
    env.note(`web's rollout: ${alone} ms alone (${aloneWhy}), ${beside} ms beside the huge set (${besideWhy}): ${(beside / alone).toFixed(2)}x; the huge set had created ${during} pods`);
    assert.ok(beside <= 1.5 * alone, `rollout beside the huge set took ${beside} ms, more than 1.5 x ${alone} ms`);

    await env.client.delete(env.res, hugeNs, 'huge');
    const deletedAt = Date.now();
    await pause(3_000);
    const late = huge.eventsOf('huge', 'Created').filter((e) => e.at > deletedAt + 2_000);
    const last = Math.max(...huge.eventsOf('huge', 'Created').map((e) => e.at)) - deletedAt;
    env.note(`last pod of the huge set created ${last} ms after its deletion; pods created more than 2 s after: ${late.length}`);
    assert.deepEqual(late.map((e) => e.name), [], 'pods of the huge set created more than 2 s after its deletion');
  });
});
