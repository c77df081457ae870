// Determinism: the memory cluster and kubelet under faults write the same records
// for the same seed, and never touch real timers.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import { createKubelet } from '../../src/cluster/kubelet/index.js';
import { createRandom } from '../../src/sim/scenario-random.js';
import { newEnv, pod } from './helpers.js';

async function run(seed: number): Promise<string> {
  const env = newEnv({ random: createRandom(seed) });
  const lines: string[] = [];
  env.cluster.onWrite((w) => lines.push(JSON.stringify([w.at, w.actor, w.verb, w.name, w.change, w.object])));
  const faults = { apiErrors: { rate: 0.2 }, conflicts: { rate: 0.2 }, watch: { delaySeconds: 0.3, breakEverySeconds: 5, goneRate: 0.5 } };
  const images = { 'app:crash': { behavior: 'CrashLoopBackOff' as const }, 'app:flaky': { behavior: 'NotReadyAfter' as const, seconds: 4 } };
  await createKubelet({ client: env.cluster.client('kubelet', faults), timers: env.clock, nodeName: 'node-1', config: { images } }).start();
  for (const [i, image] of ['nginx:1', 'app:crash', 'app:flaky', 'nginx:2'].entries()) {
    await env.cluster.create(Resources.pods, pod(`p-${i}`, { image }));
    await env.clock.advance(1_500);
  }
  await env.cluster.delete(Resources.pods, 'default', 'p-0');
  await env.clock.advance(60_000);
  return lines.join('\n');
}

describe('determinism', () => {
  it('writes byte-identical records for the same seed, and different ones for another seed', async () => {
    const a = await run(42);
    assert.equal(await run(42), a);
    assert.notEqual(await run(43), a);
  });

  it('schedules no real timer during a simulated run', async (t) => {
    const setTimeoutSpy = t.mock.method(globalThis, 'setTimeout');
    const setIntervalSpy = t.mock.method(globalThis, 'setInterval');
    await run(1);
    assert.equal(setTimeoutSpy.mock.callCount(), 0);
    assert.equal(setIntervalSpy.mock.callCount(), 0);
  });
});
