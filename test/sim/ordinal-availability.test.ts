import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Resources } from '../../src/api/client.js';
import { toTimestamp, type Pod, type StatefulSet } from '../../src/api/types.js';
import { defaultFeatures } from '../../src/api/features.js';
import { checkDeletion, noDuplicateOrdinal, unavailableOrdinals } from '../../src/controller/checks/invariants.js';
import { SimState } from '../../src/sim/state.js';
import { checkProperty } from '../property-seed.js';

const set = (replicas: number, minReadySeconds: number, start: number): StatefulSet =>
  ({ metadata: { name: 'web', namespace: 'default' }, spec: { replicas, minReadySeconds, ordinals: { start }, selector: {}, template: {}, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 2 } } } }) as unknown as StatefulSet;

const pod = (name: string, state: number, readySince: number): Pod => ({
  metadata: { name, namespace: 'default', ...(state === 3 ? { deletionTimestamp: toTimestamp(0) } : {}) },
  spec: { containers: [] },
  status: {
    phase: state === 0 ? 'Pending' : 'Running',
    conditions: [{ type: 'Ready', status: state >= 2 ? 'True' : 'False', lastTransitionTime: toTimestamp(readySince) }],
  },
});

const write = fc.record({
  kind: fc.constantFrom('pod', 'pod', 'pod', 'delete', 'set'),
  name: fc.constantFrom('web-0', 'web-1', 'web-01', 'web-2', 'web-3', 'web-4', 'other-1'),
  state: fc.integer({ min: 0, max: 3 }),
  readyAgo: fc.integer({ min: 0, max: 20_000 }),
  replicas: fc.integer({ min: 0, max: 5 }),
  minReadySeconds: fc.constantFrom(0, 0, 5, 10),
  start: fc.constantFrom(0, 0, 1),
  dt: fc.integer({ min: 0, max: 4000 }),
});

const features = defaultFeatures();

describe('simulator: incremental per-set checks agree with the planner checkers', () => {
  it('unavailable ordinals, shared ordinals and deletion checks after any sequence of writes, as time passes', () => {
    checkProperty(
      fc.property(fc.array(write, { maxLength: 60 }), (writes) => {
        const state = new SimState();
        let current = set(3, 0, 0);
        state.applySet(Resources.statefulSets, current, false);
        let now = 1_000_000;
        for (const w of writes) {
          now += w.dt;
          if (w.kind === 'set') {
            current = set(w.replicas, w.minReadySeconds, w.start);
            state.applySet(Resources.statefulSets, current, false);
          } else state.applyPod(pod(w.name, w.state, now - w.readyAgo), w.kind === 'delete');
          const pods = state.podsOf('default/web');
          assert.equal(state.unavailableOrdinals('default/web', current, now), unavailableOrdinals(current, pods, now));
          assert.equal(state.hasSharedOrdinal('default/web'), noDuplicateOrdinal(pods).length > 0);
          // checkDeletion with the kept count says what it says from the pods
          const kept = () => state.unavailableOrdinals('default/web', current, now);
          for (const victim of state.hasSharedOrdinal('default/web') ? [] : pods) {
            assert.deepEqual(checkDeletion(current, pods, victim, now, features, kept), checkDeletion(current, pods, victim, now, features));
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
