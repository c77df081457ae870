// Bad input (product.md): invalid sets are refused with a condition and an event, the planner never
// throws, and huge values (replicas 2^31−1, many claim templates) cost bounded work.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod, StatefulSet } from '../../src/api/types.js';
import { planStatefulSet } from '../../src/controller/plan.js';
import type { ObservedState } from '../../src/controller/plan-types.js';
import { MAX_CREATES_PER_SYNC } from '../../src/controller/replica-pass.js';
import { features, newSet, observe, readyPods, T0 } from './fixtures.js';
import { Harness } from './harness.js';

const INT32_MAX = 2147483647;

describe('invalid sets', () => {
  it('refuses a negative replica count: no action, invalidSpec blocker, FailedValidation, InvalidSpec condition, observedGeneration', () => {
    const set = { ...newSet(3), metadata: { ...newSet(3).metadata, generation: 4 } };
    set.spec.replicas = -1;
    const plan = planStatefulSet(observe(set, readyPods(newSet(3), 3)), T0, features);
    assert.deepEqual(plan.actions, []);
    assert.equal(plan.blockers[0]?.kind, 'invalidSpec');
    assert.ok(plan.blockers[0]?.kind === 'invalidSpec' && plan.blockers[0].issues.some((i) => i.path === 'spec.replicas'));
    assert.equal(plan.events[0]?.type, 'Warning');
    assert.equal(plan.events[0]?.reason, 'FailedValidation');
    assert.match(plan.events[0]?.message ?? '', /spec\.replicas/);
    const condition = plan.status.conditions?.find((c) => c.type === 'InvalidSpec');
    assert.equal(condition?.status, 'True');
    assert.equal(condition?.reason, 'FailedValidation');
    assert.equal(plan.status.observedGeneration, 4);
    assert.equal(plan.statusChanged, true);
  });

  it('does not repeat the event while the same problem persists, and drops the condition once fixed', () => {
    const h = new Harness(newSet(2), { autoReady: true });
    h.converge();
    h.update((s) => (s.spec.template.metadata!.labels = { app: 'other' }));
    assert.deepEqual(h.sync().events.map((e) => e.reason), ['FailedValidation']);
    assert.deepEqual(h.sync().events, []);
    h.update((s) => (s.spec.template.metadata!.labels = { app: 'web' }));
    h.sync();
    assert.equal(h.set.status?.conditions?.find((c) => c.type === 'InvalidSpec'), undefined);
  });

  const garbage: [string, unknown][] = [
    ['a null spec', { metadata: { name: 'web', namespace: 'default' }, spec: null }],
    ['no selector', { ...newSet(1), spec: { ...newSet(1).spec, selector: undefined } }],
    ['a string for replicas', { ...newSet(1), spec: { ...newSet(1).spec, replicas: 'three' } }],
    ['an unknown strategy', { ...newSet(1), spec: { ...newSet(1).spec, updateStrategy: { type: 'Sideways' } } }],
    ['maxUnavailable 0', newSet(1, { maxUnavailable: 0 })],
    ['no metadata', { spec: newSet(1).spec }],
  ];
  for (const [what, set] of garbage) {
    it(`refuses ${what} without throwing`, () => {
      const plan = planStatefulSet({ set: set as StatefulSet, pods: [], claims: [], revisions: [] }, T0, features);
      assert.deepEqual(plan.actions, []);
      assert.equal(plan.blockers[0]?.kind, 'invalidSpec');
    });
  }

  it('turns an internal error into a FailedPlanning plan instead of throwing', () => {
    const observed = { ...observe(newSet(1), []), pods: [null as unknown as Pod] } as ObservedState;
    const plan = planStatefulSet(observed, T0, features);
    assert.deepEqual(plan.actions, []);
    assert.equal(plan.events[0]?.reason, 'FailedPlanning');
    assert.equal(plan.status.conditions?.find((c) => c.type === 'InvalidSpec')?.reason, 'InternalError');
  });
});

describe('bounded work', () => {
  it('creates at most 1,000 pods per sync for replicas 2^31−1 (Parallel) and asks to be woken at once', () => {
    const set = newSet(INT32_MAX, { policy: 'Parallel', claims: false });
    const plan = planStatefulSet(observe(set, []), T0, features);
    assert.equal(plan.actions.filter((a) => a.kind === 'createPod').length, MAX_CREATES_PER_SYNC);
    assert.ok(plan.blockers.some((b) => b.kind === 'workCapped' && b.remaining === INT32_MAX - MAX_CREATES_PER_SYNC));
    assert.equal(plan.wakeAt, T0);
  });

  it('continues with the next 1,000 on the following sync', () => {
    const h = new Harness(newSet(INT32_MAX, { policy: 'Parallel', claims: false }), { autoReady: true });
    h.sync();
    const second = h.sync();
    const ordinals = second.actions.flatMap((a) => (a.kind === 'createPod' ? [a.ordinal] : []));
    assert.equal(ordinals.length, MAX_CREATES_PER_SYNC);
    assert.equal(Math.min(...ordinals), MAX_CREATES_PER_SYNC);
    assert.equal(second.status.replicas, MAX_CREATES_PER_SYNC);
  });

  it('creates one pod for replicas 2^31−1 under OrderedReady and reports the budget without listing every slot', () => {
    const set = newSet(INT32_MAX, { maxUnavailable: '100%' });
    const plan = planStatefulSet(observe(set, readyPods(set, 3)), T0, features);
    assert.deepEqual(plan.actions.flatMap((a) => (a.kind === 'createPod' ? [a.ordinal] : [])), [3]);
    assert.equal(plan.status.replicas, 3);
    assert.equal(plan.metrics.maxUnavailable, INT32_MAX);
  });

  it('updates a huge Parallel set without enumerating its slots', () => {
    const v1 = newSet(INT32_MAX, { policy: 'Parallel', maxUnavailable: '100%', claims: false });
    const h = new Harness(v1, { autoReady: true });
    h.sync();
    h.setImage('app:v2');
    const plan = h.sync();
    assert.equal(plan.actions.filter((a) => a.kind === 'createPod').length, MAX_CREATES_PER_SYNC);
    // maxUnavailable 100%: the budget minus the missing slots still covers the 1,000 existing pods
    assert.equal(plan.actions.filter((a) => a.kind === 'deletePod').length, MAX_CREATES_PER_SYNC);
  });

  it('never creates an ordinal beyond int32 when start + replicas overflows', () => {
    const set = newSet(INT32_MAX, { policy: 'Parallel', start: INT32_MAX - 5, claims: false });
    const plan = planStatefulSet(observe(set, []), T0, features);
    const ordinals = plan.actions.flatMap((a) => (a.kind === 'createPod' ? [a.ordinal] : []));
    assert.equal(ordinals.length, 6);
    assert.equal(Math.max(...ordinals), INT32_MAX);
  });

  it('handles 5,000 claim templates for one pod', () => {
    const set = newSet(1);
    set.spec.volumeClaimTemplates = Array.from({ length: 5000 }, (_, i) => ({ metadata: { name: `v${i}` }, spec: {} }));
    const plan = planStatefulSet(observe(set, []), T0, features);
    assert.equal(plan.actions.filter((a) => a.kind === 'createClaim').length, 5000);
    assert.equal(plan.actions.filter((a) => a.kind === 'createPod').length, 1);
  });
});
