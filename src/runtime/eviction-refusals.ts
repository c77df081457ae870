// A PodDisruptionBudget's refusal of an eviction (429 TooManyRequests from pods/eviction) is an answer, not
// an error: the pod stays, the batch and the later ones stop as after any failed action, and the set is synced
// again soon (the budget's status changing brings it back sooner), without the error backoff. Anything else
// an eviction meets, a pod two budgets select included (500: no eviction can ever take it), is a failure.

import { isBudgetRefusal, type DisruptionBudgetRefusal } from '../api/errors.js';
import type { Instant } from '../api/types.js';
import type { Action } from '../controller/plan-types.js';
import type { ExecutionResult } from './executor.js';

/** How soon a set whose eviction was refused is synced again when the refusal suggests no time (kubectl drain's 5 s). */
export const REFUSAL_REQUEUE_MS = 5_000;

export interface Refusal {
  action: Extract<Action, { kind: 'deletePod' }>;
  error: DisruptionBudgetRefusal;
}

export type EvictionResult = 'evicted' | 'refused' | 'failed';

/** The sync's failures split into budget refusals of evictions and the rest. */
export function splitRefusals(result: ExecutionResult): { refusals: Refusal[]; errors: ExecutionResult['failures'] } {
  const refusals: Refusal[] = [];
  const errors: ExecutionResult['failures'] = [];
  for (const f of result.failures) {
    if (f.action.kind === 'deletePod' && f.action.eviction === true && isBudgetRefusal(f.error)) refusals.push({ action: f.action, error: f.error });
    else errors.push(f);
  }
  return { refusals, errors };
}

/** When to sync again after `refusals`: the soonest Retry-After they suggest, REFUSAL_REQUEUE_MS when they suggest none. */
export function refusalWakeAt(refusals: readonly Refusal[], now: Instant): Instant {
  const waits = refusals.map((r) => (r.error.retryAfterSeconds > 0 ? r.error.retryAfterSeconds * 1000 : REFUSAL_REQUEUE_MS));
  return now + Math.min(...waits);
}

/** Each attempted eviction of the sync, by result (ordinal_evictions_total). */
export function evictionResults(result: ExecutionResult): EvictionResult[] {
  const out: EvictionResult[] = [];
  for (const action of result.executed) if (action.kind === 'deletePod' && action.eviction === true) out.push('evicted');
  for (const f of result.failures) if (f.action.kind === 'deletePod' && f.action.eviction === true) out.push(isBudgetRefusal(f.error) ? 'refused' : 'failed');
  return out;
}
