import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatInvalid, MAX_ISSUES, validateStatefulSet, validateStatefulSetUpdate } from '../../src/api/validation/index.js';
import { features, validSet, withFields } from './fixtures.js';

// Huge inputs: validation stops collecting at MAX_ISSUES and messages stay short.
describe('validation of huge inputs is bounded', () => {
  it('reports at most MAX_ISSUES for 10^6 invalid claim templates', () => {
    const claims = Array.from({ length: 1_000_000 }, () => ({}));
    const issues = validateStatefulSet(withFields(validSet(), { 'spec.volumeClaimTemplates': claims }), features);
    assert.equal(issues.length, MAX_ISSUES);
    assert.equal(issues[0]?.path, 'spec.volumeClaimTemplates[0].metadata.name');
  });

  it('reports at most MAX_ISSUES for 10^5 invalid labels', () => {
    const labels = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`bad key ${i}`, 'x']));
    assert.equal(validateStatefulSet(withFields(validSet(), { 'metadata.labels': labels }), features).length, MAX_ISSUES);
  });

  it('a megabyte label value gives short messages', () => {
    const issues = validateStatefulSet(withFields(validSet(), { 'metadata.labels': { app: 'v'.repeat(1 << 20) } }), features);
    assert.deepEqual(issues.map((i) => i.path), ['metadata.labels']);
    assert.ok(formatInvalid('StatefulSet', 'apps', 'web', issues).length < 2000);
  });

  it('an immutable-field change on 10^5 claim templates gives one short message', () => {
    const claims = Array.from({ length: 100_000 }, (_, i) => ({ metadata: { name: `c${i}` }, spec: { accessModes: ['ReadWriteOnce'] } }));
    const prev = withFields(validSet(), { 'spec.volumeClaimTemplates': claims });
    const next = withFields(prev, { 'spec.volumeClaimTemplates.99999.metadata.name': 'changed' });
    const issues = validateStatefulSetUpdate(next, prev, features);
    assert.deepEqual(issues.map((i) => i.path), ['spec.volumeClaimTemplates']);
    assert.ok(formatInvalid('StatefulSet', 'apps', 'web', issues).length < 2000);
  });

  it('replicas at the int32 maximum is valid and validation does no per-replica work', () => {
    assert.deepEqual(validateStatefulSet(withFields(validSet(), { 'spec.replicas': 2147483647 }), features), []);
  });
});
