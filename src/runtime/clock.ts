// One clock, two faces: `Clock` reads time, `Timers` schedules. The planner takes neither;
// it receives `now` as a value. Real and virtual implementations: runtime/real-clock.ts, sim/virtual-clock.ts.

import type { Instant } from '../api/types.js';

export interface Clock {
  now(): Instant;
}

export type TimerId = number;

export interface Timers extends Clock {
  /** Runs `task` at `when` (or as soon as possible if `when` ≤ now). Ties run in scheduling order (T3). */
  at(when: Instant, task: () => void, label?: string): TimerId;
  cancel(id: TimerId): void;
}

/** Resolves after `ms` of the given clock's time. */
export function sleep(timers: Timers, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const id = timers.at(timers.now() + ms, () => resolve(), 'sleep');
    signal?.addEventListener('abort', () => {
      timers.cancel(id);
      resolve();
    });
  });
}
