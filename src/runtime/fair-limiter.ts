// Client-side fairness for one request budget (the one token bucket, token-bucket.ts). Requests wait in one
// FIFO per flow (a StatefulSet's key; '' for the informers and everything else) and each token goes to the
// next flow, round-robin, that has a request waiting: the fair queuing of API Priority and Fairness (one
// queue per flow, dispatched round-robin) on the client side, and what client-go's work queue fairness
// designs do for items. A set that queues 1,000 creates takes one token in N while N flows wait, not all of
// them, and a request whose signal aborts (its set was deleted, the leader stepped down) leaves its queue
// at once. Only one token is reserved at a time, so the flow that gets it is chosen when it is granted.

import type { TimerId, Timers } from './clock.js';
import type { TokenBucket } from './token-bucket.js';

export interface FairLimiter {
  /** Resolves when this request may go; rejects with the signal's reason if it aborts first. */
  acquire(flow: string, signal?: AbortSignal): Promise<void>;
  /** Requests waiting for a token, in one flow or in all. */
  waiting(flow?: string): number;
}

interface Waiter {
  flow: string;
  grant(): void;
  reject(reason: unknown): void;
  signal: AbortSignal | undefined;
}

/** Fair dispatch of `bucket`'s tokens (an unlimited bucket lets every request go at once). */
export function createFairLimiter(bucket: TokenBucket, timers: Timers): FairLimiter {
  return new RoundRobinLimiter(bucket, timers);
}

// upstream: k8s.io/apiserver/pkg/util/flowcontrol/fairqueuing (a queue per flow, round-robin dispatch)
class RoundRobinLimiter implements FairLimiter {
  private readonly queues = new Map<string, Waiter[]>();
  /** Flows with a waiter, in dispatch order; `turn` is the next one's index. */
  private readonly ring: string[] = [];
  private turn = 0;
  /** A reserved token the timer will hand to the next waiter. */
  private timer: TimerId | undefined;
  /** A reserved token nobody was left waiting for (all aborted): the next request takes it. */
  private banked = false;
  /** Waiters by their signal, with one abort listener per signal (a batch of 500 creates shares one). */
  private readonly bySignal = new Map<AbortSignal, Set<Waiter>>();

  constructor(
    private readonly bucket: TokenBucket,
    private readonly timers: Timers,
  ) {}

  acquire(flow: string, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    if (this.timer === undefined && this.ring.length === 0) {
      if (this.banked) {
        this.banked = false;
        return Promise.resolve();
      }
      const wait = this.bucket.reserve();
      if (wait === 0) return Promise.resolve();
      this.arm(wait);
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { flow, grant: resolve, reject, signal };
      if (signal !== undefined) this.watch(signal, waiter);
      this.enqueue(flow, waiter);
    });
  }

  private watch(signal: AbortSignal, waiter: Waiter): void {
    let waiters = this.bySignal.get(signal);
    if (waiters === undefined) {
      const set = new Set<Waiter>();
      waiters = set;
      this.bySignal.set(signal, set);
      signal.addEventListener('abort', () => this.aborted(signal, set), { once: true });
    }
    waiters.add(waiter);
  }

  private unwatch(signal: AbortSignal, waiter: Waiter): void {
    const waiters = this.bySignal.get(signal);
    waiters?.delete(waiter);
    // the listener stays on the signal (it ends with its sync) but finds nobody
    if (waiters?.size === 0) this.bySignal.delete(signal);
  }

  /** Every waiter of `signal` leaves its queue, rejected with the signal's reason. */
  private aborted(signal: AbortSignal, waiters: Set<Waiter>): void {
    if (this.bySignal.get(signal) === waiters) this.bySignal.delete(signal);
    for (const w of waiters) {
      this.remove(w.flow, w);
      w.reject(signal.reason);
    }
  }

  waiting(flow?: string): number {
    if (flow !== undefined) return this.queues.get(flow)?.length ?? 0;
    let n = 0;
    for (const q of this.queues.values()) n += q.length;
    return n;
  }

  private arm(wait: number): void {
    this.timer = this.timers.at(this.timers.now() + wait, () => this.fire(), 'client rate limit');
  }

  /** The reserved token is due: the next flow's first waiter takes it; then reserve one for whoever is left. */
  private fire(): void {
    this.timer = undefined;
    for (;;) {
      const next = this.next();
      if (next === undefined) {
        this.banked = true;
        return;
      }
      next.grant();
      if (this.ring.length === 0) return;
      const wait = this.bucket.reserve();
      if (wait > 0) return this.arm(wait);
    }
  }

  private enqueue(flow: string, waiter: Waiter): void {
    const q = this.queues.get(flow);
    if (q !== undefined) {
      q.push(waiter);
      return;
    }
    this.queues.set(flow, [waiter]);
    // a flow that starts waiting joins the end of the line, behind the flows already served this round (deficit round-robin)
    this.ring.splice(this.turn, 0, flow);
    this.turn = (this.turn + 1) % this.ring.length;
  }

  private next(): Waiter | undefined {
    if (this.ring.length === 0) return undefined;
    this.turn %= this.ring.length;
    const flow = this.ring[this.turn]!;
    const q = this.queues.get(flow)!;
    const waiter = q.shift()!;
    if (waiter.signal !== undefined) this.unwatch(waiter.signal, waiter);
    if (q.length === 0) this.dropFlow(flow);
    else this.turn = (this.turn + 1) % this.ring.length;
    return waiter;
  }

  private remove(flow: string, waiter: Waiter): void {
    const q = this.queues.get(flow);
    const i = q?.indexOf(waiter) ?? -1;
    if (q === undefined || i < 0) return;
    q.splice(i, 1);
    if (q.length === 0) this.dropFlow(flow);
  }

  private dropFlow(flow: string): void {
    this.queues.delete(flow);
    const i = this.ring.indexOf(flow);
    this.ring.splice(i, 1);
    if (i < this.turn) this.turn--;
    if (this.ring.length === 0) this.turn = 0;
    else this.turn %= this.ring.length;
  }
}
