import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { getScaledValueFromIntOrPercent, maxUnavailableOf, partitionOf } from '../../src/api/intstr.js';
import type { IntOrString, StatefulSet, StatefulSetUpdateStrategy } from '../../src/api/types.js';

const set = (replicas: number | undefined, updateStrategy?: StatefulSetUpdateStrategy): StatefulSet => ({
  metadata: { name: 'web' },
  spec: { replicas, updateStrategy, template: { spec: { containers: [] } } },
});
const rolling = (maxUnavailable?: IntOrString, partition?: number): StatefulSetUpdateStrategy => ({
  type: 'RollingUpdate',
  rollingUpdate: { maxUnavailable, partition },
});

describe('getScaledValueFromIntOrPercent', () => {
  const rows: Array<[IntOrString, number, boolean, number]> = [
    [3, 10, false, 3],
    [3, 0, true, 3],
    ['50%', 5, false, 2],
    ['50%', 5, true, 3],
    ['10%', 25, false, 2],
    ['10%', 25, true, 3],
    ['0%', 7, true, 0],
    ['100%', 7, false, 7],
    ['+20%', 10, false, 2],
  ];
  for (const [value, total, roundUp, want] of rows) {
    it(`scales ${JSON.stringify(value)} of ${total} (roundUp=${roundUp}) to ${want}`, () => {
      assert.equal(getScaledValueFromIntOrPercent(value, total, roundUp), want);
    });
  }
  for (const bad of ['5', 'abc', '1.5%', '%', ' 5%']) {
    it(`throws for the malformed string ${JSON.stringify(bad)}`, () => {
      assert.throws(() => getScaledValueFromIntOrPercent(bad, 10, false), /invalid value for IntOrString/);
    });
  }
});

describe('maxUnavailableOf (getStatefulSetMaxUnavailable)', () => {
  // upstream: TestGetStatefulSetMaxUnavailable
  const table: Array<[string, StatefulSet, number]> = [
    ['10% of 25 rounds down to 2', set(25, rolling('10%')), 2],
    ['50% of 5 rounds down to 2', set(5, rolling('50%')), 2],
    ['10% of 5 rounds down to 0, then minimum 1', set(5, rolling('10%')), 1],
    ['int 3 with 0 replicas stays 3', set(0, rolling(3)), 3],
    ['int 0 becomes 1', set(5, rolling(0)), 1],
    ['"1%" of 0 becomes 1', set(0, rolling('1%')), 1],
    ['nil maxUnavailable is 1', set(5, rolling(undefined)), 1],
    // §9.B row 26 (metrics test) max_unavailable values
    ['r=5 int 2', set(5, rolling(2)), 2],
    ['r=10 20%', set(10, rolling('20%')), 2],
    ['r=6 int 3', set(6, rolling(3)), 3],
    ['r=4 int 1', set(4, rolling(1)), 1],
    ['r=8 25%', set(8, rolling('25%')), 2],
    ['r=5 80%', set(5, rolling('80%')), 4],
    ['r=2 int 1', set(2, rolling(1)), 1],
    ['r=1 int 1', set(1, rolling(1)), 1],
    ['r=3 OnDelete', set(3, { type: 'OnDelete' }), 1],
    ['r=4 OnDelete (Parallel)', set(4, { type: 'OnDelete' }), 1],
    ['r=5 RollingUpdate with nil maxUnavailable', set(5, rolling(undefined)), 1],
    ['r=6 no rollingUpdate block', set(6, { type: 'RollingUpdate' }), 1],
    // beyond the upstream tables
    ['not capped by replicas', set(3, rolling(50)), 50],
    ['percent of a missing replicas count uses the default 1', set(undefined, rolling('100%')), 1],
    ['Recreate is 1', set(5, { type: 'Recreate', rollingUpdate: { maxUnavailable: 3 } }), 1],
    ['an invalid string is 1', set(5, rolling('lots')), 1],
    ['a negative int is 1', set(5, rolling(-2)), 1],
    ['EnforcedRollingUpdate uses its own block', set(10, { type: 'EnforcedRollingUpdate', enforcedRollingUpdate: { maxUnavailable: '30%' } }), 3],
    ['EnforcedRollingUpdate ignores rollingUpdate', set(10, { type: 'EnforcedRollingUpdate', rollingUpdate: { maxUnavailable: 4 } }), 1],
  ];
  for (const [name, s, want] of table) {
    it(`${name} → ${want}`, () => assert.equal(maxUnavailableOf(s), want));
  }
  it('never throws on a malformed object', () => {
    assert.equal(maxUnavailableOf({} as StatefulSet), 1);
    assert.equal(maxUnavailableOf(null as unknown as StatefulSet), 1);
  });
});

describe('partitionOf', () => {
  const table: Array<[string, StatefulSet, number]> = [
    ['RollingUpdate partition', set(5, rolling(1, 3)), 3],
    ['RollingUpdate without a block', set(5, { type: 'RollingUpdate' }), 0],
    ['OnDelete ignores a stray block', set(5, { type: 'OnDelete', rollingUpdate: { partition: 2 } }), 0],
    ['EnforcedRollingUpdate partition', set(5, { type: 'EnforcedRollingUpdate', enforcedRollingUpdate: { partition: 4 } }), 4],
    ['partition may exceed replicas', set(3, rolling(1, 7)), 7],
    ['a malformed partition is 0', set(3, { type: 'RollingUpdate', rollingUpdate: { partition: 'x' as unknown as number } }), 0],
  ];
  for (const [name, s, want] of table) it(`${name} → ${want}`, () => assert.equal(partitionOf(s), want));
});
