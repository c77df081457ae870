import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { defaultFeatures } from '../../src/api/features.js';
import { SetTracker } from '../../src/sim/set-tracker.js';
import { checkControllerCreate, checkControllerDelete } from '../../src/sim/violations.js';
import { T0, convergedStatus, pod, set } from './fixtures.js';

const features = defaultFeatures();
const rolling = (rollingUpdate: { partition?: number; maxUnavailable?: number; batchStartPolicy?: 'Ordered' | 'Together' }, replicas = 5) =>
  set({ replicas, updateStrategy: { type: 'RollingUpdate', rollingUpdate } });
const healthy = (n: number) => Array.from({ length: n }, (_, i) => pod(i));
const deleted = (pods: ReturnType<typeof healthy>, ordinal: number) => pods.map((p, i) => (i === ordinal ? pod(i, { terminating: true }) : p));

describe('checkControllerDelete', () => {
  it('accepts deletions within maxUnavailable and flags the one that goes beyond it', () => {
    const s = rolling({ maxUnavailable: 2 });
    const oneDown = deleted(healthy(5), 4);
    assert.deepEqual(checkControllerDelete(s, pod(3), deleted(oneDown, 3), T0, features), []);
    const alreadyTwo = deleted(deleted(oneDown, 3), 2);
    const found = checkControllerDelete(s, pod(2), alreadyTwo, T0, features);
    assert.deepEqual(found.map((f) => f.invariant), ['maxUnavailableBudget']);
    assert.match(found[0]!.message, /leaving 3 ordinals unavailable > maxUnavailable 2/);
  });

  it('does not count replacing a pod that was already unavailable against the budget', () => {
    const s = rolling({ maxUnavailable: 1 });
    const pods = [...healthy(3), pod(3, { ready: false }), pod(4, { terminating: true })];
    assert.deepEqual(checkControllerDelete(s, pod(3, { ready: false }), pods, T0, features), []);
  });

  it('flags an update deletion below the partition, but not of a failed pod', () => {
    const s = rolling({ partition: 3, maxUnavailable: 5 });
    assert.deepEqual(checkControllerDelete(s, pod(1), deleted(healthy(5), 1), T0, features).map((f) => f.invariant), ['updateDeletionBelowPartition']);
    assert.deepEqual(checkControllerDelete(s, pod(1, { ready: false, phase: 'Failed' }), healthy(5), T0, features), []);
  });

  it('flags any deletion of a healthy in-range pod under OnDelete, and ignores condemned pods', () => {
    const s = set({ replicas: 3, updateStrategy: { type: 'OnDelete' } });
    assert.deepEqual(checkControllerDelete(s, pod(0), healthy(3), T0, features).map((f) => f.invariant), ['onDeleteDeletion']);
    assert.deepEqual(checkControllerDelete(s, pod(5), healthy(3), T0, features), []);
  });
});

describe('checkControllerCreate', () => {
  it('flags an OrderedReady creation while a lower ordinal is not Running and Ready', () => {
    const s = rolling({});
    assert.deepEqual(checkControllerCreate(s, pod(2, { ready: false }), [pod(0), pod(1)], T0), []);
    const found = checkControllerCreate(s, pod(2, { ready: false }), [pod(0), pod(1, { ready: false })], T0);
    assert.equal(found[0]?.invariant, 'orderedReadyCreation');
    assert.match(found[0]!.message, /ordinal 1 had no Running, Ready and available pod/);
  });

  it('does not apply to Parallel sets or batchStartPolicy Together', () => {
    const lower = [pod(0, { ready: false })];
    assert.deepEqual(checkControllerCreate(set({ podManagementPolicy: 'Parallel' }), pod(1), lower, T0), []);
    assert.deepEqual(checkControllerCreate(rolling({ batchStartPolicy: 'Together' }), pod(1), lower, T0), []);
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
