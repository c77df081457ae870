// When the plan's answer changes with no new event: the exact instant the next Ready pod
// becomes available after minReadySeconds, never a polling interval.

import type { Instant, Pod } from '../api/types.js';
import { isRunningAndReady, podAvailableAt } from './pod-state.js';

/** The earliest `Ready.lastTransitionTime + minReadySeconds` still in the future among Running∧Ready pods. */
// upstream: stateful_set.go sync requeue (#135428: the earliest moment a not-yet-available pod becomes available)
export function nextAvailableAt(pods: readonly Pod[], minReadySeconds: number, now: Instant): Instant | undefined {
  if (minReadySeconds <= 0) return undefined;
  let next: Instant | undefined;
  for (const pod of pods) {
    if (!isRunningAndReady(pod)) continue;
    const at = podAvailableAt(pod, minReadySeconds);
    if (at !== undefined && at > now && (next === undefined || at < next)) next = at;
  }
  return next;
}

/** The earliest defined instant. */
export function earliest(...instants: (Instant | undefined)[]): Instant | undefined {
  let out: Instant | undefined;
  for (const t of instants) if (t !== undefined && Number.isFinite(t) && (out === undefined || t < out)) out = t;
  return out;
}
