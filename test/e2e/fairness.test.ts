// One set cannot starve another: beside a Parallel set of 10^9 replicas creating pods as fast as the client's
// budget allows (kube-controller-manager's default 20 QPS, burst 30), a normal set rolls out within 1.5x of
// the time it takes alone; once the huge set is deleted, its pending creates are dropped at once.
import { after as afterAll, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { StatefulSet } from '../../src/api/types.js';
import { closeSession } from './cluster-session.js';
import { e2eTest, type TestEnv } from './harness.js';
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

/** Rolls `web` to `image` and returns how long it took to converge, in ms. */
async function rollout(env: TestEnv, image: string): Promise<number> {
  const started = Date.now();
  await env.setImage('web', 'app', image);
  await env.waitConverged('web', 120_000);
  return Date.now() - started;
}

describe('fairness between sets', () => {
  e2eTest('a 10^9-replica set neither slows another set\'s rollout past 1.5x nor creates pods 2 s after its deletion', {
    timeout: 240_000,
    kubelet: { podStartSeconds: 1, podTerminationSeconds: 1 },
    controller: false,
  }, async (env) => {
    env.startController({ rate: { qps: 20, burst: 30 } });
    await env.createConverged(set(env, 'web', 5, 'OrderedReady'));
    const alone = await rollout(env, 'app:2');

    await env.create(set(env, 'huge', 1_000_000_000, 'Parallel'));
    await env.observer.waitFor('the huge set to be creating pods', 60_000, () => env.observer.eventsOf('huge', 'Created').length >= 20);
    const beside = await rollout(env, 'app:3');
    const during = env.observer.eventsOf('huge', 'Created').length;
    env.note(`web's rollout: ${alone} ms alone, ${beside} ms beside the huge set (${(beside / alone).toFixed(2)}x); the huge set had created ${during} pods`);
    assert.ok(beside <= 1.5 * alone, `rollout beside the huge set took ${beside} ms, more than 1.5 x ${alone} ms`);

    await env.client.delete(env.res, env.ns, 'huge');
    const deletedAt = Date.now();
    await pause(5_000);
    const late = env.observer.eventsOf('huge', 'Created').filter((e) => e.at > deletedAt + 2_000);
    const last = Math.max(...env.observer.eventsOf('huge', 'Created').map((e) => e.at)) - deletedAt;
    env.note(`last pod of the huge set created ${last} ms after its deletion; pods created more than 2 s after: ${late.length}`);
    assert.deepEqual(late.map((e) => e.name), [], 'pods of the huge set created more than 2 s after its deletion');
  });
});
