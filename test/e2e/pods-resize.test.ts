// podUpdatePolicy InPlaceIfPossible resizing cpu on a real kube-apiserver 1.37: `ordinal controller` sends each
// pod's new resources through pods/resize (kube-apiserver's ValidatePodResize and PodResizeValidator admission
// judge every request against the Node the simulated kubelet registered, with its allocatable), the kubelet
// resizes the running container without a restart and reports containerStatuses[].resources, and the
// controller relabels the pod then: highest ordinal first, no pod replaced, uid and node kept, none restarted.
import { after as afterAll, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import { Labels, PodAnnotations, type Pod, type StatefulSet } from '../../src/api/types.js';
import { baseSet } from '../deploy/crd-cases.js';
import { closeSession } from './cluster-session.js';
import { e2eTest } from './harness.js';
import { after, mark } from './pod-order.js';

afterAll(() => closeSession());

const moving = (p: Pod): boolean => p.metadata.annotations?.[PodAnnotations.inPlaceUpdateRevision] !== undefined;
const sized = (cpu: string, limit: string) => ({ requests: { cpu, memory: '64Mi' }, limits: { cpu: limit, memory: '128Mi' } });

describe('pods resized in place on kube-apiserver (apps.ordinal.dev/v1)', () => {
  e2eTest('a cpu-only change: each pod resized through pods/resize highest first, relabelled once its kubelet reports the resources', {
    timeout: 150_000,
    kubelet: { podStartSeconds: 0.5, podTerminationSeconds: 0.5, images: {}, allocatable: { cpu: '4', memory: '8Gi' } },
  }, async (env) => {
    const set = structuredClone(baseSet(env.ns, 'db')) as StatefulSet;
    set.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, podUpdatePolicy: 'InPlaceIfPossible' } };
    const container = set.spec.template.spec.containers[0];
    if (container) container['resources'] = sized('100m', '200m');
    await env.createConverged(set);
    const before = (await env.client.list<Pod>(Resources.pods, env.ns)).items;
    const identity = (pods: Pod[]) => pods.map((p) => `${p.metadata.name ?? ''} ${p.metadata.uid ?? ''} ${p.spec.nodeName ?? ''}`).sort();

    const patched: string[] = [];
    const watch = env.client.watch<Pod>(Resources.pods, env.ns, before[0]?.metadata.resourceVersion ?? '0', {
      onEvent: (e) => {
        const name = e.object.metadata.name ?? '';
        if (e.type !== 'DELETED' && moving(e.object) && !patched.includes(name)) patched.push(name);
      },
      onClose: () => undefined,
    });
    env.onClose(() => watch.stop());

    const from = mark(env);
    await env.patch('db', { spec: { template: { spec: { containers: [{ ...container, name: 'app', resources: sized('300m', '500m') }] } } } });
    await env.waitForSet('db', 'db resized in place', 90_000, (s) =>
      (s.metadata.generation === 2 && s.status?.observedGeneration === 2 && s.status.updatedReplicas === 3 && s.status.readyReplicas === 3 && s.status.currentRevision === s.status.updateRevision) ||
      `status ${JSON.stringify(s.status)}`,
    );
    const update = env.observer.set('db')?.status?.updateRevision ?? '';

    assert.deepEqual(patched, ['db-2', 'db-1', 'db-0'], 'resized highest ordinal first');
    assert.deepEqual(after(env, 'db', 'Terminating', from), [], 'no pod was replaced');
    const pods = (await env.client.list<Pod>(Resources.pods, env.ns)).items;
    assert.deepEqual(identity(pods), identity(before), 'same pods: uid and node kept');
    for (const p of pods) {
      const status = p.status?.containerStatuses?.[0];
      assert.deepEqual(
        [p.spec.containers[0]?.['resources'], p.metadata.labels?.[Labels.revisionHash], p.metadata.annotations ?? {}, status?.['resources'], status?.restartCount],
        [sized('300m', '500m'), update, {}, sized('300m', '500m'), 0],
        p.metadata.name,
      );
    }
  });
});
