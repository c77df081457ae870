// A quantity may be a JSON number (`storage: 10737418240`), which kube-apiserver and the CRD accept like its
// decimal text: the planner reads claim templates' and claims' numeric requests and capacities by value.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { planStatefulSet } from '../../src/controller/plan/plan-statefulset.js';
import { Labels, type PersistentVolumeClaim, type Quantity, type StatefulSet } from '../../src/api/types.js';
import { features, newSet, observe, readyPods, revisionName, revisionOf, T0, withStatus } from './fixtures.js';

const GI = 1024 ** 3;

function inPlace(storage: Quantity): StatefulSet {
  const set = newSet(3, { maxUnavailable: 1 });
  set.spec.volumeClaimUpdatePolicy = 'InPlace';
  set.spec.volumeClaimTemplates = [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } } } }];
  return set;
}

function claim(ordinal: number, revision: string, request: Quantity, capacity: Quantity): PersistentVolumeClaim {
  return {
    metadata: { name: `data-web-${ordinal}`, namespace: 'default', labels: { app: 'web', [Labels.revisionHash]: revision } },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: request } }, volumeName: `pv-${ordinal}` },
    status: { phase: 'Bound', capacity: { storage: capacity } },
  };
}

/** A sync of `next` over three ready pods and claims of the revision of a set whose template asked `was`. */
function plan(next: StatefulSet, was: Quantity, claims: (oldRev: string) => PersistentVolumeClaim[]) {
  const old = inPlace(was);
  const oldRev = revisionName(old);
  const stored = withStatus(next, { observedGeneration: 1, replicas: 3, readyReplicas: 3, availableReplicas: 3, currentReplicas: 3, currentRevision: oldRev, updateRevision: oldRev });
  return planStatefulSet(observe(stored, readyPods(old, 3), { revisions: [revisionOf(old, 1)], claims: claims(oldRev) }), T0, features);
}

describe('numeric quantities in the planner', () => {
  it('grows the highest replica\'s claim to a template storage written as a number', () => {
    const p = plan(inPlace(2 * GI), GI, (rev) => [0, 1, 2].map((i) => claim(i, rev, GI, GI)));
    const patches = p.actions.flatMap((a) => (a.kind === 'patchClaim' ? [[a.name, a.growsTo, a.claim.spec.resources?.requests?.storage]] : []));
    assert.deepEqual(patches, [['data-web-2', String(2 * GI), String(2 * GI)]]);
  });

  it('compares numbers and strings by value: a claim of 1073741824 meets a 1Gi template, one of 2Gi is over-sized', () => {
    const p = plan(inPlace('1Gi'), '1Gi', (rev) => [claim(0, rev, GI, GI), claim(1, rev, '1Gi', GI), claim(2, rev, 2 * GI, '2Gi')]);
    assert.deepEqual(p.actions.filter((a) => a.kind !== 'createRevision'), []);
    assert.deepEqual(p.status?.volumeClaimTemplates, [{ name: 'data', compatible: 3, updating: 0, overSized: 1, totalCapacity: '4Gi' }]);
  });

  it('counts a claim whose numeric request is above its numeric capacity as resizing', () => {
    const next = inPlace(2 * GI);
    const p = plan(next, GI, (rev) => [claim(0, rev, GI, GI), claim(1, rev, GI, GI), claim(2, revisionName(next), 2 * GI, GI)]);
    assert.ok(p.blockers.some((b) => b.kind === 'claimResizing' && b.claim === 'data-web-2'), JSON.stringify(p.blockers));
    assert.deepEqual([p.status?.readyReplicas, p.status?.volumeClaimTemplates?.[0]?.updating], [2, 1]);
  });
});
