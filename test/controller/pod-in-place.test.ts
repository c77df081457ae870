// The planner under podUpdatePolicy InPlaceIfPossible / InPlaceOnly: a revision that changes only container
// images, labels and annotations is rolled out by patching pods (highest ordinal first, within maxUnavailable)
// instead of deleting them; each patched pod counts as unavailable until its kubelet reports the new images,
// is then relabelled to the update revision, and the rollout moves on once it is available again.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Labels, PodAnnotations, type PodUpdatePolicy, type StatefulSet } from '../../src/api/types.js';
import type { Action, Plan } from '../../src/controller/model/plan-types.js';
import { newSet, SECOND, type SetOptions } from './fixtures.js';
import { Harness } from './harness.js';

const writes = (p: Plan): string[] => p.actions.filter((a) => a.kind !== 'createRevision' && a.kind !== 'deleteRevision').map((a) => `${a.kind} ${'name' in a ? a.name : ''}`);
const patchOf = (p: Plan) => p.actions.find((a): a is Extract<Action, { kind: 'patchPod' }> => a.kind === 'patchPod');

function converged(policy: PodUpdatePolicy, opts: SetOptions = {}): Harness {
  const set = newSet(3, { maxUnavailable: 1, claims: false, ...opts });
  (set.spec.updateStrategy?.rollingUpdate as { podUpdatePolicy?: string }).podUpdatePolicy = policy;
  set.spec.template.metadata = { labels: { app: 'web', tier: 'old' }, annotations: { note: 'v1' } };
  const h = new Harness(set, { autoReady: true });
  h.converge();
  (h.opts as { autoReady?: boolean }).autoReady = false;
  return h;
}

/** The new revision: image app:v2, label `tier` dropped, annotation `note` changed. */
const imageAndMetadata = (s: StatefulSet): void => {
  const c = s.spec.template.spec.containers[0];
  if (c) c.image = 'app:v2';
  s.spec.template.metadata = { labels: { app: 'web' }, annotations: { note: 'v2' } };
};

describe('podUpdatePolicy: in-place updates in the planner', () => {
  it('patches the highest pod\'s image and metadata instead of deleting it, naming the update revision', () => {
    const h = converged('InPlaceIfPossible');
    h.update(imageAndMetadata);
    const plan = h.sync();
    assert.deepEqual(writes(plan), ['patchPod web-2']);
    const patch = patchOf(plan);
    assert.deepEqual(patch?.patch, {
      metadata: { uid: h.must('web-2').metadata.uid, labels: { tier: null }, annotations: { note: 'v2', [PodAnnotations.inPlaceUpdateRevision]: plan.status.updateRevision } },
      spec: { containers: [{ ...h.must('web-2').spec.containers[0], image: 'app:v2' }] },
    });
    assert.equal(patch?.revision, plan.status.updateRevision);
  });

  it('counts a patched pod unavailable until its kubelet reports the new image, relabels it then, and moves on once it is available', () => {
    const h = converged('InPlaceIfPossible');
    h.update(imageAndMetadata);
    const update = h.sync().status.updateRevision ?? '';
    const uid = h.must('web-2').metadata.uid;
    // still Ready on the old image: the patch already took the budget
    const waiting = h.sync();
    assert.deepEqual(writes(waiting), []);
    assert.deepEqual(waiting.blockers.find((b) => b.kind === 'podUpdatingInPlace'), { kind: 'podUpdatingInPlace', pod: 'web-2', ordinal: 2, revision: update, containers: ['app'] });
    assert.equal(waiting.metrics.unavailableReplicas, 1);
    h.runsSpecImages('web-2');
    const relabel = h.sync();
    const { batch: _b, outcome: _o, ...action } = relabel.actions.find((a) => a.kind === 'relabelPod') ?? { batch: 0 };
    assert.deepEqual(action, { kind: 'relabelPod', name: 'web-2', uid, ordinal: 2, revision: update, clearsInPlaceUpdate: true });
    assert.deepEqual(writes(relabel), ['relabelPod web-2']);
    assert.equal(h.must('web-2').metadata.annotations?.[PodAnnotations.inPlaceUpdateRevision], undefined);
    assert.equal(h.revisionOf('web-2'), update);
    assert.deepEqual(writes(h.sync()), [], 'restarting: not Ready, the budget is spent');
    h.runsSpecImages('web-2', true);
    h.advance(SECOND);
    assert.deepEqual(writes(h.sync()), ['patchPod web-1']);
  });

  it('rolls every pod in place: none is deleted, each keeps its uid, and all end on the update revision with the new template', () => {
    const h = converged('InPlaceIfPossible');
    const uids = ['web-0', 'web-1', 'web-2'].map((n) => h.must(n).metadata.uid);
    h.update(imageAndMetadata);
    for (let i = 0; i < 20; i++) {
      h.sync();
      for (const name of ['web-0', 'web-1', 'web-2']) {
        const pod = h.must(name);
        if (pod.metadata.annotations?.[PodAnnotations.inPlaceUpdateRevision] !== undefined) h.runsSpecImages(name);
        else if (pod.status?.containerStatuses?.some((s) => s.state?.waiting !== undefined)) h.runsSpecImages(name, true);
      }
      h.advance(SECOND);
    }
    const update = h.set.status?.updateRevision;
    assert.equal(h.applied.filter((a) => a.kind === 'deletePod').length, 0);
    assert.deepEqual(['web-0', 'web-1', 'web-2'].map((n) => h.must(n).metadata.uid), uids);
    for (const name of ['web-0', 'web-1', 'web-2']) {
      const pod = h.must(name);
      assert.deepEqual([pod.metadata.labels?.[Labels.revisionHash], pod.metadata.labels?.['tier'], pod.metadata.annotations, pod.spec.containers[0]?.image], [update, undefined, { note: 'v2' }, 'app:v2']);
    }
    assert.equal(h.set.status?.currentRevision, update);
  });

  it('recreates a pod whose revision changes more than images and metadata (InPlaceIfPossible)', () => {
    const h = converged('InPlaceIfPossible');
    h.update((s) => {
      imageAndMetadata(s);
      (s.spec.template.spec.containers[0] as { env?: unknown }).env = [{ name: 'MODE', value: 'fast' }];
    });
    assert.deepEqual(writes(h.sync()), ['deletePod web-2']);
  });

  it('halts with inPlaceUpdateImpossible naming the fields under InPlaceOnly, and deletes nothing', () => {
    const h = converged('InPlaceOnly');
    h.update((s) => {
      imageAndMetadata(s);
      (s.spec.template.spec.containers[0] as { env?: unknown }).env = [{ name: 'MODE', value: 'fast' }];
      s.spec.template.spec.terminationGracePeriodSeconds = 5;
    });
    const plan = h.sync();
    assert.deepEqual(writes(plan), []);
    assert.deepEqual(plan.blockers.find((b) => b.kind === 'inPlaceUpdateImpossible'), {
      kind: 'inPlaceUpdateImpossible',
      pod: 'web-2',
      ordinal: 2,
      fields: ['spec.template.spec.terminationGracePeriodSeconds', 'spec.template.spec.containers[0].env'],
    });
  });

  it('deletes the pod to update it under the default Recreate', () => {
    const h = converged('Recreate');
    h.update(imageAndMetadata);
    assert.deepEqual(writes(h.sync()), ['deletePod web-2']);
  });

  it('patches as many pods at once as maxUnavailable allows (Parallel)', () => {
    const h = converged('InPlaceIfPossible', { policy: 'Parallel', maxUnavailable: 2 });
    h.update(imageAndMetadata);
    assert.deepEqual(writes(h.sync()), ['patchPod web-2', 'patchPod web-1']);
    assert.deepEqual(writes(h.sync()), []);
  });

  it('recreates a pod that was updated in place from its revision\'s template when it is deleted later', () => {
    const h = converged('InPlaceIfPossible');
    h.update(imageAndMetadata);
    const update = h.sync().status.updateRevision;
    h.runsSpecImages('web-2', true);
    h.sync();
    h.deletePod('web-2');
    h.finishTerminating();
    const created = h.sync().actions.find((a) => a.kind === 'createPod');
    const pod = created?.kind === 'createPod' ? created.pod : undefined;
    assert.deepEqual([pod?.metadata.labels?.[Labels.revisionHash], pod?.spec.containers[0]?.image, pod?.metadata.annotations], [update, 'app:v2', { note: 'v2' }]);
  });

  it('moves a pod on from where it is when the update revision changes while it waits for its kubelet', () => {
    const h = converged('InPlaceIfPossible');
    h.update(imageAndMetadata);
    h.sync();
    h.setImage('app:v3');
    const plan = h.sync();
    assert.deepEqual(writes(plan), ['patchPod web-2']);
    assert.deepEqual([patchOf(plan)?.revision, patchOf(plan)?.patch.spec.containers[0]?.image], [plan.status.updateRevision, 'app:v3']);
  });
});

describe('podUpdatePolicy with volumeClaimUpdatePolicy InPlace', () => {
  function withClaims(policy: PodUpdatePolicy): Harness {
    const set = newSet(2, { maxUnavailable: 1 });
    (set.spec.updateStrategy?.rollingUpdate as { podUpdatePolicy?: string }).podUpdatePolicy = policy;
    set.spec.volumeClaimUpdatePolicy = 'InPlace';
    const h = new Harness(set, { autoReady: true });
    h.converge();
    (h.opts as { autoReady?: boolean }).autoReady = false;
    return h;
  }
  const claimLabels = (h: Harness) => [...h.claims.values()].map((c) => `${c.metadata.name ?? ''} ${c.metadata.labels?.[Labels.revisionHash] ?? ''}`).sort();

  it('moves the claims of a claim-only change as before under InPlaceOnly (nothing to do in place, no halt)', () => {
    const h = withClaims('InPlaceOnly');
    h.update((s) => ((s.spec.volumeClaimTemplates?.[0]?.metadata ?? {}).labels = { tier: 'fast' }));
    const plan = h.sync();
    assert.deepEqual([writes(plan), plan.blockers.filter((b) => b.kind === 'inPlaceUpdateImpossible')], [['patchClaim data-web-1'], []]);
  });

  it('patches the pod in place, then brings its claims to the revision once it is relabelled', () => {
    const h = withClaims('InPlaceIfPossible');
    h.setImage('app:v2');
    const update = h.sync().status.updateRevision ?? '';
    assert.deepEqual(h.applied.filter((a) => a.kind === 'patchPod').map((a) => 'name' in a && a.name), ['web-1']);
    h.runsSpecImages('web-1');
    const relabel = h.sync();
    assert.deepEqual(writes(relabel), ['relabelPod web-1']);
    h.runsSpecImages('web-1', true);
    h.advance(SECOND);
    assert.deepEqual(writes(h.sync()), ['patchClaim data-web-1']);
    assert.ok(claimLabels(h).includes(`data-web-1 ${update}`));
  });
});
