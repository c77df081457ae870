// Upstream's NewRevisionDeletePodFailure case of TestStatefulSetControl: the status written when only some
// actions succeeded.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { planStatefulSet } from '../../src/controller/plan-statefulset.js';
import type { Action } from '../../src/controller/plan-types.js';
import { settleStatus } from '../../src/runtime/settle-status.js';
import { features, newSet, observe, readyPods, revisionOf, T0, withImage, withStatus } from '../controller/fixtures.js';

function updatePlan() {
  const v1 = newSet(3);
  const rev = revisionOf(v1).metadata.name ?? '';
  const v2 = withStatus(withImage(v1, 'app:v2'), {
    observedGeneration: 1, replicas: 3, readyReplicas: 3, availableReplicas: 3, currentReplicas: 3, updatedReplicas: 3, currentRevision: rev, updateRevision: rev,
  });
  return planStatefulSet(observe(v2, readyPods(v1, 3), { revisions: [revisionOf(v1)] }), T0, features);
}

describe('settleStatus', () => {
  it('keeps currentReplicas at 3 when the update deletion fails, and lowers it to 2 when it succeeds', () => {
    const plan = updatePlan();
    const del = plan.actions.find((a) => a.kind === 'deletePod');
    assert.ok(del);
    const allButDelete = new Set(plan.actions.filter((a) => a !== del));
    const failed = settleStatus(plan, allButDelete);
    assert.equal(failed?.currentReplicas, 3);
    assert.notEqual(failed?.currentRevision, failed?.updateRevision);
    const done = settleStatus(plan, new Set(plan.actions));
    assert.equal(done?.currentReplicas, 2);
    assert.equal(done?.observedGeneration, 2);
  });

  it('keeps currentReplicas at 3 when a PodDisruptionBudget refuses the eviction of the update deletion (respectPodDisruptionBudgets)', () => {
    const v1 = newSet(3, { respectPodDisruptionBudgets: true });
    const rev = revisionOf(v1).metadata.name ?? '';
    const v2 = withStatus(withImage(v1, 'app:v2'), { observedGeneration: 1, replicas: 3, readyReplicas: 3, availableReplicas: 3, currentReplicas: 3, updatedReplicas: 3, currentRevision: rev, updateRevision: rev });
    const pods = readyPods(v1, 3);
    const budget = { metadata: { name: 'web', namespace: 'default', generation: 1 }, spec: { selector: { matchLabels: { app: 'web' } } }, status: { observedGeneration: 1, disruptionsAllowed: 1, currentHealthy: 3, desiredHealthy: 2, expectedPods: 3 } };
    const plan = planStatefulSet({ ...observe(v2, pods, { revisions: [revisionOf(v1)] }), disruptionBudgets: [{ budget, pods }] }, T0, features);
    const evict = plan.actions.find((a) => a.kind === 'deletePod');
    assert.equal(evict?.kind === 'deletePod' && evict.eviction, true);
    assert.equal(settleStatus(plan, new Set(plan.actions.filter((a) => a !== evict)))?.currentReplicas, 3);
  });

  it('writes the computed status when the first pod batch fails and no revision or adoption write came before it', () => {
    const set = withStatus(newSet(5, { policy: 'Parallel', claims: false }), { observedGeneration: 1, replicas: 0 });
    const plan = planStatefulSet(observe(set, readyPods(set, 2)), T0, features);
    const creates = plan.actions.filter((a) => a.kind === 'createPod');
    assert.equal(creates[0]?.batch, 0, 'the first create is batch 0 once batches are numbered densely');
    const status = settleStatus(plan, new Set(plan.actions.filter((a) => a.kind !== 'createPod')));
    assert.equal(status?.replicas, 2);
  });

  it('writes nothing when the revision write (batch 0) fails, as upstream ends the sync before its status', () => {
    const plan = updatePlan();
    assert.equal(plan.statusChanged, true, 'the planned status differs from the stored one');
    const executed = new Set<Action>(plan.actions.filter((a) => a.kind !== 'createRevision'));
    assert.equal(settleStatus(plan, executed), undefined);
  });

  it('writes nothing when the planner found no change and every action ran', () => {
    const set = newSet(3);
    const observed = (s: typeof set) => observe(s, readyPods(set, 3), { revisions: [revisionOf(set)] });
    const first = planStatefulSet(observed(set), T0, features);
    const plan = planStatefulSet(observed(withStatus(set, first.status)), T0, features);
    assert.equal(plan.statusChanged, false);
    assert.equal(settleStatus(plan, new Set(plan.actions)), undefined);
  });

  it('still records observedGeneration and counters when a later action fails', () => {
    const plan = updatePlan();
    const status = settleStatus(plan, new Set(plan.actions.filter((a) => a.batch === 0)));
    assert.equal(status?.observedGeneration, 2);
    assert.equal(status?.replicas, 3);
    assert.equal(status?.readyReplicas, 3);
  });

  it('returns the plan status itself when everything ran', () => {
    const plan = updatePlan();
    assert.equal(settleStatus(plan, new Set(plan.actions)), plan.status);
  });
});
