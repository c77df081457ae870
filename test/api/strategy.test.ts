import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { prepareForCreate, prepareForStatusUpdate, prepareForUpdate } from '../../src/api/strategy.js';
import type { StatefulSet } from '../../src/api/types.js';
import { features, gates, getPath, validSet, withFields } from './fixtures.js';

const off = gates({ MaxUnavailableStatefulSet: false });
const stored = (): StatefulSet =>
  withFields(validSet(), { 'metadata.generation': 3, status: { replicas: 3, readyReplicas: 3, observedGeneration: 3 } });

describe('prepareForCreate', () => {
  it('clears status and sets generation 1', () => {
    const out = prepareForCreate(withFields(validSet(), { status: { replicas: 9 }, 'metadata.generation': 7 }), undefined, features);
    assert.deepEqual(out.status, { replicas: 0, availableReplicas: 0 });
    assert.equal(out.metadata.generation, 1);
  });
  it('accepts (next, features) as well as (next, undefined, features)', () => {
    assert.deepEqual(prepareForCreate(validSet(), features), prepareForCreate(validSet(), undefined, features));
  });
  it('drops maxUnavailable when MaxUnavailableStatefulSet is off', () => {
    const out = prepareForCreate(validSet(), undefined, off);
    assert.equal(getPath(out, 'spec.updateStrategy.rollingUpdate.maxUnavailable'), undefined);
    assert.equal(getPath(out, 'spec.updateStrategy.rollingUpdate.partition'), 0);
  });
  it('keeps maxUnavailable with the gate on', () => {
    assert.equal(getPath(prepareForCreate(validSet(), undefined, features), 'spec.updateStrategy.rollingUpdate.maxUnavailable'), 1);
  });
  it('does not mutate its input', () => {
    const input = validSet();
    const before = structuredClone(input);
    prepareForCreate(input, undefined, off);
    assert.deepEqual(input, before);
  });
});

describe('prepareForUpdate', () => {
  it('bumps generation when the spec changed', () => {
    assert.equal(prepareForUpdate(withFields(stored(), { 'spec.replicas': 5 }), stored(), features).metadata.generation, 4);
  });
  it('keeps generation for metadata-only changes', () => {
    assert.equal(prepareForUpdate(withFields(stored(), { 'metadata.labels': { app: 'web', x: 'y' } }), stored(), features).metadata.generation, 3);
  });
  it('ignores a generation written by the client', () => {
    assert.equal(prepareForUpdate(withFields(stored(), { 'metadata.generation': 99 }), stored(), features).metadata.generation, 3);
  });
  it('keeps the stored status (spec writes cannot change it)', () => {
    const out = prepareForUpdate(withFields(stored(), { status: { replicas: 0 } }), stored(), features);
    assert.deepEqual(out.status, stored().status);
  });
  it('drops a new maxUnavailable when the gate is off', () => {
    const prev = prepareForCreate(validSet(), undefined, off);
    const next = withFields(prev, { 'spec.updateStrategy.rollingUpdate.maxUnavailable': 2 });
    const out = prepareForUpdate(next, prev, off);
    assert.equal(getPath(out, 'spec.updateStrategy.rollingUpdate.maxUnavailable'), undefined);
    assert.equal(out.metadata.generation, prev.metadata.generation, 'a dropped field is not a spec change');
  });
  it('keeps maxUnavailable with the gate off when the stored object already uses it', () => {
    const next = withFields(stored(), { 'spec.updateStrategy.rollingUpdate.maxUnavailable': 2 });
    assert.equal(getPath(prepareForUpdate(next, stored(), off), 'spec.updateStrategy.rollingUpdate.maxUnavailable'), 2);
  });
});

describe('prepareForStatusUpdate', () => {
  it('takes only status from the write, keeping the stored spec and metadata', () => {
    const next = withFields(stored(), { 'spec.replicas': 50, 'metadata.labels': { hacked: 'yes' }, 'status.readyReplicas': 1, 'metadata.resourceVersion': '42' });
    const out = prepareForStatusUpdate(next, stored());
    assert.equal(out.spec.replicas, stored().spec.replicas);
    assert.deepEqual(out.metadata.labels, stored().metadata.labels);
    assert.equal(out.status?.readyReplicas, 1);
    assert.equal(out.metadata.resourceVersion, '42');
  });
});
