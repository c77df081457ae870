import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  BucketRateLimiter,
  defaultControllerRateLimiter,
  ItemExponentialRateLimiter,
} from '../../src/runtime/rate-limiter.js';
import { createVirtualClock } from '../../src/sim/virtual-clock.js';

describe('rate limiter: per-item exponential backoff', () => {
  it('doubles from 5 ms and caps at 1000 s', () => {
    const l = new ItemExponentialRateLimiter<number>();
    const nth = (n: number) => {
      for (let i = 0; i < n; i++) l.when(n);
      return l.when(n);
    };
    assert.deepEqual([0, 1, 2, 3, 10].map(nth), [5, 10, 20, 40, 5120]);
    assert.equal(nth(17), 655_360);
    assert.equal(nth(18), 1_000_000);
    assert.equal(nth(100), 1_000_000);
  });

  it('counts failures per key and forgets them on success', () => {
    const l = new ItemExponentialRateLimiter<string>();
    assert.deepEqual([l.when('a'), l.when('a'), l.when('b'), l.when('a')], [5, 10, 5, 20]);
    assert.equal(l.numRequeues('a'), 3);
    l.forget('a');
    assert.equal(l.numRequeues('a'), 0);
    assert.equal(l.when('a'), 5);
  });
});

describe('rate limiter: overall token bucket on the injected clock', () => {
  it('lets a burst of 100 through, then one every 100 ms at 10 qps', () => {
    const clock = createVirtualClock({ start: 1_000_000 });
    const l = new BucketRateLimiter<string>(clock, 10, 100);
    for (let i = 0; i < 100; i++) assert.equal(l.when(`k${i}`), 0, `token ${i}`);
    assert.equal(l.when('x'), 100);
    assert.equal(l.when('y'), 200);
  });

  it('refills as virtual time passes', () => {
    const clock = createVirtualClock();
    const l = new BucketRateLimiter<string>(clock, 10, 100);
    for (let i = 0; i < 100; i++) l.when('k');
    clock.advanceBy(1000);
    for (let i = 0; i < 10; i++) assert.equal(l.when('k'), 0);
    assert.equal(l.when('k'), 100);
  });
});

describe('rate limiter: default controller limiter', () => {
  it('returns the larger of the per-item and bucket delays', () => {
    const clock = createVirtualClock();
    const l = defaultControllerRateLimiter<string>(clock);
    assert.equal(l.when('a'), 5);
    for (let i = 0; i < 99; i++) l.when(`other${i}`);
    // 100 tokens used; the next reservation waits 100 ms, more than a's second backoff of 10 ms.
    assert.equal(l.when('a'), 100);
    assert.equal(l.numRequeues('a'), 2);
  });
});
