// Bad input: invalid sets are refused with a condition and an event, the planner never
// throws, and huge values (replicas 2^31−1, many claim templates) cost bounded work.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod, StatefulSet } from '../../src/api/types.js';
import { planStatefulSet } from '../../src/controller/plan/plan-statefulset.js';
import type { ObservedState } from '../../src/controller/replica/observed-state.js';
import { MAX_CREATES_PER_SYNC } from '../../src/controller/proposals/replica-pass.js';
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

  it('reports an internal error as one, with its stack, not as an invalid spec', () => {
    const observed = { ...observe(newSet(1), []), pods: [null as unknown as Pod] } as ObservedState;
    const plan = planStatefulSet(observed, T0, features);
    assert.deepEqual(plan.actions, []);
    assert.equal(plan.blockers.length, 1);
    const [blocker] = plan.blockers;
    assert.equal(blocker?.kind, 'internalError');
    assert.ok(blocker?.kind === 'internalError' && /^TypeError: .*\n\s+at /.test(blocker.stack ?? ''), JSON.stringify(blocker));
    assert.deepEqual(plan.events.map((e) => [e.type, e.reason]), [['Warning', 'FailedPlanning']]);
    assert.equal(plan.statusChanged, false, 'nothing was observed, so nothing is written');
    assert.equal(plan.status.conditions?.find((c) => c.type === 'InvalidSpec'), undefined);
  });

  // A stored set's claim templates are not re-validated as on create, but their shape is: the planner
  // would otherwise fail building claims named after them.
  const templates: [string, unknown, string, string][] = [
    ['an empty template', {}, 'spec.volumeClaimTemplates[0].metadata.name', 'Required value'],
    ['a null template', null, 'spec.volumeClaimTemplates[0].metadata.name', 'Required value'],
    ['a number', 1, 'spec.volumeClaimTemplates[0]', 'must be of type object'],
    ['no name', { metadata: {}, spec: {} }, 'spec.volumeClaimTemplates[0].metadata.name', 'Required value'],
    ['a number for metadata', { metadata: 3 }, 'spec.volumeClaimTemplates[0].metadata', 'must be of type object'],
    ['a number for the name', { metadata: { name: 7 } }, 'spec.volumeClaimTemplates[0].metadata.name', 'must be of type string'],
    ['a string for spec', { metadata: { name: 'data' }, spec: 'big' }, 'spec.volumeClaimTemplates[0].spec', 'must be of type object'],
    ['a string for resources', { metadata: { name: 'data' }, spec: { resources: 'x' } }, 'spec.volumeClaimTemplates[0].spec.resources', 'must be of type object'],
    ['a number label', { metadata: { name: 'data', labels: { a: 1 } } }, 'spec.volumeClaimTemplates[0].metadata.labels[a]', 'must be of type string'],
  ];
  for (const [what, template, path, detail] of templates) {
    it(`refuses a stored set whose claim template is ${what}, with the field path`, () => {
      const set = newSet(2);
      (set.spec as Record<string, unknown>).volumeClaimTemplates = [template];
      const plan = planStatefulSet(observe(set, []), T0, features);
      assert.deepEqual(plan.actions, []);
      assert.deepEqual(plan.blockers, [{ kind: 'invalidSpec', issues: [{ path, detail }] }]);
      assert.deepEqual(plan.events.map((e) => e.message), [`${path}: ${detail}`]);
    });
  }

  it('still tolerates create-only claim rules on a stored set (a template without accessModes or storage)', () => {
    const set = newSet(1);
    set.spec.volumeClaimTemplates = [{ metadata: { name: 'Data_1' }, spec: {} }];
    const plan = planStatefulSet(observe(set, []), T0, features);
    assert.ok(!plan.blockers.some((b) => b.kind === 'invalidSpec' || b.kind === 'internalError'), JSON.stringify(plan.blockers));
    assert.ok(plan.actions.some((a) => a.kind === 'createClaim'));
  });

  it('refuses a stored set whose name is not a string (a create-only rule tolerates only its syntax)', () => {
    const set = newSet(1);
    (set.metadata as Record<string, unknown>).name = 0;
    const plan = planStatefulSet({ set, pods: [], claims: [], revisions: [] }, T0, features);
    assert.equal(plan.blockers[0]?.kind, 'invalidSpec');
    assert.ok(plan.blockers[0]?.kind === 'invalidSpec' && plan.blockers[0].issues.some((i) => i.path === 'metadata.name'));
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
