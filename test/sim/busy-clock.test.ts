// Work that never goes idle must not hold virtual time still: once an instant has used its busy budget,
// run() lets busy turns cost virtual time, so `until` (a scenario's endSeconds) is always reached.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createVirtualClock } from '../../src/sim/virtual-clock.js';

describe('virtual clock under endless work', () => {
  it('reaches `until` although a timer re-arms itself at `now` for ever', async () => {
    const clock = createVirtualClock({ busyTurns: 100, stepBudget: 100_000 });
    let fired = 0;
    const rearm = (): void => {
      fired++;
      clock.at(clock.now(), rearm, 'rearm');
    };
    clock.at(0, rearm, 'rearm');
    const r = await clock.run({ until: 50 });
    assert.deepEqual([r.reason, r.now, clock.now()], ['until', 50, 50]);
    assert.ok(fired > 50, `the loop kept running while time passed (fired ${fired})`);
  });

  it('reaches `until` although async work keeps scheduling timers at `now` on every turn', async () => {
    const clock = createVirtualClock({ busyTurns: 100 });
    let running = true;
    const spin = (): void => {
      if (!running) return;
      clock.at(clock.now(), () => {}, 'spin');
      setImmediate(spin);
    };
    spin();
    try {
      const r = await clock.run({ until: 20 });
      assert.deepEqual([r.reason, r.now], ['until', 20]);
    } finally {
      running = false;
    }
  });

  it('leaves ordinary instants alone: each timer still drains before the next one fires', async () => {
    const clock = createVirtualClock({ busyTurns: 100 });
    const seen: [string, number][] = [];
    clock.at(10, () => void Promise.resolve().then(() => seen.push(['a-work', clock.now()])), 'a');
    clock.at(10, () => seen.push(['b', clock.now()]), 'b');
    clock.at(30, () => seen.push(['c', clock.now()]), 'c');
    const r = await clock.run({ until: 40 });
    assert.deepEqual(seen, [['a-work', 10], ['b', 10], ['c', 30]]);
    assert.equal(r.now, 40);
  });
});
