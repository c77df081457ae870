// scale-up-down.yaml's essentials on a real kube-apiserver (apps.ordinal.dev/v1): OrderedReady creates
// one pod at a time, each after the previous is Ready, and removes them one at a time from the highest
// ordinal, each after the previous is gone; Parallel creates and deletes them all at once.
import { after as afterAll, describe } from 'node:test';
import assert from 'node:assert/strict';
import { closeSession } from './cluster-session.js';
import { exampleSet, fastKubelet, loadExample } from './examples.js';
import { e2eTest } from './harness.js';
import { after, assertBefore, first, mark, names } from './pod-order.js';

afterAll(() => closeSession());

const example = loadExample('scale-up-down.yaml');

describe('scaling on kube-apiserver (apps.ordinal.dev/v1)', () => {
  e2eTest('scales 2 → 5 → 1 under OrderedReady (one at a time) and Parallel (all at once)', {
    timeout: 150_000,
    kubelet: fastKubelet(example, { podStartSeconds: 2, podTerminationSeconds: 2 }),
  }, async (env) => {
    const where = { namespace: env.ns, apiVersion: env.apiVersion };
    await Promise.all([env.createConverged(exampleSet(example, 'ordered', where)), env.createConverged(exampleSet(example, 'parallel', where))]);

    const up = mark(env);
    await Promise.all([env.patch('ordered', { spec: { replicas: 5 } }), env.patch('parallel', { spec: { replicas: 5 } })]);
    await Promise.all([env.waitConverged('ordered', 60_000), env.waitConverged('parallel', 60_000)]);
    assert.deepEqual(names(after(env, 'ordered', 'Created', up)), ['ordered-2', 'ordered-3', 'ordered-4']);
    for (const i of [2, 3]) {
      assertBefore(first(env, `ordered-${i}`, 'Ready', up), first(env, `ordered-${i + 1}`, 'Created', up), 'OrderedReady waits for Ready');
    }
    const parallelCreated = after(env, 'parallel', 'Created', up);
    assert.deepEqual(names(parallelCreated).sort(), ['parallel-2', 'parallel-3', 'parallel-4']);
    const firstReady = after(env, 'parallel', 'Ready', up)[0]!;
    for (const c of parallelCreated) assertBefore(c, firstReady, 'Parallel creates every pod before any is Ready');

    const down = mark(env);
    await Promise.all([env.patch('ordered', { spec: { replicas: 1 } }), env.patch('parallel', { spec: { replicas: 1 } })]);
    await Promise.all([env.waitConverged('ordered', 60_000), env.waitConverged('parallel', 60_000)]);
    assert.deepEqual(names(after(env, 'ordered', 'Terminating', down)), ['ordered-4', 'ordered-3', 'ordered-2', 'ordered-1']);
    for (const i of [4, 3, 2]) {
      assertBefore(first(env, `ordered-${i}`, 'Deleted', down), first(env, `ordered-${i - 1}`, 'Terminating', down), 'OrderedReady waits for the pod to be gone');
    }
    const parallelTerminating = after(env, 'parallel', 'Terminating', down);
    assert.deepEqual(names(parallelTerminating).sort(), ['parallel-1', 'parallel-2', 'parallel-3', 'parallel-4']);
    const firstGone = after(env, 'parallel', 'Deleted', down)[0]!;
    for (const t of parallelTerminating) assertBefore(t, firstGone, 'Parallel deletes every condemned pod at once');
    for (const set of ['ordered', 'parallel']) {
      const s = env.observer.set(set)!.status!;
      assert.deepEqual([s.replicas, s.readyReplicas], [1, 1], `${set} status`);
      assert.deepEqual(env.observer.podsOf(set).map((p) => p.metadata.name), [`${set}-0`]);
    }
  });
});
