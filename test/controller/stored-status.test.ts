// A stored status is read by the planner (collisionCount names revisions, the revisions and counters pick
// pods, conditions carry over), so its fields are checked like the spec: a field of the wrong JSON type —
// which the API server's decoder and the CRD's schema never store — refuses the set with its path, and
// never fails the planner.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { StatefulSetStatus } from '../../src/api/types.js';
import { planStatefulSet } from '../../src/controller/plan/plan-statefulset.js';
import { features, newSet, observe, T0 } from './fixtures.js';

const cases: [string, Record<string, unknown>, string, string][] = [
  ['an object for collisionCount', { collisionCount: { toString: null } }, 'status.collisionCount', 'must be of type integer'],
  ['a string for observedGeneration', { observedGeneration: '1' }, 'status.observedGeneration', 'must be of type integer'],
  ['a fraction for currentReplicas', { currentReplicas: 1.5 }, 'status.currentReplicas', 'must be of type integer'],
  ['a number for currentRevision', { currentRevision: 7 }, 'status.currentRevision', 'must be of type string'],
  ['an object for updateRevision', { updateRevision: {} }, 'status.updateRevision', 'must be of type string'],
  ['a string for conditions', { conditions: 'ok' }, 'status.conditions', 'must be of type array'],
  ['a condition that is a number', { conditions: [3] }, 'status.conditions[0]', 'must be of type object'],
  ['a condition type that is a list', { conditions: [{ type: [], status: 'True' }] }, 'status.conditions[0].type', 'must be of type string'],
  ['a claim template status count that is a string', { volumeClaimTemplates: [{ name: 'data', compatible: 'all' }] }, 'status.volumeClaimTemplates[0].compatible', 'must be of type integer'],
];

describe('a stored status of the wrong JSON types', () => {
  for (const [what, status, path, detail] of cases) {
    it(`refuses a set whose status has ${what}, with the field path`, () => {
      const set = newSet(2);
      // the property test's find: with a claim template's storage of the wrong type beside it
      (set.spec.volumeClaimTemplates![0]!.spec!.resources!.requests as Record<string, unknown>).storage = {};
      (set as Record<string, unknown>).status = { replicas: 0, ...status };
      const plan = planStatefulSet({ set, pods: [], claims: [], revisions: [] }, T0, features);
      assert.deepEqual(plan.actions, []);
      assert.deepEqual(plan.blockers, [{ kind: 'invalidSpec', issues: [{ path, detail }] }]);
    });
  }

  it('accepts a status of the right types', () => {
    const status: StatefulSetStatus = {
      replicas: 0,
      observedGeneration: 1,
      collisionCount: 0,
      currentRevision: 'web-1',
      conditions: [{ type: 'Progressing', status: 'False', reason: 'RolloutCompleted' }],
      volumeClaimTemplates: [{ name: 'data', compatible: 0, updating: 0, overSized: 0 }],
    };
    const plan = planStatefulSet(observe({ ...newSet(2), status }, []), T0, features);
    assert.ok(!plan.blockers.some((b) => b.kind === 'invalidSpec' || b.kind === 'internalError'), JSON.stringify(plan.blockers));
  });
});
