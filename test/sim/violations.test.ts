import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { defaultFeatures } from '../../src/api/features.js';
import type { Plan } from '../../src/controller/model/plan-types.js';
import type { ObservedState } from '../../src/controller/replica/observed-state.js';
import { newPlanner } from '../../src/runtime/statefulset-controller-factory.js';
import { SetTracker } from '../../src/sim/set-tracker.js';
import { PodAnnotations, type Pod, type PodDisruptionBudget, type StatefulSet } from '../../src/api/types.js';
import { checkBudgetBreach, checkControllerDelete, checkControllerWrite, checkPods, checkZoneOrder, checkedPlanner, type Found } from '../../src/sim/violations.js';
import { T0, convergedStatus, pod, set } from './fixtures.js';

const features = defaultFeatures();
const rolling = (rollingUpdate: { partition?: number; maxUnavailable?: number }, replicas = 5) =>
  set({ replicas, updateStrategy: { type: 'RollingUpdate', rollingUpdate } });
const healthy = (n: number) => Array.from({ length: n }, (_, i) => pod(i));
const down = (pods: ReturnType<typeof healthy>, ...ordinals: number[]) => pods.map((p, i) => (ordinals.includes(i) ? pod(i, { terminating: true }) : p));

describe('checkControllerDelete', () => {
  it('accepts a deletion within maxUnavailable and flags the one beyond it', () => {
    const s = rolling({ maxUnavailable: 2 });
    assert.deepEqual(checkControllerDelete(s, down(healthy(5), 4), pod(3), T0, features), []);
    const found = checkControllerDelete(s, down(healthy(5), 4, 3), pod(2), T0, features);
    assert.deepEqual(found.map((f) => f.invariant), ['checkDeletion']);
    assert.match(found[0]!.message, /^web: deleted available web-2 while 2 ordinals were unavailable \(maxUnavailable 2\)/);
  });

  it('flags an update deletion below the partition', () => {
    const found = checkControllerDelete(rolling({ partition: 3, maxUnavailable: 5 }), healthy(5), pod(1), T0, features);
    assert.match(found[0]!.message, /below partition 3/);
  });

  it('flags any deletion of a healthy in-range pod under OnDelete, but not of condemned or failed pods', () => {
    const s = set({ replicas: 3, updateStrategy: { type: 'OnDelete' } });
    assert.deepEqual(checkControllerDelete(s, healthy(3), pod(0), T0, features).map((f) => f.invariant), ['onDeleteDeletion']);
    assert.deepEqual(checkControllerDelete(s, healthy(6), pod(5), T0, features), []);
    assert.deepEqual(checkControllerDelete(s, healthy(3), pod(0, { ready: false, phase: 'Failed' }), T0, features), []);
  });
});

describe('checkZoneOrder', () => {
  const zoned = set({ replicas: 4, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 2, topologyKey: 'zone' } }, status: { replicas: 4, updateRevision: 'web-2' } });
  // web-0 and web-2 in zone a, web-1 and web-3 in zone b
  const zoneOf = (p: Pod): string | undefined => (p.spec?.nodeName === undefined ? undefined : p.spec.nodeName === 'n-a' ? 'a' : 'b');
  const placed = (i: number, o: Parameters<typeof pod>[1] = {}) => pod(i, { node: i % 2 === 0 ? 'n-a' : 'n-b', ...o });

  it('flags the deletion of an available pod while another zone has an unavailable pod', () => {
    const found = checkZoneOrder(zoned, [placed(0), placed(1, { ready: false }), placed(2), placed(3)], placed(2), zoneOf, T0);
    assert.deepEqual(found.map((f) => f.invariant), ['zoneOrder']);
    assert.match(found[0]!.message, /^web: controller deleted web-2 \(a\) while web-1 \(b\) was unavailable in another zone/);
  });

  it('lets a deletion in the disrupted zone itself, of a pod already down, of an unplaced pod, or without topologyKey go', () => {
    assert.deepEqual(checkZoneOrder(zoned, [placed(0, { terminating: true }), placed(1), placed(2), placed(3)], placed(2), zoneOf, T0), []);
    assert.deepEqual(checkZoneOrder(zoned, [placed(0), placed(1, { ready: false }), placed(2, { ready: false }), placed(3)], placed(2, { ready: false }), zoneOf, T0), []);
    assert.deepEqual(checkZoneOrder(zoned, [placed(0), pod(1, { ready: false }), placed(2), placed(3)], placed(2), zoneOf, T0), []);
    assert.deepEqual(checkZoneOrder(rolling({ maxUnavailable: 2 }, 4), [placed(0), placed(1, { ready: false }), placed(2), placed(3)], placed(2), zoneOf, T0), []);
  });

  it('reads availability from the replica record: a pod moving in place is disrupted already, so its in-place fallback disrupts no new zone', () => {
    const inPlace = set({ replicas: 4, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 2, topologyKey: 'zone', podUpdatePolicy: 'InPlaceIfPossible' } }, status: { replicas: 4, updateRevision: 'web-2' } });
    const moving = (i: number) => {
      const p = placed(i);
      return { ...p, metadata: { ...p.metadata, annotations: { [PodAnnotations.inPlaceUpdateRevision]: 'web-2' } } };
    };
    const others = [placed(0), placed(1, { terminating: true }), placed(3)];
    assert.deepEqual(checkZoneOrder(inPlace, [...others, moving(2)], moving(2), zoneOf, T0), []);
    // the same pod not moving is an available pod of a second zone
    assert.deepEqual(checkZoneOrder(inPlace, [...others, placed(2)], placed(2), zoneOf, T0).map((f) => f.invariant), ['zoneOrder']);
    // and a pod moving in place in another zone is unavailable there
    assert.deepEqual(checkZoneOrder(inPlace, [placed(0), moving(1), placed(2), placed(3)], placed(2), zoneOf, T0).map((f) => f.invariant), ['zoneOrder']);
  });
});

describe('checkBudgetBreach', () => {
  const budget = (desiredHealthy: number): PodDisruptionBudget => ({
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'web', namespace: 'default' },
    spec: { minAvailable: desiredHealthy, selector: { matchLabels: { app: 'web' } } },
    status: { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy, expectedPods: 5 },
  });
  const respecting = (status: StatefulSet['status'] = { replicas: 5, updateRevision: 'web-2', observedGeneration: 1 }) =>
    set({ replicas: 5, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 3, respectPodDisruptionBudgets: true } }, status });

  it('flags an update deletion of a healthy pod that takes a budget below desiredHealthy', () => {
    const found = checkBudgetBreach(respecting(), [budget(4)], down(healthy(5), 4), pod(3));
    assert.deepEqual(found.map((f) => f.invariant), ['podDisruptionBudget']);
    assert.match(found[0]!.message, /^web: controller deleted web-3 although PodDisruptionBudget web then has 3 healthy pods, below its desiredHealthy 4/);
  });

  it('flags the first deletion of a rollout, made before the status names the new update revision: a status older than the spec does not make the pod updated', () => {
    // the template just changed (generation 2); the status still names the pods' revision as the update revision
    const stale = respecting({ replicas: 5, updateRevision: 'web-1', currentRevision: 'web-1', observedGeneration: 1 });
    stale.metadata.generation = 2;
    const found = checkBudgetBreach(stale, [budget(5)], healthy(5), pod(4));
    assert.deepEqual(found.map((f) => f.message), ['web: controller deleted web-4 although PodDisruptionBudget web then has 4 healthy pods, below its desiredHealthy 5']);
  });

  it('counts the pods of every set the budget selects, and the deletions made before in the same instant', () => {
    // pods of another set that the budget selects too (its selector is the app label they share)
    const other = (i: number, opts: Parameters<typeof pod>[1] = {}) => {
      const p = pod(i, { ...opts, set: 'replica' });
      p.metadata.labels = { ...p.metadata.labels, app: 'web' };
      return p;
    };
    // web-4 (this set) and replica-2 (another set behind the same budget) were deleted at this instant already
    const pods = [...down(healthy(3), 2), other(0), other(1), other(2, { terminating: true })];
    const found = checkBudgetBreach(respecting(), [budget(4)], pods, pod(1));
    assert.deepEqual(found.map((f) => f.message), ['web: controller deleted web-1 although PodDisruptionBudget web then has 3 healthy pods, below its desiredHealthy 4']);
  });

  it('lets a deletion within the budget, of an unready pod, of an updated pod, or when the set does not respect budgets go', () => {
    assert.deepEqual(checkBudgetBreach(respecting(), [budget(4)], healthy(5), pod(4)), []);
    assert.deepEqual(checkBudgetBreach(respecting(), [budget(4)], down(healthy(5), 4), pod(3, { ready: false })), []);
    assert.deepEqual(checkBudgetBreach(respecting(), [budget(4)], down(healthy(5), 4), pod(3, { revision: 'web-2' })), []);
    assert.deepEqual(checkBudgetBreach(rolling({ maxUnavailable: 3 }), [budget(4)], down(healthy(5), 4), pod(3)), []);
  });
});

describe('checkControllerWrite', () => {
  it('flags a write of a StatefulSet other than through its status subresource', () => {
    assert.deepEqual(checkControllerWrite({ kind: 'StatefulSet', status: false, verb: 'patch', name: 'web' }).map((f) => f.invariant), ['noSpecWrite']);
    assert.deepEqual(checkControllerWrite({ kind: 'StatefulSet', status: true, verb: 'update', name: 'web' }), []);
    assert.deepEqual(checkControllerWrite({ kind: 'Pod', status: false, verb: 'delete', name: 'web-0' }), []);
  });
});

describe('checkPods', () => {
  it('flags two pods with one ordinal', () => {
    const twin = pod(1);
    twin.metadata.name = 'web-01';
    assert.deepEqual(checkPods([pod(0), pod(1), twin]).map((f) => f.invariant), ['noDuplicateOrdinal']);
    assert.deepEqual(checkPods(healthy(3)), []);
  });
});

describe('checkedPlanner', () => {
  it('reports what the plan-level checkers find in a plan and passes the plan through', () => {
    const s = rolling({ partition: 3, maxUnavailable: 5 });
    const observed: ObservedState = { set: s, pods: healthy(5), claims: [], revisions: [] };
    const bad: Plan = {
      status: { replicas: 5, updateRevision: 'web-2' },
      statusChanged: false,
      actions: [{ kind: 'deletePod', name: 'web-0', uid: 'uid-web-0', ordinal: 0, cause: 'update', batch: 0 }],
      blockers: [],
      events: [],
      metrics: { maxUnavailable: 5, unavailabilityViolation: false, forcedReplacements: 0, safetyHalt: false, enforcedRollingUpdateStarted: false },
    };
    const reported: Found[] = [];
    const planner = checkedPlanner({ ...newPlanner(), plan: () => bad }, (found) => reported.push(...found));
    assert.equal(planner.plan(observed, T0, features), bad);
    assert.deepEqual(reported.map((f) => f.invariant), ['partitionRespected']);
    assert.match(reported[0]!.message, /^web: update deletion of web-0 below partition 3/);
  });
});

describe('SetTracker', () => {
  it('measures maxUnavailable only after the set first converged, and knows when all sets converged', () => {
    const tracker = new SetTracker(T0);
    const s = set({ status: convergedStatus(3) });
    tracker.update('default/web', s, [pod(0)], T0 + 1000);
    assert.equal(tracker.maxUnavailable('default/web'), undefined);
    assert.equal(tracker.allConverged(), false);
    assert.equal(tracker.allConvergedSince, null);
    tracker.update('default/web', s, healthy(3), T0 + 2000);
    assert.equal(tracker.allConvergedSince, T0 + 2000);
    tracker.update('default/web', s, [pod(0), pod(1, { ready: false })], T0 + 3000);
    tracker.update('default/web', s, healthy(3), T0 + 4000);
    assert.equal(tracker.maxUnavailable('default/web'), 2);
    assert.equal(tracker.allConvergedSince, T0 + 4000);
  });
});
