// podUpdatePolicy InPlaceIfPossible on a real kube-apiserver 1.37: `ordinal controller` patches each pod's image
// and template metadata (kube-apiserver's own pod update validation judges every patch), the simulated kubelet
// restarts the container in the same pod and reports the new image, and the controller relabels the pod then:
// highest ordinal first, one at a time (maxUnavailable 1), no pod replaced, uid and node kept.
import { after as afterAll, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import { Labels, PodAnnotations, type Pod, type StatefulSet } from '../../src/api/types.js';
import { baseSet } from '../deploy/crd-cases.js';
import { closeSession } from './cluster-session.js';
import { e2eTest } from './harness.js';
import { after, mark } from './pod-order.js';

afterAll(() => closeSession());

const ready = (p: Pod): boolean => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
const moving = (p: Pod): boolean => p.metadata.annotations?.[PodAnnotations.inPlaceUpdateRevision] !== undefined;

describe('pods updated in place on kube-apiserver (apps.ordinal.dev/v1)', () => {
  e2eTest('an image-only change: each pod patched highest first, restarted in place, relabelled once its kubelet reports the image', {
    timeout: 150_000,
    kubelet: { podStartSeconds: 0.5, podTerminationSeconds: 0.5, images: {} },
  }, async (env) => {
    const set = structuredClone(baseSet(env.ns, 'db')) as StatefulSet;
    set.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, podUpdatePolicy: 'InPlaceIfPossible' } };
    set.spec.template.metadata = { labels: { app: 'web' }, annotations: { note: 'v1' } };
    await env.createConverged(set);
    const before = (await env.client.list<Pod>(Resources.pods, env.ns)).items;
    const identity = (pods: Pod[]) => pods.map((p) => `${p.metadata.name ?? ''} ${p.metadata.uid ?? ''} ${p.spec.nodeName ?? ''}`).sort();

    // in the order kube-apiserver committed them: which pod the controller patched, and how many replicas
    // were moving or not Ready at once
    const patched: string[] = [];
    const live = new Map(before.map((p) => [p.metadata.name ?? '', p]));
    let worst = 0;
    const watch = env.client.watch<Pod>(Resources.pods, env.ns, before[0]?.metadata.resourceVersion ?? '0', {
      onEvent: (e) => {
        const name = e.object.metadata.name ?? '';
        if (e.type === 'DELETED') live.delete(name);
        else live.set(name, e.object);
        if (moving(e.object) && !patched.includes(name)) patched.push(name);
        worst = Math.max(worst, [...live.values()].filter((p) => moving(p) || !ready(p)).length);
      },
      onClose: () => undefined,
    });
    env.onClose(() => watch.stop());

    const from = mark(env);
    await env.patch('db', { spec: { template: { metadata: { annotations: { note: 'v2' } }, spec: { containers: [{ name: 'app', image: 'nginx:1.28' }] } } } });
    await env.waitForSet('db', 'db rolled to nginx:1.28 in place', 90_000, (s) =>
      (s.metadata.generation === 2 && s.status?.observedGeneration === 2 && s.status.updatedReplicas === 3 && s.status.readyReplicas === 3 && s.status.currentRevision === s.status.updateRevision) ||
      `status ${JSON.stringify(s.status)}`,
    );
    const update = env.observer.set('db')?.status?.updateRevision ?? '';

    assert.deepEqual(patched, ['db-2', 'db-1', 'db-0'], 'patched highest ordinal first');
    assert.equal(worst, 1, 'one replica moving or down at a time');
    assert.deepEqual(after(env, 'db', 'Terminating', from), [], 'no pod was replaced');
    const pods = (await env.client.list<Pod>(Resources.pods, env.ns)).items;
    assert.deepEqual(identity(pods), identity(before), 'same pods: uid and node kept');
    for (const p of pods) {
      const status = p.status?.containerStatuses?.[0];
      assert.deepEqual(
        [p.spec.containers[0]?.image, p.metadata.labels?.[Labels.revisionHash], p.metadata.annotations, status?.image, status?.restartCount],
        ['nginx:1.28', update, { note: 'v2' }, 'nginx:1.28', 1],
        p.metadata.name,
      );
    }
    assert.ok((await env.events('db', 'SuccessfulUpdate')).some((e) => e.message === 'update Pod db-2 in StatefulSet db successful'), 'a SuccessfulUpdate event for the patch');
  });
});
