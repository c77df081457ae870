// Upstream's exact texts of per-action events, attached to each action by the planner and recorded by the
// runtime.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AlreadyExistsError, ApiError } from '../../src/api/errors.js';
import type { Action, PlannedEvent } from '../../src/controller/model/plan-types.js';
import { withOutcomeEvents } from '../../src/controller/model/event-texts.js';
import type { EventRecorder } from '../../src/runtime/event-recorder.js';
import { recordSyncEvents } from '../../src/runtime/sync-effects.js';
import { newSet, podFor } from './fixtures.js';

const set = newSet(1);
const pod = podFor(set, 0);
const createPod: Action = { kind: 'createPod', batch: 1, pod, ordinal: 0 };
const updatePod: Action = { kind: 'updatePod', batch: 1, pod, ordinal: 0 };
const deletePod: Action = { kind: 'deletePod', batch: 1, name: 'web-0', uid: 'u', ordinal: 0, cause: 'update' };
const createClaim: Action = { kind: 'createClaim', batch: 0, claim: { metadata: { name: 'data-web-0' }, spec: {} }, podName: 'web-0' };
const updateClaim: Action = { kind: 'updateClaim', batch: 0, claim: { metadata: { name: 'data-web-0' }, spec: {} }, podName: 'web-0' };
const boom = new ApiError('etcdserver: request timed out', 500, 'InternalError');

/** The event recorded for one action of a plan (the planner's outcome events, recorded by the runtime), if any. */
function actionEvent(action: Action, error?: Error): PlannedEvent | undefined {
  const [planned] = withOutcomeEvents([action], set);
  const recorded: PlannedEvent[] = [];
  const recorder = { event: async (_ref, type, reason, message) => void recorded.push({ type, reason, message }) } as Pick<EventRecorder, 'event'>;
  const result = error === undefined ? { executed: new Set([planned!]), failures: [] } : { executed: new Set<Action>(), failures: [{ action: planned!, error }] };
  const plan = { status: { replicas: 0 }, statusChanged: false, actions: [planned!], blockers: [], events: [], metrics: { maxUnavailable: 1, unavailabilityViolation: false, forcedReplacements: 0, safetyHalt: false, enforcedRollingUpdateStarted: false } };
  recordSyncEvents(recorder as EventRecorder, { kind: 'StatefulSet', name: 'web' }, plan, result);
  assert.ok(recorded.length <= 1);
  return recorded[0];
}

describe('actionEventMessage', () => {
  it('formats successful pod writes as upstream does', () => {
    assert.deepEqual(actionEvent(createPod), { type: 'Normal', reason: 'SuccessfulCreate', message: 'create Pod web-0 in StatefulSet web successful' });
    assert.deepEqual(actionEvent(updatePod), { type: 'Normal', reason: 'SuccessfulUpdate', message: 'update Pod web-0 in StatefulSet web successful' });
    assert.deepEqual(actionEvent(deletePod), { type: 'Normal', reason: 'SuccessfulDelete', message: 'delete Pod web-0 in StatefulSet web successful' });
  });

  it('formats failed pod writes with the error text', () => {
    assert.deepEqual(actionEvent(deletePod, boom), {
      type: 'Warning',
      reason: 'FailedDelete',
      message: 'delete Pod web-0 in StatefulSet web failed error: etcdserver: request timed out',
    });
    assert.equal(actionEvent(createPod, boom)?.reason, 'FailedCreate');
    assert.equal(actionEvent(updatePod, boom)?.reason, 'FailedUpdate');
  });

  it('formats claim creation success and failure', () => {
    assert.deepEqual(actionEvent(createClaim), {
      type: 'Normal',
      reason: 'SuccessfulCreate',
      message: 'create Claim data-web-0 Pod web-0 in StatefulSet web success',
    });
    assert.deepEqual(actionEvent(createClaim, boom), {
      type: 'Warning',
      reason: 'FailedCreate',
      message: 'create Claim data-web-0 for Pod web-0 in StatefulSet web failed error: etcdserver: request timed out',
    });
  });

  it('records nothing for AlreadyExists on create, revision writes, adoption and successful claim updates', () => {
    const exists = new AlreadyExistsError('pods "web-0" already exists');
    assert.equal(actionEvent(createPod, exists), undefined);
    assert.equal(actionEvent(createClaim, exists), undefined);
    assert.equal(actionEvent({ kind: 'deleteRevision', batch: 2, name: 'web-1' }), undefined);
    assert.equal(actionEvent({ kind: 'adoptPod', batch: 0, pod }), undefined);
    assert.equal(actionEvent(updateClaim), undefined);
  });

  it('reports a failed claim owner-reference update as a failed pod update', () => {
    assert.equal(actionEvent(updateClaim, boom)?.message, 'update Pod web-0 in StatefulSet web failed error: etcdserver: request timed out');
  });
});
