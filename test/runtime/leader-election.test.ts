import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources, type ClusterClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import type { Lease } from '../../src/api/types.js';
import { createLeaderElector, toMicroTime, type LeaderElector } from '../../src/runtime/leader-election.js';
import { createVirtualClock, type VirtualClock } from '../../src/sim/virtual-clock.js';
import { FakeCluster } from './fake-cluster.js';

/** A view of the cluster that can be cut off, as a partitioned or frozen process would be. */
function partitionable(cluster: FakeCluster): { client: ClusterClient; cut: () => void } {
  let broken = false;
  const client = new Proxy(cluster, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        if (broken) return Promise.reject(new ApiError('connection refused', 503, 'ServiceUnavailable'));
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { client, cut: () => void (broken = true) };
}

interface Candidate {
  elector: LeaderElector;
  log: string[];
  cut: () => void;
}

function candidate(clock: VirtualClock, cluster: FakeCluster, identity: string): Candidate {
  const log: string[] = [];
  const { client, cut } = partitionable(cluster);
  const elector = createLeaderElector({
    client,
    timers: clock,
    namespace: 'ordinal-system',
    name: 'ordinal-controller',
    identity,
    random: () => 0,
    onStartedLeading: (signal) => {
      log.push(`started@${clock.now()}`);
      signal.addEventListener('abort', () => log.push(`aborted@${clock.now()}`));
    },
    onStoppedLeading: () => log.push(`stopped@${clock.now()}`),
  });
  return { elector, log, cut };
}

const lease = (cluster: FakeCluster) => cluster.peek<Lease>(Resources.leases, 'ordinal-system', 'ordinal-controller');

describe('leader election', () => {
  it('does nothing until started', async () => {
    const clock = createVirtualClock();
    const cluster = new FakeCluster();
    candidate(clock, cluster, 'a');
    await clock.run({ until: 60_000 });
    assert.equal(cluster.calls.length, 0);
  });

  it('creates the lease and leads at once when nobody holds it', async () => {
    const clock = createVirtualClock({ start: Date.UTC(2026, 0, 1) });
    const cluster = new FakeCluster();
    const a = candidate(clock, cluster, 'a');
    a.elector.start();
    await clock.run({ until: clock.now() });
    assert.equal(a.elector.isLeader(), true);
    assert.deepEqual(a.log, [`started@${clock.now()}`]);
    const l = lease(cluster)!;
    assert.equal(l.spec.holderIdentity, 'a');
    assert.equal(l.spec.leaseDurationSeconds, 15);
    assert.equal(l.spec.leaseTransitions, 0);
    assert.equal(l.spec.renewTime, '2026-01-01T00:00:00.000000Z');
  });

  it('renews every retry period while leading', async () => {
    const clock = createVirtualClock();
    const cluster = new FakeCluster();
    const a = candidate(clock, cluster, 'a');
    a.elector.start();
    await clock.run({ until: 10_000 });
    assert.equal(lease(cluster)!.spec.renewTime, toMicroTime(10_000));
    assert.equal(cluster.writes().filter((c) => c.verb === 'update').length, 5);
  });

  it('keeps a second candidate waiting while the leader renews', async () => {
    const clock = createVirtualClock();
    const cluster = new FakeCluster();
    const a = candidate(clock, cluster, 'a');
    const b = candidate(clock, cluster, 'b');
    a.elector.start();
    await clock.run({ until: clock.now() });
    b.elector.start();
    await clock.run({ until: 120_000 });
    assert.equal(a.elector.isLeader(), true);
    assert.equal(b.elector.isLeader(), false);
    assert.deepEqual(b.log, []);
  });

  it('releases the lease on stop so a successor takes over without waiting for it to expire', async () => {
    const clock = createVirtualClock();
    const cluster = new FakeCluster();
    const a = candidate(clock, cluster, 'a');
    const b = candidate(clock, cluster, 'b');
    a.elector.start();
    await clock.run({ until: clock.now() });
    b.elector.start();
    await clock.run({ until: 5_000 });
    await a.elector.stop();
    assert.equal(lease(cluster)!.spec.holderIdentity, '');
    assert.deepEqual(a.log, ['started@0', 'aborted@5000', 'stopped@5000']);
    await clock.run({ until: 10_000 });
    assert.equal(b.elector.isLeader(), true);
    assert.ok(Number(b.log[0]!.split('@')[1]) <= 6_000, b.log[0]);
    assert.equal(lease(cluster)!.spec.leaseTransitions, 1);
  });

  it('takes over a crashed leader only after the lease duration since the last renewal it saw', async () => {
    const clock = createVirtualClock();
    const cluster = new FakeCluster();
    const a = candidate(clock, cluster, 'a');
    const b = candidate(clock, cluster, 'b');
    a.elector.start();
    await clock.run({ until: clock.now() });
    b.elector.start();
    await clock.run({ until: 4_000 });
    a.cut(); // last renewal at 4 s
    await clock.run({ until: 60_000 });
    const startedAt = Number(b.log[0]!.split('@')[1]);
    assert.ok(startedAt >= 4_000 + 15_000, `took over at ${startedAt}`);
    assert.ok(startedAt <= 4_000 + 15_000 + 2_000, `took over at ${startedAt}`);
  });

  it('gives up leadership when it cannot renew within the renew deadline', async () => {
    const clock = createVirtualClock();
    const cluster = new FakeCluster();
    const a = candidate(clock, cluster, 'a');
    a.elector.start();
    await clock.run({ until: 4_000 });
    a.cut();
    await clock.run({ until: 60_000 });
    assert.equal(a.elector.isLeader(), false);
    const stoppedAt = Number(a.log.find((l) => l.startsWith('stopped'))!.split('@')[1]);
    assert.ok(stoppedAt >= 4_000 + 10_000 && stoppedAt <= 4_000 + 2_000 + 10_000, `stopped at ${stoppedAt}`);
    await a.elector.done();
    assert.equal(clock.pending(), 0);
  });
});
