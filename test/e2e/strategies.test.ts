// The broken-rollout examples on a real kube-apiserver (apps.ordinal.dev/v1): an image typo leaves the
// highest pod in ImagePullBackOff. Upstream's RollingUpdate stays stuck until a human deletes the pod;
// Recreate and EnforcedRollingUpdate recover when the fix is applied.
import { after as afterAll, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../src/api/types.js';
import { isPodReady, podRevision } from '../../src/controller/model/pod-state.js';
import { Resources } from '../../src/api/client.js';
import { closeSession } from './cluster-session.js';
import { exampleSet, fastKubelet, loadExample } from './examples.js';
import { e2eTest, type TestEnv } from './harness.js';
import { after, mark, names } from './pod-order.js';
import { pause } from './wait.js';

afterAll(() => closeSession());

const waitingReason = (pod: Pod | undefined): string | undefined =>
  pod?.status?.containerStatuses?.find((c) => c.state?.waiting)?.state?.waiting?.reason;

/** Waits until `name` is on the set's update revision and stuck in ImagePullBackOff. */
function waitStuck(env: TestEnv, set: string, name: string, timeoutMs: number): Promise<number> {
  return env.waitForSet(set, `${name} stuck on the update revision`, timeoutMs, (s) => {
    const pod = env.observer.pod(name);
    if (!pod || podRevision(pod) !== s.status?.updateRevision) return `${name} is not on ${s.status?.updateRevision}`;
    return waitingReason(pod) === 'ImagePullBackOff' || `${name} waits for ${waitingReason(pod) ?? 'nothing'}`;
  });
}

function assertServing(env: TestEnv, names: string[], revision: string | undefined): void {
  for (const n of names) {
    const pod = env.observer.pod(n);
    assert.ok(pod && isPodReady(pod) && podRevision(pod) === revision, `${n} still serves ${revision}: ${env.observer.describePods(n.replace(/-\d+$/, ''))}`);
  }
}

const stuck = loadExample('stuck-rollout-rolling-update.yaml');
const enforced = loadExample('enforced-rolling-update.yaml');
const recreate = loadExample('recreate.yaml');

describe('stuck rollouts on kube-apiserver (apps.ordinal.dev/v1)', () => {
  e2eTest('RollingUpdate: the fix does not unstick app-2; ProgressDeadlineExceeded; deleting the pod by hand does', {
    timeout: 120_000,
    kubelet: fastKubelet(stuck),
  }, async (env) => {
    await env.createConverged(exampleSet(stuck, 'app', { namespace: env.ns, apiVersion: env.apiVersion }, { replicas: 3, progressDeadlineSeconds: 6 }));
    const old = env.observer.set('app')!.status!.currentRevision;
    await env.setImage('app', 'app', 'registry.example.com/app:v2.0.0-typo');
    await waitStuck(env, 'app', 'app-2', 30_000);
    await env.setImage('app', 'app', 'registry.example.com/app:v2.0.1');
    await env.waitForSet('app', 'ProgressDeadlineExceeded', 30_000, (s) =>
      (s.status?.conditions ?? []).some((c) => c.type === 'Progressing' && c.status === 'False' && c.reason === 'ProgressDeadlineExceeded'),
    );
    assert.notEqual(env.observer.converged('app'), true);
    assert.equal(waitingReason(env.observer.pod('app-2')), 'ImagePullBackOff', 'app-2 is still on the broken revision');
    assertServing(env, ['app-1', 'app-0'], old);

    await env.client.delete(Resources.pods, env.ns, 'app-2');
    await env.waitConverged('app', 60_000);
    const { max, worst } = env.observer.maxUnavailable('app');
    assert.equal(max, 1, `most unavailable at once: ${worst}`);
  });

  e2eTest('EnforcedRollingUpdate: halts at the broken app-2, then the fix replaces it without anyone deleting it', {
    timeout: 120_000,
    kubelet: fastKubelet(enforced),
  }, async (env) => {
    await env.createConverged(exampleSet(enforced, 'app', { namespace: env.ns, apiVersion: env.apiVersion }, { replicas: 3 }));
    const old = env.observer.set('app')!.status!.currentRevision;
    await env.setImage('app', 'app', 'registry.example.com/app:v2.0.0-typo');
    await waitStuck(env, 'app', 'app-2', 30_000);
    await pause(3000); // the halt must hold: nothing lower goes while app-2 is broken
    assertServing(env, ['app-1', 'app-0'], old);
    assert.ok((await env.events('app', 'EnforcedRollingUpdateStarted')).length > 0, 'an EnforcedRollingUpdateStarted event');
    assert.ok((await env.events('app', 'SafetyHalt')).length > 0, 'a SafetyHalt event');

    const from = mark(env);
    await env.setImage('app', 'app', 'registry.example.com/app:v2.0.1');
    await env.waitConverged('app', 60_000);
    assert.deepEqual(names(after(env, 'app', 'Terminating', from)), ['app-2', 'app-1', 'app-0']);
    assert.ok((await env.events('app', 'ForcedReplacement')).length > 0, 'a ForcedReplacement event for the stuck app-2');
    const { max, worst } = env.observer.maxUnavailable('app');
    assert.equal(max, 1, `most unavailable at once: ${worst}`);
    const s = env.observer.set('app')!.status!;
    assert.deepEqual([s.replicas, s.readyReplicas, s.updatedReplicas, s.currentReplicas], [3, 3, 3, 3]);
  });

  e2eTest('Recreate: every old pod is gone before a new one starts; the fix replaces the broken pods', {
    timeout: 120_000,
    kubelet: fastKubelet(recreate),
  }, async (env) => {
    await env.createConverged(exampleSet(recreate, 'worker', { namespace: env.ns, apiVersion: env.apiVersion }));
    const from = mark(env);
    await env.setImage('worker', 'worker', 'registry.example.com/worker:v2-typo');
    for (const n of ['worker-0', 'worker-1', 'worker-2']) await waitStuck(env, 'worker', n, 30_000);
    const broken = env.observer.set('worker')!.status!.updateRevision;
    const deleted = after(env, 'worker', 'Deleted', from);
    const created = after(env, 'worker', 'Created', from, broken);
    assert.deepEqual(names(deleted).sort(), ['worker-0', 'worker-1', 'worker-2']);
    const lastGone = Math.max(...deleted.map((e) => e.seq));
    assert.ok(created.every((e) => e.seq > lastGone), 'no new pod was created before every old one was gone');
    assert.equal(env.observer.maxUnavailable('worker').max, 3, 'all old pods went down together');
    assert.ok((await env.events('worker', 'RecreateStarted')).length > 0, 'a RecreateStarted event');
    await env.waitForSet('worker', 'status of the broken revision', 10_000, (s) =>
      (s.status?.updatedReplicas === 3 && s.status.readyReplicas === 0) || JSON.stringify(s.status),
    );

    await env.setImage('worker', 'worker', 'registry.example.com/worker:v2');
    await env.waitConverged('worker', 60_000);
    const progressing = env.observer.set('worker')!.status!.conditions?.find((c) => c.type === 'Progressing');
    assert.deepEqual([progressing?.status, progressing?.reason], ['False', 'RecreateCompleted']);
  });
});
