// When the plan's answer changes with no new event: the earliest of the instants the phases name (the next
// Ready pod becoming available after minReadySeconds, a deadline), never a polling interval.

import type { Instant } from '../../api/types.js';

/** The earliest defined instant. */
export function earliest(...instants: (Instant | undefined)[]): Instant | undefined {
  let out: Instant | undefined;
  for (const t of instants) if (t !== undefined && Number.isFinite(t) && (out === undefined || t < out)) out = t;
  return out;
}
