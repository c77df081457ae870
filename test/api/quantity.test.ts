import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseQuantity, QUANTITY_FORMAT_WRONG, QUANTITY_SUFFIX, compareQuantities, largerQuantity } from '../../src/api/validation/quantity.js';
import type { StatefulSet } from '../../src/api/types.js';
import { validateStatefulSet } from '../../src/api/validation/index.js';
import { features, messages, validSet } from './fixtures.js';

describe('parseQuantity (upstream ParseQuantity)', () => {
  for (const ok of ['0', '1', '500m', '1.5', '.5', '1Gi', '128Mi', '2k', '1e3', '1E-3', '+1', ' 1Gi ', '1.', '-0']) {
    it(`accepts ${JSON.stringify(ok)}`, () => assert.ok(!('error' in parseQuantity(ok)), JSON.stringify(parseQuantity(ok))));
  }
  for (const [bad, error] of [
    ['lots', QUANTITY_FORMAT_WRONG],
    ['', QUANTITY_FORMAT_WRONG],
    ['1.2.3', QUANTITY_FORMAT_WRONG],
    ['1 Gi', QUANTITY_FORMAT_WRONG],
    ['1ki', QUANTITY_SUFFIX],
    ['1e', QUANTITY_SUFFIX],
    ['1Mi5', QUANTITY_SUFFIX],
  ] as const) {
    it(`refuses ${JSON.stringify(bad)}: ${error}`, () => assert.deepEqual(parseQuantity(bad), { error }));
  }
  it('tells a negative quantity', () => {
    assert.deepEqual(parseQuantity('-1'), { negative: true });
    assert.deepEqual(parseQuantity('-0.0'), { negative: false });
  });
});

describe('resource quantities in a StatefulSet', () => {
  const issues = (change: (s: StatefulSet) => void) => {
    const s = validSet();
    change(s);
    return messages(validateStatefulSet(s, features));
  };

  it('refuses `cpu: lots` in a container with the field path and upstream\'s message', () => {
    const found = issues((s) => Object.assign(s.spec.template.spec!.containers[0]!, { resources: { requests: { cpu: 'lots' }, limits: { memory: '1Gi' } } }));
    assert.deepEqual(found, [
      `spec.template.spec.containers[0].resources.requests[cpu]: Invalid value: "lots": ${QUANTITY_FORMAT_WRONG}`,
    ]);
  });

  it('refuses a negative limit and accepts numbers', () => {
    const found = issues((s) => Object.assign(s.spec.template.spec!.containers[0]!, { resources: { requests: { cpu: 0.5 }, limits: { cpu: '-1' } } }));
    assert.deepEqual(found, ['spec.template.spec.containers[0].resources.limits[cpu]: Invalid value: "-1": must be greater than or equal to 0']);
  });

  it('refuses a bad claim template storage request', () => {
    const found = issues((s) => (s.spec.volumeClaimTemplates = [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: 'big' } } } }]));
    assert.deepEqual(found, [`spec.volumeClaimTemplates[0].spec.resources.requests[storage]: Invalid value: "big": ${QUANTITY_FORMAT_WRONG}`]);
  });
});

describe('compareQuantities (upstream Quantity.Cmp)', () => {
  it('compares by value across suffixes, fractions and exponents', () => {
    const cases: [string, string, number][] = [
      ['1Gi', '1G', 1],
      ['1024Mi', '1Gi', 0],
      ['0.5Gi', '512Mi', 0],
      ['10Gi', '20Gi', -1],
      ['1e3', '1k', 0],
      ['100m', '0.1', 0],
      ['1.5Ti', '1536Gi', 0],
      ['0', '-1', 1],
      ['-2', '-1', -1],
      ['1e500', '1', 1],
      [' 2Gi ', '2Gi', 0],
    ];
    for (const [a, b, want] of cases) assert.equal(compareQuantities(a, b), want, `${a} vs ${b}`);
  });

  it('has no answer for a text that is not a quantity', () => {
    assert.equal(compareQuantities('lots', '1Gi'), undefined);
    assert.equal(compareQuantities('1Gi', '1Qi'), undefined);
  });
});

describe('largerQuantity', () => {
  it('takes the other value only when it is strictly larger, so ties keep the kept spelling', () => {
    assert.equal(largerQuantity('1Gi', '2Gi'), '2Gi');
    assert.equal(largerQuantity('2Gi', '1Gi'), '2Gi');
    assert.equal(largerQuantity('1Gi', '1024Mi'), '1Gi');
    assert.equal(largerQuantity(undefined, '1Gi'), '1Gi');
    assert.equal(largerQuantity('1Gi', undefined), '1Gi');
    assert.equal(largerQuantity('1Gi', 'lots'), '1Gi', 'a text that does not parse never replaces it');
  });
});
