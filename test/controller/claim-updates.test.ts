// The planner under volumeClaimUpdatePolicy: InPlace (KEP-4650): a replica moves claims first — patched to
// the update revision's template, highest ordinal first — then, with no claim resizing, its pod is relabelled
// (template unchanged) or deleted (template changed); a resizing claim makes its replica unavailable.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { planStatefulSet } from '../../src/controller/plan/plan-statefulset.js';
import { Labels, type PersistentVolumeClaim, type StatefulSet, type StorageClass } from '../../src/api/types.js';
import { features, newSet, observe, readyPods, revisionOf, revisionName, T0, withImage, withStatus } from './fixtures.js';

function inPlace(storage: string, image = 'app:v1'): StatefulSet {
  const set = withImage(newSet(3, { maxUnavailable: 1 }), image);
  set.spec.volumeClaimUpdatePolicy = 'InPlace';
  set.spec.volumeClaimTemplates = [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } } } }];
  return set;
}

/** A bound claim of the old revision (or `at`), with its request and capacity. */
function claim(ordinal: number, revision: string, request: string, capacity: string): PersistentVolumeClaim {
  return {
    metadata: { name: `data-web-${ordinal}`, namespace: 'default', labels: { app: 'web', [Labels.revisionHash]: revision } },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: request } }, volumeName: `pv-${ordinal}` },
    status: { phase: 'Bound', capacity: { storage: capacity } },
  };
}

/** Plans a sync of the grown set (`next`) over pods and claims of the 1Gi revision, `claims` changing some. */
function plan(next: StatefulSet, change: (claims: PersistentVolumeClaim[]) => void = () => {}, storageClasses?: StorageClass[]) {
  const old = inPlace('1Gi');
  const oldRev = revisionName(old);
  const claims = [0, 1, 2].map((i) => claim(i, oldRev, '1Gi', '1Gi'));
  change(claims);
  const stored = withStatus(next, { observedGeneration: 1, replicas: 3, readyReplicas: 3, availableReplicas: 3, currentReplicas: 3, currentRevision: oldRev, updateRevision: oldRev });
  const observed = { ...observe(stored, readyPods(old, 3), { revisions: [revisionOf(old, 1)], claims }), ...(storageClasses ? { storageClasses } : {}) };
  return { plan: planStatefulSet(observed, T0, features), newRev: revisionName(next) };
}

const kinds = (p: ReturnType<typeof planStatefulSet>) => p.actions.filter((a) => a.kind !== 'createRevision').map((a) => `${a.kind} ${'name' in a ? a.name : ''}`);

describe('InPlace claim updates in the planner', () => {
  it('patches the highest replica\'s claims to the new template and its revision, and nothing else', () => {
    const { plan: p, newRev } = plan(inPlace('2Gi'));
    assert.deepEqual(kinds(p), ['patchClaim data-web-2']);
    const patch = p.actions.find((a) => a.kind === 'patchClaim');
    assert.deepEqual(patch?.kind === 'patchClaim' ? [patch.claim, patch.growsTo] : undefined, [
      {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: 'data-web-2', namespace: 'default', labels: { app: 'web', [Labels.revisionHash]: newRev } },
        spec: { resources: { requests: { storage: '2Gi' } } },
      },
      '2Gi',
    ]);
  });

  it('counts a replica whose claim is resizing as unavailable and waits for it', () => {
    const next = inPlace('2Gi');
    const { plan: p } = plan(next, (claims) => (claims[2] = claim(2, revisionName(next), '2Gi', '1Gi')));
    assert.deepEqual(kinds(p), []);
    assert.equal(p.metrics.unavailableReplicas, 1);
    // KEP-4650: a replica whose claim is updating is neither ready nor available, though its pod is
    assert.deepEqual([p.status?.readyReplicas, p.status?.availableReplicas], [2, 2]);
    assert.ok(p.blockers.some((b) => b.kind === 'claimResizing' && b.pod === 'web-2' && b.claim === 'data-web-2' && !b.waitingForPodRestart), JSON.stringify(p.blockers));
  });

  it('relabels the pod once its claim has grown, when the pod template did not change, and grows the next one in the same sync', () => {
    const next = inPlace('2Gi');
    const { plan: p, newRev } = plan(next, (claims) => (claims[2] = claim(2, revisionName(next), '2Gi', '2Gi')));
    // a relabel disrupts nothing, so it takes no slot of maxUnavailable 1: web-1's claim grows at once
    assert.deepEqual(kinds(p), ['relabelPod web-2', 'patchClaim data-web-1']);
    const relabel = p.actions.find((a) => a.kind === 'relabelPod');
    assert.equal(relabel?.kind === 'relabelPod' ? relabel.revision : undefined, newRev);
  });

  it('uses the whole maxUnavailable under OrderedReady: two claims grow beside two relabels (a claim-only change, maxUnavailable 2)', () => {
    const old = inPlace('1Gi');
    old.spec.replicas = 5;
    (old.spec.updateStrategy?.rollingUpdate as { maxUnavailable?: number }).maxUnavailable = 2;
    const next = structuredClone(old);
    next.spec.volumeClaimTemplates = inPlace('2Gi').spec.volumeClaimTemplates ?? [];
    const oldRev = revisionName(old);
    const newRev = revisionName(next);
    // the first batch (web-4, web-3) grew; their pods are still labelled with the old revision
    const claims = [0, 1, 2, 3, 4].map((i) => (i >= 3 ? claim(i, newRev, '2Gi', '2Gi') : claim(i, oldRev, '1Gi', '1Gi')));
    const stored = withStatus(next, { observedGeneration: 1, replicas: 5, readyReplicas: 5, availableReplicas: 5, currentReplicas: 5, currentRevision: oldRev, updateRevision: newRev });
    const p = planStatefulSet(observe(stored, readyPods(old, 5), { revisions: [revisionOf(old, 1), revisionOf(next, 2)], claims }), T0, features);
    assert.equal(stored.spec.podManagementPolicy ?? 'OrderedReady', 'OrderedReady');
    assert.deepEqual(kinds(p).sort(), ['patchClaim data-web-1', 'patchClaim data-web-2', 'relabelPod web-3', 'relabelPod web-4']);
  });

  it('deletes the pod once its claim has grown, when the pod template changed too', () => {
    const next = inPlace('2Gi', 'app:v2');
    const { plan: p } = plan(next, (claims) => (claims[2] = claim(2, revisionName(next), '2Gi', '2Gi')));
    assert.deepEqual(kinds(p), ['deletePod web-2']);
  });

  it('never patches a request down (a claim already larger keeps its size)', () => {
    const { plan: p } = plan(inPlace('2Gi'), (claims) => (claims[2] = claim(2, revisionName(inPlace('1Gi')), '5Gi', '5Gi')));
    const patch = p.actions.find((a) => a.kind === 'patchClaim');
    // the apply names the claim's own (larger) request, so it keeps owning it, and grows nothing
    assert.deepEqual(patch?.kind === 'patchClaim' ? [patch.claim.spec.resources?.requests?.storage, patch.growsTo] : 'none', ['5Gi', undefined]);
  });

  describe('a claim that cannot grow, or whose resize failed: the replica stays, says why, and nothing is deleted', () => {
    const storageClass = (name: string, allowVolumeExpansion?: boolean): StorageClass => ({
      apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name }, provisioner: 'sim', ...(allowVolumeExpansion === undefined ? {} : { allowVolumeExpansion }),
    });
    const inClass = (name: string) => (claims: PersistentVolumeClaim[]) => claims.forEach((c) => (c.spec.storageClassName = name));

    it('does not patch a claim whose StorageClass does not allow expansion, and reports it with a Warning', () => {
      const { plan: p } = plan(inPlace('2Gi'), inClass('fixed'), [storageClass('fixed'), storageClass('grows', true)]);
      assert.deepEqual(kinds(p), []);
      assert.deepEqual(p.blockers.filter((b) => b.kind === 'claimExpansionRefused'), [{ kind: 'claimExpansionRefused', pod: 'web-2', claim: 'data-web-2', storageClass: 'fixed', request: '2Gi' }]);
      assert.deepEqual(p.events.filter((e) => e.type === 'Warning').map((e) => `${e.reason}: ${e.message}`), [
        'ClaimExpansionRefused: Claim data-web-2 for Pod web-2 in StatefulSet web cannot grow to 2Gi: StorageClass fixed does not allow volume expansion',
      ]);
    });

    it('patches it once the class allows expansion, and when the class is not observed leaves the decision to the API server', () => {
      assert.deepEqual(kinds(plan(inPlace('2Gi'), inClass('grows'), [storageClass('grows', true)]).plan), ['patchClaim data-web-2']);
      assert.deepEqual(kinds(plan(inPlace('2Gi'), inClass('fixed')).plan), ['patchClaim data-web-2']);
    });

    it('refuses a claim without a StorageClass, as kube-apiserver\'s resize admission does', () => {
      const { plan: p } = plan(inPlace('2Gi'), () => {}, [storageClass('grows', true)]);
      assert.equal(p.blockers.find((b) => b.kind === 'claimExpansionRefused')?.kind === 'claimExpansionRefused', true);
      assert.deepEqual(kinds(p), []);
    });

    it('still patches labels when the storage does not grow, whatever the class', () => {
      const next = inPlace('1Gi');
      next.spec.volumeClaimTemplates![0]!.metadata!.labels = { tier: 'gold' };
      assert.deepEqual(kinds(plan(next, inClass('fixed'), [storageClass('fixed')]).plan), ['patchClaim data-web-2']);
    });

    it('reports a failed resize and deletes nothing, even under EnforcedRollingUpdate', () => {
      for (const enforced of [false, true]) {
        const next = inPlace('2Gi');
        if (enforced) next.spec.updateStrategy = { type: 'EnforcedRollingUpdate', enforcedRollingUpdate: { maxUnavailable: 1 } } as StatefulSet['spec']['updateStrategy'];
        const { plan: p } = plan(next, (claims) => {
          const failed = claim(2, revisionName(next), '2Gi', '1Gi');
          failed.status!.conditions = [{ type: 'ControllerResizeError', status: 'True', message: 'out of space' }];
          claims[2] = failed;
        });
        assert.deepEqual(kinds(p), [], `enforced=${enforced}`);
        assert.ok(p.blockers.some((b) => b.kind === 'claimResizeFailed' && b.claim === 'data-web-2' && b.message === 'out of space'), JSON.stringify(p.blockers));
        assert.ok(p.events.some((e) => e.reason === 'ClaimResizeFailed' && e.message.endsWith('failed to expand: out of space')));
      }
    });
  });
});
