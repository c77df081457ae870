// The Recreate strategy (KEP-3541's final design): delete every old pod, wait until
// all are gone, then create per podManagementPolicy; Progressing conditions; gate off falls back.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { withFeatures } from '../../src/api/features.js';
import type { Plan } from '../../src/controller/model/plan-types.js';
import { features, newSet } from './fixtures.js';
import { Harness } from './harness.js';

const deleted = (p: Plan): number[] => p.actions.flatMap((a) => (a.kind === 'deletePod' ? [a.ordinal] : []));
const created = (p: Plan): number[] => p.actions.flatMap((a) => (a.kind === 'createPod' ? [a.ordinal] : []));
const progressing = (h: Harness) => h.set.status?.conditions?.find((c) => c.type === 'Progressing');

function converged(policy: 'OrderedReady' | 'Parallel', replicas = 4): Harness {
  const h = new Harness(newSet(replicas, { policy, strategy: 'Recreate' }), { autoReady: true });
  h.converge();
  return h;
}

describe('Recreate', () => {
  for (const policy of ['OrderedReady', 'Parallel'] as const) {
    it(`${policy}: deletes every old pod at once (slow-start batches) and emits RecreateStarted`, () => {
      const h = converged(policy);
      h.setImage('app:v2');
      const plan = h.sync();
      assert.deepEqual(deleted(plan).sort(), [0, 1, 2, 3]);
      assert.deepEqual(plan.actions.filter((a) => a.kind === 'deletePod').map((a) => a.batch), [1, 2, 2, 3]);
      assert.ok(plan.actions.every((a) => a.kind !== 'deletePod' || a.cause === 'recreate'));
      assert.deepEqual(plan.events.map((e) => e.reason), ['RecreateStarted']);
      assert.equal(progressing(h)?.status, 'True');
      assert.equal(progressing(h)?.reason, 'RecreateInProgress');
    });

    it(`${policy}: creates nothing while an old pod is still terminating`, () => {
      const h = converged(policy);
      h.setImage('app:v2');
      h.sync();
      h.finishTerminating('web-0', 'web-1', 'web-2');
      const plan = h.sync();
      assert.deepEqual(created(plan), []);
      assert.deepEqual(deleted(plan), []);
      assert.ok(plan.blockers.some((b) => b.kind === 'waitingForTermination' && b.pods.includes('web-3')));
      assert.deepEqual(plan.events, [], 'RecreateStarted only once');
    });

    it(`${policy}: recreates per podManagementPolicy once every old pod is gone, then completes`, () => {
      const h = converged(policy);
      h.setImage('app:v2');
      h.sync();
      h.finishTerminating();
      (h.opts as { autoReady?: boolean }).autoReady = false;
      const first = h.sync();
      assert.deepEqual(created(first), policy === 'Parallel' ? [0, 1, 2, 3] : [0]);
      (h.opts as { autoReady?: boolean }).autoReady = true;
      h.readyAll();
      h.converge();
      assert.deepEqual(h.ordinals(), [0, 1, 2, 3]);
      assert.equal(progressing(h)?.status, 'False');
      assert.equal(progressing(h)?.reason, 'RecreateCompleted');
      assert.equal(h.set.status?.currentRevision, h.set.status?.updateRevision);
    });
  }

  it('also deletes stuck and out-of-range old pods, and never touches claims', () => {
    const h = converged('OrderedReady', 3);
    h.notReady('web-1', 'ImagePullBackOff');
    h.update((s) => {
      s.spec.replicas = 2;
      s.spec.template.spec.containers[0]!.image = 'app:v2';
    });
    const plan = h.sync();
    assert.deepEqual(deleted(plan).sort(), [0, 1, 2]);
    assert.ok(!plan.actions.some((a) => a.kind === 'createClaim' || a.kind === 'updateClaim'));
    assert.equal(h.claims.size, 3);
  });

  it('does not restart pods when only the strategy type changes', () => {
    const h = new Harness(newSet(3), { autoReady: true });
    h.converge();
    h.update((s) => (s.spec.updateStrategy = { type: 'Recreate' }));
    const plan = h.sync();
    assert.deepEqual(deleted(plan), []);
    assert.deepEqual(plan.actions.filter((a) => a.kind === 'createRevision'), []);
  });

  it('does not repeat RecreateStarted after a controller restart mid-way', () => {
    const h = converged('Parallel');
    h.setImage('app:v2');
    h.sync((a) => a.kind === 'deletePod' && a.ordinal === 3);
    const again = h.sync();
    assert.deepEqual(deleted(again), [3]);
    assert.deepEqual(again.events, []);
  });

  it('with StatefulSetRecreateStrategy off: warns once and rolls one pod at a time like RollingUpdate', () => {
    const off = withFeatures(features, { StatefulSetRecreateStrategy: false });
    const h = new Harness(newSet(3, { strategy: 'Recreate' }), { autoReady: true, features: off });
    h.converge();
    const warning = h.plans[0]?.events.find((e) => e.reason === 'FeatureDisabled');
    assert.equal(warning?.message, 'statefulset default/web uses Recreate strategy but feature gate StatefulSetRecreateStrategy is disabled');
    assert.equal(warning?.type, 'Warning');
    assert.equal(h.plans.slice(1).flatMap((p) => p.events).filter((e) => e.reason === 'FeatureDisabled').length, 0);
    assert.equal(h.set.status?.conditions?.find((c) => c.type === 'FeatureDisabled')?.status, 'True');
    h.setImage('app:v2');
    const plan = h.sync();
    assert.deepEqual(deleted(plan), [2]);
    assert.ok(plan.blockers.some((b) => b.kind === 'featureDisabled' && b.gate === 'StatefulSetRecreateStrategy'));
  });
});
