import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import { evaluateExpect, subsetMismatch, type ExpectContext } from '../../src/sim/expect.js';
import { SimState } from '../../src/sim/state.js';
import type { EventRecord } from '../../src/sim/timeline.js';
import { T0, convergedStatus, pod, set } from './fixtures.js';

function context(events: EventRecord[] = [], maxUnavailable?: number): ExpectContext {
  const state = new SimState();
  state.applySet(Resources.statefulSets, set({ status: { ...convergedStatus(3, 'web-2'), currentRevision: 'web-1' } }), false);
  state.applyPod(pod(0, { revision: 'web-1' }), false);
  state.applyPod(pod(1, { revision: 'web-2', ready: false }), false);
  return { state, now: T0, events, maxUnavailable: () => maxUnavailable, allConverged: () => true };
}

describe('subsetMismatch', () => {
  it('matches objects by key, lists by containment, and an absent counter as 0', () => {
    assert.equal(subsetMismatch({ a: 1 }, { a: 1, b: 2 }, 's'), undefined);
    assert.equal(subsetMismatch({ readyReplicas: 0 }, {}, 's'), undefined);
    assert.equal(subsetMismatch([{ type: 'P', status: 'False' }], [{ type: 'A' }, { type: 'P', status: 'False', reason: 'x' }], 's'), undefined);
    assert.equal(subsetMismatch({ a: 1 }, { a: 2 }, 's'), 's.a is 2, expected 1');
    assert.match(subsetMismatch([{ type: 'P' }], [{ type: 'A' }], 's.c')!, /^s\.c\[0\] \{"type":"P"\} not found/);
  });
});

describe('evaluateExpect', () => {
  it('checks status subsets and pods by revision (update/current) and readiness', () => {
    const ok = evaluateExpect({ status: { web: { replicas: 3 } }, pods: { 'web-0': { revision: 'current', ready: true }, 'web-1': { revision: 'update', ready: false } } }, context());
    assert.deepEqual(ok, { ok: true, message: 'status web; pod web-0; pod web-1' });
    const bad = evaluateExpect({ pods: { 'web-0': { revision: 'update' }, 'web-9': { ready: true } } }, context());
    assert.equal(bad.ok, false);
    assert.equal(bad.message, 'pod web-0: revision is web-1, expected update (web-2); pod web-9 does not exist');
  });

  it('checks that a pod does not exist', () => {
    assert.equal(evaluateExpect({ pods: { 'web-5': { exists: false } } }, context()).ok, true);
    assert.equal(evaluateExpect({ pods: { 'web-0': { exists: false } } }, context()).message, 'pod web-0 exists');
  });

  it('compares maxUnavailableObserved with the limit and fails when it was never measured', () => {
    assert.equal(evaluateExpect({ maxUnavailableObserved: { web: 2 } }, context([], 2)).ok, true);
    assert.equal(evaluateExpect({ maxUnavailableObserved: { web: 1 } }, context([], 2)).message, 'maxUnavailableObserved web is 2, expected <= 1');
    assert.match(evaluateExpect({ maxUnavailableObserved: { web: 1 } }, context()).message, /not measured yet/);
  });

  it('finds a recorded event by reason, type, message part and object, or its absence', () => {
    const e: EventRecord = { t: 1, type: 'event', namespace: 'default', involvedObject: { kind: 'StatefulSet', name: 'web' }, eventType: 'Normal', reason: 'SuccessfulDelete', message: 'delete Pod web-4 in StatefulSet web successful' };
    assert.equal(evaluateExpect({ event: [{ reason: 'SuccessfulDelete', message: 'web-4', involvedObject: 'web' }] }, context([e])).ok, true);
    assert.equal(evaluateExpect({ event: [{ reason: 'SuccessfulDelete', type: 'Warning' }] }, context([e])).ok, false);
    assert.equal(evaluateExpect({ event: [{ reason: 'SafetyHalt', present: false }] }, context([e])).ok, true);
  });
});
