// Virtual time for the cluster tests: the simulator's virtual clock (src/sim/virtual-clock.ts) plus
// two helpers. Nothing here touches real timers, so no test waits on wall-clock time.

import { createVirtualClock, type VirtualClock } from '../../src/sim/virtual-clock.js';

/** 2026-01-01T00:00:00Z, so stored timestamps read naturally. */
export const EPOCH = Date.UTC(2026, 0, 1);

export interface TestClock extends VirtualClock {
  /** Drains async work and fires every timer due in the next `ms`, one at a time. */
  advance(ms: number): Promise<void>;
  /** Drains async work and fires the timers due now (watch deliveries with no delay). */
  flush(): Promise<void>;
}

export function createTestClock(start = EPOCH): TestClock {
  const clock = createVirtualClock({ start, stepBudget: 100_000 });
  return Object.assign(clock, {
    async advance(ms: number) {
      await clock.run({ until: clock.now() + ms });
    },
    async flush() {
      await clock.run({ until: clock.now() });
    },
  });
}
