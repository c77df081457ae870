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

/** Monotonic wall time in ms, for measuring how long real work took (benchmarks), never for scheduling. */
export const stopwatch: Clock = { now: () => performance.now() };

/** Keeps the process alive until the returned function is called. */
export function holdProcessOpen(): () => void {
  const h = setInterval(() => {}, 2 ** 30);
  return () => clearInterval(h);
}
