// maxUnavailable rolling updates as upstream's unit tests and KEP-961's worked examples have them, through
// the whole planner.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { planStatefulSet } from '../../src/controller/plan/plan-statefulset.js';
import type { Action, Plan } from '../../src/controller/model/plan-types.js';
import { effectiveStrategy } from '../../src/controller/rollout/effective-strategy.js';
import { contextFor, updateDeletions } from './context-helper.js';
import { features, newSet, observe, podFor, readyPods, revisionOf, T0, withImage, withStatus, type SetOptions } from './fixtures.js';
import { Harness } from './harness.js';

const deletedOrdinals = (plan: Plan): number[] =>
  plan.actions.filter((a): a is Extract<Action, { kind: 'deletePod' }> => a.kind === 'deletePod').map((a) => a.ordinal);
const createdOrdinals = (plan: Plan): number[] =>
  plan.actions.filter((a): a is Extract<Action, { kind: 'createPod' }> => a.kind === 'createPod').map((a) => a.ordinal);

/** A converged set of `replicas` on v1, then the image changed to v2: the first sync's plan. */
function firstUpdateSync(replicas: number, opts: SetOptions, tweak: (pods: ReturnType<typeof readyPods>) => void = () => {}): Plan {
  const v1 = newSet(replicas, opts);
  const pods = readyPods(v1, replicas);
  tweak(pods);
  const rev = revisionOf(v1).metadata.name ?? '';
  const v2 = withStatus(withImage(v1, 'app:v2'), { replicas, readyReplicas: replicas, currentReplicas: replicas, updatedReplicas: replicas, currentRevision: rev, updateRevision: rev, observedGeneration: 1 });
  return planStatefulSet(observe(v2, pods, { revisions: [revisionOf(v1)] }), T0, features);
}

describe('InOrderedModeVerifyInvariant: budget minus terminating pods (§9.B 24)', () => {
  const cases: number[][] = [[], [5], [3], [4], [5, 4], [5, 3], [4, 3], [5, 4, 3], [2], [1]];
  for (const terminating of cases) {
    it(`deletes max(0, 2 − ${terminating.length}) pods when [${terminating.join(',')}] are terminating`, () => {
      const set = newSet(6, { partition: 3, maxUnavailable: 2 });
      const pods = Array.from({ length: 6 }, (_, i) => podFor(set, i, { terminating: terminating.includes(i) }));
      const decision = updateDeletions(contextFor(set, pods));
      assert.equal(decision.victims.length, Math.max(0, 2 - terminating.length));
      for (const v of decision.victims) assert.ok(v.index >= 3 && !terminating.includes(v.index));
    });
  }
});

describe('RollingUpdateWithMaxUnavailable (§9.B 25)', () => {
  for (const policy of ['OrderedReady', 'Parallel'] as const) {
    it(`${policy}: deletes 5 and 4 first, leaving exactly 0–3`, () => {
      const h = new Harness(newSet(6, { policy, partition: 3, maxUnavailable: 2 }), { autoReady: true });
      h.converge();
      h.setImage('app:v2');
      assert.deepEqual(deletedOrdinals(h.sync()), [5, 4]);
      h.finishTerminating();
      assert.deepEqual(h.ordinals(), [0, 1, 2, 3]);
    });
  }

  it('OrderedReady: recreates 4 only, and not 5 before 4 is Ready', () => {
    const h = new Harness(newSet(6, { partition: 3, maxUnavailable: 2 }), { autoReady: true });
    h.converge();
    h.setImage('app:v2');
    h.sync();
    h.finishTerminating();
    (h.opts as { autoReady?: boolean }).autoReady = false;
    assert.deepEqual(createdOrdinals(h.sync()), [4]);
    assert.deepEqual(h.ordinals(), [0, 1, 2, 3, 4]);
    assert.deepEqual(createdOrdinals(h.sync()), []);
    assert.deepEqual(h.ordinals(), [0, 1, 2, 3, 4]);
  });

  it('Parallel: recreates 4 and 5 together, then deletes only 3 while 5 is not Ready, then stops at the partition', () => {
    const h = new Harness(newSet(6, { policy: 'Parallel', partition: 3, maxUnavailable: 2 }), { autoReady: true });
    h.converge();
    h.setImage('app:v2');
    h.sync();
    h.finishTerminating();
    (h.opts as { autoReady?: boolean }).autoReady = false;
    assert.deepEqual(createdOrdinals(h.sync()), [4, 5]);
    h.ready('web-4');
    assert.deepEqual(deletedOrdinals(h.sync()), [3]);
    h.finishTerminating();
    assert.deepEqual(h.ordinals(), [0, 1, 2, 4, 5]);
    assert.deepEqual(createdOrdinals(h.sync()), [3]);
    h.ready('web-3');
    h.ready('web-5');
    const last = h.sync();
    assert.deepEqual(last.actions.filter((a) => a.kind === 'createPod' || a.kind === 'deletePod'), []);
    assert.ok(last.blockers.some((b) => b.kind === 'partition' && b.heldBack === 3));
  });
});

describe('maxUnavailable and unavailable_replicas metric values (§9.B 26)', () => {
  type Metric = { replicas: number; opts: SetOptions; unavailable: number; max: number; expectUnavailable: number };
  const rows: Metric[] = [
    { replicas: 5, opts: { maxUnavailable: 2 }, unavailable: 1, max: 2, expectUnavailable: 1 },
    { replicas: 10, opts: { maxUnavailable: '20%', policy: 'Parallel' }, unavailable: 3, max: 2, expectUnavailable: 3 },
    { replicas: 6, opts: { maxUnavailable: 3 }, unavailable: 3, max: 3, expectUnavailable: 3 },
    { replicas: 4, opts: { maxUnavailable: 1, policy: 'Parallel' }, unavailable: 0, max: 1, expectUnavailable: 0 },
    { replicas: 8, opts: { maxUnavailable: '25%' }, unavailable: 1, max: 2, expectUnavailable: 1 },
    { replicas: 5, opts: { maxUnavailable: '80%', policy: 'Parallel' }, unavailable: 4, max: 4, expectUnavailable: 4 },
    { replicas: 2, opts: { maxUnavailable: 1 }, unavailable: 1, max: 1, expectUnavailable: 1 },
    { replicas: 1, opts: { maxUnavailable: 1, policy: 'Parallel' }, unavailable: 1, max: 1, expectUnavailable: 1 },
    { replicas: 3, opts: { strategy: 'OnDelete' }, unavailable: 2, max: 1, expectUnavailable: 2 },
    { replicas: 4, opts: { strategy: 'OnDelete', policy: 'Parallel' }, unavailable: 1, max: 1, expectUnavailable: 1 },
    { replicas: 5, opts: { nilRollingUpdate: true }, unavailable: 2, max: 1, expectUnavailable: 2 },
    { replicas: 6, opts: { nilRollingUpdate: true, policy: 'Parallel' }, unavailable: 0, max: 1, expectUnavailable: 0 },
  ];
  for (const r of rows) {
    it(`replicas ${r.replicas} ${JSON.stringify(r.opts)} with ${r.unavailable} unavailable → max ${r.max}, unavailable ${r.expectUnavailable}`, () => {
      const set = newSet(r.replicas, r.opts);
      const parallel = r.opts.policy === 'Parallel';
      // OrderedReady: Running but not Ready; Parallel: terminating (as upstream's test)
      const pods = Array.from({ length: r.replicas }, (_, i) => podFor(set, i, i < r.unavailable ? (parallel ? { terminating: true } : { ready: false }) : {}));
      assert.equal(effectiveStrategy(set, features).maxUnavailable, r.max);
      assert.equal(updateDeletions(contextFor(set, pods)).unavailablePods, r.expectUnavailable);
    });
  }

  it('reports only max_unavailable for OnDelete through the planner (the update path does not run)', () => {
    const set = newSet(3, { strategy: 'OnDelete' });
    const plan = planStatefulSet(observe(set, readyPods(set, 3)), T0, features);
    assert.equal(plan.metrics.maxUnavailable, 1);
    assert.equal(plan.metrics.unavailableReplicas, undefined);
  });

  it('reports unavailable_replicas when the rolling update runs', () => {
    const plan = firstUpdateSync(5, { maxUnavailable: 2, policy: 'Parallel' }, (pods) => {
      (pods[0]?.status?.conditions ?? [])[0]!.status = 'False';
    });
    assert.equal(plan.metrics.maxUnavailable, 2);
    assert.equal(plan.metrics.unavailableReplicas, 1);
  });
});

describe('getStatefulSetMaxUnavailable as the planner sees it (§9.B 27, §4.2)', () => {
  const rows: [number, number | string | undefined, number][] = [
    [25, '10%', 2],
    [5, '50%', 2],
    [5, '10%', 1],
    [0, 3, 3],
    [0, '1%', 1],
    [3, undefined, 1],
    [3, 50, 50],
  ];
  for (const [replicas, value, expected] of rows) {
    it(`maxUnavailable ${value ?? 'nil'} of ${replicas} replicas is ${expected}`, () => {
      const set = newSet(replicas, value === undefined ? {} : { maxUnavailable: value });
      assert.equal(effectiveStrategy(set, features).maxUnavailable, expected);
    });
  }
});

describe('worked examples (§4.9), first sync after a template change', () => {
  it('Parallel, 5 replicas, maxUnavailable 3 → deletes 4, 3, 2', () => {
    assert.deepEqual(deletedOrdinals(firstUpdateSync(5, { policy: 'Parallel', maxUnavailable: 3 })), [4, 3, 2]);
  });
  it('Parallel, 5 replicas, maxUnavailable 50% → floor(2.5) = 2 → deletes 4, 3', () => {
    assert.deepEqual(deletedOrdinals(firstUpdateSync(5, { policy: 'Parallel', maxUnavailable: '50%' })), [4, 3]);
  });
  it('Parallel, 10 replicas, maxUnavailable 5% → at least 1 → deletes 9', () => {
    assert.deepEqual(deletedOrdinals(firstUpdateSync(10, { policy: 'Parallel', maxUnavailable: '5%' })), [9]);
  });
  it('Parallel, 5 replicas, partition 3, maxUnavailable 2, pod 1 NotReady → budget 1 → deletes 4 only', () => {
    const plan = firstUpdateSync(5, { policy: 'Parallel', partition: 3, maxUnavailable: 2 }, (pods) => {
      (pods[1]?.status?.conditions ?? [])[0]!.status = 'False';
    });
    assert.deepEqual(deletedOrdinals(plan), [4]);
    assert.ok(plan.blockers.some((b) => b.kind === 'budgetExhausted' && b.unavailable === 1 && b.maxUnavailable === 2));
  });
  it('OrderedReady, 6 replicas, partition 3, maxUnavailable 2 → 5 and 4; then 4; then 5; then 3', () => {
    const h = new Harness(newSet(6, { partition: 3, maxUnavailable: 2 }), { autoReady: true });
    h.converge();
    (h.opts as { autoReady?: boolean }).autoReady = false;
    h.setImage('app:v2');
    assert.deepEqual(deletedOrdinals(h.sync()), [5, 4]);
    h.finishTerminating();
    assert.deepEqual(createdOrdinals(h.sync()), [4]);
    h.ready('web-4');
    assert.deepEqual(createdOrdinals(h.sync()), [5]);
    h.ready('web-5');
    assert.deepEqual(deletedOrdinals(h.sync()), [3]);
  });
  it('each update deletion of OrderedReady is its own batch, top-down', () => {
    const plan = firstUpdateSync(5, { maxUnavailable: 3 });
    const deletes = plan.actions.filter((a) => a.kind === 'deletePod');
    assert.deepEqual(deletes.map((a) => a.batch), [1, 2, 3]);
  });
});
