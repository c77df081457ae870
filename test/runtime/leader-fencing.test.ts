// The leader's write fence on the injected clocks: candidates that can be paused (SIGSTOP: no timer fires
// and no response is handled, while monotonic time goes on), cut off (a partition: requests fail or hang) or
// have their wall clock jump, against the fake cluster. The property: at no instant are two fences open.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Resources, type ClusterClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import type { Lease } from '../../src/api/types.js';
import type { TimerId, Timers } from '../../src/runtime/clock.js';
import { createLeaderElector, LEASE_DURATION_MS, RENEW_DEADLINE_MS, type LeaderElector } from '../../src/runtime/leader-election.js';
import { createVirtualClock, type VirtualClock } from '../../src/sim/virtual-clock.js';
import { checkAsyncProperty } from '../property-seed.js';
import { FakeCluster } from './fake-cluster.js';

/** One controller process: its own wall clock (which may jump), pausable timers and a client that can be cut off. */
class Proc {
  paused = false;
  cut: 'no' | 'fail' | 'hang' = 'no';
  wallOffset = 0;
  readonly log: string[] = [];
  elector: LeaderElector;
  private deferred: (() => void)[] = [];
  private resumed: (() => void)[] = [];
  private healed: (() => void)[] = [];
  readonly timers: Timers;

  constructor(
    private readonly clock: VirtualClock,
    readonly cluster: FakeCluster,
    readonly identity: string,
  ) {
    this.timers = {
      now: () => clock.now() + this.wallOffset,
      // as realTimers: the delay is taken from the wall clock when scheduling, then runs on monotonic time
      at: (when: number, task: () => void, label?: string): TimerId => clock.at(when - this.wallOffset, () => (this.paused ? this.deferred.push(task) : task()), label),
      cancel: (id: TimerId) => clock.cancel(id),
    };
    this.elector = this.newElector();
  }

  newElector(): LeaderElector {
    return createLeaderElector({
      client: this.client(),
      timers: this.timers,
      monotonic: { now: () => this.clock.now() },
      namespace: 'ops',
      name: 'lease',
      identity: this.identity,
      random: () => 0.5,
      onStartedLeading: () => this.log.push(`led@${this.clock.now()}`),
      onStoppedLeading: () => this.log.push(`lost@${this.clock.now()}`),
    });
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    for (const task of this.deferred.splice(0)) task();
    for (const go of this.resumed.splice(0)) go();
  }

  /** Ends a partition: hanging requests fail now (as their timeout would). */
  heal(): void {
    this.cut = 'no';
    for (const go of this.healed.splice(0)) go();
  }

  private gate(): Promise<void> {
    return this.paused ? new Promise((go) => this.resumed.push(go)) : Promise.resolve();
  }

  private client(): ClusterClient {
    const cluster = this.cluster;
    return new Proxy(cluster, {
      get: (target, prop, receiver) => {
        const v = Reflect.get(target, prop, receiver) as unknown;
        if (typeof v !== 'function') return v;
        return async (...args: unknown[]) => {
          await this.gate();
          if (this.cut === 'hang') {
            await new Promise<void>((go) => this.healed.push(go));
            throw new ApiError('no response within the request timeout', 504, 'Timeout');
          }
          if (this.cut === 'fail') throw new ApiError('connection refused', 503, 'ServiceUnavailable');
          const result: unknown = await (v as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          await this.gate(); // a response that arrives while paused is handled on resume
          return result;
        };
      },
    });
  }
}

const open = (p: Proc) => p.elector.fence.refusal() === undefined;
const holder = (cluster: FakeCluster) => cluster.peek<Lease>(Resources.leases, 'ops', 'lease')?.spec.holderIdentity;
const at = (log: string[], what: string) => Number(log.find((l) => l.startsWith(what))?.split('@')[1] ?? NaN);

describe('leader fencing', () => {
  it('grants the fence on acquiring, until the renew deadline after the start of the last accepted renewal', async () => {
    const clock = createVirtualClock();
    const a = new Proc(clock, new FakeCluster(), 'a');
    assert.match(a.elector.fence.refusal()?.message ?? '', /not the leader yet/);
    a.elector.start();
    await clock.run({ until: 5_000 });
    assert.ok(open(a));
    a.cut = 'fail'; // the renewals at 6 s, 8 s … fail; the last accepted one started at 4 s
    await clock.run({ until: 4_000 + RENEW_DEADLINE_MS - 1 });
    assert.ok(open(a), 'open until just before 4 s + renewDeadline');
    await clock.run({ until: 4_000 + RENEW_DEADLINE_MS });
    assert.match(a.elector.fence.refusal()?.message ?? '', /not the leader/);
    assert.deepEqual(a.log, ['led@0', `lost@${4_000 + RENEW_DEADLINE_MS}`]);
  });

  it('refuses the writes of a leader paused past its deadline before any of its timers has fired', async () => {
    const clock = createVirtualClock();
    const a = new Proc(clock, new FakeCluster(), 'a');
    a.elector.start();
    await clock.run({ until: 3_000 });
    a.pause();
    await clock.run({ until: 60_000 });
    assert.equal(a.elector.isLeader(), true, 'no timer of the paused process has run');
    assert.match(a.elector.fence.refusal()?.message ?? '', /renew deadline/);
    a.resume();
    await clock.run({ until: 60_000 });
    assert.equal(a.elector.isLeader(), false, 'on resume it gives up without renewing');
    assert.equal(a.cluster.writes().filter((w) => w.verb === 'update').length, 1, 'no renewal after the pause (only the one at 2 s)');
  });

  it('steps down the moment it sees another holder, not at its renew deadline', async () => {
    const clock = createVirtualClock();
    const cluster = new FakeCluster();
    const a = new Proc(clock, cluster, 'a');
    a.elector.start();
    await clock.run({ until: 1_000 });
    const lease = cluster.peek<Lease>(Resources.leases, 'ops', 'lease')!;
    await cluster.update(Resources.leases, { ...lease, spec: { ...lease.spec, holderIdentity: 'b' } });
    await clock.run({ until: 2_000 });
    assert.equal(open(a), false);
    assert.deepEqual(a.log, ['led@0', 'lost@2000']);
    assert.equal(holder(cluster), 'b', 'it did not write the lease back');
  });

  it('loses leadership at the deadline while a renewal hangs', async () => {
    const clock = createVirtualClock();
    const a = new Proc(clock, new FakeCluster(), 'a');
    a.elector.start();
    await clock.run({ until: 1_000 });
    a.cut = 'hang';
    await clock.run({ until: 30_000 });
    assert.deepEqual(a.log, ['led@0', `lost@${RENEW_DEADLINE_MS}`]);
    a.heal();
    await a.elector.done();
  });

  it('keeps the deadline on monotonic time when the wall clock jumps back an hour', async () => {
    const clock = createVirtualClock();
    const a = new Proc(clock, new FakeCluster(), 'a');
    a.elector.start();
    await clock.run({ until: 4_000 });
    a.cut = 'fail';
    a.wallOffset = -3_600_000;
    await clock.run({ until: 30_000 });
    assert.equal(at(a.log, 'lost'), 4_000 + RENEW_DEADLINE_MS);
  });

  it('does not let a standby whose wall clock jumps forward take over before the lease duration', async () => {
    const clock = createVirtualClock();
    const cluster = new FakeCluster();
    const a = new Proc(clock, cluster, 'a');
    const b = new Proc(clock, cluster, 'b');
    a.elector.start();
    await clock.run({ until: 100 });
    b.elector.start();
    await clock.run({ until: 4_100 });
    a.cut = 'fail'; // last renewal at 4 s, which b sees at 6.5 s
    await clock.run({ until: 7_000 });
    b.wallOffset = 3_600_000;
    await clock.run({ until: 60_000 });
    assert.ok(at(b.log, 'led') >= 4_000 + LEASE_DURATION_MS, `b led at ${at(b.log, 'led')}`);
    assert.ok(at(a.log, 'lost') < at(b.log, 'led'));
  });

  it('renews with the Lease it last wrote: one update and no read per renewal', async () => {
    const clock = createVirtualClock();
    const a = new Proc(clock, new FakeCluster(), 'a');
    a.elector.start();
    await clock.run({ until: 10_000 });
    const calls = a.cluster.calls.filter((c) => c.resource === 'leases').map((c) => c.verb);
    assert.deepEqual(calls, ['get', 'create', 'update', 'update', 'update', 'update', 'update']);
  });

  it('never has two fences open at once, whatever the pauses, partitions and clock jumps', async () => {
    type Fault = { who: number; at: number; kind: 'pause' | 'fail' | 'hang' | 'jump'; ms: number };
    const fault = fc.record({
      who: fc.integer({ min: 0, max: 2 }),
      at: fc.integer({ min: 0, max: 60_000 }),
      kind: fc.constantFrom<Fault['kind']>('pause', 'fail', 'hang', 'jump'),
      ms: fc.integer({ min: 500, max: 40_000 }),
    });
    await checkAsyncProperty(
      fc.asyncProperty(fc.array(fault, { maxLength: 8 }), async (faults) => {
        const clock = createVirtualClock();
        const cluster = new FakeCluster();
        const procs = ['a', 'b', 'c'].map((id) => new Proc(clock, cluster, id));
        for (const p of procs) p.elector.start();
        for (const f of faults) clock.at(f.at, () => inject(clock, procs[f.who]!, f));
        let overlaps = 0;
        let leaders = 0;
        const sample = () => {
          const openNow = procs.filter(open).length;
          if (openNow > 1) overlaps++;
          if (openNow === 1) leaders++;
          if (clock.now() < 120_000) clock.at(clock.now() + 100, sample);
        };
        sample();
        await clock.run({ until: 120_000 });
        for (const p of procs) await p.elector.stop();
        assert.equal(overlaps, 0, 'instants with two open fences');
        assert.ok(leaders > 0, 'someone led');
      }),
      { numRuns: 40 },
    );
  });
});

/** Applies one fault; it ends `ms` later. A process that lost its Lease restarts as a fresh candidate a second later (as a pod would). */
function inject(clock: VirtualClock, p: Proc, f: { kind: 'pause' | 'fail' | 'hang' | 'jump'; ms: number }): void {
  const end = (fn: () => void) => clock.at(clock.now() + f.ms, fn);
  if (f.kind === 'pause') {
    p.pause();
    end(() => p.resume());
  } else if (f.kind === 'jump') {
    p.wallOffset += f.ms * (f.ms % 2 === 0 ? 100 : -100);
  } else {
    p.cut = f.kind;
    end(() => p.heal());
  }
  const restart = () => {
    if (p.elector.isLeader() || p.log.length === 0 || !p.log.at(-1)!.startsWith('lost')) return;
    p.log.push('restarted');
    p.elector = p.newElector();
    p.elector.start();
  };
  clock.at(clock.now() + f.ms + 1000, restart);
}
