// Upstream's final #137666 table (TestStatefulSetMaxUnavailable), calling the update phase directly with an update
// revision named '' so that every pod is old.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { podOrdinal } from '../../src/controller/model/pod-state.js';
import { contextFor, updateDeletions } from './context-helper.js';
import { newSet, podFor, SECOND, T0, type PodState } from './fixtures.js';

type Setup = 'NotReady' | 'terminating' | 'readyNow';
interface Row {
  n: number;
  policy: 'Parallel' | 'OrderedReady';
  replicas: number;
  partition: number;
  maxUnavailable: number;
  mrs: number;
  setup: Record<number, Setup>;
  remaining: number[];
}

const P = 'Parallel' as const;
const O = 'OrderedReady' as const;
const rows: Row[] = [
  { n: 1, policy: P, replicas: 1, partition: 0, maxUnavailable: 1, mrs: 0, setup: { 0: 'NotReady' }, remaining: [] },
  { n: 2, policy: P, replicas: 3, partition: 0, maxUnavailable: 1, mrs: 0, setup: { 2: 'NotReady' }, remaining: [0, 1] },
  { n: 3, policy: P, replicas: 5, partition: 0, maxUnavailable: 2, mrs: 0, setup: { 3: 'NotReady', 4: 'NotReady' }, remaining: [0, 1, 2] },
  { n: 4, policy: O, replicas: 1, partition: 0, maxUnavailable: 1, mrs: 0, setup: { 0: 'NotReady' }, remaining: [0] },
  { n: 5, policy: O, replicas: 3, partition: 0, maxUnavailable: 1, mrs: 0, setup: { 2: 'NotReady' }, remaining: [0, 1, 2] },
  { n: 6, policy: O, replicas: 5, partition: 0, maxUnavailable: 2, mrs: 0, setup: { 4: 'NotReady' }, remaining: [0, 1, 2, 3] },
  { n: 7, policy: P, replicas: 3, partition: 0, maxUnavailable: 1, mrs: 0, setup: { 2: 'terminating' }, remaining: [0, 1, 2] },
  { n: 8, policy: O, replicas: 3, partition: 0, maxUnavailable: 1, mrs: 0, setup: { 2: 'terminating' }, remaining: [0, 1, 2] },
  { n: 9, policy: P, replicas: 5, partition: 0, maxUnavailable: 3, mrs: 0, setup: { 3: 'NotReady', 4: 'terminating' }, remaining: [0, 1, 4] },
  { n: 10, policy: P, replicas: 3, partition: 0, maxUnavailable: 1, mrs: 30, setup: { 2: 'readyNow' }, remaining: [0, 1] },
  { n: 11, policy: O, replicas: 3, partition: 0, maxUnavailable: 1, mrs: 30, setup: { 2: 'readyNow' }, remaining: [0, 1, 2] },
  { n: 12, policy: P, replicas: 5, partition: 0, maxUnavailable: 3, mrs: 0, setup: { 3: 'NotReady', 4: 'terminating' }, remaining: [0, 1, 4] },
  { n: 13, policy: P, replicas: 5, partition: 0, maxUnavailable: 3, mrs: 0, setup: { 3: 'terminating', 4: 'NotReady' }, remaining: [0, 1, 3] },
  { n: 14, policy: O, replicas: 5, partition: 0, maxUnavailable: 3, mrs: 0, setup: { 3: 'NotReady', 4: 'terminating' }, remaining: [0, 1, 2, 4] },
  { n: 15, policy: O, replicas: 5, partition: 0, maxUnavailable: 3, mrs: 0, setup: { 3: 'terminating', 4: 'NotReady' }, remaining: [0, 1, 2, 3] },
  { n: 16, policy: P, replicas: 5, partition: 2, maxUnavailable: 1, mrs: 0, setup: { 4: 'NotReady' }, remaining: [0, 1, 2, 3] },
  { n: 17, policy: P, replicas: 5, partition: 2, maxUnavailable: 1, mrs: 0, setup: { 2: 'NotReady' }, remaining: [0, 1, 3, 4] },
  { n: 18, policy: P, replicas: 5, partition: 2, maxUnavailable: 1, mrs: 0, setup: { 1: 'NotReady' }, remaining: [0, 1, 2, 3, 4] },
  { n: 19, policy: O, replicas: 5, partition: 2, maxUnavailable: 1, mrs: 0, setup: { 4: 'NotReady' }, remaining: [0, 1, 2, 3, 4] },
  { n: 20, policy: P, replicas: 5, partition: 3, maxUnavailable: 2, mrs: 0, setup: { 3: 'NotReady', 4: 'NotReady' }, remaining: [0, 1, 2] },
  { n: 21, policy: P, replicas: 5, partition: 3, maxUnavailable: 2, mrs: 0, setup: { 1: 'NotReady', 4: 'NotReady' }, remaining: [0, 1, 2, 3] },
  { n: 22, policy: P, replicas: 4, partition: 0, maxUnavailable: 2, mrs: 0, setup: { 0: 'NotReady', 1: 'NotReady' }, remaining: [2, 3] },
  { n: 23, policy: P, replicas: 5, partition: 0, maxUnavailable: 3, mrs: 0, setup: { 0: 'NotReady', 1: 'NotReady' }, remaining: [2, 3] },
];

const stateOf = (setup: Setup | undefined): PodState => {
  if (setup === 'NotReady') return { ready: false, readySince: T0 - 90 * SECOND };
  if (setup === 'terminating') return { terminating: true, readySince: T0 - 90 * SECOND };
  if (setup === 'readyNow') return { readySince: T0 };
  return { readySince: T0 - 90 * SECOND };
};

describe('maxUnavailable with unavailable and stale pods (#137666 final table, gate on)', () => {
  for (const row of rows) {
    const desc = Object.entries(row.setup).map(([o, s]) => `${o} ${s}`).join(', ');
    it(`row ${row.n}: ${row.policy} r=${row.replicas} partition=${row.partition} maxUnavailable=${row.maxUnavailable} mrs=${row.mrs} (${desc}) leaves {${row.remaining.join(',')}}`, () => {
      const set = newSet(row.replicas, { policy: row.policy, partition: row.partition, maxUnavailable: row.maxUnavailable, minReadySeconds: row.mrs });
      const pods = Array.from({ length: row.replicas }, (_, i) => podFor(set, i, stateOf(row.setup[i])));
      const decision = updateDeletions(contextFor(set, pods));
      const deleted = new Set(decision.victims.map((v) => v.index));
      const remaining = pods.map(podOrdinal).filter((o) => !deleted.has(o));
      assert.deepEqual(remaining, row.remaining);
      // nothing outside the unavailable list is touched except the deleted pods, and terminating pods are never deleted again
      for (const v of decision.victims) assert.notEqual(row.setup[v.index], 'terminating');
    });
  }
});
