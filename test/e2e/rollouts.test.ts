// The example scenarios' essentials on a real kube-apiserver, apps.ordinal.dev/v1 objects reconciled by
// `ordinal controller` (a child process) with the simulated kubelet on real time.
import { after, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { StatefulSet } from '../../src/api/types.js';
import { Resources } from '../../src/api/client.js';
import { closeSession } from './cluster-session.js';
import { exampleSet, fastKubelet, loadExample } from './examples.js';
import { e2eTest, type TestEnv } from './harness.js';
import type { PodEvent } from './observer.js';

after(() => closeSession());

/** Names of the `type` events after `from` (a seq), in watch order. */
function namesAfter(env: TestEnv, set: string, type: PodEvent['type'], from: number): string[] {
  return env.observer.eventsOf(set, type).filter((e) => e.seq > from).map((e) => e.name);
}

const lastSeq = (env: TestEnv): number => env.observer.podEvents.at(-1)?.seq ?? 0;

function seqOf(env: TestEnv, set: string, type: PodEvent['type'], name: string, from: number): number {
  const e = env.observer.eventsOf(set, type).find((x) => x.name === name && x.seq > from);
  assert.ok(e, `no ${type} event for ${name} after #${from}`);
  return e.seq;
}

async function createAndConverge(env: TestEnv, set: StatefulSet, timeoutMs = 60_000): Promise<void> {
  await env.create(set);
  await env.waitConverged(set.metadata.name ?? '', timeoutMs);
  env.observer.trackUnavailable(set.metadata.name ?? '');
}

const blog = loadExample('blog-max-unavailable.yaml');

describe('examples on kube-apiserver (apps.ordinal.dev/v1)', () => {
  e2eTest('blog trace: maxUnavailable 2 replaces web-4 and web-3 together, then web-2 and web-1, then web-0', {
    timeout: 120_000,
    kubelet: fastKubelet(blog),
  }, async (env) => {
    const service = blog.objects.find((o) => o.kind === 'Service')!;
    await env.createObject(Resources.services, service);
    await createAndConverge(env, exampleSet(blog, 'web', { namespace: env.ns, apiVersion: env.apiVersion }));
    const from = lastSeq(env);
    await env.setImage('web', 'nginx', 'registry.k8s.io/nginx-slim:0.9');
    await env.waitConverged('web', 60_000);

    const terminated = namesAfter(env, 'web', 'Terminating', from);
    assert.deepEqual(terminated.slice(0, 2).sort(), ['web-3', 'web-4'], `terminations: ${terminated.join(', ')}`);
    assert.deepEqual(terminated.slice(2, 4).sort(), ['web-1', 'web-2'], `terminations: ${terminated.join(', ')}`);
    assert.deepEqual(terminated.slice(4), ['web-0']);
    const secondWave = Math.min(seqOf(env, 'web', 'Terminating', 'web-2', from), seqOf(env, 'web', 'Terminating', 'web-1', from));
    for (const replaced of ['web-3', 'web-4']) {
      assert.ok(seqOf(env, 'web', 'Ready', replaced, from) < secondWave, `${replaced} is Ready again before web-2 and web-1 go`);
    }
    const { max, worst } = env.observer.maxUnavailable('web');
    assert.equal(max, 2, `most unavailable at once: ${worst}`);
    const status = env.observer.set('web')!.status!;
    assert.deepEqual(
      [status.replicas, status.readyReplicas, status.availableReplicas, status.updatedReplicas, status.currentReplicas],
      [5, 5, 5, 5, 5],
    );
    assert.equal(status.currentRevision, status.updateRevision);
    assert.ok((await env.events('web', 'SuccessfulDelete')).length > 0, 'a SuccessfulDelete event for web');
  });
});
