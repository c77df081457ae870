// rollingUpdate.topologyKey through the whole planner: an update batch takes pods of one zone (the label of
// the pod's node), the zones go in order, and a zone is whole again before the next one loses a pod.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { planStatefulSet } from '../../src/controller/plan/plan-statefulset.js';
import type { Action, Blocker, Plan } from '../../src/controller/model/plan-types.js';
import { zoneOrder } from '../../src/controller/rollout/zone-order.js';
import type { Pod } from '../../src/api/types.js';
import { features, newSet, podFor, observe, revisionOf, T0, withImage, withStatus, type PodState, type SetOptions } from './fixtures.js';

const ZONE = 'topology.kubernetes.io/zone';
const deleted = (plan: Plan): number[] => plan.actions.filter((a): a is Extract<Action, { kind: 'deletePod' }> => a.kind === 'deletePod').map((a) => a.ordinal);
const zoneBlocker = (plan: Plan): Extract<Blocker, { kind: 'zoneOrder' }> | undefined =>
  plan.blockers.find((b): b is Extract<Blocker, { kind: 'zoneOrder' }> => b.kind === 'zoneOrder');

/** Nodes node-a, node-b, node-c in zones a, b, c, and node-x without the label. */
const NODES = new Map<string, Record<string, string>>([
  ['node-a', { [ZONE]: 'zone-a' }],
  ['node-b', { [ZONE]: 'zone-b' }],
  ['node-c', { [ZONE]: 'zone-c' }],
  ['node-x', {}],
]);

interface Placed extends PodState {
  node?: string;
  /** On the new revision already. */
  updated?: boolean;
  /** No pod at this ordinal. */
  missing?: boolean;
}

/**
 * A set of `placed.length` replicas converged on v1, then changed to v2; pod i runs on `placed[i].node`
 * (unscheduled when absent), on v2 when `updated`.
 */
function sync(placed: Placed[], opts: SetOptions = {}, nodes: ReadonlyMap<string, Record<string, string>> | null = NODES, feats = features, key: string | null = ZONE): Plan {
  const replicas = placed.length;
  const v1 = newSet(replicas, { ...(key === null ? {} : { topologyKey: key }), ...opts });
  const rev = revisionOf(v1).metadata.name ?? '';
  const v2 = withStatus(withImage(v1, 'app:v2'), { replicas, readyReplicas: replicas, currentReplicas: replicas, updatedReplicas: 0, currentRevision: rev, updateRevision: rev, observedGeneration: 1 });
  const pods = placed.flatMap((p, i): Pod[] => {
    if (p.missing) return [];
    const pod = podFor(v2, i, { ...p, from: p.updated ? v2 : v1 });
    if (p.node !== undefined) pod.spec = { ...pod.spec, nodeName: p.node };
    return [pod];
  });
  return planStatefulSet({ ...observe(v2, pods, { revisions: [revisionOf(v1), revisionOf(v2, 2)] }), ...(nodes === null ? {} : { nodeLabels: nodes }) }, T0, feats);
}

/** Six pods, two per zone, spread as a scheduler would: 0→a, 1→b, 2→c, 3→a, 4→b, 5→c. */
const spread = (states: Record<number, Placed> = {}): Placed[] => Array.from({ length: 6 }, (_, i) => ({ node: `node-${'abc'[i % 3] ?? 'a'}`, ...states[i] }));

describe('topologyKey: one zone at a time', () => {
  for (const policy of ['OrderedReady', 'Parallel'] as const) {
    it(`${policy}: maxUnavailable 3 takes only the first zone's pods, top-down, and says which zones wait`, () => {
      const plan = sync(spread(), { policy, maxUnavailable: 3 });
      assert.deepEqual(deleted(plan), [3, 0]);
      assert.deepEqual(zoneBlocker(plan), { kind: 'zoneOrder', topologyKey: ZONE, order: ['zone-a', 'zone-b', 'zone-c'], zone: 'zone-a', heldBack: 4 });
      assert.ok(!plan.blockers.some((b) => b.kind === 'budgetExhausted'), 'maxUnavailable is not what holds the rollout');
    });
  }

  it('maxUnavailable counts within the zone: 1 takes its top pod only, and the budget is what waits', () => {
    const plan = sync(spread(), { maxUnavailable: 1 });
    assert.deepEqual(deleted(plan), [3]);
    assert.ok(plan.blockers.some((b) => b.kind === 'budgetExhausted'));
  });

  it('without topologyKey the same pods go by ordinal only', () => {
    const plan = sync(spread(), { maxUnavailable: 3 }, NODES, features, null);
    assert.deepEqual(deleted(plan), [5, 4, 3]);
    assert.equal(zoneBlocker(plan), undefined);
  });

  // Parallel: OrderedReady's replica pass already stops at a pod that is not Ready
  it('the next zone starts only once the previous one is updated and available', () => {
    // zone-a is updated, but web-3 (zone-a, new revision) is not Ready yet
    const waiting = sync(spread({ 0: { node: 'node-a', updated: true }, 3: { node: 'node-a', updated: true, ready: false } }), { policy: 'Parallel', maxUnavailable: 3 });
    assert.deepEqual(deleted(waiting), []);
    assert.deepEqual(zoneBlocker(waiting)?.zone, 'zone-b');
    assert.deepEqual(zoneBlocker(waiting)?.disrupted, { zone: 'zone-a', pods: ['web-3'] });
    const whole = sync(spread({ 0: { node: 'node-a', updated: true }, 3: { node: 'node-a', updated: true } }), { policy: 'Parallel', maxUnavailable: 3 });
    assert.deepEqual(deleted(whole), [4, 1]);
  });

  it('a missing replica (its zone unknown) holds the next batch until it is placed', () => {
    // zone-a is done but web-3 was deleted and is not created again yet: it may be zone-a's
    const plan = sync(spread({ 0: { node: 'node-a', updated: true }, 3: { missing: true } }), { policy: 'Parallel', maxUnavailable: 3 });
    assert.deepEqual(deleted(plan), []);
    assert.deepEqual(zoneBlocker(plan)?.disrupted, { zone: null, pods: ['web-3'] });
  });

  it('a replica recreated in another zone still holds the next batch until it is available', () => {
    // web-3 left zone-a and came back in zone-c, not Ready yet: zone-a keeps web-0 to update, but waits
    const plan = sync(spread({ 3: { node: 'node-c', updated: true, ready: false } }), { policy: 'Parallel', maxUnavailable: 3 });
    assert.deepEqual(deleted(plan), []);
    assert.deepEqual([zoneBlocker(plan)?.zone, zoneBlocker(plan)?.disrupted?.zone], ['zone-a', 'zone-c']);
  });

  it('a zone where a pod to update is already down goes first (finishing it costs no availability)', () => {
    const plan = sync(spread({ 5: { node: 'node-c', ready: false } }), { policy: 'Parallel', maxUnavailable: 2 });
    assert.deepEqual(deleted(plan), [5, 2]);
    assert.equal(zoneBlocker(plan)?.zone, 'zone-c');
  });

  it('pods whose zone is unknown (no such label on their node, node not observed) move last, as one group', () => {
    const placed: Placed[] = [{ node: 'node-x' }, { node: 'node-b' }, { node: 'node-gone' }, { node: 'node-a' }];
    const first = sync(placed, { maxUnavailable: 4 });
    assert.deepEqual(deleted(first), [3]);
    assert.deepEqual(zoneBlocker(first)?.order, ['zone-a', 'zone-b', null]);
    const last = sync([{ node: 'node-x' }, { node: 'node-b', updated: true }, { node: 'node-gone' }, { node: 'node-a', updated: true }], { maxUnavailable: 4 });
    assert.deepEqual(deleted(last), [2, 0]);
    assert.equal(zoneBlocker(last), undefined, 'nothing is held back any more');
  });

  it('a pod not yet scheduled holds even the group of unknown zone: it may land in any zone', () => {
    const plan = sync([{ node: 'node-x' }, { node: 'node-x' }, { updated: true, phase: 'Pending' }], { policy: 'Parallel', maxUnavailable: 3 });
    assert.deepEqual(deleted(plan), []);
    assert.deepEqual(zoneBlocker(plan)?.disrupted, { zone: null, pods: ['web-2'] });
  });

  it('without observed nodes every pod is in the unknown zone: the update is not held by zones', () => {
    assert.deepEqual(deleted(sync(spread(), { maxUnavailable: 3 }, null)), [5, 4, 3]);
  });

  it('the legacy one-at-a-time loop passes over the pods of the zones that wait', () => {
    const plan = sync(spread(), {}, NODES, { ...features, MaxUnavailableStatefulSet: false });
    assert.deepEqual(deleted(plan), [3]);
    assert.equal(zoneBlocker(plan)?.heldBack, 4);
  });

  it('zones are counted above the partition only: the first zone with a pod to update moves', () => {
    const plan = sync(spread(), { maxUnavailable: 3, partition: 4 });
    assert.deepEqual(deleted(plan), [4]);
    assert.deepEqual([zoneBlocker(plan)?.zone, zoneBlocker(plan)?.heldBack], ['zone-b', 1]);
  });
});

describe('zoneOrder', () => {
  it('sorts zone names as strings, unknown last, whatever order they are met in', () => {
    assert.deepEqual(zoneOrder(['us-east-1c', null, 'us-east-1a', 'us-east-1b', 'us-east-1a']), ['us-east-1a', 'us-east-1b', 'us-east-1c', null]);
  });
});
