// Watch fan-out per resource: appends every change to the resource's bounded log and pushes it to the
// open streams; opens streams from a resourceVersion (replaying the log) or from "now" ("" / "0":
// synthetic ADDED events for the current objects, as kube-apiserver does).

import type { Resource } from '../../api/client.js';
import type { KubeObject } from '../../api/types.js';
import { badRequest, qualifiedResource, tooOld } from './messages.js';
import { WatchLog, type LoggedEvent } from './watch-log.js';
import { WatchStream, type StreamDeps } from './memory-watch.js';

export interface OpenRequest {
  res: Resource;
  resourceVersion: string;
  /** The current objects, for a watch from "" or "0". */
  current: () => KubeObject[];
  /** A fault chose to answer this resume with 410 Gone. */
  forceGone: boolean;
}

export class WatchHub {
  private readonly logs = new Map<string, WatchLog>();
  private readonly streams = new Map<string, Set<WatchStream>>();
  /** Set by compact(): no resume from before it, even for resources with no log yet. */
  private floor = 0;

  constructor(private readonly capacity: number) {}

  publish(res: Resource, event: LoggedEvent): void {
    const key = qualifiedResource(res);
    this.logFor(key).append(event);
    for (const s of this.streams.get(key) ?? []) s.push(event);
  }

  open(req: OpenRequest, deps: Omit<StreamDeps, 'detach'>): WatchStream {
    const key = qualifiedResource(req.res);
    const stream = new WatchStream({ ...deps, detach: (s) => this.streams.get(key)?.delete(s) });
    let set = this.streams.get(key);
    if (set === undefined) {
      set = new Set();
      this.streams.set(key, set);
    }
    set.add(stream);
    const initial = this.initialEvents(key, req);
    if (initial instanceof Error) stream.end(initial);
    else stream.begin(initial);
    return stream;
  }

  /** Forced 410 for everything before `revision`. */
  compact(revision: number): void {
    this.floor = Math.max(this.floor, revision);
    for (const log of this.logs.values()) log.compact(revision);
  }

  /** Ends matching open streams; sorted by resource so the onClose order is stable. */
  closeStreams(match: (s: WatchStream) => boolean, error?: Error): void {
    for (const key of [...this.streams.keys()].sort()) {
      for (const s of [...(this.streams.get(key) ?? [])]) if (match(s)) s.end(error);
    }
  }

  private initialEvents(key: string, req: OpenRequest): LoggedEvent[] | Error {
    const rv = req.resourceVersion;
    if (rv === '' || rv === '0') {
      return req.current().map((object) => ({
        type: 'ADDED' as const,
        revision: Number(object.metadata.resourceVersion),
        namespace: object.metadata.namespace,
        object,
      }));
    }
    const revision = Number(rv);
    if (!Number.isSafeInteger(revision) || revision < 0) return badRequest(`invalid resource version: ${rv}`);
    const log = this.logFor(key);
    const events = req.forceGone || revision < this.floor ? undefined : log.since(revision);
    const oldest = Math.max(log.oldestRetained(), this.floor, revision + 1);
    if (events === undefined) return tooOld(rv, String(oldest));
    return events;
  }

  private logFor(key: string): WatchLog {
    let log = this.logs.get(key);
    if (log === undefined) {
      log = new WatchLog(this.capacity);
      this.logs.set(key, log);
    }
    return log;
  }
}
