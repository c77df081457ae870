// A bounded, per-resource history of watch events. A watch may resume from any resourceVersion at or
// after `compactedRevision`; older ones get 410 Gone, as from an etcd compaction or a full watch cache.

import type { KubeObject } from '../../api/types.js';

export interface LoggedEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  revision: number;
  namespace: string | undefined;
  object: KubeObject;
}

export class WatchLog {
  private events: LoggedEvent[] = [];
  /** The newest revision no longer in the history (0: nothing was ever dropped). */
  private compactedRevision = 0;

  constructor(private readonly capacity: number) {}

  append(event: LoggedEvent): void {
    this.events.push(event);
    if (this.events.length > this.capacity) {
      const dropped = this.events.splice(0, this.events.length - this.capacity);
      this.compactedRevision = dropped[dropped.length - 1]!.revision;
    }
  }

  /** Events after `revision` (exclusive), or `undefined` when some of them are no longer retained. */
  since(revision: number): LoggedEvent[] | undefined {
    if (revision < this.compactedRevision) return undefined;
    return this.events.filter((e) => e.revision > revision);
  }

  oldestRetained(): number {
    return this.compactedRevision;
  }

  /** Drops the whole history up to `revision`. */
  compact(revision: number): void {
    this.events = this.events.filter((e) => e.revision > revision);
    this.compactedRevision = Math.max(this.compactedRevision, revision);
  }
}
