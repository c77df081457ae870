// Kubernetes Events through the ClusterClient, aggregated like client-go's EventCorrelator: an event equal
// to an earlier one (same source, involved object, type, reason and message) bumps that Event's `count`
// and `lastTimestamp` instead of creating another object. Timestamps and names come from the injected
// clock and a counter, so a simulated run writes identical Events every time (style.md T8).

import { apiVersionOf, Resources, type ClusterClient, type Resource } from '../api/client.js';
import { isAlreadyExists, isNotFound } from '../api/errors.js';
import { toTimestamp, type Instant, type KubeEvent, type KubeObject, type ObjectReference } from '../api/types.js';
import type { Clock } from './clock.js';
import { noopLogger, type Logger } from './logger.js';

export type EventType = 'Normal' | 'Warning';

/** One recorded occurrence, as the simulator's timeline and tests see it. */
export interface RecordedEvent {
  namespace: string;
  involvedObject: ObjectReference;
  type: EventType;
  reason: string;
  message: string;
  /** Occurrences of this event so far, including this one. */
  count: number;
  /** The Event object's name. */
  name: string;
  at: Instant;
}

export interface EventRecorderOptions {
  client: ClusterClient;
  clock: Clock;
  /** source.component (default `ordinal-controller`; upstream's is `statefulset-controller`). */
  component?: string;
  host?: string;
  logger?: Logger;
  /** Distinct events remembered for aggregation (client-go: 4096). */
  cacheSize?: number;
}

export interface EventRecorder {
  /** Records an event about `ref`. Resolves once written; never rejects (failures are logged). */
  event(ref: ObjectReference, type: EventType, reason: string, message: string): Promise<void>;
  /** Calls `listener` synchronously for every event recorded; returns an unsubscribe function. */
  onRecord(listener: (e: RecordedEvent) => void): () => void;
  /** Resolves when every write started so far has finished. */
  flush(): Promise<void>;
}

/** A reference to `obj` for `involvedObject` (list items often lack apiVersion/kind; the resource supplies them). */
// upstream: client-go/tools/reference/ref.go GetReference
export function objectReference(obj: KubeObject, resource: Resource): ObjectReference {
  const m = obj.metadata;
  return {
    apiVersion: apiVersionOf(resource),
    kind: resource.kind,
    ...(m.namespace !== undefined ? { namespace: m.namespace } : {}),
    name: m.name ?? '',
    ...(m.uid !== undefined ? { uid: m.uid } : {}),
    ...(m.resourceVersion !== undefined ? { resourceVersion: m.resourceVersion } : {}),
  };
}

interface Entry {
  name: string;
  count: number;
  firstTimestamp: string;
  /** Writes for one aggregate are serialised so a patch never races the create. */
  tail: Promise<void>;
}

export function createEventRecorder(opts: EventRecorderOptions): EventRecorder {
  return new Recorder(opts);
}

const MAX_NAME_RETRIES = 3;

// upstream: client-go/tools/record/events_cache.go EventCorrelator (EventLogger) + event.go recordToSink
class Recorder implements EventRecorder {
  private readonly cache = new Map<string, Entry>();
  private readonly listeners = new Set<(e: RecordedEvent) => void>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly component: string;
  private readonly log: Logger;
  private seq = 0;

  constructor(private readonly opts: EventRecorderOptions) {
    this.component = opts.component ?? 'ordinal-controller';
    this.log = opts.logger ?? noopLogger;
  }

  event(ref: ObjectReference, type: EventType, reason: string, message: string): Promise<void> {
    const now = this.opts.clock.now();
    const source = [this.component, this.opts.host ?? ''];
    const key = JSON.stringify([...source, ref.apiVersion, ref.kind, ref.namespace, ref.name, ref.uid, type, reason, message]);
    const entry = this.touch(key, now, ref.name ?? '');
    const namespace = ref.namespace || 'default';
    const involvedObject = { ...ref };
    const recorded: RecordedEvent = { namespace, involvedObject, type, reason, message, count: entry.count, name: entry.name, at: now };
    for (const l of [...this.listeners]) l(recorded);
    const body = this.eventObject(recorded, entry.firstTimestamp);
    const write = entry.tail.then(() => this.write(entry, body)).catch((err: unknown) => {
      this.log.warn({ reason, object: ref.name, err: String(err) }, 'could not write event');
    });
    entry.tail = write;
    this.inFlight.add(write);
    void write.finally(() => this.inFlight.delete(write));
    return write;
  }

  onRecord(listener: (e: RecordedEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async flush(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  /** The aggregate for `key`, counted one up (created on first use; least recently used evicted). */
  private touch(key: string, now: Instant, objectName: string): Entry {
    let entry = this.cache.get(key);
    if (entry === undefined) {
      entry = { name: this.newName(objectName, now), count: 0, firstTimestamp: toTimestamp(now), tail: Promise.resolve() };
    }
    this.cache.delete(key);
    this.cache.set(key, entry);
    if (this.cache.size > (this.opts.cacheSize ?? 4096)) this.cache.delete(this.cache.keys().next().value!);
    entry.count++;
    return entry;
  }

  /** `<object>.<hex>` where hex is a nanosecond-like stamp from the clock plus a counter (upstream: UnixNano). */
  private newName(objectName: string, now: Instant): string {
    const stamp = BigInt(Math.floor(now)) * 1_000_000n + BigInt(this.seq++ % 1_000_000);
    return `${objectName}.${stamp.toString(16)}`;
  }

  private eventObject(e: RecordedEvent, firstTimestamp: string): KubeEvent {
    const host = this.opts.host;
    return {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: e.name, namespace: e.namespace },
      involvedObject: e.involvedObject,
      reason: e.reason,
      message: e.message,
      type: e.type,
      count: e.count,
      firstTimestamp,
      lastTimestamp: toTimestamp(e.at),
      source: { component: this.component, ...(host ? { host } : {}) },
      reportingComponent: this.component,
      reportingInstance: host ?? '',
    };
  }

  private async write(entry: Entry, body: KubeEvent): Promise<void> {
    const { client } = this.opts;
    if (body.count !== undefined && body.count > 1) {
      try {
        await client.patch(Resources.events, body.metadata.namespace, entry.name, { count: body.count, lastTimestamp: body.lastTimestamp });
        return;
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
    await this.create(entry, body);
  }

  /** Creates the Event; a name taken by another writer gets a fresh one. */
  private async create(entry: Entry, body: KubeEvent): Promise<void> {
    for (let i = 0; ; i++) {
      try {
        await this.opts.client.create(Resources.events, { ...body, metadata: { ...body.metadata, name: entry.name } });
        return;
      } catch (err) {
        if (!isAlreadyExists(err) || i + 1 >= MAX_NAME_RETRIES) throw err;
        entry.name = this.newName(body.involvedObject.name ?? '', this.opts.clock.now());
      }
    }
  }
}
