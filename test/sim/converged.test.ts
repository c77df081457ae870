import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { convergence } from '../../src/sim/converged.js';
import { T0, convergedStatus, pod, set } from './fixtures.js';

const pods3 = () => [pod(0), pod(1), pod(2)];

describe('convergence', () => {
  it('holds when every ordinal has an available pod on the update revision and the counters agree', () => {
    assert.deepEqual(convergence(set({ status: convergedStatus(3) }), pods3(), T0), { converged: true });
  });

  it('fails while observedGeneration lags the generation', () => {
    const c = convergence(set({ generation: 2, status: convergedStatus(3) }), pods3(), T0);
    assert.equal(c.converged, false);
    assert.match(c.reason!, /observedGeneration 1 != generation 2/);
  });

  it('fails on a pod outside the range, a terminating pod, or a missing ordinal', () => {
    const s = set({ status: convergedStatus(3) });
    assert.match(convergence(s, [...pods3(), pod(3)], T0).reason!, /web-3 is outside the ordinal range/);
    assert.match(convergence(s, [pod(0), pod(1), pod(2, { terminating: true })], T0).reason!, /web-2 is terminating/);
    assert.match(convergence(s, [pod(0), pod(1)], T0).reason!, /2 of 3 pods exist/);
  });

  it('waits for minReadySeconds before a Ready pod counts', () => {
    const s = set({ minReadySeconds: 10, status: convergedStatus(3) });
    const pods = [pod(0), pod(1), pod(2, { readySince: T0 + 5000 })];
    assert.match(convergence(s, pods, T0 + 14_000).reason!, /web-2 is not available/);
    assert.equal(convergence(s, pods, T0 + 15_000).converged, true);
  });

  it('lets pods below the partition stay on the current revision', () => {
    const status = { ...convergedStatus(3, 'web-2'), currentRevision: 'web-1', currentReplicas: 2, updatedReplicas: 1 };
    const pods = [pod(0), pod(1), pod(2, { revision: 'web-2' })];
    const partitioned = set({ status, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } } });
    assert.equal(convergence(partitioned, pods, T0).converged, true);
    const unpartitioned = set({ status });
    assert.match(convergence(unpartitioned, pods, T0).reason!, /web-0 is on revision web-1, not web-2/);
  });

  it('fails when the status counters disagree with the pods', () => {
    const s = set({ status: { ...convergedStatus(3), availableReplicas: 2 } });
    assert.match(convergence(s, pods3(), T0).reason!, /status.availableReplicas is 2, pods say 3/);
  });

  it('costs O(pods) for a huge replicas value', () => {
    const s = set({ replicas: 2147483647, status: convergedStatus(2147483647) });
    assert.match(convergence(s, pods3(), T0).reason!, /3 of 2147483647 pods exist/);
  });
});
