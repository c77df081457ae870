// Policies compute, schedulers schedule: these return delays; only the work queue owns
// timers. Unlike client-go's BucketRateLimiter, the bucket reads the injected clock (T2, A6).

import { backoffDelay, type BackoffPolicy } from './backoff.js';
import type { Clock } from './clock.js';
import { createTokenBucket, type TokenBucket } from './token-bucket.js';

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

/** Per-item exponential backoff: base · 2^failures, capped (5 ms … 1000 s by default), no jitter. */
// upstream: client-go/util/workqueue/default_rate_limiters.go ItemExponentialFailureRateLimiter.When
const ITEM_BACKOFF: BackoffPolicy = { baseMs: BASE_DELAY_MS, capMs: MAX_DELAY_MS, jitter: 0 };
const noJitter = () => 0;

export class ItemExponentialRateLimiter<K> implements RateLimiter<K> {
  private readonly failures = new Map<K, number>();

  constructor(private readonly policy: BackoffPolicy = ITEM_BACKOFF) {}

  when(key: K): number {
    const n = this.failures.get(key) ?? 0;
    this.failures.set(key, n + 1);
    return backoffDelay(n, noJitter, this.policy);
  }

  forget(key: K): void {
    this.failures.delete(key);
  }

  numRequeues(key: K): number {
    return this.failures.get(key) ?? 0;
  }
}

/** An overall token bucket (qps refill, `burst` capacity) shared by every item; a reservation always succeeds. */
// upstream: client-go/util/workqueue/default_rate_limiters.go BucketRateLimiter.When
export class BucketRateLimiter<K> implements RateLimiter<K> {
  private readonly bucket: TokenBucket;

  constructor(clock: Clock, qps = 10, burst = 100) {
    this.bucket = createTokenBucket({ qps, burst, clock });
  }

  when(_key: K): number {
    return this.bucket.reserve();
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
