// The simulated kubelet restarting a container in place when its image changes on the live pod: the old
// container stops (podTerminationSeconds) while its status stays, then the same pod (uid, node) starts the new
// image with that image's start time and behaviour, restartCount and lastState as a kubelet reports them, the
// pod Running throughout; a restarted kubelet continues a restart its status shows.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import type { ContainerStatus, Pod } from '../../src/api/types.js';
import { createKubelet, type KubeletConfig, type PodLifecycleEvent } from '../../src/cluster/kubelet/index.js';
import type { WriteRecord } from '../../src/cluster/memory/index.js';
import { EPOCH } from './fake-timers.js';
import { newEnv, pod, type Env } from './helpers.js';

const CONFIG: KubeletConfig = { podStartSeconds: 2, podTerminationSeconds: 3, images: { 'app:v2': { startSeconds: 5 }, 'app:bad': { behavior: 'ImagePullBackOff' } } };

async function running(env: Env, config = CONFIG) {
  const events: PodLifecycleEvent[] = [];
  const kubelet = createKubelet({ client: env.cluster.client('kubelet'), timers: env.clock, nodeName: 'node-1', config, onLifecycle: (e) => events.push(e) });
  await kubelet.start();
  return { kubelet, events };
}

const get = (env: Env) => env.cluster.get<Pod>(Resources.pods, 'default', 'db-0');
const status = async (env: Env): Promise<ContainerStatus | undefined> => (await get(env)).status?.containerStatuses?.[0];
const ready = async (env: Env) => (await get(env)).status?.conditions?.find((c) => c.type === 'Ready')?.status;

/** db-0 running app:v1 since t=2s, then its image patched to `image` at t=10s. */
async function patchedAt10s(env: Env, image: string): Promise<Pod> {
  await env.cluster.create(Resources.pods, pod('db-0', { image: 'app:v1' }));
  await env.clock.advance(10_000);
  const before = await get(env);
  await env.cluster.patch(Resources.pods, 'default', 'db-0', { spec: { containers: [{ ...before.spec.containers[0], image }] } });
  await env.clock.flush();
  return before;
}

describe('simulated kubelet: in-place image updates', () => {
  it('stops the old container, then starts the new image in the same pod: restartCount 1, the old container Completed, Ready again after the image\'s start time', async () => {
    const env = newEnv();
    const { events } = await running(env);
    const before = await patchedAt10s(env, 'app:v2');
    await env.clock.advance(2_999);
    assert.deepEqual([(await status(env))?.image, await ready(env)], ['app:v1', 'True'], 'the old container still stops');
    await env.clock.advance(1);
    const p = await get(env);
    assert.deepEqual([p.metadata.uid, p.spec.nodeName, p.status?.phase, await ready(env)], [before.metadata.uid, 'node-1', 'Running', 'False']);
    assert.deepEqual(await status(env), {
      name: 'app',
      image: 'app:v2',
      imageID: '',
      started: false,
      lastState: { terminated: { exitCode: 0, reason: 'Completed', startedAt: '2026-01-01T00:00:02Z', finishedAt: '2026-01-01T00:00:13Z' } },
      ready: false,
      restartCount: 1,
      state: { waiting: { reason: 'ContainerCreating' } },
      resources: {},
    });
    await env.clock.advance(4_999);
    assert.equal(await ready(env), 'False');
    await env.clock.advance(1);
    assert.deepEqual([await ready(env), (await status(env))?.state, (await status(env))?.restartCount], ['True', { running: { startedAt: '2026-01-01T00:00:18Z' } }, 1]);
    assert.deepEqual(
      events.map((e) => `${(e.at - EPOCH) / 1000}s ${e.type}${e.restartCount ? ` ${e.restartCount}` : ''}`),
      ['0s Scheduled', '2s Running', '2s Ready', '13s Restarted 1', '13s NotReady', '18s Ready'],
    );
  });

  it('applies the new image\'s behaviour from the restart on (ImagePullBackOff), counting restarts across updates', async () => {
    const env = newEnv();
    await running(env);
    await patchedAt10s(env, 'app:bad');
    await env.clock.advance(3_000 + 2_000);
    assert.deepEqual([(await status(env))?.state?.waiting?.reason, (await get(env)).status?.phase], ['ImagePullBackOff', 'Running']);
    const p = await get(env);
    await env.cluster.patch(Resources.pods, 'default', 'db-0', { spec: { containers: [{ ...p.spec.containers[0], image: 'app:v1' }] } });
    await env.clock.advance(3_000 + 2_000);
    assert.deepEqual([(await status(env))?.restartCount, (await status(env))?.image, await ready(env)], [2, 'app:v1', 'True']);
  });

  it('a kubelet that starts again while the new image starts continues the restart from the status', async () => {
    const env = newEnv();
    const { kubelet } = await running(env);
    await patchedAt10s(env, 'app:v2');
    await env.clock.advance(3_000);
    kubelet.stop();
    await env.clock.advance(2_000);
    const writes: WriteRecord[] = [];
    env.cluster.onWrite((w) => writes.push(w));
    await running(env);
    await env.clock.advance(2_999);
    assert.deepEqual(writes, []);
    await env.clock.advance(1);
    assert.deepEqual([await ready(env), (await status(env))?.restartCount, (await status(env))?.state?.running?.startedAt], ['True', 1, '2026-01-01T00:00:18Z']);
  });
});
