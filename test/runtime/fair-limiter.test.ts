import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createFairLimiter, type FairLimiter } from '../../src/runtime/fair-limiter.js';
import { createTokenBucket } from '../../src/runtime/token-bucket.js';
import { createVirtualClock, type VirtualClock } from '../../src/sim/virtual-clock.js';

function limiter(clock: VirtualClock, qps: number, burst: number): FairLimiter {
  return createFairLimiter(createTokenBucket({ qps, burst, clock }), clock);
}

/** Queues `n` requests of `flow`, recording `flow@time` as each is let through. */
function queue(l: FairLimiter, clock: VirtualClock, log: string[], flow: string, n: number, signal?: AbortSignal): Promise<unknown>[] {
  return Array.from({ length: n }, () => l.acquire(flow, signal).then(() => log.push(`${flow}@${clock.now()}`)));
}

describe('fair limiter', () => {
  it('lets every request go at once when the budget is unlimited', async () => {
    const clock = createVirtualClock();
    const l = limiter(clock, 0, 0);
    const log: string[] = [];
    await Promise.all(queue(l, clock, log, 'a', 100));
    assert.equal(log.length, 100);
    assert.equal(clock.pending(), 0);
  });

  it('spends the burst at once, then one token per 1/qps', async () => {
    const clock = createVirtualClock();
    const l = limiter(clock, 10, 2);
    const log: string[] = [];
    const all = queue(l, clock, log, 'a', 5);
    await clock.run({ until: 1_000 });
    await Promise.all(all);
    assert.deepEqual(log, ['a@0', 'a@0', 'a@100', 'a@200', 'a@300']);
  });

  it('gives each flow with requests waiting a token in turn: a flow of many does not hold up a flow of few', async () => {
    const clock = createVirtualClock();
    const l = limiter(clock, 10, 1);
    const log: string[] = [];
    const huge = queue(l, clock, log, 'huge', 10);
    await clock.run({ until: 50 });
    const small = queue(l, clock, log, 'small', 2);
    await clock.run({ until: 2_000 });
    await Promise.all([...huge, ...small]);
    assert.deepEqual(log.slice(0, 6), ['huge@0', 'huge@100', 'small@200', 'huge@300', 'small@400', 'huge@500']);
    assert.equal(log.length, 12);
    assert.equal(log.at(-1), 'huge@1100', 'the budget as a whole still runs at qps');
  });

  it('puts a flow that starts waiting at the end of the line of flows, as deficit round-robin does', async () => {
    const clock = createVirtualClock();
    const l = limiter(clock, 10, 1);
    const log: string[] = [];
    const first = [...queue(l, clock, log, 'x', 1), ...queue(l, clock, log, 'a', 3), ...queue(l, clock, log, 'b', 3)];
    await clock.run({ until: 150 });
    const late = queue(l, clock, log, 'c', 2);
    await clock.run({ until: 2_000 });
    await Promise.all([...first, ...late]);
    // at 150 the line is b (not served yet), then a (served at 100): c joins behind them
    assert.deepEqual(log, ['x@0', 'a@100', 'b@200', 'a@300', 'c@400', 'b@500', 'a@600', 'c@700', 'b@800']);
  });

  it('drops a flow\'s waiting requests at once when their signal aborts, and the next flow gets the token', async () => {
    const clock = createVirtualClock();
    const l = limiter(clock, 10, 1);
    const log: string[] = [];
    const deleted = new AbortController();
    const gone = queue(l, clock, log, 'gone', 5, deleted.signal).map((p) => p.catch((e: Error) => log.push(`refused ${e.message}`)));
    const kept = queue(l, clock, log, 'kept', 2);
    await clock.run({ until: 150 });
    deleted.abort(new Error('set deleted'));
    await clock.settle();
    assert.equal(l.waiting('gone'), 0);
    assert.equal(log.filter((e) => e === 'refused set deleted').length, 3, 'the three still waiting');
    await clock.run({ until: 1_000 });
    await Promise.all([...gone, ...kept]);
    assert.deepEqual(log.filter((e) => e.includes('@')), ['gone@0', 'gone@100', 'kept@200', 'kept@300']);
  });

  it('keeps a reserved token whose waiters all left for the next request', async () => {
    const clock = createVirtualClock();
    const l = limiter(clock, 10, 1);
    const log: string[] = [];
    await Promise.all(queue(l, clock, log, 'a', 1));
    const stop = new AbortController();
    const left = queue(l, clock, log, 'a', 1, stop.signal).map((p) => p.catch(() => undefined));
    stop.abort(new Error('stop'));
    await clock.run({ until: 500 });
    await Promise.all(left);
    await Promise.all(queue(l, clock, log, 'b', 1));
    assert.deepEqual(log, ['a@0', 'b@500']);
    assert.equal(clock.pending(), 0);
  });

  it('refuses a request whose signal has already aborted', async () => {
    const clock = createVirtualClock();
    const l = limiter(clock, 10, 1);
    const stop = new AbortController();
    stop.abort(new Error('gone'));
    await assert.rejects(l.acquire('a', stop.signal), /gone/);
  });
});
