// Which failed requests are retried and after how long: a pure decision the request loop
// in kube-client.ts acts on. Mirrors client-go's rules: 429 means the server did not process the request
// (API Priority and Fairness), so every verb may retry; a 5xx or a broken connection may have happened
// after the write was applied, so only idempotent verbs retry.

import { backoffDelay, type BackoffPolicy } from '../../runtime/backoff.js';

/** `evict`: POST pods/NAME/eviction, which may spend a PodDisruptionBudget's disruption before it fails: not idempotent. */
export type Verb = 'get' | 'list' | 'create' | 'update' | 'patch' | 'delete' | 'watch' | 'evict';

/** Verbs whose repetition cannot apply a change twice (PUT carries the resourceVersion precondition). */
const IDEMPOTENT: ReadonlySet<Verb> = new Set(['get', 'list', 'update', 'delete', 'watch']);

export type Failure =
  /** `budgetRefusal`: a 429 that is a PodDisruptionBudget's answer to an eviction, not throttling: the request's outcome. */
  | { kind: 'status'; status: number; retryAfterSeconds?: number; budgetRefusal?: boolean }
  | { kind: 'transport'; code?: string };

export interface RetryPolicy {
  /** Retries after the first attempt. client-go's default is 10; a controller requeues anyway. */
  maxRetries: number;
  backoff: BackoffPolicy;
  /** Upper bound for a server-sent Retry-After. */
  maxRetryAfterMs: number;
  /**
   * 'persistent' (the default) rides out an API server restart: refused connections and 5xx responses of
   * idempotent verbs are retried too. 'server-requested' is client-go's rest client as kubectl runs it:
   * only a 429/5xx that carries Retry-After, and a GET whose connection was reset; anything else fails at
   * once, so a command line tool reports an unreachable server instead of sitting through the backoff.
   */
  retryOn?: 'persistent' | 'server-requested';
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxRetries: 5,
  backoff: { baseMs: 200, capMs: 10_000, jitter: 0.5 },
  maxRetryAfterMs: 60_000,
};

/** Transport errors where the request never reached the server, so even a POST is safe to resend. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

export function isIdempotent(verb: Verb): boolean {
  return IDEMPOTENT.has(verb);
}

/** Connections that broke under a request, which client-go retries for a GET (net.IsConnectionReset, IsProbableEOF). */
const RESET = new Set(['ECONNRESET', 'EPIPE']);

const READS: ReadonlySet<Verb> = new Set(['get', 'list', 'watch']);

/** client-go's rest.Request retry rule (with_retry.go IsNextRetry, checkWait). */
// upstream: client-go/rest/request.go (*Request).request, client-go/rest/with_retry.go checkWait
function isServerRequestedRetry(verb: Verb, failure: Failure): boolean {
  if (failure.kind === 'transport') return READS.has(verb) && RESET.has(failure.code ?? '');
  return (failure.status === 429 || failure.status >= 500) && failure.retryAfterSeconds !== undefined;
}

/** Whether this failure of this verb is worth another try at all (ignoring the attempt count). */
export function isRetryableFailure(verb: Verb, failure: Failure, retryOn: RetryPolicy['retryOn'] = 'persistent'): boolean {
  if (failure.kind === 'status' && failure.budgetRefusal === true) return false;
  if (retryOn === 'server-requested') return isServerRequestedRetry(verb, failure);
  if (failure.kind === 'transport') return isIdempotent(verb) || NOT_SENT.has(failure.code ?? '');
  if (failure.status === 429) return true;
  return failure.status >= 500 && isIdempotent(verb);
}

/**
 * Milliseconds to wait before retry number `attempt` (0-based), or undefined when the request must fail
 * now. A Retry-After from the server wins over the computed backoff.
 */
export function retryDelay(
  verb: Verb,
  attempt: number,
  failure: Failure,
  random: () => number,
  policy: RetryPolicy = DEFAULT_RETRY,
): number | undefined {
  if (attempt >= policy.maxRetries || !isRetryableFailure(verb, failure, policy.retryOn)) return undefined;
  if (failure.kind === 'status' && failure.retryAfterSeconds !== undefined) {
    return Math.min(policy.maxRetryAfterMs, Math.max(0, failure.retryAfterSeconds * 1000));
  }
  return backoffDelay(attempt, random, policy.backoff);
}

/** Parses a Retry-After header in seconds (the API server never sends the HTTP-date form). */
export function parseRetryAfter(header: string | string[] | undefined): number | undefined {
  const raw = Array.isArray(header) ? header[0] : header;
  if (raw === undefined || !/^\s*\d+\s*$/.test(raw)) return undefined;
  return Number(raw);
}
