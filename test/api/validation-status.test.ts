import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { StatefulSet, StatefulSetStatus } from '../../src/api/types.js';
import { validateStatefulSetStatusUpdate } from '../../src/api/validation/index.js';
import { messages, validSet, withFields } from './fixtures.js';

const stored = (status: Partial<StatefulSetStatus> = {}): StatefulSet => withFields(validSet(), { status: { replicas: 3, ...status } });
const statusMessages = (status: Record<string, unknown>, prev = stored()): string[] =>
  messages(validateStatefulSetStatusUpdate(withFields(prev, { status }), prev));

describe('validateStatefulSetStatusUpdate', () => {
  const NEG = 'must be greater than or equal to 0';
  const rows: Array<[string, Record<string, unknown>, string[]]> = [
    ['a consistent status', { replicas: 3, readyReplicas: 3, currentReplicas: 2, updatedReplicas: 1, availableReplicas: 2, observedGeneration: 4 }, []],
    ['an empty status', {}, []],
    [
      'negative replicas (the other counters then exceed it, as upstream reports too)',
      { replicas: -1, readyReplicas: -1, currentReplicas: -1, updatedReplicas: -1, availableReplicas: -1 },
      [-1, -1, -1, -1, -1].map((v, i) => `status.${['replicas', 'readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas'][i]}: Invalid value: ${v}: ${NEG}`),
    ],
    [
      'negative readyReplicas (availableReplicas then exceeds it)',
      { replicas: 1, readyReplicas: -1 },
      [`status.readyReplicas: Invalid value: -1: ${NEG}`, 'status.availableReplicas: Invalid value: 0: cannot be greater than status.readyReplicas'],
    ],
    ['negative observedGeneration', { observedGeneration: -2 }, [`status.observedGeneration: Invalid value: -2: ${NEG}`]],
    ['negative collisionCount', { collisionCount: -1 }, [`status.collisionCount: Invalid value: -1: ${NEG}`]],
    ['readyReplicas above replicas', { replicas: 2, readyReplicas: 3 }, ['status.readyReplicas: Invalid value: 3: cannot be greater than status.replicas']],
    ['currentReplicas above replicas', { replicas: 2, currentReplicas: 3 }, ['status.currentReplicas: Invalid value: 3: cannot be greater than status.replicas']],
    ['updatedReplicas above replicas', { replicas: 2, updatedReplicas: 3 }, ['status.updatedReplicas: Invalid value: 3: cannot be greater than status.replicas']],
    [
      'availableReplicas above replicas and ready',
      { replicas: 2, readyReplicas: 1, availableReplicas: 3 },
      ['status.availableReplicas: Invalid value: 3: cannot be greater than status.replicas', 'status.availableReplicas: Invalid value: 3: cannot be greater than status.readyReplicas'],
    ],
    ['availableReplicas above readyReplicas', { replicas: 3, readyReplicas: 1, availableReplicas: 2 }, ['status.availableReplicas: Invalid value: 2: cannot be greater than status.readyReplicas']],
    ['a counter that is not an integer', { replicas: 'three' }, ['status.replicas: Invalid value: "three": must be of type integer']],
    ['a revision that is not a string, and a condition that is not an object', { currentRevision: 7, conditions: ['Ready'] }, ['status.currentRevision: Invalid value: 7: must be of type string', 'status.conditions[0]: Invalid value: "Ready": must be of type object']],
  ];
  for (const [name, status, want] of rows) it(name, () => assert.deepEqual(statusMessages(status), want));

  it('collisionCount may grow but not be decremented or cleared', () => {
    const prev = stored({ collisionCount: 2 });
    assert.deepEqual(statusMessages({ replicas: 3, collisionCount: 3 }, prev), []);
    assert.deepEqual(statusMessages({ replicas: 3, collisionCount: 1 }, prev), ['status.collisionCount: Invalid value: 1: cannot be decremented']);
    assert.deepEqual(statusMessages({ replicas: 3 }, prev), ['status.collisionCount: Invalid value: 0: cannot be decremented']);
  });

  it('checks that the name did not change', () => {
    const prev = stored();
    const next = withFields(prev, { 'metadata.name': 'other' });
    assert.deepEqual(messages(validateStatefulSetStatusUpdate(next, prev)), ['metadata.name: Invalid value: "other": field is immutable']);
  });

  it('ignores the spec (the status strategy keeps the stored one)', () => {
    const prev = stored();
    assert.deepEqual(messages(validateStatefulSetStatusUpdate(withFields(prev, { 'spec.replicas': -5 }), prev)), []);
  });

  it('reports a status of the wrong type', () => {
    assert.deepEqual(statusMessages('ok' as unknown as Record<string, unknown>), ['status: Invalid value: "ok": must be of type object']);
  });
});
