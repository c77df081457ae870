// Kubernetes Events through the ClusterClient, sent as client-go's recorder sends them: its EventCorrelator
// (event-correlator.ts) combines similar events, turns repeats into `count` patches and drops what its spam
// filter stops. Recording never waits: an event joins the writes under way, at most `maxPending` of them (as
// client-go's broadcaster queues at most 1,000 and drops what comes beyond), through a client that should
// have a request budget of its own, so that Events never delay a pod or status write. Timestamps and names
// come from the injected clock and a counter, so a simulated run writes identical Events every time.

import { apiVersionOf, Resources, type ClusterClient, type Resource } from '../api/client.js';
import { isAlreadyExists, isNotFound } from '../api/errors.js';
import { toTimestamp, type Instant, type KubeEvent, type KubeObject, type ObjectReference } from '../api/types.js';
import type { Clock } from './clock.js';
import { EventCorrelator } from './event-correlator.js';
import { isFenced, type WriteFence } from './lease-fence.js';
import { noopLogger, type Logger } from './logging-port.js';

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
  /** Events recorded but not yet written beyond which new ones are dropped (default 1,000, client-go's maxQueuedEvents). */
  maxPending?: number;
  /** Called for each event dropped because `maxPending` were waiting. */
  onDropped?: (type: EventType) => void;
  /**
   * The leader's write fence: while it refuses, events are not recorded and queued ones are dropped unwritten
   * (the client should carry the same fence, for the writes already under way).
   */
  fence?: WriteFence;
}

export interface EventRecorder {
  /**
   * Records an event about `ref`. Resolves once written (or at once when the spam filter or a full queue
   * drops it); never rejects (failures are logged).
   */
  event(ref: ObjectReference, type: EventType, reason: string, message: string): Promise<void>;
  /** Calls `listener` synchronously for every event written (not for dropped ones); returns an unsubscribe function. */
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

interface Tail {
  /** Writes for one Event object are serialised so a patch never races the create. */
  tail: Promise<void>;
}

export function createEventRecorder(opts: EventRecorderOptions): EventRecorder {
  return new Recorder(opts);
}

const MAX_NAME_RETRIES = 3;
// upstream: client-go/tools/record/event.go maxQueuedEvents
const MAX_PENDING = 1000;

// upstream: client-go/tools/record/event.go recordToSink
class Recorder implements EventRecorder {
  private readonly correlator: EventCorrelator;
  private readonly tails = new Map<string, Tail>();
  private readonly listeners = new Set<(e: RecordedEvent) => void>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly component: string;
  private readonly log: Logger;
  private seq = 0;

  constructor(private readonly opts: EventRecorderOptions) {
    this.component = opts.component ?? 'ordinal-controller';
    this.log = opts.logger ?? noopLogger;
    this.correlator = new EventCorrelator({
      clock: opts.clock,
      newName: (objectName, now) => this.newName(objectName, now),
      ...(opts.cacheSize !== undefined ? { cacheSize: opts.cacheSize } : {}),
    });
  }

  event(ref: ObjectReference, type: EventType, reason: string, message: string): Promise<void> {
    if (this.opts.fence?.refusal() !== undefined) return Promise.resolve();
    // upstream: the broadcaster's ActionOrDrop, before the correlator sees the event
    if (this.inFlight.size >= (this.opts.maxPending ?? MAX_PENDING)) {
      this.opts.onDropped?.(type);
      return Promise.resolve();
    }
    const now = this.opts.clock.now();
    const host = this.opts.host ?? '';
    const c = this.correlator.correlate({
      source: { component: this.component, host },
      involvedObject: ref,
      type,
      reason,
      message,
      reportingController: this.component,
      reportingInstance: host,
    });
    if (c.skip) return Promise.resolve();
    const namespace = ref.namespace || 'default';
    const recorded: RecordedEvent = { namespace, involvedObject: { ...ref }, type, reason, message: c.message, count: c.count, name: c.name, at: now };
    for (const l of [...this.listeners]) l(recorded);
    const body = this.eventObject(recorded, toTimestamp(c.firstTimestamp));
    let entry = this.tails.get(c.key);
    if (entry === undefined) {
      entry = { tail: Promise.resolve() };
      this.tails.set(c.key, entry);
    }
    const write = entry.tail.then(() => this.write(c.key, body)).catch((err: unknown) => {
      // refused by the fence, or stopped while queued when it shut: dropped, as the next ones are
      if (!isFenced(err)) this.log.warn({ reason, object: ref.name, err: String(err) }, 'could not write event');
    });
    entry.tail = write;
    this.inFlight.add(write);
    void write.finally(() => {
      this.inFlight.delete(write);
      if (this.tails.get(c.key)?.tail === write) this.tails.delete(c.key);
    });
    return write;
  }

  onRecord(listener: (e: RecordedEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async flush(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
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

  /** A repeat patches the existing Event (count, lastTimestamp, message); a missing one is created. */
  private async write(key: string, body: KubeEvent): Promise<void> {
    const { client, fence } = this.opts;
    // queued behind another write of the same Event while the fence shut: dropped
    if (fence?.refusal() !== undefined) return;
    if (body.count !== undefined && body.count > 1) {
      try {
        await client.patch(Resources.events, body.metadata.namespace, body.metadata.name ?? '', {
          count: body.count,
          lastTimestamp: body.lastTimestamp,
          message: body.message,
        });
        return;
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
    await this.create(key, body);
  }

  /** Creates the Event; a name taken by another writer gets a fresh one, kept for the next repeats. */
  private async create(key: string, body: KubeEvent): Promise<void> {
    let name = body.metadata.name ?? '';
    for (let i = 0; ; i++) {
      try {
        await this.opts.client.create(Resources.events, { ...body, metadata: { ...body.metadata, name } });
        return;
      } catch (err) {
        if (!isAlreadyExists(err) || i + 1 >= MAX_NAME_RETRIES) throw err;
        name = this.newName(body.involvedObject.name ?? '', this.opts.clock.now());
        this.correlator.renamed(key, name);
      }
    }
  }
}
