// The one token bucket (client-go's flowcontrol token-bucket rate limiter) on the injected clock
// (client-go's reads real time; ours reads `Clock`). Used by the kube client's QPS/burst limit, the work
// queue's overall retry limit and the Event spam filter.

import type { Clock } from './clock.js';

export interface TokenBucket {
  /**
   * Takes one token and returns how many milliseconds the caller must wait before using it (0 when a
   * token was available). Reservations queue up: the n-th caller in a burst waits n/qps.
   */
  reserve(): number;
  /** Takes a token only if one is available now (client-go's passive limiter, `TryAccept`). */
  tryAccept(): boolean;
}

export interface TokenBucketOptions {
  /** Tokens per second; `<= 0` or not finite disables the limit. */
  qps: number;
  /** Bucket size: requests allowed back to back after a quiet period. */
  burst: number;
  clock: Clock;
}

export function createTokenBucket({ qps, burst, clock }: TokenBucketOptions): TokenBucket {
  if (!(qps > 0) || !Number.isFinite(qps)) return { reserve: () => 0, tryAccept: () => true };
  const size = Math.max(1, Math.floor(burst));
  let tokens = size;
  let last = clock.now();
  const refill = () => {
    const now = clock.now();
    if (now > last) {
      tokens = Math.min(size, tokens + ((now - last) * qps) / 1000);
      last = now;
    }
  };
  return {
    reserve() {
      refill();
      tokens -= 1;
      return tokens >= 0 ? 0 : Math.ceil((-tokens * 1000) / qps);
    },
    tryAccept() {
      refill();
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
  };
}
