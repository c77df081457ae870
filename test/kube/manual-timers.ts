// A hand-driven clock for the adapter's tests: timers fire only when the test advances time, so retry
// delays, backoff and the watch watchdog are asserted as values, never waited for in real time.

import type { TimerId, Timers } from '../../src/runtime/clock.js';

export interface ManualTimers extends Timers {
  /** Delays (due − now at scheduling time) of every timer scheduled so far, with their labels. */
  readonly scheduled: { delay: number; label: string }[];
  /** Runs every timer due up to now + ms, in (due, seq) order, then sets now. */
  advance(ms: number): void;
  /** Fires the earliest pending timer (moving now to its due time); false when none is pending. */
  fireNext(): boolean;
  pendingCount(): number;
}

export function createManualTimers(start = 1_000_000): ManualTimers {
  let now = start;
  let seq = 0;
  const pending = new Map<TimerId, { due: number; seq: number; task: () => void }>();
  const earliest = () => [...pending.entries()].sort((a, b) => a[1].due - b[1].due || a[1].seq - b[1].seq)[0];
  const timers: ManualTimers = {
    scheduled: [],
    now: () => now,
    at(when, task, label = '') {
      const id = ++seq;
      timers.scheduled.push({ delay: when - now, label });
      pending.set(id, { due: when, seq: id, task });
      return id;
    },
    cancel(id) {
      pending.delete(id);
    },
    fireNext() {
      const next = earliest();
      if (!next) return false;
      pending.delete(next[0]);
      now = Math.max(now, next[1].due);
      next[1].task();
      return true;
    },
    advance(ms) {
      const target = now + ms;
      let fired = 0;
      for (let next = earliest(); next && next[1].due <= target; next = earliest()) {
        // A task that keeps rescheduling itself at or before the target is a bug under test, not a hang.
        if (++fired > 1000) throw new Error(`advance(${ms}): more than 1000 timers fired; a timer keeps rescheduling itself`);
        timers.fireNext();
      }
      now = target;
    },
    pendingCount: () => pending.size,
  };
  return timers;
}

/** Lets sockets and promise chains make progress (real I/O on 127.0.0.1 needs a few loop turns). */
export async function settle(turns = 20): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((r) => setImmediate(r));
}

/**
 * Drives `promise` to completion: while it is unsettled, lets I/O run and fires the next timer when the
 * loop is idle. Fails after `maxTimers` timers, so a retry loop that never ends fails the test.
 */
export async function drive<T>(timers: ManualTimers, promise: Promise<T>, maxTimers = 50): Promise<T> {
  let done = false;
  const tracked = promise.finally(() => {
    done = true;
  });
  tracked.catch(() => undefined);
  for (let fired = 0; !done; ) {
    await settle();
    if (done) break;
    if (!timers.fireNext()) await new Promise((r) => setTimeout(r, 5));
    else if (++fired > maxTimers) throw new Error(`still unsettled after ${maxTimers} timers`);
  }
  return tracked;
}
