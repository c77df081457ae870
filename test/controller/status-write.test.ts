// Whether a status is written: decided by the planner (statusChanged) over what the API server returns,
// whose custom resources come back with their keys in the server's own order.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { StatefulSetStatus } from '../../src/api/types.js';
import { statusChanged } from '../../src/controller/plan/status-counters.js';

const status: StatefulSetStatus = {
  observedGeneration: 2,
  replicas: 3,
  readyReplicas: 3,
  currentReplicas: 3,
  updatedReplicas: 3,
  currentRevision: 'db-1',
  updateRevision: 'db-1',
  collisionCount: 0,
  volumeClaimTemplates: [{ name: 'data', compatible: 3, updating: 0, overSized: 0, totalCapacity: '30Gi' }],
};

describe('statusChanged and status.volumeClaimTemplates', () => {
  it('is false when the server returns the same claim template status with its keys sorted', () => {
    const stored = structuredClone(status);
    stored.volumeClaimTemplates = [{ compatible: 3, name: 'data', overSized: 0, totalCapacity: '30Gi', updating: 0 }];
    assert.equal(statusChanged(stored, status, false), false);
  });

  it('is true when a count changed', () => {
    const stored = structuredClone(status);
    stored.volumeClaimTemplates = [{ name: 'data', compatible: 2, updating: 1, overSized: 0, totalCapacity: '30Gi' }];
    assert.equal(statusChanged(stored, status, false), true);
  });
});
