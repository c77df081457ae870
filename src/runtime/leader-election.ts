// Lease-based leader election (coordination.k8s.io/v1) on the injected Timers, after client-go's
// leaderelection: candidates retry every retryPeriod (jittered); the leader renews every retryPeriod
// and gives up when it could not renew for renewDeadline; another holder's lease counts as expired
// leaseDuration after this candidate last saw it change (local observation, immune to clock skew).

import { Resources, type ClusterClient } from '../api/client.js';
import { isNotFound } from '../api/errors.js';
import type { Instant, Lease } from '../api/types.js';
import type { TimerId, Timers } from './clock.js';
import { noopLogger, type Logger } from './logging-port.js';

export interface LeaderElectionOptions {
  client: ClusterClient;
  timers: Timers;
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
  /** Leadership lost or released (called only after onStartedLeading). */
  onStoppedLeading(): void;
  /** The observed holder changed (including to this candidate). */
  onNewLeader?(identity: string): void;
  logger?: Logger;
}

export const LEASE_DURATION_MS = 15_000;
export const RENEW_DEADLINE_MS = 10_000;
export const RETRY_PERIOD_MS = 2_000;
/** client-go JitterFactor for candidates. */
const JITTER = 1.2;

/** metav1.MicroTime's RFC 3339 form with microseconds. */
export function toMicroTime(t: Instant): string {
  return new Date(t).toISOString().replace(/Z$/, '000Z');
}

// upstream: client-go/tools/leaderelection/leaderelection.go LeaderElector
export class LeaderElector {
  private state: 'idle' | 'candidate' | 'leader' | 'done' = 'idle';
  private timer: TimerId | undefined;
  private observed: { key: string; holder: string; at: Instant } | undefined;
  private attempt: Promise<boolean> | undefined;
  private roundStart: Instant | undefined;
  private leading: AbortController | undefined;
  private readonly finished: Promise<void>;
  private finish!: () => void;
  private readonly log: Logger;

  constructor(private readonly opts: LeaderElectionOptions) {
    this.log = opts.logger ?? noopLogger;
    this.finished = new Promise((resolve) => (this.finish = resolve));
  }

  isLeader(): boolean {
    return this.state === 'leader';
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

  /** Stops competing; a leader releases the lease by clearing holderIdentity, so a successor need not wait. */
  async stop(): Promise<void> {
    const wasLeader = this.state === 'leader';
    this.cancelTimer();
    if (this.state === 'done') return;
    this.state = 'done';
    // An attempt in flight may have just taken the lease: release it too.
    const justAcquired = (await this.attempt) === true;
    if (wasLeader || justAcquired) await this.release();
    if (wasLeader) this.endLeading();
    this.finish();
  }

  private get leaseDurationMs(): number {
    return this.opts.leaseDurationMs ?? LEASE_DURATION_MS;
  }

  private schedule(delay: number): void {
    const { timers } = this.opts;
    this.timer = timers.at(timers.now() + delay, () => void this.tick(), `lease ${this.opts.name}`);
  }

  private cancelTimer(): void {
    if (this.timer !== undefined) this.opts.timers.cancel(this.timer);
    this.timer = undefined;
  }

  private async tick(): Promise<void> {
    this.timer = undefined;
    this.attempt = this.tryAcquireOrRenew();
    const ok = await this.attempt;
    this.attempt = undefined;
    if (this.state === 'done') return;
    const retry = this.opts.retryPeriodMs ?? RETRY_PERIOD_MS;
    if (this.state === 'candidate') {
      if (ok) return this.becomeLeader(retry);
      this.schedule(retry + Math.floor((this.opts.random?.() ?? 0) * JITTER * retry));
      return;
    }
    const now = this.opts.timers.now();
    if (ok) {
      this.roundStart = undefined;
      this.schedule(retry);
    } else if (now - (this.roundStart ??= now) >= (this.opts.renewDeadlineMs ?? RENEW_DEADLINE_MS)) {
      this.log.warn({ lease: this.leaseKey, identity: this.opts.identity }, 'failed to renew lease; leadership lost');
      this.state = 'done';
      this.endLeading();
      this.finish();
    } else {
      this.schedule(retry);
    }
  }

  /** `namespace/name`, as the log lines name the Lease. */
  private get leaseKey(): string {
    return `${this.opts.namespace}/${this.opts.name}`;
  }

  private becomeLeader(retry: number): void {
    this.state = 'leader';
    this.leading = new AbortController();
    this.log.info({ lease: this.leaseKey, identity: this.opts.identity }, 'became leader');
    this.schedule(retry);
    this.opts.onStartedLeading(this.leading.signal);
  }

  private endLeading(): void {
    this.leading?.abort();
    this.leading = undefined;
    this.opts.onStoppedLeading();
  }

  /** One attempt: create the lease, or take it over when free or expired, or renew our own. */
  // upstream: leaderelection.go tryAcquireOrRenew
  private async tryAcquireOrRenew(): Promise<boolean> {
    const { client, namespace, name, identity, timers } = this.opts;
    try {
      const lease = await client.get<Lease>(Resources.leases, namespace, name);
      const now = timers.now();
      this.observe(lease, now);
      const holder = lease.spec.holderIdentity ?? '';
      if (holder !== '' && holder !== identity && this.observed!.at + this.leaseDurationMs > now) return false;
      const updated = await client.update(Resources.leases, this.record(lease, now));
      this.observe(updated, timers.now());
      return true;
    } catch (err) {
      if (isNotFound(err)) return this.create();
      this.log.debug({ lease: name, err: String(err) }, 'lease attempt failed');
      return false;
    }
  }

  private async create(): Promise<boolean> {
    const { client, namespace, name, timers } = this.opts;
    const now = timers.now();
    const lease: Lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name, namespace }, spec: {} };
    try {
      const created = await client.create(Resources.leases, this.record(lease, now));
      this.observe(created, timers.now());
      return true;
    } catch (err) {
      this.log.debug({ lease: name, err: String(err) }, 'lease create failed');
      return false;
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
