// Optimistic-concurrency retry, as client-go's retry.RetryOnConflict: the write is re-attempted on 409
// Conflict with a freshly read object. No sleeping between attempts: within one sync time does not move,
// and the next attempt starts from a refetch anyway.

import { isConflict } from '../api/errors.js';

/** client-go retry.DefaultRetry.Steps */
export const CONFLICT_RETRIES = 5;

/**
 * Calls `attempt(i)` (i = 0, 1, …) until it does not throw a Conflict, at most `steps` times; the last
 * error is rethrown. Other errors are rethrown at once.
 */
// upstream: client-go/util/retry/util.go RetryOnConflict
export async function retryOnConflict<T>(attempt: (i: number) => Promise<T>, steps = CONFLICT_RETRIES): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await attempt(i);
    } catch (err) {
      if (!isConflict(err) || i + 1 >= steps) throw err;
    }
  }
}
