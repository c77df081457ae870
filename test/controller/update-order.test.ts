// rollingUpdate.updateOrder: Priority through the whole planner: the stale pods of the lowest priority go
// first (ties by ordinal, highest first), and a higher priority starts only once the lower ones are updated
// and every replica is available, under both pod management policies and the legacy one-at-a-time loop.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { planStatefulSet } from '../../src/controller/plan/plan-statefulset.js';
import type { Action, Blocker, Plan } from '../../src/controller/model/plan-types.js';
import type { Pod } from '../../src/api/types.js';
import { features, newSet, podFor, observe, revisionOf, T0, withImage, withStatus, type PodState, type SetOptions } from './fixtures.js';

const deleted = (plan: Plan): number[] => plan.actions.filter((a): a is Extract<Action, { kind: 'deletePod' }> => a.kind === 'deletePod').map((a) => a.ordinal);
const orderBlocker = (plan: Plan): Extract<Blocker, { kind: 'updateOrder' }> | undefined =>
  plan.blockers.find((b): b is Extract<Blocker, { kind: 'updateOrder' }> => b.kind === 'updateOrder');

interface Labelled extends PodState {
  role?: string;
  updated?: boolean;
  missing?: boolean;
  node?: string;
}

const PRIORITY: SetOptions = { updateOrder: 'Priority', priority: { label: 'role', values: ['replica', 'primary'] } };

/** A set of `pods.length` replicas converged on v1, then changed to v2; pod i labelled role=`pods[i].role`. */
function sync(pods: Labelled[], opts: SetOptions = {}, feats = features, nodeLabels?: ReadonlyMap<string, Record<string, string>>): Plan {
  const replicas = pods.length;
  const v1 = newSet(replicas, { ...PRIORITY, ...opts });
  const rev = revisionOf(v1).metadata.name ?? '';
  const v2 = withStatus(withImage(v1, 'db:v2'), { replicas, readyReplicas: replicas, currentReplicas: replicas, updatedReplicas: 0, currentRevision: rev, updateRevision: rev, observedGeneration: 1 });
  const observed = pods.flatMap((p, i): Pod[] => {
    if (p.missing) return [];
    const pod = podFor(v2, i, { ...p, from: p.updated ? v2 : v1 });
    if (p.role !== undefined) pod.metadata.labels = { ...pod.metadata.labels, role: p.role };
    if (p.node !== undefined) pod.spec = { ...pod.spec, nodeName: p.node };
    return [pod];
  });
  return planStatefulSet({ ...observe(v2, observed, { revisions: [revisionOf(v1), revisionOf(v2, 2)] }), ...(nodeLabels ? { nodeLabels } : {}) }, T0, feats);
}

/** A database: the primary on db-0 (the pod upstream updates last anyway) or elsewhere. */
const db = (primary: number, n = 3, states: Record<number, Labelled> = {}): Labelled[] =>
  Array.from({ length: n }, (_, i) => ({ role: i === primary ? 'primary' : 'replica', ...states[i] }));

describe('updateOrder: Priority', () => {
  for (const policy of ['OrderedReady', 'Parallel'] as const) {
    it(`${policy}: the primary on the highest ordinal goes last; the replicas first, top-down`, () => {
      const plan = sync(db(2), { policy, maxUnavailable: 3 });
      assert.deepEqual(deleted(plan), [1, 0]);
      assert.deepEqual(orderBlocker(plan), { kind: 'updateOrder', label: 'role', values: ['replica', 'primary'], order: ['web-1', 'web-0', 'web-2'], heldBack: 1 });
      assert.ok(!plan.blockers.some((b) => b.kind === 'budgetExhausted'), 'maxUnavailable is not what holds the primary');
    });

    it(`${policy}: the primary waits until every replica is updated and available`, () => {
      const plan = sync(db(2, 3, { 0: { role: 'replica', updated: true, ready: false }, 1: { role: 'replica', updated: true } }), { policy, maxUnavailable: 3 });
      assert.deepEqual(deleted(plan), []);
      // OrderedReady's replica pass already stops at the pod that is not Ready; Parallel's update says why
      if (policy === 'Parallel') assert.deepEqual(orderBlocker(plan)?.waitingFor, ['web-0']);
      const whole = sync(db(2, 3, { 0: { updated: true }, 1: { updated: true } }), { policy, maxUnavailable: 3 });
      assert.deepEqual(deleted(whole), [2]);
    });
  }

  it('Parallel: the primary waits for a replica not yet recreated (it will come back without its label)', () => {
    const plan = sync(db(0, 2, { 1: { missing: true } }), { policy: 'Parallel', maxUnavailable: 3 });
    assert.deepEqual(deleted(plan), []);
    assert.deepEqual(orderBlocker(plan)?.waitingFor, ['web-1']);
  });

  it('maxUnavailable still counts: 1 takes the first replica only', () => {
    const plan = sync(db(2), { maxUnavailable: 1 });
    assert.deepEqual(deleted(plan), [1]);
    assert.ok(plan.blockers.some((b) => b.kind === 'budgetExhausted'));
  });

  it('a pod without the label, or with a value not listed, goes before the listed ones; ties by ordinal, highest first', () => {
    const pods: Labelled[] = [{ role: 'primary' }, { role: 'replica' }, {}, { role: 'witness' }, { role: 'replica' }];
    const plan = sync(pods, { policy: 'Parallel', maxUnavailable: 2 });
    assert.deepEqual(deleted(plan), [3, 2]);
    assert.deepEqual(orderBlocker(plan)?.order, ['web-3', 'web-2', 'web-4', 'web-1', 'web-0']);
  });

  it('updateOrder Ordinal (the default) updates the primary first when it has the highest ordinal', () => {
    assert.deepEqual(deleted(sync(db(2), { updateOrder: 'Ordinal', priority: undefined, maxUnavailable: 3 })), [2, 1, 0]);
    assert.deepEqual(deleted(sync(db(2), { updateOrder: undefined, priority: undefined, maxUnavailable: 1 })), [2]);
  });

  it('the legacy one-at-a-time loop takes the first pod by priority, and waits for any replica that is down', () => {
    const legacy = { ...features, MaxUnavailableStatefulSet: false };
    assert.deepEqual(deleted(sync(db(2), {}, legacy)), [1]);
    const plan = sync(db(2, 3, { 0: { updated: true }, 1: { updated: true, ready: false } }), {}, legacy);
    assert.deepEqual(deleted(plan), []);
    assert.ok(plan.blockers.some((b) => 'pod' in b && b.pod === 'web-1'), JSON.stringify(plan.blockers));
    assert.deepEqual(deleted(sync(db(2, 3, { 0: { updated: true }, 1: { updated: true } }), {}, legacy)), [2]);
  });

  it('Parallel: a replica that is down goes without budget, a primary that is down waits for its replicas', () => {
    const plan = sync(db(2, 3, { 2: { role: 'primary', ready: false } }), { policy: 'Parallel', maxUnavailable: 1 });
    assert.deepEqual(deleted(plan), []);
    const replicaDown = sync(db(2, 3, { 0: { role: 'replica', ready: false } }), { policy: 'Parallel', maxUnavailable: 1 });
    assert.deepEqual(deleted(replicaDown), [0]);
  });

  it('with topologyKey the priority orders the pods within the zone that moves', () => {
    const ZONE = 'topology.kubernetes.io/zone';
    const nodes = new Map([['node-a', { [ZONE]: 'zone-a' }], ['node-b', { [ZONE]: 'zone-b' }]]);
    // web-0 (the primary) and web-2 in zone-a, web-1 and web-3 in zone-b
    const pods: Labelled[] = [{ role: 'primary', node: 'node-a' }, { node: 'node-b' }, { node: 'node-a' }, { node: 'node-b' }];
    const opts: SetOptions = { topologyKey: ZONE, maxUnavailable: 2, priority: { label: 'role', values: ['primary'] } };
    assert.deepEqual(deleted(sync(pods, opts, features, nodes)), [2]);
    assert.deepEqual(deleted(sync(pods, { ...opts, updateOrder: 'Ordinal', priority: undefined }, features, nodes)), [2, 0]);
  });

  it('the partition holds back pods whatever their priority', () => {
    const plan = sync(db(2), { maxUnavailable: 3, partition: 2 });
    assert.deepEqual(deleted(plan), [2]);
  });
});
