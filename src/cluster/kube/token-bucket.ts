// Client-side QPS/burst limit, as client-go's token-bucket rate limiter but on the injected clock
// (style.md T2: client-go's `Reserve()` reads real time; ours reads `Clock`).

import type { Clock } from '../../runtime/clock.js';

export interface TokenBucket {
  /**
   * Takes one token and returns how many milliseconds the caller must wait before using it (0 when a
   * token was available). Reservations queue up: the n-th caller in a burst waits n/qps.
   */
  reserve(): number;
}

export interface TokenBucketOptions {
  /** Tokens per second; `<= 0` or not finite disables the limit. */
  qps: number;
  /** Bucket size: requests allowed back to back after a quiet period. */
  burst: number;
  clock: Clock;
}

export function createTokenBucket({ qps, burst, clock }: TokenBucketOptions): TokenBucket {
  if (!(qps > 0) || !Number.isFinite(qps)) return { reserve: () => 0 };
  const size = Math.max(1, Math.floor(burst));
  let tokens = size;
  let last = clock.now();
  return {
    reserve() {
      const now = clock.now();
      if (now > last) {
        tokens = Math.min(size, tokens + ((now - last) * qps) / 1000);
        last = now;
      }
      tokens -= 1;
      return tokens >= 0 ? 0 : Math.ceil((-tokens * 1000) / qps);
    },
  };
}
