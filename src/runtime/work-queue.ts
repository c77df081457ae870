// client-go's rate-limited delaying work queue, contract copied literally.

import type { TimerId, Timers } from './clock.js';
import { defaultControllerRateLimiter, type RateLimiter } from './rate-limiter.js';

/** Hooks the queue calls at client-go's metric points; see workqueue-metrics.ts. */
export interface WorkQueueMetrics<K> {
  add(key: K): void;
  get(key: K): void;
  done(key: K): void;
  retry(): void;
}

export interface WorkQueueOptions<K> {
  timers: Timers;
  rateLimiter?: RateLimiter<K>;
  metrics?: WorkQueueMetrics<K>;
}

/**
 * A work queue with client-go's properties (util/workqueue/doc.go):
 * - Fair: items are processed in the order in which they are added.
 * - Stingy: an item added several times before it is processed is processed once.
 * - One worker per item: an item is never handed out again while it is processing (between get and done).
 * - Re-add while processing: an item added during processing is processed again after `done`.
 * - Shutdown: after `shutDown`, adds are ignored; `get` keeps handing out queued items and then resolves
 *   `undefined`; `shutDown({ drain: true })` also waits until every item handed out is done.
 * - Delays (`addAfter`, `addRateLimited`) run on the injected Timers; a key waiting with an earlier ready
 *   time keeps it. No timer or loop starts in the constructor (G12).
 */
// upstream: client-go/util/workqueue queue.go Typed, delaying_queue.go, rate_limiting_queue.go
export class WorkQueue<K> {
  private readonly queue: K[] = [];
  private head = 0;
  private readonly dirty = new Set<K>();
  private readonly processing = new Set<K>();
  private readonly waiters: ((key: K | undefined) => void)[] = [];
  private readonly waiting = new Map<K, { at: number; timer: TimerId }>();
  private readonly drained: (() => void)[] = [];
  private shuttingDown = false;
  private readonly timers: Timers;
  private readonly limiter: RateLimiter<K>;
  private readonly metrics: WorkQueueMetrics<K> | undefined;

  constructor(opts: WorkQueueOptions<K>) {
    this.timers = opts.timers;
    this.limiter = opts.rateLimiter ?? defaultControllerRateLimiter<K>(opts.timers);
    this.metrics = opts.metrics;
  }

  /** Marks `key` as needing processing. */
  add(key: K): void {
    if (this.shuttingDown || this.dirty.has(key)) return;
    this.metrics?.add(key);
    this.dirty.add(key);
    if (this.processing.has(key)) return;
    this.queue.push(key);
    this.signal();
  }

  /** Adds `key` once `ms` have passed on the injected clock (at once when ms ≤ 0). */
  addAfter(key: K, ms: number): void {
    if (this.shuttingDown) return;
    if (ms <= 0) {
      this.add(key);
      return;
    }
    const at = this.timers.now() + ms;
    const prev = this.waiting.get(key);
    if (prev !== undefined) {
      if (prev.at <= at) return;
      this.timers.cancel(prev.timer);
    }
    const timer = this.timers.at(at, () => this.fire(key), `workqueue ${String(key)}`);
    this.waiting.set(key, { at, timer });
  }

  /** Adds `key` after the rate limiter's delay for it; counts a retry. */
  addRateLimited(key: K): void {
    this.metrics?.retry();
    this.addAfter(key, this.limiter.when(key));
  }

  /** The key succeeded: reset its failure count. It does not remove the key from the queue. */
  forget(key: K): void {
    this.limiter.forget(key);
  }

  numRequeues(key: K): number {
    return this.limiter.numRequeues(key);
  }

  /** Next key to process, or undefined once shut down and empty. Call `done(key)` when finished. */
  get(): Promise<K | undefined> {
    if (this.length() > 0) return Promise.resolve(this.pop());
    if (this.shuttingDown) return Promise.resolve(undefined);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Processing of `key` finished; if it was added meanwhile, it is queued again. */
  done(key: K): void {
    this.metrics?.done(key);
    this.processing.delete(key);
    if (this.dirty.has(key)) {
      this.queue.push(key);
      this.signal();
    }
    if (this.processing.size === 0) for (const resolve of this.drained.splice(0)) resolve();
  }

  /** Number of keys ready to be handed out (not counting ones processing or waiting on a delay). */
  len(): number {
    return this.length();
  }

  /** Keys handed out and not yet done. */
  processingCount(): number {
    return this.processing.size;
  }

  /** Keys waiting for an `addAfter`/`addRateLimited` delay. */
  delayedCount(): number {
    return this.waiting.size;
  }

  isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  /** Ignores further adds, cancels delays and releases idle getters; with `drain`, waits for in-flight keys. */
  shutDown(opts: { drain?: boolean } = {}): Promise<void> {
    this.shuttingDown = true;
    for (const { timer } of this.waiting.values()) this.timers.cancel(timer);
    this.waiting.clear();
    if (this.length() === 0) for (const resolve of this.waiters.splice(0)) resolve(undefined);
    if (!opts.drain || this.processing.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.drained.push(resolve));
  }

  private fire(key: K): void {
    this.waiting.delete(key);
    this.add(key);
  }

  private length(): number {
    return this.queue.length - this.head;
  }

  private pop(): K {
    const key = this.queue[this.head] as K;
    this.head++;
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
    this.metrics?.get(key);
    this.processing.add(key);
    this.dirty.delete(key);
    return key;
  }

  private signal(): void {
    while (this.waiters.length > 0 && this.length() > 0) this.waiters.shift()!(this.pop());
  }
}
