// The only file allowed to touch timer globals (style.md T10). Globals are called through wrappers so
// test spies on them see every call.

import type { TimerId, Timers } from './clock.js';

export function realTimers(): Timers {
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
      h.unref?.();
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
