// Lease-based leader election (coordination.k8s.io/v1) on the injected Timers, after client-go's
// leaderelection: candidates retry every retryPeriod (jittered); the leader renews every retryPeriod
// (optimistically, with the Lease it last wrote, as client-go does) and gives up when it could not renew
// for renewDeadline; another holder's lease counts as expired leaseDuration after this candidate last saw it
// change (local observation, immune to clock skew). Deadlines and ages are measured on a monotonic clock,
// so a wall-clock jump moves neither. Beyond client-go, the leader keeps a write fence (lease-fence.ts):
// granted until renewDeadline after the start of each accepted renewal, revoked the moment it sees another
// holder, and leadership is lost as soon as the deadline passes, even while a renewal hangs.

import { Resources, type ClusterClient } from '../api/client.js';
import { isNotFound } from '../api/errors.js';
import type { Instant, Lease } from '../api/types.js';
import type { Clock, TimerId, Timers } from './clock.js';
import { LeaseFence, type WriteFence } from './lease-fence.js';
import { noopLogger, type Logger } from './logging-port.js';

export interface LeaderElectionOptions {
  /** A client of its own request budget: renewals must never wait behind the controller's writes. */
  client: ClusterClient;
  timers: Timers;
  /** Monotonic time for the renew deadline and lease ages (default: `timers`, as in simulations and tests). */
  monotonic?: Clock;
  namespace: string;
  /** Lease name, e.g. `ordinal-controller`. */
  name: string;
  /** This candidate's identity (pod name + a unique suffix). */
  identity: string;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  /** Uniform in [0, 1), for the candidates' retry jitter. */
  random?: () => number;
  /** Leadership gained; `signal` aborts when it is lost or released. */
  onStartedLeading(signal: AbortSignal): void;
  /** Leadership lost or released (called only after onStartedLeading, after the fence was revoked). */
  onStoppedLeading(): void;
  /** The observed holder changed (including to this candidate). */
  onNewLeader?(identity: string): void;
  logger?: Logger;
}

export const LEASE_DURATION_MS = 15_000;
export const RENEW_DEADLINE_MS = 10_000;
export const RETRY_PERIOD_MS = 2_000;
/** client-go JitterFactor for candidates. */
export const JITTER_FACTOR = 1.2;

/** metav1.MicroTime's RFC 3339 form with microseconds. */
export function toMicroTime(t: Instant): string {
  return new Date(t).toISOString().replace(/Z$/, '000Z');
}

/** An attempt's outcome: the Lease is ours now, someone else holds it, or we could not tell. */
type Attempt = 'held' | 'other' | 'failed';

// upstream: client-go/tools/leaderelection/leaderelection.go LeaderElector
export class LeaderElector {
  private state: 'idle' | 'candidate' | 'leader' | 'done' = 'idle';
  private timer: TimerId | undefined;
  private deadline: TimerId | undefined;
  private observed: { key: string; holder: string; at: Instant } | undefined;
  /** The Lease as this leader last wrote it, for the optimistic renewal. */
  private held: Lease | undefined;
  private attempt: Promise<Attempt> | undefined;
  private leading: AbortController | undefined;
  private readonly lease: LeaseFence;
  private readonly finished: Promise<void>;
  private finish!: () => void;
  private readonly log: Logger;
  private readonly mono: Clock;

  constructor(private readonly opts: LeaderElectionOptions) {
    this.log = opts.logger ?? noopLogger;
    this.mono = opts.monotonic ?? opts.timers;
    this.lease = new LeaseFence(this.mono);
    this.finished = new Promise((resolve) => (this.finish = resolve));
  }

  isLeader(): boolean {
    return this.state === 'leader';
  }

  /** Open while this candidate leads and is sure of it; consulted by every write the controller makes. */
  get fence(): WriteFence {
    return this.lease;
  }

  /** Starts competing for the lease. Once leadership is lost the elector is done, as client-go's Run. */
  start(): void {
    if (this.state !== 'idle') return;
    this.state = 'candidate';
    this.schedule(0);
  }

  /** Resolves when this elector has finished (leadership lost, or stopped). */
  done(): Promise<void> {
    return this.finished;
  }

  /** Stops competing; a leader shuts its fence, then releases the lease by clearing holderIdentity, so a successor need not wait. */
  async stop(): Promise<void> {
    const wasLeader = this.state === 'leader';
    this.cancelTimers();
    if (this.state === 'done') return;
    this.state = 'done';
    this.lease.revoke('stopped');
    // An attempt in flight may have just taken the lease: release it too.
    const justAcquired = (await this.attempt) === 'held';
    if (wasLeader || justAcquired) await this.release();
    if (wasLeader) this.endLeading();
    this.finish();
  }

  private get leaseDurationMs(): number {
    return this.opts.leaseDurationMs ?? LEASE_DURATION_MS;
  }

  private get renewDeadlineMs(): number {
    return this.opts.renewDeadlineMs ?? RENEW_DEADLINE_MS;
  }

  /** `namespace/name`, as the log lines name the Lease. */
  private get leaseKey(): string {
    return `${this.opts.namespace}/${this.opts.name}`;
  }

  private schedule(delay: number): void {
    const { timers } = this.opts;
    this.timer = timers.at(timers.now() + delay, () => void this.tick(), `lease ${this.opts.name}`);
  }

  private cancelTimers(): void {
    for (const id of [this.timer, this.deadline]) if (id !== undefined) this.opts.timers.cancel(id);
    this.timer = this.deadline = undefined;
  }

  private async tick(): Promise<void> {
    this.timer = undefined;
    // resumed after the deadline (a pause, a late timer): not even the renewal may be sent
    if (this.state === 'leader' && this.lease.refusal() !== undefined) return this.lose('the renew deadline passed');
    const started = this.mono.now();
    this.attempt = this.tryAcquireOrRenew();
    const outcome = await this.attempt;
    this.attempt = undefined;
    if (this.state === 'done') return;
    if (outcome === 'held') this.granted(started + this.renewDeadlineMs);
    const retry = this.opts.retryPeriodMs ?? RETRY_PERIOD_MS;
    if (this.state === 'candidate') {
      if (outcome === 'held') return this.becomeLeader(retry);
      this.schedule(retry + Math.floor((this.opts.random?.() ?? 0) * JITTER_FACTOR * retry));
      return;
    }
    if (outcome === 'other') return this.lose(`another holder took the Lease: ${this.observed?.holder ?? ''}`);
    if (this.lease.refusal() !== undefined) return this.lose('the renew deadline passed');
    this.schedule(retry);
  }

  /** The fence is open until `until` (monotonic); leadership ends then unless a renewal extends it. */
  private granted(until: Instant): void {
    this.lease.grant(until);
    if (this.deadline !== undefined) this.opts.timers.cancel(this.deadline);
    const { timers } = this.opts;
    const at = timers.now() + Math.max(0, until - this.mono.now());
    this.deadline = timers.at(at, () => this.deadlinePassed(), `lease ${this.opts.name} renew deadline`);
  }

  private deadlinePassed(): void {
    this.deadline = undefined;
    if (this.state !== 'leader') return;
    if (this.lease.refusal() !== undefined) this.lose('the renew deadline passed');
    else this.granted(this.lease.grantedUntil()); // a timer that fired early
  }

  private becomeLeader(retry: number): void {
    this.state = 'leader';
    this.leading = new AbortController();
    this.log.info({ lease: this.leaseKey, identity: this.opts.identity }, 'became leader');
    this.schedule(retry);
    this.opts.onStartedLeading(this.leading.signal);
  }

  // upstream: leaderelection.go renew ("failed to renew lease"), then the caller's OnStoppedLeading
  private lose(reason: string): void {
    if (this.state !== 'leader') return;
    this.state = 'done';
    this.cancelTimers();
    this.lease.revoke(reason);
    this.log.warn({ lease: this.leaseKey, identity: this.opts.identity, reason }, 'failed to renew lease; leadership lost');
    this.endLeading();
    this.finish();
  }

  private endLeading(): void {
    this.leading?.abort();
    this.leading = undefined;
    this.opts.onStoppedLeading();
  }

  /** One attempt: renew optimistically, else read the lease and create it, take it over when free or expired, or renew it. */
  // upstream: leaderelection.go tryAcquireOrRenew
  private async tryAcquireOrRenew(): Promise<Attempt> {
    const { client, namespace, name, identity } = this.opts;
    if (this.state === 'leader' && this.held !== undefined) {
      const renewed = await this.write(this.held);
      if (renewed) return 'held';
      this.log.debug({ lease: this.leaseKey }, 'failed to update lease optimistically, falling back to slow path');
    }
    let lease: Lease;
    try {
      lease = await client.get<Lease>(Resources.leases, namespace, name);
    } catch (err) {
      if (isNotFound(err)) return this.create();
      this.log.debug({ lease: name, err: String(err) }, 'lease attempt failed');
      return 'failed';
    }
    this.observe(lease, this.mono.now());
    const holder = lease.spec.holderIdentity ?? '';
    // a record seen for the first time is never expired: a leader that sees another holder stops at once
    // (tick), a candidate waits for the record to stay unchanged for leaseDuration
    if (holder !== '' && holder !== identity && this.observed!.at + this.leaseDurationMs > this.mono.now()) return 'other';
    return (await this.write(lease)) ? 'held' : 'failed';
  }

  /** Writes `lease` with this candidate as holder (a resourceVersion precondition); false when refused. */
  private async write(lease: Lease): Promise<boolean> {
    try {
      const updated = await this.opts.client.update(Resources.leases, this.record(lease, this.opts.timers.now()));
      this.held = updated;
      this.observe(updated, this.mono.now());
      return true;
    } catch (err) {
      this.held = undefined;
      this.log.debug({ lease: this.opts.name, err: String(err) }, 'lease update failed');
      return false;
    }
  }

  private async create(): Promise<Attempt> {
    const { client, namespace, name, timers } = this.opts;
    const lease: Lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name, namespace }, spec: {} };
    try {
      const created = await client.create(Resources.leases, this.record(lease, timers.now()));
      this.held = created;
      this.observe(created, this.mono.now());
      return 'held';
    } catch (err) {
      this.log.debug({ lease: name, err: String(err) }, 'lease create failed');
      return 'failed';
    }
  }

  /** The lease spec with this candidate as holder; acquireTime and leaseTransitions change on a takeover. */
  private record(lease: Lease, now: Instant): Lease {
    const mine = lease.spec.holderIdentity === this.opts.identity;
    const transitions = lease.spec.leaseTransitions ?? 0;
    return {
      ...lease,
      spec: {
        ...lease.spec,
        holderIdentity: this.opts.identity,
        leaseDurationSeconds: Math.round(this.leaseDurationMs / 1000),
        acquireTime: mine && lease.spec.acquireTime ? lease.spec.acquireTime : toMicroTime(now),
        renewTime: toMicroTime(now),
        leaseTransitions: mine || lease.spec.holderIdentity === undefined ? transitions : transitions + 1,
      },
    };
  }

  private observe(lease: Lease, now: Instant): void {
    const key = JSON.stringify([lease.spec.holderIdentity, lease.spec.renewTime, lease.spec.acquireTime, lease.spec.leaseTransitions]);
    if (this.observed?.key === key) return;
    const before = this.observed?.holder;
    const holder = lease.spec.holderIdentity ?? '';
    this.observed = { key, holder, at: now };
    if (holder !== '' && holder !== before) this.opts.onNewLeader?.(holder);
  }

  // upstream: leaderelection.go release
  private async release(): Promise<void> {
    const { client, namespace, name, timers } = this.opts;
    try {
      const lease = await client.get<Lease>(Resources.leases, namespace, name);
      if (lease.spec.holderIdentity !== this.opts.identity) return;
      const now = toMicroTime(timers.now());
      await client.update(Resources.leases, {
        ...lease,
        spec: { ...lease.spec, holderIdentity: '', leaseDurationSeconds: 1, acquireTime: now, renewTime: now },
      });
    } catch (err) {
      this.log.warn({ lease: this.leaseKey, err: String(err) }, 'failed to release lease');
    }
  }
}

export function createLeaderElector(opts: LeaderElectionOptions): LeaderElector {
  return new LeaderElector(opts);
}
