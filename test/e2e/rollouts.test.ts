// The rolling-update examples' essentials on a real kube-apiserver: apps.ordinal.dev/v1 objects from
// examples/*.yaml, reconciled by `ordinal controller` (a child process) with the simulated kubelet on
// real time. Replica counts and times are shrunk; what each example shows is asserted on the pod events
// the API server's watch delivered.
import { after as afterAll, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import { closeSession } from './cluster-session.js';
import { exampleSet, fastKubelet, loadExample } from './examples.js';
import { e2eTest, type TestEnv } from './harness.js';
import { after, assertBefore, deletionRequestedAt, first, mark, names, readySince } from './pod-order.js';

afterAll(() => closeSession());

const updateRevision = (env: TestEnv, name: string): string => env.observer.set(name)?.status?.updateRevision ?? '';

const blog = loadExample('blog-max-unavailable.yaml');
const parallel = loadExample('parallel-min-ready.yaml');
const canary = loadExample('partitioned-canary.yaml');
const batches = loadExample('batch-start-together.yaml');

describe('rolling updates on kube-apiserver (apps.ordinal.dev/v1)', () => {
  e2eTest('blog trace: maxUnavailable 2 replaces web-4 and web-3 together, then web-2 and web-1, then web-0', {
    timeout: 120_000,
    kubelet: fastKubelet(blog),
  }, async (env) => {
    await env.createObject(Resources.services, blog.objects.find((o) => o.kind === 'Service')!);
    await env.createConverged(exampleSet(blog, 'web', { namespace: env.ns, apiVersion: env.apiVersion }));
    const from = mark(env);
    await env.setImage('web', 'nginx', 'registry.k8s.io/nginx-slim:0.9');
    await env.waitConverged('web', 60_000);

    const terminated = names(after(env, 'web', 'Terminating', from));
    assert.deepEqual(terminated.slice(0, 2).sort(), ['web-3', 'web-4'], `terminations: ${terminated.join(', ')}`);
    assert.deepEqual(terminated.slice(2, 4).sort(), ['web-1', 'web-2'], `terminations: ${terminated.join(', ')}`);
    assert.deepEqual(terminated.slice(4), ['web-0']);
    for (const [replaced, next] of [['web-3', 'web-2'], ['web-4', 'web-2'], ['web-3', 'web-1'], ['web-4', 'web-1']] as const) {
      assertBefore(first(env, replaced, 'Ready', from), first(env, next, 'Terminating', from), `${next} waits for the new ${replaced}`);
    }
    const { max, worst } = env.observer.maxUnavailable('web');
    assert.equal(max, 2, `most unavailable at once: ${worst}`);
    const s = env.observer.set('web')!.status!;
    assert.deepEqual([s.replicas, s.readyReplicas, s.availableReplicas, s.updatedReplicas, s.currentReplicas], [5, 5, 5, 5, 5]);
    assert.equal(s.currentRevision, s.updateRevision);
    assert.ok((await env.events('web', 'SuccessfulDelete')).length > 0, 'a SuccessfulDelete event for web');
  });

  e2eTest('Parallel + maxUnavailable 2 + minReadySeconds: the next two go only once the new ones are available', {
    timeout: 120_000,
    kubelet: fastKubelet(parallel),
  }, async (env) => {
    const minReadySeconds = 3;
    await env.createConverged(exampleSet(parallel, 'cache', { namespace: env.ns, apiVersion: env.apiVersion }, { replicas: 4, minReadySeconds }));
    const from = mark(env);
    await env.setImage('cache', 'memcached', 'memcached:1.6.22');
    await env.waitConverged('cache', 60_000);

    const terminated = after(env, 'cache', 'Terminating', from);
    assert.deepEqual(names(terminated.slice(0, 2)).sort(), ['cache-2', 'cache-3'], 'the two highest ordinals go first');
    const secondWave = terminated[2]!;
    for (const replaced of ['cache-2', 'cache-3']) {
      const ready = first(env, replaced, 'Ready', from);
      assertBefore(ready, secondWave, `${secondWave.name} waits for the new ${replaced}`);
      // Server-side times (whole seconds) rather than when this process saw the events, which CPU load skews.
      const gap = deletionRequestedAt(secondWave) - readySince(ready);
      assert.ok(gap >= minReadySeconds * 1000, `${secondWave.name} was deleted ${gap} ms after ${replaced} turned Ready`);
    }
    const readyNotAvailable = env.observer.statuses('cache').some((s) => (s.readyReplicas ?? 0) > (s.availableReplicas ?? 0));
    assert.ok(readyNotAvailable, 'some status had readyReplicas > availableReplicas (Ready, not yet available)');
    const { max, worst } = env.observer.maxUnavailable('cache');
    assert.equal(max, 2, `most unavailable at once: ${worst}`);
    const s = env.observer.set('cache')!.status!;
    assert.deepEqual([s.updatedReplicas, s.availableReplicas], [4, 4]);
  });

  e2eTest('partitioned canary: only ordinals at or above the partition move; lowering it rolls the rest in stages', {
    timeout: 120_000,
    kubelet: fastKubelet(canary),
  }, async (env) => {
    const where = { namespace: env.ns, apiVersion: env.apiVersion };
    await env.createConverged(exampleSet(canary, 'web', where, { replicas: 3, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2, maxUnavailable: 1 } } }));
    const from = mark(env);
    const before = env.observer.set('web')!.status!.currentRevision;
    await env.setImage('web', 'app', 'example/app:1.1');
    await env.waitConverged('web', 30_000);
    let s = env.observer.set('web')!.status!;
    assert.deepEqual([s.replicas, s.updatedReplicas, s.currentReplicas, s.readyReplicas], [3, 1, 2, 3]);
    assert.equal(s.currentRevision, before, 'currentRevision stays on the old revision');
    assert.deepEqual(names(after(env, 'web', 'Terminating', from)), ['web-2'], 'only the canary was replaced');

    await env.patch('web', { spec: { updateStrategy: { rollingUpdate: { partition: 1 } } } });
    await env.waitConverged('web', 30_000);
    s = env.observer.set('web')!.status!;
    assert.deepEqual([s.updatedReplicas, s.currentReplicas], [2, 1]);
    assert.equal(env.observer.pod('web-0')?.metadata.labels?.['controller-revision-hash'], before);

    await env.patch('web', { spec: { updateStrategy: { rollingUpdate: { partition: 0 } } } });
    await env.waitConverged('web', 30_000);
    s = env.observer.set('web')!.status!;
    assert.deepEqual([s.updatedReplicas, s.currentReplicas], [3, 3]);
    assert.equal(s.currentRevision, s.updateRevision, 'with every pod updated, the update revision becomes current');
    assert.deepEqual(names(after(env, 'web', 'Terminating', from)), ['web-2', 'web-1', 'web-0']);
    const { max, worst } = env.observer.maxUnavailable('web');
    assert.equal(max, 1, `most unavailable at once: ${worst}`);
  });

  e2eTest('batchStartPolicy Together recreates a batch at once; Ordered one pod at a time', {
    timeout: 150_000,
    kubelet: fastKubelet(batches, { podStartSeconds: 2 }),
  }, async (env) => {
    const where = { namespace: env.ns, apiVersion: env.apiVersion };
    const shrink = (policy: 'Ordered' | 'Together') => ({ replicas: 4, updateStrategy: { type: 'RollingUpdate' as const, rollingUpdate: { maxUnavailable: 2, batchStartPolicy: policy } } });
    await Promise.all([
      env.createConverged(exampleSet(batches, 'ordered', where, shrink('Ordered')), 90_000),
      env.createConverged(exampleSet(batches, 'together', where, shrink('Together')), 90_000),
    ]);
    const from = mark(env);
    await env.setImage('ordered', 'cache', 'example/warm-cache:2');
    await env.setImage('together', 'cache', 'example/warm-cache:2');
    await Promise.all([env.waitConverged('ordered', 90_000), env.waitConverged('together', 90_000)]);

    const newPod = (set: string, ordinal: number) => {
      const e = after(env, set, 'Created', from, updateRevision(env, set)).find((x) => x.name === `${set}-${ordinal}`);
      assert.ok(e, `${set}-${ordinal} was recreated on the update revision`);
      return e;
    };
    const [t2, t3] = [newPod('together', 2), newPod('together', 3)];
    assertBefore(t3, first(env, 'together-2', 'Ready', t2.seq), 'Together creates the whole batch before any of it is Ready');
    const [o2, o3] = [newPod('ordered', 2), newPod('ordered', 3)];
    assertBefore(first(env, 'ordered-2', 'Ready', o2.seq), o3, 'Ordered creates ordered-3 only after the new ordered-2 is Ready');
    for (const set of ['ordered', 'together']) {
      const { max, worst } = env.observer.maxUnavailable(set);
      assert.equal(max, 2, `${set}: most unavailable at once: ${worst}`);
    }
  });
});
