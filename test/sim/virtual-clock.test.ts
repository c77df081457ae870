import { describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import { createVirtualClock, StepBudgetError } from '../../src/sim/virtual-clock.js';
import { sleep } from '../../src/runtime/clock.js';

describe('virtual clock: ordering (T3, T4)', () => {
  it('fires timers with the same due time in the order they were scheduled', () => {
    const clock = createVirtualClock();
    const fired: string[] = [];
    for (const name of ['a', 'b', 'c', 'd']) clock.at(100, () => fired.push(name));
    clock.at(50, () => fired.push('early'));
    clock.advanceTo(100);
    assert.deepEqual(fired, ['early', 'a', 'b', 'c', 'd']);
  });

  it('keeps (dueAt, seq) order across many interleaved timers', () => {
    const clock = createVirtualClock();
    const fired: [number, number][] = [];
    for (let i = 0; i < 200; i++) {
      const due = (i * 37) % 20;
      clock.at(due, () => fired.push([due, i]));
    }
    clock.runUntilIdle();
    const sorted = [...fired].sort((x, y) => x[0] - y[0] || x[1] - y[1]);
    assert.deepEqual(fired, sorted);
    assert.equal(fired.length, 200);
  });

  it('runs each task with now equal to its own due time, then sets now to the target', () => {
    const clock = createVirtualClock({ start: 1000 });
    const seen: number[] = [];
    clock.at(1200, () => seen.push(clock.now()));
    clock.at(1500, () => seen.push(clock.now()));
    clock.advanceTo(2000);
    assert.deepEqual(seen, [1200, 1500]);
    assert.equal(clock.now(), 2000);
  });

  it('includes timers scheduled by callbacks when they fall before the target', () => {
    const clock = createVirtualClock();
    const fired: number[] = [];
    clock.at(10, () => {
      fired.push(clock.now());
      clock.at(clock.now() + 10, () => {
        fired.push(clock.now());
        clock.at(clock.now() + 100, () => fired.push(clock.now()));
      });
    });
    clock.advanceTo(50);
    assert.deepEqual(fired, [10, 20]);
    assert.equal(clock.pending(), 1);
    assert.equal(clock.nextDue(), 120);
  });

  it('runs a timer scheduled in the past at the current time, after those already due now', () => {
    const clock = createVirtualClock({ start: 500 });
    const fired: string[] = [];
    clock.at(500, () => fired.push('due-now'));
    clock.at(100, () => fired.push('past'));
    clock.advanceBy(0);
    assert.deepEqual(fired, ['due-now', 'past']);
  });

  it('does not run cancelled timers and does not count them as pending', () => {
    const clock = createVirtualClock();
    const fired: string[] = [];
    const id = clock.at(10, () => fired.push('cancelled'));
    clock.at(20, () => fired.push('kept'));
    clock.cancel(id);
    assert.equal(clock.pending(), 1);
    assert.equal(clock.nextDue(), 20);
    clock.advanceTo(30);
    assert.deepEqual(fired, ['kept']);
  });

  it('lists pending timers with their labels in firing order', () => {
    const clock = createVirtualClock();
    clock.at(30, () => {}, 'lease renew');
    clock.at(10, () => {}, 'requeue web');
    assert.deepEqual(
      clock.pendingItems().map((i) => [i.label, i.dueAt]),
      [
        ['requeue web', 10],
        ['lease renew', 30],
      ],
    );
  });
});

describe('virtual clock: monotonic time (T7)', () => {
  it('throws when asked to go back in time', () => {
    const clock = createVirtualClock({ start: 100 });
    assert.throws(() => clock.advanceTo(99), RangeError);
    assert.throws(() => clock.advanceBy(-1), RangeError);
    assert.equal(clock.now(), 100);
  });

  it('rejects a run whose target is in the past', async () => {
    const clock = createVirtualClock({ start: 100 });
    await assert.rejects(clock.run({ until: 50 }), RangeError);
  });
});

describe('virtual clock: step budget (T6)', () => {
  it('fails a runaway timer loop and names the last scheduled items', () => {
    const clock = createVirtualClock({ stepBudget: 100 });
    const rearm = (): void => void clock.at(clock.now(), rearm, 'hot loop');
    clock.at(0, rearm, 'hot loop');
    assert.throws(
      () => clock.advanceTo(10),
      (e: unknown) => e instanceof StepBudgetError && e.recent.length > 0 && /hot loop/.test(e.message),
    );
  });

  it('counts the budget per call, so a long run of finite work is allowed', () => {
    const clock = createVirtualClock({ stepBudget: 10 });
    let n = 0;
    for (let i = 0; i < 10; i++) clock.at(i, () => n++);
    clock.advanceTo(100);
    for (let i = 0; i < 10; i++) clock.at(200 + i, () => n++);
    clock.advanceTo(300);
    assert.equal(n, 20);
  });
});

describe('virtual clock: drain, then skip (T5)', () => {
  it('lets every promise chain started by a timer finish before the next timer fires', async () => {
    const clock = createVirtualClock();
    const log: string[] = [];
    const chain = async (name: string): Promise<void> => {
      for (let i = 0; i < 5; i++) await Promise.resolve();
      log.push(`${name} done at ${clock.now()}`);
    };
    clock.at(10, () => void chain('first'));
    clock.at(10, () => log.push('second fired'));
    const result = await clock.run({ until: 20 });
    assert.deepEqual(log, ['first done at 10', 'second fired']);
    assert.deepEqual(result, { reason: 'until', now: 20, steps: 2 });
  });

  it('settle() waits for async work that schedules more async work', async () => {
    const clock = createVirtualClock();
    let done = false;
    void (async () => {
      await Promise.resolve();
      await new Promise<void>((r) => queueMicrotask(r));
      await Promise.resolve();
      done = true;
    })();
    await clock.settle();
    assert.equal(done, true);
    assert.equal(clock.now(), 0);
  });

  it('resolves sleep() on the virtual clock during run()', async () => {
    const clock = createVirtualClock();
    const wakes: number[] = [];
    void (async () => {
      for (let i = 0; i < 3; i++) {
        await sleep(clock, 1000);
        wakes.push(clock.now());
      }
    })();
    await clock.run({ until: 10_000 });
    assert.deepEqual(wakes, [1000, 2000, 3000]);
  });

  it('stops as soon as the while predicate turns false, without moving time further', async () => {
    const clock = createVirtualClock();
    let ticks = 0;
    const tick = (): void => {
      ticks++;
      clock.at(clock.now() + 100, tick);
    };
    clock.at(100, tick);
    const result = await clock.run({ until: 10_000, while: () => ticks < 3 });
    assert.equal(result.reason, 'while');
    assert.equal(result.now, 300);
  });

  it('reports idle when nothing is pending and no target was given', async () => {
    const clock = createVirtualClock();
    clock.at(5, () => {});
    const result = await clock.run({ while: () => true });
    assert.deepEqual(result, { reason: 'idle', now: 5, steps: 1 });
  });
});

describe('virtual clock: speed and isolation (T10)', () => {
  it('runs a one-hour schedule of 100 ms ticks without touching real timers', { timeout: 20_000 }, async () => {
    const realTimeout = mock.method(globalThis, 'setTimeout');
    const realInterval = mock.method(globalThis, 'setInterval');
    try {
      const clock = createVirtualClock();
      let ticks = 0;
      const tick = (): void => {
        ticks++;
        void Promise.resolve().then(() => clock.at(clock.now() + 100, tick, 'tick'));
      };
      clock.at(100, tick, 'tick');
      const result = await clock.run({ until: 3_600_000 });
      assert.equal(ticks, 36_000);
      assert.equal(result.now, 3_600_000);
      assert.equal(realTimeout.mock.callCount(), 0);
      assert.equal(realInterval.mock.callCount(), 0);
    } finally {
      realTimeout.mock.restore();
      realInterval.mock.restore();
    }
  });
});
