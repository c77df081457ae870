// The planner under podUpdatePolicy with new cpu/memory (KEP-1287): a revision that changes only containers'
// cpu/memory (same QoS class) moves in place through pods/resize; the pod is relabelled once its kubelet
// reports the new resources; a resize that is Infeasible (or refused by kube-apiserver), or Deferred too long,
// recreates the pod under InPlaceIfPossible and halts the rollout under InPlaceOnly.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Labels, PodAnnotations, type PodUpdatePolicy, type StatefulSet } from '../../src/api/types.js';
import { DEFERRED_RESIZE_TIMEOUT_MS } from '../../src/controller/replica/in-place-state.js';
import type { Action, Plan } from '../../src/controller/model/plan-types.js';
import { newSet, SECOND } from './fixtures.js';
import { Harness } from './harness.js';

const writes = (p: Plan): string[] => p.actions.filter((a) => a.kind !== 'createRevision' && a.kind !== 'deleteRevision').map((a) => `${a.kind} ${'name' in a ? a.name : ''}`);
const patchOf = (p: Plan) => p.actions.find((a): a is Extract<Action, { kind: 'patchPod' }> => a.kind === 'patchPod');

const burstable = (cpu: string, limit = '1') => ({ requests: { cpu, memory: '64Mi' }, limits: { cpu: limit, memory: '128Mi' } });

function converged(policy: PodUpdatePolicy): Harness {
  const set = newSet(3, { maxUnavailable: 1, claims: false });
  (set.spec.updateStrategy?.rollingUpdate as { podUpdatePolicy?: string }).podUpdatePolicy = policy;
  const c = set.spec.template.spec.containers[0];
  if (c) c['resources'] = burstable('100m');
  const h = new Harness(set, { autoReady: true });
  h.converge();
  (h.opts as { autoReady?: boolean }).autoReady = false;
  for (const name of ['web-0', 'web-1', 'web-2']) h.reportsResources(name);
  return h;
}

const resize = (cpu: string, limit?: string) => (s: StatefulSet): void => {
  const c = s.spec.template.spec.containers[0];
  if (c) c['resources'] = burstable(cpu, limit);
};

const infeasible = { reason: 'Infeasible', message: "Node didn't have enough capacity: cpu, requested: 8000, capacity: 4000" };
const deferred = { reason: 'Deferred', message: "Node didn't have enough resource: cpu, requested: 2000, used: 3500, capacity: 4000" };

describe('podUpdatePolicy: cpu/memory resized in place', () => {
  it('resizes the highest pod through pods/resize instead of deleting it, its resources as the template has them', () => {
    const h = converged('InPlaceIfPossible');
    h.update(resize('200m'));
    const plan = h.sync();
    assert.deepEqual(writes(plan), ['patchPod web-2']);
    const pod = h.must('web-2');
    assert.deepEqual(patchOf(plan)?.resize, { metadata: { uid: pod.metadata.uid }, spec: { containers: [{ ...pod.spec.containers[0], resources: burstable('200m') }] } });
    // the image patch keeps the resources the pod had (a pod update may not change them)
    assert.deepEqual(patchOf(plan)?.patch.spec.containers[0]?.['resources'], burstable('100m'));
  });

  it('recreates a pod whose resize would change its QoS class, and InPlaceOnly names the field', () => {
    const guaranteed = (s: StatefulSet) => {
      const c = s.spec.template.spec.containers[0];
      if (c) c['resources'] = { requests: { cpu: '1', memory: '128Mi' }, limits: { cpu: '1', memory: '128Mi' } };
    };
    const h = converged('InPlaceIfPossible');
    h.update(guaranteed);
    assert.deepEqual(writes(h.sync()), ['deletePod web-2']);
    const only = converged('InPlaceOnly');
    only.update(guaranteed);
    const plan = only.sync();
    assert.deepEqual(plan.blockers.find((b) => b.kind === 'inPlaceUpdateImpossible'), { kind: 'inPlaceUpdateImpossible', pod: 'web-2', ordinal: 2, fields: ['spec.template.spec.containers[0].resources'] });
  });

  it('relabels the pod only once its kubelet reports the new resources, and then moves on (Ready throughout: no restart)', () => {
    const h = converged('InPlaceIfPossible');
    h.update(resize('200m'));
    const update = h.sync().status.updateRevision ?? '';
    h.reportsResources('web-2', { resources: burstable('100m') });
    const waiting = h.sync();
    assert.deepEqual([writes(waiting), waiting.blockers.find((b) => b.kind === 'podUpdatingInPlace')], [[], { kind: 'podUpdatingInPlace', pod: 'web-2', ordinal: 2, revision: update, containers: ['app'] }]);
    h.reportsResources('web-2');
    assert.deepEqual(writes(h.sync()), ['relabelPod web-2']);
    assert.equal(h.revisionOf('web-2'), update);
    h.advance(SECOND);
    assert.deepEqual(writes(h.sync()), ['patchPod web-1']);
    assert.equal(h.applied.filter((a) => a.kind === 'deletePod').length, 0);
  });

  it('sends the resize again when it did not reach the pod after the patch', () => {
    const h = converged('InPlaceIfPossible');
    h.update(resize('200m'));
    const plan = h.sync();
    const live = h.must('web-2');
    const c = live.spec.containers[0];
    if (c) c['resources'] = burstable('100m'); // the resize request failed
    const again = h.sync();
    assert.deepEqual([writes(again), patchOf(again)?.revision], [['patchPod web-2'], plan.status.updateRevision]);
  });

  it('does not send the resize again when the API server writes the same quantities otherwise (0.2, not 200m)', () => {
    const h = converged('InPlaceIfPossible');
    h.update(resize('200m'));
    h.sync();
    const c = h.must('web-2').spec.containers[0];
    if (c) c['resources'] = { requests: { cpu: '0.2', memory: '64Mi' }, limits: { cpu: '1000m', memory: '131072Ki' } };
    h.reportsResources('web-2');
    assert.deepEqual(writes(h.sync()), ['relabelPod web-2']);
  });

  it('recreates the pod (InPlaceIfPossible) when its kubelet finds the resize Infeasible', () => {
    const h = converged('InPlaceIfPossible');
    h.update(resize('8', '9'));
    h.sync();
    h.reportsResources('web-2', { resources: burstable('100m'), pending: infeasible });
    const plan = h.sync();
    assert.deepEqual(writes(plan), ['deletePod web-2']);
    assert.equal(plan.actions.find((a) => a.kind === 'deletePod')?.kind === 'deletePod' && (plan.actions.find((a) => a.kind === 'deletePod') as { cause: string }).cause, 'update');
  });

  it('halts with podResizeImpossible quoting the kubelet under InPlaceOnly, deleting nothing', () => {
    const h = converged('InPlaceOnly');
    h.update(resize('8', '9'));
    h.sync();
    h.reportsResources('web-2', { resources: burstable('100m'), pending: infeasible });
    const plan = h.sync();
    assert.deepEqual(writes(plan), []);
    assert.deepEqual(plan.blockers.find((b) => b.kind === 'podResizeImpossible'), { kind: 'podResizeImpossible', pod: 'web-2', ordinal: 2, reason: 'Infeasible', message: infeasible.message });
  });

  it('treats a resize kube-apiserver refused like an Infeasible one', () => {
    const h = converged('InPlaceIfPossible');
    h.update(resize('8', '9'));
    h.sync();
    const live = h.must('web-2');
    const c = live.spec.containers[0];
    if (c) c['resources'] = burstable('100m');
    live.metadata.annotations = { ...live.metadata.annotations, [PodAnnotations.resizeRefused]: 'pods "web-2" is forbidden: node didn\'t have enough allocatable resources' };
    assert.deepEqual(writes(h.sync()), ['deletePod web-2']);
  });

  it('waits for a Deferred resize until the timeout, waking up then, and falls back afterwards', () => {
    const h = converged('InPlaceIfPossible');
    h.update(resize('2', '2'));
    h.sync();
    const since = h.now;
    h.reportsResources('web-2', { resources: burstable('100m'), pending: deferred });
    const waiting = h.sync();
    assert.deepEqual(writes(waiting), []);
    assert.deepEqual(waiting.blockers.find((b) => b.kind === 'podResizeDeferred'), { kind: 'podResizeDeferred', pod: 'web-2', ordinal: 2, message: deferred.message, fallbackAt: since + DEFERRED_RESIZE_TIMEOUT_MS });
    assert.ok(waiting.wakeAt !== undefined && waiting.wakeAt <= since + DEFERRED_RESIZE_TIMEOUT_MS);
    h.advance(DEFERRED_RESIZE_TIMEOUT_MS);
    assert.deepEqual(writes(h.sync()), ['deletePod web-2']);
  });

  it('keeps the revision label on the old revision while the resize is pending', () => {
    const h = converged('InPlaceOnly');
    const old = h.revisionOf('web-2');
    h.update(resize('2', '2'));
    h.sync();
    h.reportsResources('web-2', { resources: burstable('100m'), pending: deferred });
    h.sync();
    assert.deepEqual([h.must('web-2').metadata.labels?.[Labels.revisionHash], h.applied.filter((a) => a.kind === 'relabelPod').length], [old, 0]);
  });
});
