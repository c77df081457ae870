// Deterministic virtual time. Timers fire in (dueAt, seq) order from a binary heap (T3);
// `advanceTo` sets `now` to each item's dueAt before running it and only then to the target (T4, unlike
// XState's SimulatedClock, A7); time never goes back (T7); every advance has a step budget whose error
// names the most recently scheduled items (T6). `settle()`/`run()` implement "drain, then skip" (T5), with
// a busy budget per instant so that work that never goes idle cannot hold virtual time still (see run()).

import type { Instant } from '../api/types.js';
import type { TimerId, Timers } from '../runtime/clock.js';

export interface VirtualClockOptions {
  /** Initial `now` (default 0). */
  start?: Instant;
  /** Most timers one advanceTo/advanceBy/runUntilIdle/run call may fire (default 1,000,000). */
  stepBudget?: number;
  /** Event-loop turns run() lets one instant take before busy work starts to cost virtual time (default 10,000). */
  busyTurns?: number;
}

export interface ScheduledItem {
  seq: number;
  dueAt: Instant;
  label: string;
  /** `now` when the item was scheduled. */
  scheduledAt: Instant;
}

export interface RunOptions {
  /** Stop once every timer due at or before this instant has fired; `now` ends exactly here. */
  until?: Instant;
  /** Keep going while this holds; checked after the ready work has drained, before each timer fires. */
  while?: () => boolean;
}

export interface RunResult {
  /** `until`: the target time was reached; `while`: the predicate turned false; `idle`: nothing left to run. */
  reason: 'until' | 'while' | 'idle';
  now: Instant;
  /** Timers fired during this run. */
  steps: number;
}

export interface VirtualClock extends Timers {
  /**
   * Fires every timer due ≤ t in (dueAt, seq) order, then sets now = t. Throws RangeError if t < now,
   * StepBudgetError on a runaway loop, and rethrows a task's error (now stays at that task's dueAt).
   */
  advanceTo(t: Instant): void;
  advanceBy(ms: number): void;
  /** Fires timers until none is pending (including ones scheduled by the fired tasks). */
  runUntilIdle(): void;
  /** The dueAt of the earliest pending timer. */
  nextDue(): Instant | undefined;
  /** How many timers are pending (scheduled, not fired, not cancelled). */
  pending(): number;
  /** Pending timers in firing order (for stall diagnosis). */
  pendingItems(): ScheduledItem[];
  /** Resolves once promise chains started so far have run out of work; `now` does not move. */
  settle(): Promise<void>;
  /**
   * Alternates settle() and firing the earliest due timer, one at a time, so each timer's effects drain first;
   * once one instant has taken `busyTurns` turns, each further turn with work still going costs 1 ms.
   */
  run(opts?: RunOptions): Promise<RunResult>;
}

/** Thrown when one call fires more timers than the step budget: usually a timer that re-arms itself at `now`. */
export class StepBudgetError extends Error {
  override name = 'StepBudgetError';
  constructor(
    readonly budget: number,
    readonly recent: ScheduledItem[],
  ) {
    const list = recent.map((i) => `  #${i.seq} ${i.label} due ${i.dueAt} (scheduled at ${i.scheduledAt})`).join('\n');
    super(`virtual clock: step budget of ${budget} timers exceeded; last scheduled:\n${list}`);
  }
}

/** Thrown by settle() when async work keeps producing more work (the event loop never goes quiet). */
export class SettleBudgetError extends Error {
  override name = 'SettleBudgetError';
}

interface Entry extends ScheduledItem {
  task: () => void;
  cancelled: boolean;
}

const RECENT = 10;
const SETTLE_TURNS = 10_000;
/** Virtual time one event-loop turn of work costs once an instant has used up its busy budget. */
const BUSY_TURN_MS = 1;

const before = (a: Entry, b: Entry): boolean => a.dueAt < b.dueAt || (a.dueAt === b.dueAt && a.seq < b.seq);

/** A binary min-heap on (dueAt, seq): a total order, so ties fire in scheduling order (T3). */
class TimerHeap {
  private readonly items: Entry[] = [];

  get size(): number {
    return this.items.length;
  }

  peek(): Entry | undefined {
    return this.items[0];
  }

  push(e: Entry): void {
    const a = this.items;
    a.push(e);
    let i = a.length - 1;
    // sift up without swapping: move parents down, then place `e` once
    while (i > 0) {
      const p = (i - 1) >> 1;
      const parent = a[p]!;
      if (!before(e, parent)) break;
      a[i] = parent;
      i = p;
    }
    a[i] = e;
  }

  pop(): Entry | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last !== undefined) {
      a[0] = last;
      this.siftDown(0);
    }
    return top;
  }

  toSortedArray(): Entry[] {
    return [...this.items].sort((x, y) => x.dueAt - y.dueAt || x.seq - y.seq);
  }

  private siftDown(start: number): void {
    const a = this.items;
    const e = a[start]!;
    let i = start;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let at = i;
      if (l < a.length && before(a[l]!, e)) at = l;
      if (r < a.length && before(a[r]!, at === i ? e : a[l]!)) at = r;
      if (at === i) break;
      a[i] = a[at]!;
      i = at;
    }
    a[i] = e;
  }
}

// setImmediate runs after the microtask queue is empty, so one turn drains every promise chain that does
// not wait on real I/O. This is the one place in the simulation that uses a real macrotask, and it never
// lets time pass: it only waits for the in-process API server, kubelet and controller to run out of work.
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export function createVirtualClock(opts: VirtualClockOptions = {}): VirtualClock {
  return new SimulatedTimers(opts.start ?? 0, opts.stepBudget ?? 1_000_000, opts.busyTurns ?? SETTLE_TURNS);
}

class SimulatedTimers implements VirtualClock {
  private readonly heap = new TimerHeap();
  private readonly live = new Map<TimerId, Entry>();
  private readonly recent: ScheduledItem[] = [];
  private seq = 0;
  /** Bumped by every schedule, cancel and fire: settle() waits until it stops moving. */
  private activity = 0;
  /** Turns run() has spent since time last moved on because the work was idle. */
  private turnsHere = 0;

  constructor(
    private current: Instant,
    private readonly budget: number,
    private readonly busyTurns: number,
  ) {}

  now = (): Instant => this.current;

  at = (when: Instant, task: () => void, label = 'timer'): TimerId => {
    const id = ++this.seq;
    const dueAt = Math.max(when, this.current);
    const e: Entry = { seq: id, dueAt, label, scheduledAt: this.current, task, cancelled: false };
    this.heap.push(e);
    this.live.set(id, e);
    // (the entry itself: StepBudgetError prints its ScheduledItem fields only)
    this.recent.push(e);
    if (this.recent.length > RECENT) this.recent.shift();
    this.activity++;
    return id;
  };

  cancel = (id: TimerId): void => {
    const e = this.live.get(id);
    if (e === undefined) return;
    e.cancelled = true;
    this.live.delete(id);
    this.activity++;
  };

  advanceTo(t: Instant): void {
    this.checkForward(t);
    let steps = 0;
    for (let e = this.prune(); e !== undefined && e.dueAt <= t; e = this.prune()) {
      this.guard(++steps);
      this.fireNext();
    }
    this.current = t;
  }

  advanceBy(ms: number): void {
    this.advanceTo(this.current + ms);
  }

  runUntilIdle(): void {
    let steps = 0;
    while (this.prune() !== undefined) {
      this.guard(++steps);
      this.fireNext();
    }
  }

  nextDue(): Instant | undefined {
    return this.prune()?.dueAt;
  }

  pending(): number {
    return this.live.size;
  }

  pendingItems(): ScheduledItem[] {
    return this.heap
      .toSortedArray()
      .filter((e) => !e.cancelled)
      .map(({ seq, dueAt, label, scheduledAt }) => ({ seq, dueAt, label, scheduledAt }));
  }

  async settle(): Promise<void> {
    for (let turn = 0; turn < SETTLE_TURNS; turn++) {
      const mark = this.activity;
      await nextTurn();
      if (this.activity === mark) return;
    }
    throw new SettleBudgetError(`virtual clock: async work did not settle within ${SETTLE_TURNS} turns`);
  }

  // Virtual work costs no virtual time, so work that keeps producing work (each sync's writes enqueueing the
  // next sync at once, as when creating 1,000 pods per sync towards replicas: 2147483647) would hold time at
  // one instant for ever — and its own timers (watch deliveries) are all due at that instant too — so `until`
  // (the simulator's endSeconds) would never come. Real time passes while a controller is busy: once one
  // instant has taken `busyTurns` turns, every further turn with work still going (or timers still due)
  // costs BUSY_TURN_MS of virtual time, and the timers due by then fire. Ordinary instants are done within
  // a few hundred turns, so they are unaffected; a run that never goes idle still reaches `until`. What
  // bounds the work itself is the in-memory API server's object limit.
  async run(opts: RunOptions = {}): Promise<RunResult> {
    const { until } = opts;
    const cond = opts.while ?? (() => true);
    if (until !== undefined) this.checkForward(until);
    let steps = 0;
    for (;;) {
      const quiet = await this.drain();
      if (!cond()) return { reason: 'while', now: this.current, steps };
      const due = this.nextDue();
      const busy = this.turnsHere >= this.busyTurns && (!quiet || (due !== undefined && due <= this.current));
      if (busy) {
        const tick = until === undefined ? this.current + BUSY_TURN_MS : Math.min(until, this.current + BUSY_TURN_MS);
        steps = this.fireDueBy(tick, steps);
        this.current = Math.max(this.current, tick);
        if (this.current === until) return { reason: 'until', now: until, steps };
        continue;
      }
      if (due === undefined || (until !== undefined && due > until)) {
        if (until === undefined) return { reason: 'idle', now: this.current, steps };
        this.current = until;
        this.turnsHere = 0;
        return { reason: 'until', now: until, steps };
      }
      if (due > this.current) this.turnsHere = 0;
      this.guard(++steps);
      this.fireNext();
    }
  }

  /**
   * settle() within the instant's busy budget; false if the work is still going. Once the budget is spent,
   * one turn per call, so busy time advances one turn at a time.
   */
  private async drain(): Promise<boolean> {
    do {
      const mark = this.activity;
      await nextTurn();
      this.turnsHere++;
      if (this.activity === mark) return true;
    } while (this.turnsHere < this.busyTurns);
    return false;
  }

  /** Fires the timers scheduled so far that are due by `t` (not the ones they schedule: those wait a turn). */
  private fireDueBy(t: Instant, steps: number): number {
    const last = this.seq;
    let n = steps;
    for (let e = this.prune(); e !== undefined && e.dueAt <= t && e.seq <= last; e = this.prune()) {
      this.guard(++n);
      this.fireNext();
    }
    return n;
  }

  private prune(): Entry | undefined {
    while (this.heap.peek()?.cancelled) this.heap.pop();
    return this.heap.peek();
  }

  private fireNext(): void {
    const e = this.prune();
    if (e === undefined) return;
    this.heap.pop();
    this.live.delete(e.seq);
    // busy time may have run ahead of a timer that was due earlier: time never goes back (T7)
    this.current = Math.max(this.current, e.dueAt);
    this.activity++;
    e.task();
  }

  private guard(steps: number): void {
    if (steps > this.budget) throw new StepBudgetError(this.budget, [...this.recent]);
  }

  private checkForward(t: Instant): void {
    if (!Number.isFinite(t)) throw new RangeError(`virtual clock: cannot advance to ${t}`);
    if (t < this.current) {
      throw new RangeError(`virtual clock: time is monotonic; cannot go back from ${this.current} to ${t}`);
    }
  }
}
