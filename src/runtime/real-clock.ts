// The only file allowed to touch timer globals, wall time and Math.random (eslint.config.js
// bans them everywhere else in src/). Globals are called through wrappers so test spies see every call.

import type { Clock, TimerId, Timers } from './clock.js';
import type { Random } from './random.js';

/** Real timers. They are unref'd (a pending one does not keep the process alive) unless `keepAlive`. */
export function realTimers(opts: { keepAlive?: boolean } = {}): Timers {
  const handles = new Map<TimerId, ReturnType<typeof setTimeout>>();
  let seq = 0;
  return {
    now: () => Date.now(),
    at(when, task) {
      const id = ++seq;
      const h = setTimeout(() => {
        handles.delete(id);
        task();
      }, Math.max(0, when - Date.now()));
      if (!opts.keepAlive) h.unref?.();
      handles.set(id, h);
      return id;
    },
    cancel(id) {
      const h = handles.get(id);
      if (h !== undefined) clearTimeout(h);
      handles.delete(id);
    },
  };
}

/** Unseeded randomness for production jitter; simulations use the seeded PRNG (random.ts). */
export const realRandom: Random = () => Math.random();

/**
 * Monotonic time in ms (CLOCK_MONOTONIC: it keeps counting while the process is stopped and never jumps
 * with the wall clock), for measuring how long real work took and for the leader's renew deadline; never
 * for scheduling (its origin is the process start, not the epoch).
 */
export const monotonicClock: Clock = { now: () => performance.now() };

/** The monotonic clock, for benchmarks' timings. */
export const stopwatch: Clock = monotonicClock;

/** Keeps the process alive until the returned function is called. */
export function holdProcessOpen(): () => void {
  const h = setInterval(() => {}, 2 ** 30);
  return () => clearInterval(h);
}
