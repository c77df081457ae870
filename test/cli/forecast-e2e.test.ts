// `forecast` on a real kube-apiserver with `ordinal controller`: a set is rolled once (so its pods and the
// controller's Events hold real durations), forecast, then rolled again with the same change; the real
// duration must lie inside the forecast's p5–p95 band. The simulated kubelet takes 1.5 s to start and to stop
// a pod: API timestamps have whole seconds, so each pod is measured at 1 or 2 s (all eight may fall the same
// way), and the forecast spreads each measurement by ±0.5 s.
// Skipped without a control plane, failed under CI without one (test/e2e/control-plane.ts).

import { after as afterAll, describe } from 'node:test';
import assert from 'node:assert/strict';
import { forecastCommand } from '../../src/cli/commands/forecast.js';
import { rolloutStatusCommand } from '../../src/cli/commands/rollout.js';
import type { CommandDeps } from '../../src/cli/explain/command-runner.js';
import { bufferIO } from '../../src/cli/explain/io.js';
import { realTimers } from '../../src/runtime/real-clock.js';
import { closeSession } from '../e2e/cluster-session.js';
import { e2eTest, twoReplicaSet, type TestEnv } from '../e2e/harness.js';

afterAll(() => closeSession());

const REPLICAS = 8;

async function rolledTo(env: TestEnv, d: CommandDeps & { io: ReturnType<typeof bufferIO> }, image: string): Promise<number> {
  const started = d.timers.now();
  await env.setImage('web', 'app', image);
  const code = await rolloutStatusCommand(d, 'web', { timeout: '120s' });
  assert.equal(code, 0, d.io.err);
  return (d.timers.now() - started) / 1000;
}

describe('forecast on kube-apiserver', () => {
  e2eTest('learns from a first rollout; the second one lasts within the forecast p5–p95', { timeout: 300_000, kubelet: { podStartSeconds: 1.5, podTerminationSeconds: 1.5 } }, async (env) => {
    const d = { client: env.client, namespace: env.ns, io: bufferIO(), timers: realTimers() };
    const set = twoReplicaSet(env, 'web');
    await env.createConverged({ ...set, spec: { ...set.spec, replicas: REPLICAS } }, 120_000);
    const first = await rolledTo(env, d, 'app:2');

    d.io.out = '';
    const code = await forecastCommand(d, 'web', { image: [{ container: 'app', image: 'app:3' }], runs: 40, candidates: false, output: 'json' });
    assert.equal(code, 0, d.io.err);
    const forecast = JSON.parse(d.io.out) as {
      podStartSeconds: { samples: number[]; source: string };
      podTerminationSeconds: { samples: number[]; source: string };
      settings: Array<{ runs: number; converged: number; p5: number; p50: number; p95: number }>;
    };
    assert.match(forecast.podStartSeconds.source, new RegExp(`^creation → Ready of ${REPLICAS} pods, ±0.5 s$`));
    assert.match(forecast.podTerminationSeconds.source, /^SuccessfulDelete → SuccessfulCreate events of \d+ pods, ±0.5 s$/);
    const current = forecast.settings[0];
    // up to 40 runs, fewer once the band holds still (forecast-band.ts): every run made converges
    assert.ok(current && current.runs >= 8 && current.converged === current.runs, d.io.out);

    d.io.out = '';
    const second = await rolledTo(env, d, 'app:3');
    env.note(
      `first rollout ${first.toFixed(1)} s; learned start ${forecast.podStartSeconds.samples.join(',')} s, termination ${forecast.podTerminationSeconds.samples.join(',')} s; ` +
        `forecast p5 ${current.p5} s, p50 ${current.p50} s, p95 ${current.p95} s; second rollout ${second.toFixed(1)} s`,
    );
    assert.ok(current.p5 <= second && second <= current.p95, `the real ${second.toFixed(1)} s lies outside the forecast ${current.p5}–${current.p95} s`);
  });
});
