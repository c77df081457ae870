// spec.lifecycle.preUpdate on a real kube-apiserver, with `ordinal controller` and the simulated kubelet: a hook
// served by this test (node:http on 127.0.0.1) records each call. Under updateOrder Priority the primary's
// switchover call comes after every replica is updated and Ready, and before the primary is deleted; while it
// answers 503 the rollout holds and `rollout status` says why; a labels handler is driven by the test as a
// database's agent would. Skipped without a control plane, failed under CI without one (test/e2e/control-plane.ts).

import { after as afterAll, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Resources } from '../../src/api/client.js';
import { fromTimestamp, LIFECYCLE_STATE_LABEL, PodAnnotations, type Pod, type PreUpdateHook, type StatefulSet } from '../../src/api/types.js';
import { rolloutStatusCommand } from '../../src/cli/commands/rollout.js';
import { bufferIO } from '../../src/cli/explain/io.js';
import { ExitCode } from '../../src/cli/rollout/rollout-status.js';
import { isPodReady, podRevision } from '../../src/controller/model/pod-state.js';
import { parseHookRecord } from '../../src/controller/replica/hook-state.js';
import { realTimers } from '../../src/runtime/real-clock.js';
import { closeSession } from './cluster-session.js';
import { e2eTest, twoReplicaSet, type TestEnv } from './harness.js';
import { pause, waitUntil } from './wait.js';

afterAll(() => closeSession());

const KUBELET = { podStartSeconds: 1, podTerminationSeconds: 1 };

interface Call {
  pod: string;
  revision: string;
  at: number;
  status: number;
  /** The set's other pods when the call came: their revision and readiness (fetched before answering). */
  others: { name: string; revision: string; ready: boolean }[];
}

/** The switchover endpoint: 200 for every pod but `held`, which gets `heldStatus` (the test changes it). */
async function hookServer(env: TestEnv, set: string): Promise<{ url: string; calls: Call[]; release: () => void; close: () => Promise<void> }> {
  const calls: Call[] = [];
  let released = false;
  const server: Server = createServer((req, res) => {
    const q = new URL(req.url ?? '/', 'http://local').searchParams;
    const pod = q.get('pod') ?? '';
    const status = pod === `${set}-1` && !released ? 503 : 200;
    void env.client.list<Pod>(Resources.pods, env.ns).then((list) => {
      const others = list.items.filter((p) => p.metadata.name !== pod && p.metadata.name?.startsWith(`${set}-`)).map((p) => ({ name: p.metadata.name ?? '', revision: podRevision(p), ready: isPodReady(p) }));
      calls.push({ pod, revision: q.get('revision') ?? '', at: Date.now(), status, others });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}/switchover`, calls, release: () => (released = true), close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

function hookedSet(env: TestEnv, name: string, hook: PreUpdateHook, replicas: number, priority: boolean): StatefulSet {
  const set = twoReplicaSet(env, name);
  const rollingUpdate = priority ? { updateOrder: 'Priority', priority: { label: 'role', values: ['primary'] } } : {};
  return { ...set, spec: { ...set.spec, replicas, lifecycle: { preUpdate: hook }, updateStrategy: { type: 'RollingUpdate', rollingUpdate } } };
}

const podOf = (env: TestEnv, name: string): Promise<Pod> => env.client.get<Pod>(Resources.pods, env.ns, name);

describe('preUpdate hooks on kube-apiserver', () => {
  e2eTest('the primary is switched over after its replicas are updated and Ready, before it goes; a 503 holds it and rollout status says why', { timeout: 120_000, kubelet: KUBELET }, async (env) => {
    const server = await hookServer(env, 'db');
    env.onClose(() => server.close());
    await env.createConverged(hookedSet(env, 'db', { http: { url: server.url }, timeoutSeconds: 120 }, 3, true));
    await env.client.patch(Resources.pods, env.ns, 'db-1', { metadata: { labels: { role: 'primary' } } });
    const primaryUid = (await podOf(env, 'db-1')).metadata.uid;
    await env.setImage('db', 'app', 'app:2');

    // the replicas go (each after its 200), then the primary's hook is called and answers 503
    await waitUntil('the primary\'s hook to be called', 45_000, () => server.calls.some((c) => c.pod === 'db-1') || `calls: ${server.calls.map((c) => c.pod).join(', ')}`);
    const first = server.calls.find((c) => c.pod === 'db-1') as Call;
    assert.deepEqual(server.calls.slice(0, 2).map((c) => [c.pod, c.status]), [['db-2', 200], ['db-0', 200]], 'replicas first, top-down');
    for (const o of first.others) assert.deepEqual([o.name, o.revision, o.ready], [o.name, first.revision, true], 'every replica updated and Ready at the primary\'s call');
    const held = await podOf(env, 'db-1');
    assert.equal(held.metadata.uid, primaryUid, 'the primary is not deleted while its hook answers 503');
    assert.equal(parseHookRecord(held.metadata.annotations?.[PodAnnotations.preUpdateHook])?.phase, 'Calling');

    // rollout status waits, and says for what
    const io = bufferIO();
    assert.equal(await rolloutStatusCommand({ client: env.client, namespace: env.ns, io, timers: realTimers() }, 'db', { timeout: '3s' }), ExitCode.failed);
    assert.match(io.out, /Waiting for the preUpdate hook of db-1 \(GET http:\/\/127\.0\.0\.1:\d+\/switchover\?pod=db-1&revision=db-\w+\), called \d+s ago\.\.\./);
    assert.equal((await podOf(env, 'db-1')).metadata.uid, primaryUid, 'still held after the 503s');

    // the switchover is done: 200, then the primary goes
    server.release();
    await env.waitForSet('db', 'the rollout to complete', 60_000, (s) => (s.status?.updatedReplicas === 3 && s.status.readyReplicas === 3 && s.status.currentRevision === s.status.updateRevision) || `updated ${s.status?.updatedReplicas}`);
    const passed = server.calls.find((c) => c.pod === 'db-1' && c.status === 200) as Call;
    const recreated = await podOf(env, 'db-1');
    assert.notEqual(recreated.metadata.uid, primaryUid);
    assert.ok((fromTimestamp(recreated.metadata.creationTimestamp) ?? 0) >= Math.floor(passed.at / 1000) * 1000, 'the primary was recreated after its hook passed');
    assert.deepEqual(server.calls.filter((c) => c.status === 200).map((c) => c.pod), ['db-2', 'db-0', 'db-1'], 'one passing call per pod');
    const called = (await env.events('db', 'PreUpdateHookCalled')).map((e) => /Pod (db-\d)/.exec(e.message ?? '')?.[1]).sort();
    assert.deepEqual(called, ['db-0', 'db-1', 'db-2'], 'PreUpdateHookCalled once per pod');
  });

  e2eTest('a labels handler: the pod is labelled PreparingUpdate and goes once the test, as the agent, sets the labels', { timeout: 90_000, kubelet: KUBELET }, async (env) => {
    await env.createConverged(hookedSet(env, 'kv', { labelsHandler: { 'db.example/drained': 'true' } }, 2, false));
    const uid = (await podOf(env, 'kv-1')).metadata.uid;
    await env.setImage('kv', 'app', 'app:2');
    await waitUntil('kv-1 to be labelled PreparingUpdate', 30_000, async () => (await podOf(env, 'kv-1')).metadata.labels?.[LIFECYCLE_STATE_LABEL] === 'PreparingUpdate' || 'not labelled');
    await pause(1500);
    assert.equal((await podOf(env, 'kv-1')).metadata.uid, uid, 'held until the agent answers');
    for (const name of ['kv-1', 'kv-0']) {
      await waitUntil(`${name} to be labelled PreparingUpdate`, 30_000, async () => (await podOf(env, name)).metadata.labels?.[LIFECYCLE_STATE_LABEL] === 'PreparingUpdate' || 'not labelled');
      await env.client.patch(Resources.pods, env.ns, name, { metadata: { labels: { 'db.example/drained': 'true' } } });
    }
    await env.waitForSet('kv', 'the rollout to complete', 60_000, (s) => (s.status?.updatedReplicas === 2 && s.status.readyReplicas === 2 && s.status.currentRevision === s.status.updateRevision) || `updated ${s.status?.updatedReplicas}`);
    assert.notEqual((await podOf(env, 'kv-1')).metadata.uid, uid);
  });
});
