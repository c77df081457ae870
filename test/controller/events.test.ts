// upstream-statefulset.md §8.2: the exact texts of per-action events, produced for the runtime.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AlreadyExistsError, ApiError } from '../../src/api/errors.js';
import type { Action } from '../../src/controller/plan-types.js';
import { actionEventMessage } from '../../src/controller/event-texts.js';
import { newSet, podFor } from './fixtures.js';

const set = newSet(1);
const pod = podFor(set, 0);
const createPod: Action = { kind: 'createPod', batch: 1, pod, ordinal: 0 };
const updatePod: Action = { kind: 'updatePod', batch: 1, pod, ordinal: 0 };
const deletePod: Action = { kind: 'deletePod', batch: 1, name: 'web-0', uid: 'u', ordinal: 0, cause: 'update' };
const createClaim: Action = { kind: 'createClaim', batch: 0, claim: { metadata: { name: 'data-web-0' }, spec: {} }, podName: 'web-0' };
const updateClaim: Action = { kind: 'updateClaim', batch: 0, claim: { metadata: { name: 'data-web-0' }, spec: {} }, podName: 'web-0' };
const boom = new ApiError('etcdserver: request timed out', 500, 'InternalError');

describe('actionEventMessage', () => {
  it('formats successful pod writes as upstream does', () => {
    assert.deepEqual(actionEventMessage(createPod, set), { type: 'Normal', reason: 'SuccessfulCreate', message: 'create Pod web-0 in StatefulSet web successful' });
    assert.deepEqual(actionEventMessage(updatePod, set), { type: 'Normal', reason: 'SuccessfulUpdate', message: 'update Pod web-0 in StatefulSet web successful' });
    assert.deepEqual(actionEventMessage(deletePod, set), { type: 'Normal', reason: 'SuccessfulDelete', message: 'delete Pod web-0 in StatefulSet web successful' });
  });

  it('formats failed pod writes with the error text', () => {
    assert.deepEqual(actionEventMessage(deletePod, set, boom), {
      type: 'Warning',
      reason: 'FailedDelete',
      message: 'delete Pod web-0 in StatefulSet web failed error: etcdserver: request timed out',
    });
    assert.equal(actionEventMessage(createPod, set, boom)?.reason, 'FailedCreate');
    assert.equal(actionEventMessage(updatePod, set, boom)?.reason, 'FailedUpdate');
  });

  it('formats claim creation success and failure', () => {
    assert.deepEqual(actionEventMessage(createClaim, set), {
      type: 'Normal',
      reason: 'SuccessfulCreate',
      message: 'create Claim data-web-0 Pod web-0 in StatefulSet web success',
    });
    assert.deepEqual(actionEventMessage(createClaim, set, boom), {
      type: 'Warning',
      reason: 'FailedCreate',
      message: 'create Claim data-web-0 for Pod web-0 in StatefulSet web failed error: etcdserver: request timed out',
    });
  });

  it('records nothing for AlreadyExists on create, revision writes, adoption and successful claim updates', () => {
    const exists = new AlreadyExistsError('pods "web-0" already exists');
    assert.equal(actionEventMessage(createPod, set, exists), undefined);
    assert.equal(actionEventMessage(createClaim, set, exists), undefined);
    assert.equal(actionEventMessage({ kind: 'deleteRevision', batch: 2, name: 'web-1' }, set), undefined);
    assert.equal(actionEventMessage({ kind: 'adoptPod', batch: 0, pod }, set), undefined);
    assert.equal(actionEventMessage(updateClaim, set), undefined);
  });

  it('reports a failed claim owner-reference update as a failed pod update', () => {
    assert.equal(actionEventMessage(updateClaim, set, boom)?.message, 'update Pod web-0 in StatefulSet web failed error: etcdserver: request timed out');
  });
});
