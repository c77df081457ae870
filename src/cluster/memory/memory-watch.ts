// One open watch: delivers events on the injected Timers (never synchronously), in resourceVersion order,
// optionally late, lossy or cut short for reliability tests. Once ended it delivers nothing more.

import type { WatchHandlers } from '../../api/client.js';
import type { KubeObject } from '../../api/types.js';
import type { TimerId, Timers } from '../../runtime/clock.js';
import type { WorkCounters } from '../../runtime/work-counters.js';
import type { LoggedEvent } from './watch-log.js';

export interface StreamFaults {
  delayMs: number;
  dropRate: number;
  /** The stream ends (onClose without error) this long after it opened. */
  breakAfterMs?: number;
}

export interface StreamDeps {
  identity: string;
  timers: Timers;
  random: () => number;
  namespace: string | undefined;
  handlers: WatchHandlers<KubeObject>;
  faults: StreamFaults;
  counters?: WorkCounters;
  /** Unregisters the stream from its hub. */
  detach(stream: WatchStream): void;
}

export class WatchStream {
  private readonly pending = new Set<TimerId>();
  private breakTimer: TimerId | undefined;
  private ended = false;

  constructor(private readonly deps: StreamDeps) {}

  get identity(): string {
    return this.deps.identity;
  }

  /** Schedules the replayed (or synthetic) events and the periodic break. */
  begin(initial: LoggedEvent[]): void {
    const { breakAfterMs } = this.deps.faults;
    if (breakAfterMs !== undefined) {
      const { timers } = this.deps;
      this.breakTimer = timers.at(timers.now() + breakAfterMs, () => this.end(), `watch break ${this.deps.identity}`);
    }
    for (const e of initial) this.push(e);
  }

  push(event: LoggedEvent): void {
    if (this.ended) return;
    if (this.deps.namespace !== undefined && event.namespace !== this.deps.namespace) return;
    const { timers, random, faults } = this.deps;
    if (faults.dropRate > 0 && random() < faults.dropRate) return;
    const id = timers.at(
      timers.now() + faults.delayMs,
      () => {
        this.pending.delete(id);
        this.deps.counters?.count('watch.deliveries');
        this.deps.handlers.onEvent({ type: event.type, object: event.object }); // shared, read-only (commit-log.ts)
      },
      `watch event ${this.deps.identity}`,
    );
    this.pending.add(id);
  }

  /** Server-side end: undelivered events are lost and onClose(error) follows on the timers. */
  end(error?: Error): void {
    if (this.ended) return;
    this.shutDown();
    const { timers } = this.deps;
    timers.at(timers.now(), () => this.deps.handlers.onClose(error), `watch close ${this.deps.identity}`);
  }

  /** Client-side stop: nothing more is delivered, onClose is not called. */
  stop(): void {
    if (!this.ended) this.shutDown();
  }

  private shutDown(): void {
    this.ended = true;
    for (const id of this.pending) this.deps.timers.cancel(id);
    this.pending.clear();
    if (this.breakTimer !== undefined) this.deps.timers.cancel(this.breakTimer);
    this.deps.detach(this);
  }
}
