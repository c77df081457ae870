import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Harness } from './harness.js';
import { newSet } from './fixtures.js';

describe('smoke', () => {
  it('creates 3 pods in order', () => {
    const h = new Harness(newSet(3));
    const p1 = h.sync();
    console.log(JSON.stringify(p1.actions.map((a) => [a.batch, a.kind, 'pod' in a ? a.pod.metadata.name : 'claim' in a ? a.claim.metadata.name : 'name' in a ? a.name : '']), null, 0));
    console.log(JSON.stringify(p1.blockers), JSON.stringify(p1.status));
    const n = h.converge();
    console.log('syncs', n, h.ordinals(), JSON.stringify(h.set.status));
    assert.deepEqual(h.ordinals(), [0, 1, 2]);
  });
});
