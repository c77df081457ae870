// A bounded, per-resource history of watch events. A watch may resume from any resourceVersion at or
// after `compactedRevision`; older ones get 410 Gone, as from an etcd compaction or a full watch cache.
// The window is the last `capacity` events, kept as an array and a start offset: dropping the oldest event
// moves the offset (the array is cut down once the dropped part is as long as the window), so an append
// costs O(1), not a shift of the whole window.

import type { KubeObject } from '../../api/types.js';

export interface LoggedEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  revision: number;
  namespace: string | undefined;
  object: KubeObject;
}

export class WatchLog {
  private events: LoggedEvent[] = [];
  /** Where the window starts in `events`. */
  private start = 0;
  /** The newest revision no longer in the history (0: nothing was ever dropped). */
  private compactedRevision = 0;

  constructor(private readonly capacity: number) {}

  append(event: LoggedEvent): void {
    this.events.push(event);
    if (this.events.length - this.start > this.capacity) {
      this.start = this.events.length - this.capacity;
      this.compactedRevision = this.events[this.start - 1]!.revision;
      if (this.start >= this.capacity) {
        this.events = this.events.slice(this.start);
        this.start = 0;
      }
    }
  }

  /** Events after `revision` (exclusive), or `undefined` when some of them are no longer retained. */
  since(revision: number): LoggedEvent[] | undefined {
    if (revision < this.compactedRevision) return undefined;
    const out: LoggedEvent[] = [];
    for (let i = this.start; i < this.events.length; i++) if (this.events[i]!.revision > revision) out.push(this.events[i]!);
    return out;
  }

  oldestRetained(): number {
    return this.compactedRevision;
  }

  /** Drops the whole history up to `revision`. */
  compact(revision: number): void {
    this.events = this.events.slice(this.start).filter((e) => e.revision > revision);
    this.start = 0;
    this.compactedRevision = Math.max(this.compactedRevision, revision);
  }
}
