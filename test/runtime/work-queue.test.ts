import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { WorkQueue } from '../../src/runtime/work-queue.js';
import { ItemExponentialRateLimiter } from '../../src/runtime/rate-limiter.js';
import { createWorkQueueMetrics } from '../../src/runtime/workqueue-metrics.js';
import { createVirtualClock } from '../../src/sim/virtual-clock.js';

const newQueue = (clock = createVirtualClock()) => ({ clock, q: new WorkQueue<string>({ timers: clock }) });

/** Resolves to the value if the promise settles within the current microtask drain, else 'pending'. */
async function peek<T>(p: Promise<T>): Promise<T | 'pending'> {
  return Promise.race([p, new Promise<'pending'>((r) => setImmediate(() => r('pending')))]);
}

describe('work queue: client-go properties', () => {
  it('is fair: hands out keys in the order they were added', async () => {
    const { q } = newQueue();
    for (const k of ['c', 'a', 'b']) q.add(k);
    assert.deepEqual([await q.get(), await q.get(), await q.get()], ['c', 'a', 'b']);
  });

  it('is stingy: a key added several times before processing is processed once', async () => {
    const { q } = newQueue();
    q.add('a');
    q.add('b');
    q.add('a');
    assert.equal(q.len(), 2);
    assert.equal(await q.get(), 'a');
    assert.equal(await q.get(), 'b');
    assert.equal(await peek(q.get()), 'pending');
  });

  it('never hands a key to a second worker while it is processing', async () => {
    const { q } = newQueue();
    q.add('a');
    assert.equal(await q.get(), 'a');
    q.add('a');
    assert.equal(q.len(), 0);
    assert.equal(await peek(q.get()), 'pending');
  });

  it('processes a key again after done when it was re-added while processing', async () => {
    const { q } = newQueue();
    q.add('a');
    const first = await q.get();
    q.add('a');
    const second = q.get();
    assert.equal(await peek(second), 'pending');
    q.done(first!);
    assert.equal(await second, 'a');
  });

  it('wakes a waiting worker when a key is added', async () => {
    const { q } = newQueue();
    const waiting = q.get();
    q.add('x');
    assert.equal(await waiting, 'x');
  });

  it('ignores adds after shutdown, still hands out queued keys, then returns undefined', async () => {
    const { q } = newQueue();
    q.add('a');
    await q.shutDown();
    q.add('b');
    assert.equal(await q.get(), 'a');
    assert.equal(await q.get(), undefined);
  });

  it('releases idle workers on shutdown', async () => {
    const { q } = newQueue();
    const waiting = q.get();
    await q.shutDown();
    assert.equal(await waiting, undefined);
  });

  it('drains: shutDown({ drain: true }) resolves only when every key handed out is done', async () => {
    const { q } = newQueue();
    q.add('a');
    const key = await q.get();
    const drained = q.shutDown({ drain: true });
    assert.equal(await peek(drained), 'pending');
    q.done(key!);
    assert.equal(await drained, undefined);
  });
});

describe('work queue: delays on the injected clock', () => {
  it('adds a key after the delay has passed, not before', async () => {
    const { clock, q } = newQueue();
    q.addAfter('a', 1000);
    clock.advanceTo(999);
    assert.equal(q.len(), 0);
    clock.advanceTo(1000);
    assert.equal(q.len(), 1);
    assert.equal(await q.get(), 'a');
  });

  it('keeps the earlier ready time when a key is delayed twice', () => {
    const { clock, q } = newQueue();
    q.addAfter('a', 5000);
    q.addAfter('a', 1000);
    q.addAfter('a', 3000);
    assert.equal(q.delayedCount(), 1);
    assert.equal(clock.pending(), 1);
    clock.advanceTo(1000);
    assert.equal(q.len(), 1);
    clock.advanceTo(10_000);
    assert.equal(q.len(), 1);
  });

  it('adds at once when the delay is zero or negative', () => {
    const { q } = newQueue();
    q.addAfter('a', 0);
    q.addAfter('b', -5);
    assert.equal(q.len(), 2);
  });

  it('cancels delayed adds on shutdown so no timer is left behind', async () => {
    const { clock, q } = newQueue();
    q.addAfter('a', 1000);
    await q.shutDown();
    assert.equal(clock.pending(), 0);
  });

  it('backs off rate-limited retries per key and resets after forget', () => {
    const clock = createVirtualClock();
    const q = new WorkQueue<string>({ timers: clock, rateLimiter: new ItemExponentialRateLimiter<string>({ baseMs: 5, capMs: 1000, jitter: 0 }) });
    q.addRateLimited('a');
    q.addRateLimited('a'); // already waiting with an earlier time: the earlier one wins
    assert.equal(q.numRequeues('a'), 2);
    assert.equal(clock.nextDue(), 5);
    q.forget('a');
    assert.equal(q.numRequeues('a'), 0);
  });
});

describe('work queue: metrics', () => {
  it('reports depth, adds, retries and durations measured on the injected clock', async () => {
    const clock = createVirtualClock({ start: 10_000 });
    const registry = new Registry();
    const metrics = createWorkQueueMetrics<string>(registry, 'statefulset', clock);
    const q = new WorkQueue<string>({ timers: clock, metrics });
    q.add('a');
    q.add('b');
    q.add('a');
    clock.advanceBy(2000);
    const key = await q.get();
    clock.advanceBy(500);
    q.done(key!);
    q.addRateLimited('c');
    const json = await registry.getMetricsAsJSON();
    const value = (name: string, suffix = name) =>
      json.find((m) => m.name === name)?.values.find((v) => (v as { metricName?: string }).metricName === suffix || suffix === name)?.value;
    assert.equal(value('workqueue_depth'), 1);
    assert.equal(value('workqueue_adds_total'), 2);
    assert.equal(value('workqueue_retries_total'), 1);
    assert.equal(value('workqueue_queue_duration_seconds', 'workqueue_queue_duration_seconds_sum'), 2);
    assert.equal(value('workqueue_work_duration_seconds', 'workqueue_work_duration_seconds_sum'), 0.5);
    const text = await registry.metrics();
    assert.match(text, /workqueue_depth\{name="statefulset"\} 1/);
  });
});
