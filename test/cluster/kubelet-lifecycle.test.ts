// The simulated kubelet on virtual time: binding, start-up, per-image behaviours, conditions with
// lastTransitionTime, and the lifecycle events the simulator's timeline records.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import { IN_PLACE_READINESS_GATE, type Pod, type StatefulSet } from '../../src/api/types.js';
import { gateCondition } from '../../src/controller/model/readiness-gate.js';
import { applyAction } from '../../src/runtime/apply-action.js';
import { createKubelet, type KubeletConfig, type PodLifecycleEvent } from '../../src/cluster/kubelet/index.js';
import type { WriteRecord } from '../../src/cluster/memory/index.js';
import { EPOCH } from './fake-timers.js';
import { newEnv, pod, type Env } from './helpers.js';

async function withKubelet(config: KubeletConfig = {}) {
  const env = newEnv();
  const events: PodLifecycleEvent[] = [];
  const kubelet = createKubelet({ client: env.cluster.client('kubelet'), timers: env.clock, nodeName: 'node-1', config });
  kubelet.onLifecycle((e) => events.push(e));
  await kubelet.start();
  const timeline = () => events.map((e) => `${(e.at - EPOCH) / 1000}s ${e.type} ${e.name}${e.reason ? ` ${e.reason}` : ''}`);
  return { ...env, kubelet, events, timeline };
}

const getPod = (env: Env, name: string) => env.cluster.get<Pod>(Resources.pods, 'default', name);
const condition = (p: Pod, type: string) => p.status?.conditions?.find((c) => c.type === type);

describe('simulated kubelet lifecycle', () => {
  it('binds an unbound pod, reports Pending, then Running and Ready after podStartSeconds', async () => {
    const k = await withKubelet({ podStartSeconds: 2 });
    await k.cluster.create(Resources.pods, pod('web-0'));
    await k.clock.flush();
    let p = await getPod(k, 'web-0');
    assert.equal(p.spec.nodeName, 'node-1');
    assert.equal(p.status?.phase, 'Pending');
    assert.equal(condition(p, 'PodScheduled')?.status, 'True');
    assert.equal(condition(p, 'Ready')?.status, 'False');
    assert.equal(p.status?.containerStatuses?.[0]?.state?.waiting?.reason, 'ContainerCreating');
    await k.clock.advance(1_999);
    assert.equal((await getPod(k, 'web-0')).status?.phase, 'Pending');
    await k.clock.advance(1);
    p = await getPod(k, 'web-0');
    assert.equal(p.status?.phase, 'Running');
    assert.deepEqual([condition(p, 'Ready')?.status, condition(p, 'Ready')?.lastTransitionTime], ['True', '2026-01-01T00:00:02Z']);
    assert.equal(condition(p, 'ContainersReady')?.status, 'True');
    assert.equal(p.status?.startTime, '2026-01-01T00:00:00Z');
    assert.deepEqual(k.timeline(), ['0s Scheduled web-0', '2s Running web-0', '2s Ready web-0']);
  });

  it('counts a pod Ready only while every readiness gate\'s condition is True; the controller\'s pods/status write keeps the kubelet\'s conditions', async () => {
    const k = await withKubelet({ podStartSeconds: 1 });
    const gated = pod('web-0');
    gated.spec.readinessGates = [{ conditionType: IN_PLACE_READINESS_GATE }];
    await k.cluster.create(Resources.pods, gated);
    await k.clock.advance(1_000);
    let p = await getPod(k, 'web-0');
    assert.deepEqual([condition(p, 'ContainersReady')?.status, condition(p, 'Ready')?.status, condition(p, 'Ready')?.reason], ['True', 'False', 'ReadinessGatesNotReady']);
    assert.equal(condition(p, 'Ready')?.message, `corresponding condition of pod readiness gate "${IN_PLACE_READINESS_GATE}" does not exist.`);
    const write = (ready: boolean) =>
      applyAction({ kind: 'setPodCondition', batch: 0, name: 'web-0', uid: p.metadata.uid ?? '', ordinal: 0, condition: gateCondition(ready, k.clock.now()) }, k.cluster.client('controller'), {
        set: { metadata: { namespace: 'default' } } as StatefulSet,
        resource: Resources.statefulSets,
        canAdopt: async () => undefined,
      });
    await write(true);
    await k.clock.flush();
    p = await getPod(k, 'web-0');
    assert.deepEqual([condition(p, IN_PLACE_READINESS_GATE)?.status, condition(p, 'Ready')?.status, condition(p, 'PodScheduled')?.status], ['True', 'True', 'True']);
    await k.clock.advance(2_000);
    await write(false);
    await k.clock.flush();
    p = await getPod(k, 'web-0');
    assert.deepEqual([condition(p, IN_PLACE_READINESS_GATE)?.reason, condition(p, 'Ready')?.status, condition(p, 'ContainersReady')?.status], ['StartInPlaceUpdate', 'False', 'True']);
    assert.equal(condition(p, 'Ready')?.message, `the status of pod readiness gate "${IN_PLACE_READINESS_GATE}" is not "True", but False`);
    assert.deepEqual(k.timeline(), ['0s Scheduled web-0', '1s Running web-0', '1s Ready web-0', '3s NotReady web-0']);
  });

  it('keeps lastTransitionTime of conditions whose status did not change', async () => {
    const k = await withKubelet({ podStartSeconds: 5 });
    await k.cluster.create(Resources.pods, pod('web-0'));
    await k.clock.advance(5_000);
    const p = await getPod(k, 'web-0');
    assert.equal(condition(p, 'Initialized')?.lastTransitionTime, '2026-01-01T00:00:00Z');
    assert.equal(condition(p, 'Ready')?.lastTransitionTime, '2026-01-01T00:00:05Z');
  });

  it('takes a pod created with spec.nodeName set without a Binding', async () => {
    const k = await withKubelet();
    const writes: WriteRecord[] = [];
    k.cluster.onWrite((r) => writes.push(r));
    await k.cluster.create(Resources.pods, pod('web-0', { nodeName: 'node-1' }));
    await k.clock.advance(1_000);
    assert.equal((await getPod(k, 'web-0')).status?.phase, 'Running');
    assert.deepEqual(writes.filter((w) => w.actor === 'kubelet').map((w) => w.verb), ['updateStatus', 'updateStatus']);
  });

  it('leaves pods bound to other nodes alone', async () => {
    const k = await withKubelet();
    await k.cluster.create(Resources.pods, pod('other', { nodeName: 'node-2' }));
    await k.clock.advance(5_000);
    const p = await getPod(k, 'other');
    assert.equal(p.status?.phase, 'Pending');
    assert.equal(p.status?.conditions, undefined);
  });

  it('honours an image startSeconds given by a glob key', async () => {
    const k = await withKubelet({ images: { 'app:slow*': { startSeconds: 60 } } });
    await k.cluster.create(Resources.pods, pod('slow', { image: 'app:slow-v2' }));
    await k.clock.advance(59_000);
    assert.equal((await getPod(k, 'slow')).status?.phase, 'Pending');
    await k.clock.advance(1_000);
    assert.equal((await getPod(k, 'slow')).status?.phase, 'Running');
  });

  it('applies an image behaviour with `pods` only to the pods its globs name (a fault at one ordinal)', async () => {
    const k = await withKubelet({ images: { 'app:v2': { behavior: 'CrashLoopBackOff', pods: ['web-2'] }, 'app:*': { startSeconds: 3, pods: ['web-1*'] } } });
    for (const name of ['web-0', 'web-1', 'web-2']) await k.cluster.create(Resources.pods, pod(name, { image: 'app:v2' }));
    await k.clock.advance(1_000);
    assert.equal((await getPod(k, 'web-0')).status?.phase, 'Running', 'web-0 starts normally');
    assert.equal((await getPod(k, 'web-1')).status?.phase, 'Pending', 'web-1 falls to the glob entry');
    assert.equal((await getPod(k, 'web-2')).status?.containerStatuses?.[0]?.state?.waiting?.reason, 'CrashLoopBackOff');
    await k.clock.advance(2_000);
    assert.equal(condition(await getPod(k, 'web-1'), 'Ready')?.status, 'True');
  });

  it('draws an image startSeconds from samples per pod', async () => {
    const k = await withKubelet({ images: { 'app:v2': { startSeconds: { samples: [2, 9] } } }, seed: 3 });
    for (let i = 0; i < 8; i++) await k.cluster.create(Resources.pods, pod(`web-${i}`, { image: 'app:v2' }));
    await k.clock.advance(2_000);
    const running = async () => (await Promise.all([...Array(8).keys()].map((i) => getPod(k, `web-${i}`)))).filter((p) => p.status?.phase === 'Running').length;
    const early = await running();
    assert.ok(early > 0 && early < 8, `some pods drew 2 s, some 9 s (${early} of 8 running)`);
    await k.clock.advance(7_000);
    assert.equal(await running(), 8);
  });

  it('ImagePullBackOff: the pod stays Pending with that waiting reason', async () => {
    const k = await withKubelet({ images: { 'app:broken': { behavior: 'ImagePullBackOff' } } });
    await k.cluster.create(Resources.pods, pod('bad', { image: 'app:broken' }));
    await k.clock.advance(3_600_000);
    const p = await getPod(k, 'bad');
    assert.equal(p.status?.phase, 'Pending');
    assert.equal(p.status?.containerStatuses?.[0]?.state?.waiting?.reason, 'ImagePullBackOff');
    assert.deepEqual(k.timeline(), ['0s Scheduled bad', '1s Failed bad ImagePullBackOff']);
  });

  it('CrashLoopBackOff: Running but not Ready, restartCount growing on a 10 s doubling back-off', async () => {
    const k = await withKubelet({ images: { 'app:crash': { behavior: 'CrashLoopBackOff' } } });
    await k.cluster.create(Resources.pods, pod('crash', { image: 'app:crash' }));
    const restarts: number[] = [];
    for (const t of [1_000, 10_000, 20_000, 40_000]) {
      await k.clock.advance(t);
      restarts.push((await getPod(k, 'crash')).status?.containerStatuses?.[0]?.restartCount ?? -1);
    }
    assert.deepEqual(restarts, [0, 1, 2, 3]);
    const p = await getPod(k, 'crash');
    assert.equal(p.status?.phase, 'Running');
    assert.equal(condition(p, 'Ready')?.status, 'False');
    assert.equal(p.status?.containerStatuses?.[0]?.state?.waiting?.reason, 'CrashLoopBackOff');
    assert.deepEqual(k.timeline().slice(1), [
      '1s Running crash',
      '1s Failed crash CrashLoopBackOff',
      '11s Failed crash CrashLoopBackOff',
      '31s Failed crash CrashLoopBackOff',
      '71s Failed crash CrashLoopBackOff',
    ]);
  });

  it('NotReadyAfter: Ready, then NotReady after the given seconds, still Running', async () => {
    const k = await withKubelet({ images: { 'app:flaky': { behavior: 'NotReadyAfter', seconds: 30 } } });
    await k.cluster.create(Resources.pods, pod('flaky', { image: 'app:flaky' }));
    await k.clock.advance(60_000);
    const p = await getPod(k, 'flaky');
    assert.equal(p.status?.phase, 'Running');
    assert.deepEqual([condition(p, 'Ready')?.status, condition(p, 'Ready')?.lastTransitionTime], ['False', '2026-01-01T00:00:31Z']);
    assert.deepEqual(k.timeline(), ['0s Scheduled flaky', '1s Running flaky', '1s Ready flaky', '31s NotReady flaky']);
  });

  it('does not touch a pod whose phase is Failed', async () => {
    const k = await withKubelet();
    await k.cluster.create(Resources.pods, pod('done'));
    await k.clock.advance(2_000);
    const p = await getPod(k, 'done');
    await k.cluster.updateStatus(Resources.pods, { ...p, status: { ...p.status, phase: 'Failed' } });
    await k.clock.advance(10_000);
    assert.equal((await getPod(k, 'done')).status?.phase, 'Failed');
  });
});
