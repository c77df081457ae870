// A controller that dies mid-rollout (SIGKILL) or is restarted (SIGTERM) comes back with empty caches and
// must carry on without ever taking more ordinals down than maxUnavailable allows.
import { after as afterAll, describe } from 'node:test';
import assert from 'node:assert/strict';
import { closeSession } from './cluster-session.js';
import { exampleSet, fastKubelet, loadExample } from './examples.js';
import { e2eTest, type TestEnv } from './harness.js';
import { after, mark } from './pod-order.js';
import { pause } from './wait.js';

afterAll(() => closeSession());

const blog = loadExample('blog-max-unavailable.yaml');
const parallel = loadExample('parallel-min-ready.yaml');

/** Waits until `count` pods of `set` have started terminating since `from`. */
function waitTerminations(env: TestEnv, set: string, from: number, count: number): Promise<number> {
  return env.observer.waitFor(`${count} terminations of ${set}`, 60_000, () => {
    const n = after(env, set, 'Terminating', from).length;
    return n >= count || `${n} so far`;
  });
}

/** Kills the current controller mid-rollout, starts a new one; then the same with a graceful restart. */
async function restartTwice(env: TestEnv, set: string, from: number, waves: [number, number]): Promise<void> {
  await waitTerminations(env, set, from, waves[0]);
  await env.controllers.at(-1)!.kill();
  assert.notEqual(env.observer.converged(set), true, 'the kill happened mid-rollout');
  await pause(1500);
  env.startController({ label: 'after-kill' });
  await waitTerminations(env, set, from, waves[1]);
  const exit = await env.controllers.at(-1)!.stop();
  assert.equal(exit.code, 0, 'SIGTERM stops the controller cleanly');
  assert.notEqual(env.observer.converged(set), true, 'the restart happened mid-rollout');
  env.startController({ label: 'after-restart' });
}

describe('controller restarts mid-rollout', () => {
  e2eTest('OrderedReady, maxUnavailable 2: a killed and a restarted controller never exceed the budget', {
    timeout: 150_000,
    kubelet: fastKubelet(blog),
  }, async (env) => {
    await env.createConverged(exampleSet(blog, 'web', { namespace: env.ns, apiVersion: env.apiVersion }, { replicas: 4, minReadySeconds: 2 }), 90_000);
    const from = mark(env);
    await env.setImage('web', 'nginx', 'registry.k8s.io/nginx-slim:0.9');
    await restartTwice(env, 'web', from, [1, 3]);
    await env.waitConverged('web', 90_000);
    const { max, worst } = env.observer.maxUnavailable('web');
    assert.ok(max <= 2, `most unavailable at once: ${worst}`);
    assert.equal(after(env, 'web', 'Terminating', from).length, 4, 'each pod was replaced exactly once');
  });

  e2eTest('Parallel, maxUnavailable 2, minReadySeconds: restarts do not let a third pod go early', {
    timeout: 150_000,
    kubelet: fastKubelet(parallel, { podStartSeconds: 2 }),
  }, async (env) => {
    await env.createConverged(exampleSet(parallel, 'cache', { namespace: env.ns, apiVersion: env.apiVersion }, { replicas: 4, minReadySeconds: 2 }), 90_000);
    const from = mark(env);
    await env.setImage('cache', 'memcached', 'memcached:1.6.22');
    await restartTwice(env, 'cache', from, [2, 3]);
    await env.waitConverged('cache', 90_000);
    const { max, worst } = env.observer.maxUnavailable('cache');
    assert.ok(max <= 2, `most unavailable at once: ${worst}`);
    assert.equal(after(env, 'cache', 'Terminating', from).length, 4, 'each pod was replaced exactly once');
  });
});
