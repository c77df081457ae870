// Upstream's TestParallelScale and the slow-start batch layout of a Parallel scale.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { slowStartGroup } from '../../src/controller/model/batches.js';
import type { Action, Plan } from '../../src/controller/model/plan-types.js';
import { newSet } from './fixtures.js';
import { Harness } from './harness.js';

/** The largest number of pod creations or deletions that run together in one batch. */
function concurrency(plan: Plan, kind: 'createPod' | 'deletePod'): number {
  const perBatch = new Map<number, number>();
  for (const a of plan.actions) if (a.kind === kind) perBatch.set(a.batch, (perBatch.get(a.batch) ?? 0) + 1);
  return Math.max(0, ...perBatch.values());
}

describe('slow-start batches', () => {
  it('groups positions 1, 2, 4, … 256, then 500 at a time', () => {
    const sizes = new Map<number, number>();
    for (let p = 0; p < 2000; p++) sizes.set(slowStartGroup(p), (sizes.get(slowStartGroup(p)) ?? 0) + 1);
    assert.deepEqual([...sizes.values()], [1, 2, 4, 8, 16, 32, 64, 128, 256, 500, 500, 489]);
  });

  it('creates each claim in an earlier batch than its pod', () => {
    const h = new Harness(newSet(20, { policy: 'Parallel' }));
    const plan = h.sync();
    const claimBatch = new Map(plan.actions.flatMap((a) => (a.kind === 'createClaim' ? [[a.podName, a.batch] as const] : [])));
    for (const a of plan.actions) if (a.kind === 'createPod') assert.ok((claimBatch.get(a.pod.metadata.name ?? '') ?? Infinity) < a.batch);
  });

  it('lists actions in batch order with dense batch numbers', () => {
    const plan = new Harness(newSet(40, { policy: 'Parallel' })).sync();
    const batches = plan.actions.map((a: Action) => a.batch);
    assert.deepEqual(batches, [...batches].sort((a, b) => a - b));
    assert.deepEqual([...new Set(batches)], Array.from({ length: new Set(batches).size }, (_, i) => i));
  });
});

describe('TestParallelScale: completes within 2 syncs with concurrent writes', () => {
  const cases = [
    { from: 3, to: 30, kind: 'createPod' as const, min: 2 },
    { from: 10, to: 1, kind: 'deletePod' as const, min: 2 },
    { from: 501, to: 0, kind: 'deletePod' as const, min: 10 },
    { from: 0, to: 1000, kind: 'createPod' as const, min: 20 },
  ];
  for (const c of cases) {
    it(`scales ${c.from} → ${c.to} in at most 2 syncs with ≥ ${c.min} concurrent ${c.kind === 'createPod' ? 'creations' : 'deletions'}`, () => {
      const h = new Harness(newSet(c.from, { policy: 'Parallel', claims: false }), { autoReady: true, autoDelete: true });
      if (c.from > 0) h.sync();
      h.update((s) => (s.spec.replicas = c.to));
      let observed = 0;
      let syncs = 0;
      for (; syncs < 2 && h.pods.size !== c.to; syncs++) observed = Math.max(observed, concurrency(h.sync(), c.kind));
      assert.equal(h.pods.size, c.to);
      assert.ok(syncs <= 2);
      assert.ok(observed >= c.min, `concurrency ${observed}`);
    });
  }
});
