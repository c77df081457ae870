import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { defaultFeatures, parseFeatureGates, upstream137Features, FeatureGateError } from '../../src/api/features.js';

describe('feature gates', () => {
  it('turns every gate on by default', () => {
    for (const [name, on] of Object.entries(defaultFeatures())) assert.equal(on, true, name);
  });
  it('matches upstream 1.37 when Recreate is off', () => {
    assert.equal(upstream137Features().StatefulSetRecreateStrategy, false);
    assert.equal(upstream137Features().MaxUnavailableStatefulSet, true);
  });
  it('parses A=true,B=false', () => {
    const f = parseFeatureGates('MaxUnavailableStatefulSet=false, StatefulSetRecreateStrategy=true');
    assert.equal(f.MaxUnavailableStatefulSet, false);
    assert.equal(f.StatefulSetRecreateStrategy, true);
  });
  it('rejects an unknown gate by name', () => {
    assert.throws(() => parseFeatureGates('NoSuchGate=true'), (e: unknown) => e instanceof FeatureGateError && /NoSuchGate/.test(e.message));
  });
  it('rejects a value that is not a bool', () => {
    assert.throws(() => parseFeatureGates('MaxUnavailableStatefulSet=yes'), /must be true or false/);
    assert.throws(() => parseFeatureGates('MaxUnavailableStatefulSet'), /missing bool value/);
  });
  it('refuses to turn off a GA gate locked on', () => {
    assert.throws(() => parseFeatureGates('PodIndexLabel=false'), /locked to true/);
  });
});
