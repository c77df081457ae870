// Staged rollouts (rollingUpdate.steps) on a real kube-apiserver, with `ordinal controller` and the simulated
// kubelet: the plugin's `rollout pause|resume|promote|abort|retry` (the command functions, as a user's
// kubectl would run them) move a rollout step by step, and `rollout status` exits 3/4 where it waits for a
// person; an HTTP analysis made by the controller against a server this test runs (node:http on 127.0.0.1,
// answering what the test says) lets the rollout go on when it answers 200 and fails it (Progressing False,
// AnalysisFailed) when it answers 500, and passes again once `rollout retry` runs it after a fix. Skipped without a control plane, failed under CI without one
// (test/e2e/control-plane.ts).

import { after as afterAll, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Resources } from '../../src/api/client.js';
import type { Pod, RolloutStep, StatefulSet } from '../../src/api/types.js';
import {
  rolloutAbortCommand,
  rolloutPauseCommand,
  rolloutPromoteCommand,
  rolloutRetryCommand,
  rolloutStatusCommand,
} from '../../src/cli/commands/rollout.js';
import { bufferIO } from '../../src/cli/explain/io.js';
import type { CommandDeps } from '../../src/cli/explain/command-runner.js';
import { ExitCode } from '../../src/cli/rollout/rollout-status.js';
import { podRevision } from '../../src/controller/model/pod-state.js';
import { realTimers } from '../../src/runtime/real-clock.js';
import { closeSession } from './cluster-session.js';
import { e2eTest, twoReplicaSet, type TestEnv } from './harness.js';
import { pause } from './wait.js';

afterAll(() => closeSession());

const KUBELET = { podStartSeconds: 1, podTerminationSeconds: 1 };

/** Three replicas of `app:1`, started in parallel, rolled out by `steps`. */
function stagedSet(env: TestEnv, name: string, steps: RolloutStep[]): StatefulSet {
  const set = twoReplicaSet(env, name);
  return { ...set, spec: { ...set.spec, replicas: 3, podManagementPolicy: 'Parallel', updateStrategy: { type: 'RollingUpdate', rollingUpdate: { steps } } } };
}

/** The plugin's dependencies on the real cluster, with output captured; `take` returns and clears it. */
function plugin(env: TestEnv): CommandDeps & { take: () => { out: string; err: string } } {
  const io = bufferIO();
  const take = () => {
    const r = { out: io.out, err: io.err };
    io.out = '';
    io.err = '';
    return r;
  };
  return { client: env.client, namespace: env.ns, io, timers: realTimers(), take };
}

/** The set's step and state, once the status is written for its update revision. */
const atStep = (index: number, state: string) => (s: StatefulSet): true | string =>
  (s.status?.stepRevision === s.status?.updateRevision && s.status?.currentStepIndex === index && s.status.currentStepState === state) ||
  `step ${s.status?.currentStepIndex ?? 'unset'} ${s.status?.currentStepState ?? ''} (revision ${s.status?.stepRevision ?? 'unset'})`;

/** The revisions of the set's pods, by ordinal. */
async function revisions(env: TestEnv, name: string): Promise<string[]> {
  const pods = (await env.client.list<Pod>(Resources.pods, env.ns)).items.filter((p) => p.metadata.name?.startsWith(`${name}-`));
  return pods.sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '')).map(podRevision);
}

/** An HTTP endpoint the controller's analysis checks: answers `status` (the test changes it) and counts the GETs. */
async function checkServer(): Promise<{ url: string; set: (status: number) => void; gets: () => number; close: () => Promise<void> }> {
  let status = 200;
  let gets = 0;
  const server: Server = createServer((req, res) => {
    if (req.method === 'GET') gets++;
    res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok\n' : 'failing\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/healthz`,
    set: (s) => (status = s),
    gets: () => gets,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('staged rollouts on kube-apiserver', () => {
  e2eTest('pause and resume, a step paused until promoted, promote and abort from the plugin, retry', { timeout: 120_000, kubelet: KUBELET }, async (env) => {
    const p = plugin(env);
    const steps: RolloutStep[] = [{ replicas: 1, pause: {} }, { partition: 0 }];
    await env.createConverged(stagedSet(env, 'canary', steps));
    const old = (await env.client.get<StatefulSet>(env.res, env.ns, 'canary')).status?.currentRevision ?? '';

    // the user's pause holds a new template: nothing is updated, status exits 3
    assert.equal(await rolloutPauseCommand(p, 'canary', 'pause'), 0);
    assert.equal(p.take().out, 'statefulset.apps.ordinal.dev/canary paused\n');
    await env.setImage('canary', 'app', 'app:2');
    await env.waitForSet('canary', 'the pause to be in status', 30_000, (s) => s.status?.pauseConditions?.some((c) => c.reason === 'UserPause') === true || 'no UserPause');
    assert.equal(await rolloutStatusCommand(p, 'canary', { timeout: '30s' }), ExitCode.pausedByUser);
    assert.match(p.take().out, /paused \(spec paused: true; kubectl ordinal rollout resume canary\)\n$/);
    assert.deepEqual(await revisions(env, 'canary'), [old, old, old]);

    // resumed: the canary (ordinal 2) is updated, and the step waits to be promoted; the watch stops there
    assert.equal(await rolloutPauseCommand(p, 'canary', 'resume'), 0);
    assert.equal(await rolloutStatusCommand(p, 'canary', { timeout: '30s' }), ExitCode.pausedAtStep);
    assert.match(p.take().out, /step 1\/2: paused until promoted \(kubectl ordinal rollout promote canary\)\n$/);
    const next = (await env.client.get<StatefulSet>(env.res, env.ns, 'canary')).status?.updateRevision ?? '';
    assert.deepEqual(await revisions(env, 'canary'), [old, old, next]);

    // abort: the rollout fails at the step (onFailure Halt keeps it there), status exits 1
    assert.equal(await rolloutAbortCommand(p, 'canary'), 0);
    assert.match(p.take().out, /rollout of revision canary-\w+ aborted at step 1\/2: it stays there until/);
    await env.waitForSet('canary', 'the abort', 30_000, atStep(0, 'Failed'));
    assert.equal(await rolloutStatusCommand(p, 'canary', { timeout: '30s' }), ExitCode.failed);
    assert.match(p.take().err, /^error: statefulset "canary" rollout aborted: Rollout to revision canary-\w+ at step 1\/2 aborted by the user/);

    // retry lifts the abort: back at the step, paused until promoted; promote runs the last step to the end
    assert.equal(await rolloutRetryCommand(p, 'canary'), 0);
    assert.match(p.take().out, /rollout of revision canary-\w+ at step 1\/2 retried\n$/);
    await env.waitForSet('canary', 'the retry', 30_000, atStep(0, 'Paused'));
    assert.equal(await rolloutPromoteCommand(p, 'canary'), 0);
    assert.equal(p.take().out, 'statefulset.apps.ordinal.dev/canary promoted past step 1/2\n');
    assert.equal(await rolloutStatusCommand(p, 'canary', { timeout: '60s' }), ExitCode.done);
    assert.deepEqual(await revisions(env, 'canary'), [next, next, next]);
    const completed = (await env.events('canary', 'RolloutStepCompleted')).map((e) => e.message ?? '');
    assert.ok(completed.some((m) => /step 1\/2 promoted; step 2\/2 starts/.test(m)), completed.join('; '));
  });

  e2eTest('an HTTP analysis against a server the test runs: 200 lets the next step run, 500 fails the rollout', { timeout: 120_000, kubelet: KUBELET }, async (env) => {
    const server = await checkServer();
    env.onClose(() => server.close());
    const p = plugin(env);
    const steps: RolloutStep[] = [{ replicas: 1, analysis: { http: { url: server.url, interval: '1s', count: 2 } } }, { replicas: 2, pause: {} }, { partition: 0 }];
    await env.createConverged(stagedSet(env, 'probed', steps));

    // passing checks: the analysis passes after two GETs and the next step (a pause) runs
    await env.setImage('probed', 'app', 'app:2');
    await env.waitForSet('probed', 'the analysis to pass', 45_000, atStep(1, 'Paused'));
    assert.ok(server.gets() >= 2, `${server.gets()} GETs`);
    const passed = (await env.events('probed', 'RolloutStepCompleted')).map((e) => e.message ?? '');
    assert.ok(passed.some((m) => /step 1\/3 passed its analysis \(2 of 2 checks of http:\/\/127\.0\.0\.1:\d+\/healthz\)/.test(m)), passed.join('; '));
    assert.equal(await rolloutPromoteCommand(p, 'probed', { full: true }), 0);
    assert.equal(await rolloutStatusCommand(p, 'probed', { timeout: '60s' }), ExitCode.done);
    p.take();

    // failing checks: the next rollout fails at its first step, Progressing False AnalysisFailed
    server.set(500);
    await env.setImage('probed', 'app', 'app:3');
    await env.waitForSet('probed', 'the analysis to fail', 45_000, atStep(0, 'Failed'));
    const failed = await env.client.get<StatefulSet>(env.res, env.ns, 'probed');
    const progressing = failed.status?.conditions?.find((c) => c.type === 'Progressing');
    assert.equal(progressing?.status, 'False');
    assert.equal(progressing?.reason, 'AnalysisFailed');
    assert.match(progressing?.message ?? '', /HTTP 500/);
    assert.equal(await rolloutStatusCommand(p, 'probed', { timeout: '30s' }), ExitCode.failed);
    assert.match(p.take().err, /^error: statefulset "probed" rollout failed: Rollout to revision probed-\w+ at step 1\/3 failed its analysis/);
    const old = failed.status?.currentRevision ?? '';
    assert.deepEqual((await revisions(env, 'probed')).slice(0, 2), [old, old], 'nothing below the canary was updated');

    // the endpoint fixed, `rollout retry` runs the step's analysis again, and it passes
    server.set(200);
    // a step's analysis counts the checks made from the (whole) second its state started: retry a second later
    // than the failed check, or that check counts again
    await pause(1_100);
    assert.equal(await rolloutRetryCommand(p, 'probed'), 0);
    assert.match(p.take().out, /rollout of revision probed-\w+ at step 1\/3 retried\n$/);
    await env.waitForSet('probed', 'the retried analysis to pass', 45_000, atStep(1, 'Paused'));
  });
});
