// MaxUnavailableStatefulSet off: the one-at-a-time legacy loop; and the
// #137409 regression fixed by #137666 with the gate on.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { withFeatures } from '../../src/api/features.js';
import type { Plan } from '../../src/controller/model/plan-types.js';
import { features, newSet, type SetOptions } from './fixtures.js';
import { Harness } from './harness.js';

const gateOff = withFeatures(features, { MaxUnavailableStatefulSet: false });
const deleted = (p: Plan): number[] => p.actions.flatMap((a) => (a.kind === 'deletePod' ? [a.ordinal] : []));

function converged(opts: SetOptions, f = gateOff, replicas = 5): Harness {
  const h = new Harness(newSet(replicas, opts), { autoReady: true, features: f });
  h.converge();
  (h.opts as { autoReady?: boolean }).autoReady = false;
  return h;
}

describe('legacy rolling update (gate off)', () => {
  it('deletes one pod per sync from the top, ignoring maxUnavailable, and says the feature is disabled', () => {
    const h = converged({ policy: 'Parallel', maxUnavailable: 3 });
    assert.ok(h.plans[0]?.events.some((e) => e.reason === 'FeatureDisabled' && /MaxUnavailableStatefulSet/.test(e.message)));
    h.setImage('app:v2');
    const plan = h.sync();
    assert.deepEqual(deleted(plan), [4]);
    assert.equal(plan.metrics.unavailableReplicas, undefined);
    assert.equal(plan.metrics.maxUnavailable, 1);
  });

  it('waits for the replaced pod to be available before the next (Parallel)', () => {
    const h = converged({ policy: 'Parallel' });
    h.setImage('app:v2');
    h.sync();
    h.finishTerminating();
    h.sync();
    const waiting = h.sync();
    assert.deepEqual(deleted(waiting), []);
    assert.ok(waiting.blockers.some((b) => b.kind === 'podNotAvailable' && b.pod === 'web-4'));
    h.ready('web-4');
    assert.deepEqual(deleted(h.sync()), [3]);
  });

  it('never inspects pods below the partition', () => {
    const h = converged({ policy: 'Parallel', partition: 3 });
    h.notReady('web-1');
    h.setImage('app:v2');
    assert.deepEqual(deleted(h.sync()), [4]);
  });

  it('deletes an old pod even when a lower pod is unavailable (only pods above are waited for)', () => {
    const h = converged({ policy: 'Parallel' });
    h.notReady('web-0');
    h.setImage('app:v2');
    assert.deepEqual(deleted(h.sync()), [4]);
  });
});

describe('#137409: an old, crash-looping pod under Parallel + maxUnavailable', () => {
  it('is replaced with the gate on (two-phase deletion) instead of deadlocking', () => {
    const h = converged({ policy: 'Parallel', maxUnavailable: 1 }, features, 1);
    h.notReady('web-0', 'CrashLoopBackOff');
    h.setImage('app:v2');
    const plan = h.sync();
    assert.deepEqual(deleted(plan), [0]);
  });

  it('with several stale unavailable pods, replaces all of them and no available one beyond the budget', () => {
    const h = converged({ policy: 'Parallel', maxUnavailable: 1 }, features, 4);
    h.notReady('web-1', 'CrashLoopBackOff');
    h.notReady('web-2', 'CrashLoopBackOff');
    h.setImage('app:v2');
    assert.deepEqual(deleted(h.sync()), [2, 1]);
  });
});
