// The one exponential backoff, as a pure function of the attempt number (policies compute,
// schedulers schedule): request retries and watch reconnects (jittered, as client-go's wait.Backoff) and
// the work queue's per-item retries (no jitter, as ItemExponentialFailureRateLimiter). Randomness is
// injected so tests and the simulator stay deterministic (T8).

export interface BackoffPolicy {
  /** Delay of the first retry before jitter. */
  baseMs: number;
  /** Upper bound of the delay before jitter. */
  capMs: number;
  /** The delay grows by up to `jitter` × itself, as client-go's `wait.Jitter(d, jitter)`; 0 for none. */
  jitter: number;
}

/** client-go's reflector backs off from 800 ms to 30 s; the same shape serves request retries. */
export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 800, capMs: 30_000, jitter: 1 };

/** Delay before retry number `attempt` (0-based): min(cap, base·2^attempt), plus up to `jitter` of it. */
export function backoffDelay(attempt: number, random: () => number, policy: BackoffPolicy = DEFAULT_BACKOFF): number {
  // 2^62 overflows any cap; clamping the exponent avoids Infinity arithmetic
  const exp = Math.min(policy.capMs, policy.baseMs * 2 ** Math.min(Math.max(attempt, 0), 62));
  return policy.jitter === 0 ? exp : Math.round(exp * (1 + policy.jitter * random()));
}
