// batchStartPolicy: Together (KEP-961 "choice 1"): under OrderedReady the deleted batch is
// recreated at once and the next batch starts only when every pod of the batch is available.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Plan } from '../../src/controller/model/plan-types.js';
import { newSet, SECOND } from './fixtures.js';
import { Harness } from './harness.js';

const deleted = (p: Plan): number[] => p.actions.flatMap((a) => (a.kind === 'deletePod' ? [a.ordinal] : []));
const created = (p: Plan): number[] => p.actions.flatMap((a) => (a.kind === 'createPod' ? [a.ordinal] : []));

function rolling(batchStartPolicy: 'Ordered' | 'Together', minReadySeconds = 0): Harness {
  const h = new Harness(newSet(5, { maxUnavailable: 2, batchStartPolicy, minReadySeconds }), { autoReady: true });
  h.converge();
  h.advance(minReadySeconds * SECOND);
  (h.opts as { autoReady?: boolean }).autoReady = false;
  h.setImage('app:v2');
  return h;
}

describe('batchStartPolicy: Together', () => {
  it('recreates both pods of the batch in the same sync and the same batch', () => {
    const h = rolling('Together');
    assert.deepEqual(deleted(h.sync()), [4, 3]);
    h.finishTerminating();
    const plan = h.sync();
    assert.deepEqual(created(plan), [3, 4]);
    const batches = new Set(plan.actions.filter((a) => a.kind === 'createPod').map((a) => a.batch));
    assert.equal(batches.size, 1);
  });

  it('waits for a pod of the batch that is still terminating, so the batch is created whole (CI saw the ends spread)', () => {
    const h = rolling('Together');
    assert.deepEqual(deleted(h.sync()), [4, 3]);
    h.finishTerminating('web-3');
    const waiting = h.sync();
    assert.deepEqual(created(waiting), [], 'web-3 is gone but web-4 still terminates');
    assert.ok(waiting.blockers.some((b) => b.kind === 'podTerminating' && b.pod === 'web-4'), JSON.stringify(waiting.blockers));
    h.finishTerminating('web-4');
    assert.deepEqual(created(h.sync()), [3, 4]);
  });

  it('starts the next batch only when every pod of the batch is available', () => {
    const h = rolling('Together', 10);
    h.sync();
    h.finishTerminating();
    h.sync();
    h.ready('web-3');
    assert.deepEqual(deleted(h.sync()), [], 'web-4 not Ready yet');
    h.ready('web-4');
    assert.deepEqual(deleted(h.sync()), [], 'not available for minReadySeconds yet');
    h.advance(10 * SECOND);
    assert.deepEqual(deleted(h.sync()), [2, 1]);
  });

  it('never skips over an existing pod that is not yet available (found by fast-check)', () => {
    const h = rolling('Together');
    assert.deepEqual(deleted(h.sync()), [4, 3]);
    h.finishTerminating();
    h.sync();
    h.deletePod('web-0');
    h.deletePod('web-4');
    h.finishTerminating();
    assert.deepEqual(created(h.sync()), [0], 'web-3 exists but is not Ready: web-4 waits for it');
    h.ready('web-0');
    h.ready('web-3');
    assert.deepEqual(created(h.sync()), [4]);
  });

  it('finishes the rollout in fewer syncs than Ordered on the same slow start', () => {
    const syncs = (policy: 'Ordered' | 'Together'): number => {
      const h = rolling(policy);
      let n = 0;
      for (; n < 100; n++) {
        h.sync();
        h.finishTerminating();
        h.advance(SECOND);
        h.readyAll();
        if (h.set.status?.currentRevision === h.set.status?.updateRevision) break;
      }
      return n;
    };
    assert.ok(syncs('Together') < syncs('Ordered'));
  });

  it('still creates one pod at a time when scaling up outside a rollout', () => {
    const h = new Harness(newSet(2, { maxUnavailable: 3, batchStartPolicy: 'Together' }), { autoReady: true });
    h.converge();
    h.update((s) => (s.spec.replicas = 5));
    assert.deepEqual(created(h.sync()), [2]);
  });

  it('has no effect under Parallel (every missing pod is created anyway)', () => {
    const h = new Harness(newSet(5, { policy: 'Parallel', maxUnavailable: 2, batchStartPolicy: 'Together' }), { autoReady: true });
    h.converge();
    h.setImage('app:v2');
    h.sync();
    h.finishTerminating();
    assert.deepEqual(created(h.sync()), [3, 4]);
  });
});
