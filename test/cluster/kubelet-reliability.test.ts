// The simulated kubelet finishing deletions, surviving watch failures, conflicts and restarts, and
// stopping cleanly.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import { GoneError, isNotFound } from '../../src/api/errors.js';
import type { Pod } from '../../src/api/types.js';
import { createKubelet, type Kubelet, type KubeletConfig } from '../../src/cluster/kubelet/index.js';
import type { FaultConfig, WriteRecord } from '../../src/cluster/memory/index.js';
import { createRandom } from '../../src/sim/scenario-random.js';
import { newEnv, pod, type Env } from './helpers.js';

function kubeletFor(env: Env, config: KubeletConfig = {}, faults?: FaultConfig): Kubelet {
  return createKubelet({ client: env.cluster.client('kubelet', faults), timers: env.clock, nodeName: 'node-1', config });
}

const phaseOf = (env: Env, name: string) =>
  env.cluster.get<Pod>(Resources.pods, 'default', name).then(
    (p) => p.status?.phase ?? 'none',
    (e: unknown) => (isNotFound(e) ? 'gone' : Promise.reject(e)),
  );

describe('simulated kubelet deletion and reliability', () => {
  it('removes a deleted pod after podTerminationSeconds with grace 0 and a UID precondition', async () => {
    const env = newEnv();
    await kubeletFor(env, { podTerminationSeconds: 5 }).start();
    await env.cluster.create(Resources.pods, pod('p'));
    await env.clock.advance(1_000);
    const writes: WriteRecord[] = [];
    env.cluster.onWrite((w) => writes.push(w));
    await env.cluster.delete(Resources.pods, 'default', 'p');
    await env.clock.advance(4_999);
    assert.equal(await phaseOf(env, 'p'), 'Running');
    await env.clock.advance(1);
    assert.equal(await phaseOf(env, 'p'), 'gone');
    assert.deepEqual(writes.map((w) => `${w.actor} ${w.verb} ${w.change}`), ['admin delete MODIFIED', 'kubelet delete DELETED']);
  });

  it('caps the termination time by the pod terminationGracePeriodSeconds', async () => {
    const env = newEnv();
    await kubeletFor(env, { podTerminationSeconds: 30 }).start();
    await env.cluster.create(Resources.pods, pod('p', { grace: 2 }));
    await env.clock.advance(1_000);
    await env.cluster.delete(Resources.pods, 'default', 'p');
    await env.clock.advance(1_999);
    assert.equal(await phaseOf(env, 'p'), 'Running');
    await env.clock.advance(1);
    assert.equal(await phaseOf(env, 'p'), 'gone');
  });

  it('does not delete a new pod that reuses the name of the one it was terminating', async () => {
    const env = newEnv();
    await kubeletFor(env, { podTerminationSeconds: 5 }).start();
    await env.cluster.create(Resources.pods, pod('p'));
    await env.clock.advance(1_000);
    await env.cluster.delete(Resources.pods, 'default', 'p', { gracePeriodSeconds: 30 });
    const old = await env.cluster.get<Pod>(Resources.pods, 'default', 'p');
    await env.cluster.delete(Resources.pods, 'default', 'p', { gracePeriodSeconds: 0, uid: old.metadata.uid });
    await env.cluster.create(Resources.pods, pod('p'));
    await env.clock.advance(10_000);
    assert.equal(await phaseOf(env, 'p'), 'Running');
  });

  it('relists after 410 Gone and keeps serving pods', async () => {
    const env = newEnv();
    await kubeletFor(env).start();
    await env.cluster.create(Resources.pods, pod('a'));
    await env.clock.advance(1_000);
    env.cluster.compact();
    env.cluster.closeWatches({ identity: 'kubelet', error: new GoneError('forced') });
    await env.cluster.create(Resources.pods, pod('b'));
    await env.clock.advance(1_000);
    assert.equal(await phaseOf(env, 'b'), 'Running');
  });

  it('resumes after watch streams break and come back with 410', async () => {
    const env = newEnv({ random: createRandom(3) });
    await kubeletFor(env, {}, { watch: { breakEverySeconds: 7, goneRate: 0.5 } }).start();
    for (let i = 0; i < 5; i++) {
      await env.cluster.create(Resources.pods, pod(`p-${i}`));
      await env.clock.advance(10_000);
    }
    for (let i = 0; i < 5; i++) assert.equal(await phaseOf(env, `p-${i}`), 'Running', `p-${i}`);
  });

  it('retries status writes that conflict until they land', async () => {
    const env = newEnv({ random: createRandom(11) });
    await kubeletFor(env, {}, { conflicts: { rate: 0.5 } }).start();
    for (let i = 0; i < 5; i++) await env.cluster.create(Resources.pods, pod(`p-${i}`));
    await env.clock.advance(3_000);
    for (let i = 0; i < 5; i++) assert.equal(await phaseOf(env, `p-${i}`), 'Running', `p-${i}`);
  });

  it('retries binding and status after injected 500s', async () => {
    const env = newEnv({ random: createRandom(5) });
    await kubeletFor(env, {}, { apiErrors: { rate: 0.4, verbs: ['create', 'update', 'delete'] } }).start();
    for (let i = 0; i < 4; i++) await env.cluster.create(Resources.pods, pod(`p-${i}`));
    await env.clock.advance(30_000);
    for (let i = 0; i < 4; i++) assert.equal(await phaseOf(env, `p-${i}`), 'Running', `p-${i}`);
  });

  it('a restarted kubelet continues each pod from its status.startTime', async () => {
    const env = newEnv();
    const config: KubeletConfig = { images: { 'app:flaky': { behavior: 'NotReadyAfter', seconds: 30 } } };
    const first = kubeletFor(env, config);
    await first.start();
    await env.cluster.create(Resources.pods, pod('f', { image: 'app:flaky' }));
    await env.clock.advance(10_000);
    first.stop();
    const writes: WriteRecord[] = [];
    env.cluster.onWrite((w) => writes.push(w));
    await kubeletFor(env, config).start();
    await env.clock.advance(20_999);
    assert.deepEqual(writes, []);
    await env.clock.advance(1);
    const ready = (await env.cluster.get<Pod>(Resources.pods, 'default', 'f')).status?.conditions?.find((c) => c.type === 'Ready');
    assert.deepEqual([ready?.status, ready?.lastTransitionTime], ['False', '2026-01-01T00:00:31Z']);
  });

  it('takes over a running pod as it is: a container started at another instant than its plan is not restarted', async () => {
    const env = newEnv();
    const first = kubeletFor(env, { podStartSeconds: 0 });
    await first.start();
    await env.cluster.create(Resources.pods, pod('p'));
    await env.clock.advance(60_000);
    first.stop();
    const before = await env.cluster.get<Pod>(Resources.pods, 'default', 'p');
    assert.equal(before.status?.containerStatuses?.[0]?.state?.running?.startedAt, '2026-01-01T00:00:00Z');
    // A kubelet whose plan starts the container 90 s after the pod's startTime, 30 s from now, had it not started.
    const writes: WriteRecord[] = [];
    env.cluster.onWrite((w) => writes.push(w));
    await kubeletFor(env, { podStartSeconds: 90 }).start();
    await env.clock.advance(120_000);
    assert.deepEqual(writes, []);
    assert.deepEqual((await env.cluster.get<Pod>(Resources.pods, 'default', 'p')).status, before.status);
  });

  it('stop() cancels every timer it owns', async () => {
    const env = newEnv();
    const kubelet = kubeletFor(env, { podStartSeconds: 100 });
    await kubelet.start();
    await env.cluster.create(Resources.pods, pod('p'));
    await env.clock.flush();
    assert.ok(env.clock.pending() > 0);
    kubelet.stop();
    assert.equal(env.clock.pending(), 0);
  });
});

describe('simulated kubelet start-up', () => {
  it('keeps serving pods when registering its node fails, and stop() cancels the retry', async () => {
    const env = newEnv({ random: createRandom(1) });
    const errors: unknown[] = [];
    const kubelet = createKubelet({
      client: env.cluster.client('kubelet', { apiErrors: { rate: 1, verbs: ['create'] } }),
      timers: env.clock,
      nodeName: 'node-1',
      config: {},
      onError: (e) => errors.push(e),
    });
    await kubelet.start();
    assert.ok(errors.length > 0);
    await env.cluster.create(Resources.pods, pod('p', { nodeName: 'node-1' }));
    await env.clock.advance(1_000);
    assert.equal(await phaseOf(env, 'p'), 'Running');
    kubelet.stop();
    assert.equal(env.clock.pending(), 0);
  });
});
