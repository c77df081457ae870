// onFailure: Rollback on a real kube-apiserver, with `ordinal controller` and the simulated kubelet: a release
// that fails is aborted and every pod comes back to the last good revision with no manual action, within
// maxUnavailable; the controller writes the set only through its status subresource (its managedFields say
// so); `rollout status` exits 1 with the reason and `rollout retry` tries the release again. Skipped without a
// control plane, failed under CI without one (test/e2e/control-plane.ts).

import { after as afterAll, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import { RetryAnnotation, type Pod, type StatefulSet } from '../../src/api/types.js';
import { rolloutRetryCommand, rolloutStatusCommand } from '../../src/cli/commands/rollout.js';
import { bufferIO } from '../../src/cli/explain/io.js';
import { podRevision } from '../../src/controller/model/pod-state.js';
import { realTimers } from '../../src/runtime/real-clock.js';
import { closeSession } from './cluster-session.js';
import { e2eTest, type TestEnv } from './harness.js';

afterAll(() => closeSession());

interface ManagedField {
  manager?: string;
  subresource?: string;
}

function healingSet(env: TestEnv, name: string, strategy: StatefulSet['spec']['updateStrategy'], podManagementPolicy = 'OrderedReady'): StatefulSet {
  return {
    apiVersion: env.apiVersion,
    kind: 'StatefulSet',
    metadata: { name, namespace: env.ns },
    spec: {
      replicas: 3,
      podManagementPolicy,
      progressDeadlineSeconds: 8,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: 'app:1' }] } },
      updateStrategy: strategy,
    },
  };
}

const aborted = (s: StatefulSet): true | string =>
  (s.status?.abortedRevision !== undefined && s.status.abortedRevision === s.status.updateRevision) || `status.abortedRevision is ${s.status?.abortedRevision ?? 'unset'}`;

/** After a failed release: aborted, back on `good` everywhere, never more than one ordinal down, spec as the user wrote it. */
async function assertRolledBack(env: TestEnv, name: string, good: string, generation: number): Promise<void> {
  await env.waitForSet(name, `${name} to abort its rollout`, 60_000, aborted);
  await env.waitConverged(name, 60_000);
  const pods = (await env.client.list<Pod>(Resources.pods, env.ns)).items.filter((p) => p.metadata.name?.startsWith(`${name}-`));
  assert.deepEqual(pods.map(podRevision), [good, good, good]);
  const unavailable = env.observer.maxUnavailable(name);
  assert.ok(unavailable.max <= 1, unavailable.worst);
  const set = await env.client.get<StatefulSet>(env.res, env.ns, name);
  assert.equal(set.metadata.generation, generation, 'no new generation: spec untouched');
  const byController = ((set.metadata.managedFields ?? []) as ManagedField[]).filter((f) => f.manager === 'ordinal-controller');
  assert.ok(byController.length > 0 && byController.every((f) => f.subresource === 'status'), `the controller wrote only status: ${JSON.stringify(byController)}`);
  assert.ok((await env.events(name, 'RolloutAborted')).length > 0, 'a RolloutAborted event');
}

describe('onFailure: Rollback on kube-apiserver', () => {
  e2eTest('a crash loop at one ordinal is rolled back after the deadline; rollout status fails with the reason; rollout retry tries it again', {
    timeout: 240_000,
    kubelet: { podStartSeconds: 1, podTerminationSeconds: 1, images: { 'app:2': { behavior: 'CrashLoopBackOff', pods: ['heal-1'] } } },
  }, async (env) => {
    const d = { client: env.client, namespace: env.ns, io: bufferIO(), timers: realTimers() };
    await env.createConverged(healingSet(env, 'heal', { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, onFailure: 'Rollback' } }));
    const good = (await env.client.get<StatefulSet>(env.res, env.ns, 'heal')).status?.currentRevision ?? '';
    const changed = await env.setImage('heal', 'app', 'app:2');
    await assertRolledBack(env, 'heal', good, changed.metadata.generation ?? 0);

    assert.equal(await rolloutStatusCommand(d, 'heal', { timeout: '30s' }), 1);
    assert.match(d.io.err, /^error: statefulset "heal" rollout aborted: Rollout to revision heal-\w+ aborted: it made no progress for progressDeadlineSeconds \(8 s\)/);
    d.io.err = '';

    assert.equal(await rolloutRetryCommand(d, 'heal'), 0);
    assert.match(d.io.out, /^statefulset\.apps\.ordinal\.dev\/heal rollout of revision heal-\w+ retried\n$/);
    const annotated = await env.client.get<StatefulSet>(env.res, env.ns, 'heal');
    const value = annotated.metadata.annotations?.[RetryAnnotation] ?? '';
    await env.waitForSet('heal', 'the retry to be acted on', 30_000, (s) => s.status?.observedRolloutRetry === value || `observedRolloutRetry ${s.status?.observedRolloutRetry ?? 'unset'}`);
    // the same release fails again, and is rolled back again by itself
    await env.waitForSet('heal', 'the retried rollout to reach heal-1', 60_000, (s) => (s.status?.updatedReplicas ?? 0) >= 1 || 'no pod updated yet');
    await assertRolledBack(env, 'heal', good, changed.metadata.generation ?? 0);
  });

  e2eTest('EnforcedRollingUpdate, Parallel: a broken image is rolled back as soon as SafetyHalt trips', {
    timeout: 180_000,
    kubelet: { podStartSeconds: 1, podTerminationSeconds: 1, images: { 'app:broken': { behavior: 'ImagePullBackOff' } } },
  }, async (env) => {
    const set = healingSet(env, 'halt', { type: 'EnforcedRollingUpdate', enforcedRollingUpdate: { maxUnavailable: 1, onFailure: 'Rollback' } }, 'Parallel');
    await env.createConverged({ ...set, spec: { ...set.spec, progressDeadlineSeconds: 600 } });
    const good = (await env.client.get<StatefulSet>(env.res, env.ns, 'halt')).status?.currentRevision ?? '';
    const changed = await env.setImage('halt', 'app', 'app:broken');
    const start = Date.now();
    await assertRolledBack(env, 'halt', good, changed.metadata.generation ?? 0);
    env.note(`failure to healthy: ${((Date.now() - start) / 1000).toFixed(1)} s (progressDeadlineSeconds 600: detection by SafetyHalt, not the deadline)`);
    assert.ok(Date.now() - start < 60_000);
    const message = (await env.events('halt', 'RolloutAborted'))[0]?.message ?? '';
    assert.match(message, /pod halt-2 failed to become available \(ImagePullBackOff\)/);
  });
});
