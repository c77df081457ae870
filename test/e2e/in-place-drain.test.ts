// inPlaceUpdateStrategy.gracePeriodSeconds on a real kube-apiserver 1.37: the pods `ordinal controller` creates
// carry the readiness gate apps.ordinal.dev/InPlaceUpdateReady (kube-apiserver stores spec.readinessGates), the
// controller writes the condition True through pods/status beside the kubelet's conditions, and before each
// in-place restart writes it False: the (simulated) kubelet turns the pod NotReady, and the image patch comes
// after the False, no sooner than lastTransitionTime + gracePeriodSeconds; after the restart the condition is
// True and the pod Ready again.
import { after as afterAll, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import { fromTimestamp, IN_PLACE_READINESS_GATE, type Pod, type StatefulSet } from '../../src/api/types.js';
import { baseSet } from '../deploy/crd-cases.js';
import { closeSession } from './cluster-session.js';
import { e2eTest } from './harness.js';

afterAll(() => closeSession());

const GRACE = 2;
const condition = (p: Pod, type: string) => p.status?.conditions?.find((c) => c.type === type);

/** What the watch saw of one pod, in kube-apiserver's commit order, with the instant each event arrived. */
interface Seen {
  /** The gate's condition went False (its lastTransitionTime), and when the watch saw it. */
  drainedAt?: { since: number; seenAt: number };
  /** The kubelet's Ready went False after the drain. */
  notReadyAfterDrain?: boolean;
  /** When the watch first saw the new image in the pod's spec. */
  patchedAt?: number;
}

describe('drain before an in-place restart on kube-apiserver (apps.ordinal.dev/v1)', () => {
  e2eTest('the readiness gate on the pods, its condition False for gracePeriodSeconds before each image patch, True after the restart', {
    timeout: 120_000,
    kubelet: { podStartSeconds: 0.5, podTerminationSeconds: 0.5, images: {} },
  }, async (env) => {
    const set = structuredClone(baseSet(env.ns, 'db')) as StatefulSet;
    set.spec.replicas = 2;
    set.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, podUpdatePolicy: 'InPlaceIfPossible', inPlaceUpdateStrategy: { gracePeriodSeconds: GRACE } } };
    await env.createConverged(set);
    const before = (await env.client.list<Pod>(Resources.pods, env.ns)).items;
    for (const p of before) {
      assert.deepEqual(p.spec.readinessGates, [{ conditionType: IN_PLACE_READINESS_GATE }], `${p.metadata.name ?? ''}: the gate in spec.readinessGates`);
      assert.equal(condition(p, IN_PLACE_READINESS_GATE)?.status, 'True', `${p.metadata.name ?? ''}: the gate's condition True`);
      assert.equal(condition(p, 'Ready')?.status, 'True', `${p.metadata.name ?? ''}: Ready (the kubelet's conditions kept beside the gate's)`);
    }

    const seen = new Map<string, Seen>();
    const watch = env.client.watch<Pod>(Resources.pods, env.ns, before[0]?.metadata.resourceVersion ?? '0', {
      onEvent: (e) => {
        if (e.type === 'DELETED' || e.type === 'BOOKMARK') return;
        const p = e.object;
        const s = seen.get(p.metadata.name ?? '') ?? {};
        seen.set(p.metadata.name ?? '', s);
        const gate = condition(p, IN_PLACE_READINESS_GATE);
        if (gate?.status === 'False' && s.drainedAt === undefined) s.drainedAt = { since: fromTimestamp(gate.lastTransitionTime) ?? Number.NaN, seenAt: Date.now() };
        if (s.drainedAt !== undefined && s.patchedAt === undefined && condition(p, 'Ready')?.status === 'False') s.notReadyAfterDrain = true;
        if (p.spec.containers[0]?.image === 'nginx:1.28' && s.patchedAt === undefined) s.patchedAt = Date.now();
      },
      onClose: () => undefined,
    });
    env.onClose(() => watch.stop());

    await env.patch('db', { spec: { template: { spec: { containers: [{ name: 'app', image: 'nginx:1.28' }] } } } });
    await env.waitForSet('db', 'db rolled to nginx:1.28 in place', 60_000, (s) =>
      (s.status?.observedGeneration === 2 && s.status.updatedReplicas === 2 && s.status.readyReplicas === 2 && s.status.currentRevision === s.status.updateRevision) || `status ${JSON.stringify(s.status)}`,
    );

    for (const name of ['db-0', 'db-1']) {
      const s = seen.get(name) ?? {};
      assert.ok(s.drainedAt !== undefined && s.patchedAt !== undefined, `${name}: drained and patched (${JSON.stringify(s)})`);
      assert.ok(s.drainedAt.seenAt <= s.patchedAt, `${name}: the condition False before the image patch`);
      assert.ok(s.patchedAt >= s.drainedAt.since + GRACE * 1000, `${name}: patched ${s.patchedAt - s.drainedAt.since} ms after the drain's lastTransitionTime, at least ${GRACE}s`);
      assert.equal(s.notReadyAfterDrain, true, `${name}: NotReady (the kubelet's Ready False) during the drain`);
    }
    const pods = (await env.client.list<Pod>(Resources.pods, env.ns)).items;
    assert.deepEqual(pods.map((p) => p.metadata.uid).sort(), before.map((p) => p.metadata.uid).sort(), 'no pod replaced');
    for (const p of pods) {
      assert.equal(condition(p, IN_PLACE_READINESS_GATE)?.status, 'True', `${p.metadata.name ?? ''}: the gate True after the restart`);
      assert.equal(condition(p, 'Ready')?.status, 'True', `${p.metadata.name ?? ''}: Ready after the restart`);
    }
    assert.equal((await env.events('db', 'InPlaceUpdateDraining')).length, 2, 'an InPlaceUpdateDraining event per pod');
  });
});
