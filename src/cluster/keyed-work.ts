// Work by key for the simulated actors beside the kubelet (the storage actor, the disruption controller): one
// run of a key at a time, a key that changes meanwhile runs once more afterwards, and a key can ask to run
// again at an instant (the earliest instant asked for wins).

import type { Instant } from '../api/types.js';
import type { TimerId, Timers } from '../runtime/clock.js';

export class KeyedWork {
  private readonly busy = new Set<string>();
  private readonly dirty = new Set<string>();
  private readonly wakes = new Map<string, { at: Instant; id: TimerId }>();

  /** `label` names the timers (the virtual clock's traces). */
  constructor(
    private readonly timers: Timers,
    private readonly label: string,
    private readonly run: (key: string) => Promise<void>,
  ) {}

  /** Runs `key` now, or once more after the run under way. */
  enqueue(key: string): void {
    if (this.busy.has(key)) {
      this.dirty.add(key);
      return;
    }
    this.busy.add(key);
    void this.run(key).finally(() => {
      this.busy.delete(key);
      if (this.dirty.delete(key)) this.enqueue(key);
    });
  }

  /** Runs `key` at `at`, unless it is already due to run no later. */
  wakeAt(key: string, at: Instant): void {
    const known = this.wakes.get(key);
    if (known && known.at <= at) return;
    if (known) this.timers.cancel(known.id);
    const id = this.timers.at(at, () => {
      this.wakes.delete(key);
      this.enqueue(key);
    }, this.label);
    this.wakes.set(key, { at, id });
  }

  /** Cancels every wake-up. */
  stop(): void {
    for (const w of this.wakes.values()) this.timers.cancel(w.id);
    this.wakes.clear();
  }
}
