// The rollout commands on a real kube-apiserver (the e2e control plane of scripts/control-plane), with
// `ordinal controller` reconciling the test's namespace and the simulated kubelet on real time. Skipped
// without a control plane, failed under CI without one (test/e2e/control-plane.ts).

import { after as afterAll, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import type { Pod } from '../../src/api/types.js';
import { planCommand } from '../../src/cli/commands/plan.js';
import { rolloutHistoryCommand, rolloutRestartCommand, rolloutStatusCommand, rolloutUndoCommand } from '../../src/cli/commands/rollout.js';
import { whyCommand } from '../../src/cli/commands/why.js';
import type { CommandDeps } from '../../src/cli/explain/command-runner.js';
import { bufferIO } from '../../src/cli/explain/io.js';
import { realTimers } from '../../src/runtime/real-clock.js';
import { closeSession } from '../e2e/cluster-session.js';
import { e2eTest, twoReplicaSet, type TestEnv } from '../e2e/harness.js';

afterAll(() => closeSession());

function deps(env: TestEnv): CommandDeps & { io: ReturnType<typeof bufferIO> } {
  return { client: env.client, namespace: env.ns, io: bufferIO(), timers: realTimers() };
}

function take(d: ReturnType<typeof deps>): { out: string; err: string } {
  const r = { out: d.io.out, err: d.io.err };
  d.io.out = '';
  d.io.err = '';
  return r;
}

const images = async (env: TestEnv): Promise<string[]> =>
  (await env.client.list<Pod>(Resources.pods, env.ns)).items.map((p) => p.spec.containers[0]?.image ?? '').sort();

async function statusDone(d: ReturnType<typeof deps>, name: string): Promise<void> {
  const code = await rolloutStatusCommand(d, name, { timeout: '60s' });
  const r = take(d);
  assert.equal(code, 0, `rollout status: ${r.out}${r.err}`);
  assert.match(r.out, /statefulset rolling update complete 2 pods at revision /);
}

async function walkThrough(env: TestEnv, name: string, qualified: string): Promise<void> {
  const d = deps(env);
  await env.createConverged(twoReplicaSet(env, name));
  await statusDone(d, name);
  await env.setImage(name, 'app', 'app:2');
  await statusDone(d, name);

  assert.equal(await rolloutHistoryCommand(d, name, {}), 0);
  assert.match(take(d).out, new RegExp(`^${qualified}\\nREVISION.*\\n1 .*\\(first revision\\)\\n2 .*current,update.*image app: app:1 -> app:2\\n$`));

  assert.equal(await rolloutUndoCommand(d, name, {}), 0);
  assert.equal(take(d).out, `${qualified} rolled back\n`);
  await statusDone(d, name);
  assert.deepEqual(await images(env), ['app:1', 'app:1']);

  assert.equal(await rolloutRestartCommand(d, name), 0);
  assert.equal(take(d).out, `${qualified} restarted\n`);
  await statusDone(d, name);

  assert.equal(await whyCommand(d, name, {}), 0);
  assert.match(take(d).out, /2 of 2 pods are on revision \S+ and available\. Nothing is blocked/);
  assert.equal(await planCommand(d, name, {}), 0);
  assert.match(take(d).out, /next sync \(dry run, nothing was changed\)\nNo actions\./);
}

describe('rollout commands on kube-apiserver', () => {
  e2eTest('status, history, undo, restart, why and plan on an apps.ordinal.dev/v1 set', { timeout: 180_000, kubelet: { podStartSeconds: 1, podTerminationSeconds: 1 } }, (env) =>
    walkThrough(env, 'web', 'statefulset.apps.ordinal.dev/web'),
  );

  e2eTest('the same on an apps/v1 set (--target=native)', { timeout: 180_000, target: 'native', kubelet: { podStartSeconds: 1, podTerminationSeconds: 1 } }, (env) =>
    walkThrough(env, 'db', 'statefulset.apps/db'),
  );

  e2eTest('rollout status exits 1 on ProgressDeadlineExceeded, and right after the fix waits for the fixed rollout', {
    timeout: 120_000,
    kubelet: { podStartSeconds: 1, podTerminationSeconds: 1, images: { 'app:broken': { behavior: 'ImagePullBackOff' } } },
  }, async (env) => {
    const d = deps(env);
    const s = twoReplicaSet(env, 'stuck');
    await env.createConverged({ ...s, spec: { ...s.spec, progressDeadlineSeconds: 5 } });
    await env.setImage('stuck', 'app', 'app:broken');
    assert.equal(await rolloutStatusCommand(d, 'stuck', { timeout: '90s' }), 1);
    assert.equal(take(d).err, 'error: statefulset "stuck" exceeded its progress deadline\n');
    // The fix: the previous deadline is not this generation's, so the command waits for the fixed rollout.
    await env.setImage('stuck', 'app', 'app:2');
    await env.client.delete(Resources.pods, env.ns, 'stuck-1'); // OrderedReady does not replace a broken pod by itself
    assert.equal(await rolloutStatusCommand(d, 'stuck', { timeout: '90s' }), 0);
    const { out, err } = take(d);
    assert.equal(err, '');
    assert.match(out, /statefulset rolling update complete 2 pods at revision /);
  });
});
