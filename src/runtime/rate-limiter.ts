// Policies compute, schedulers schedule (style.md G9): these return delays; only the work queue owns
// timers. Unlike client-go's BucketRateLimiter, the bucket reads the injected clock (T2, A6).

import type { Clock } from './clock.js';

/** Per-item retry policy of the work queue (client-go's TypedRateLimiter). */
export interface RateLimiter<K> {
  /** Records one more failure of `key` and returns how long (ms) to wait before retrying it. */
  when(key: K): number;
  /** Stops tracking `key` (it succeeded); its next failure starts from the base delay again. */
  forget(key: K): void;
  /** Failures recorded for `key` since it was last forgotten. */
  numRequeues(key: K): number;
}

export const BASE_DELAY_MS = 5;
export const MAX_DELAY_MS = 1_000_000;

/** Exponential per-item backoff: base · 2^failures, capped (5 ms … 1000 s by default). */
// upstream: client-go/util/workqueue/default_rate_limiters.go ItemExponentialFailureRateLimiter.When
export function nextDelay(failures: number, baseMs = BASE_DELAY_MS, maxMs = MAX_DELAY_MS): number {
  if (failures < 0) return baseMs;
  const exp = Math.min(failures, 62); // 2^62 overflows any cap; avoids Infinity arithmetic
  return Math.min(baseMs * 2 ** exp, maxMs);
}

export class ItemExponentialRateLimiter<K> implements RateLimiter<K> {
  private readonly failures = new Map<K, number>();

  constructor(
    private readonly baseMs = BASE_DELAY_MS,
    private readonly maxMs = MAX_DELAY_MS,
  ) {}

  when(key: K): number {
    const n = this.failures.get(key) ?? 0;
    this.failures.set(key, n + 1);
    return nextDelay(n, this.baseMs, this.maxMs);
  }

  forget(key: K): void {
    this.failures.delete(key);
  }

  numRequeues(key: K): number {
    return this.failures.get(key) ?? 0;
  }
}

/**
 * An overall token bucket (qps refill, `burst` capacity) shared by every item. A reservation always
 * succeeds; the returned delay is how long until its token exists. Kept as a theoretical arrival time
 * (GCRA), which is the same bucket without floating-point token counts.
 */
// upstream: client-go/util/workqueue/default_rate_limiters.go BucketRateLimiter.When
export class BucketRateLimiter<K> implements RateLimiter<K> {
  private readonly intervalMs: number;
  private tat = -Infinity;

  constructor(
    private readonly clock: Clock,
    qps = 10,
    private readonly burst = 100,
  ) {
    this.intervalMs = 1000 / qps;
  }

  when(_key: K): number {
    const now = this.clock.now();
    this.tat = Math.max(this.tat, now) + this.intervalMs;
    const allowedAt = this.tat - this.burst * this.intervalMs;
    return Math.max(0, Math.ceil(allowedAt - now));
  }

  forget(_key: K): void {}

  numRequeues(_key: K): number {
    return 0;
  }
}

/** The largest delay of several limiters; every limiter records the failure. */
// upstream: client-go/util/workqueue/default_rate_limiters.go MaxOfRateLimiter
export class MaxOfRateLimiter<K> implements RateLimiter<K> {
  private readonly limiters: RateLimiter<K>[];

  constructor(...limiters: RateLimiter<K>[]) {
    this.limiters = limiters;
  }

  when(key: K): number {
    let max = 0;
    for (const l of this.limiters) max = Math.max(max, l.when(key));
    return max;
  }

  forget(key: K): void {
    for (const l of this.limiters) l.forget(key);
  }

  numRequeues(key: K): number {
    let max = 0;
    for (const l of this.limiters) max = Math.max(max, l.numRequeues(key));
    return max;
  }
}

/** Exponential 5 ms … 1000 s per item, and 10 qps with burst 100 overall. */
// upstream: client-go/util/workqueue/default_rate_limiters.go DefaultTypedControllerRateLimiter
export function defaultControllerRateLimiter<K>(clock: Clock): RateLimiter<K> {
  return new MaxOfRateLimiter<K>(new ItemExponentialRateLimiter<K>(), new BucketRateLimiter<K>(clock, 10, 100));
}
