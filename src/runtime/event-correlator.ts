// What client-go's EventCorrelator decides for each event before anything is written, on the injected clock:
//
// 1. Aggregation (EventAggregator): events that differ only in their message (same source, involved object,
//    type, reason, reporting controller and instance) are "similar". From the 10th distinct message within
//    600 s of the previous similar one, they are written as one Event whose message is
//    "(combined from similar events): <latest message>".
// 2. Deduplication (eventLogger): an event equal to an earlier one (or the combined event) bumps that Event's
//    `count` (a patch) instead of creating another object.
// 3. Spam filter (EventSourceObjectSpamFilter): per source, involved object and type, a token bucket of 25
//    refilled at one per 5 minutes; an event without a token is not written at all. As in client-go the
//    count of step 2 still grows, so the next written occurrence carries the true count.
// upstream: client-go/tools/record/events_cache.go (v0.37)

import type { Instant, ObjectReference } from '../api/types.js';
import type { Clock } from './clock.js';
import { createTokenBucket, type TokenBucket } from './token-bucket.js';

export interface EventFacts {
  source: { component: string; host: string };
  involvedObject: ObjectReference;
  type: string;
  reason: string;
  message: string;
  reportingController: string;
  reportingInstance: string;
}

export type Correlation =
  | { skip: true }
  | {
      skip: false;
      /** The Event object's name: a new one for a first occurrence, else the first occurrence's. */
      name: string;
      /** Occurrences so far; more than 1 means patch the existing Event. */
      count: number;
      firstTimestamp: Instant;
      /** The message to write (the combined one for an aggregate). */
      message: string;
      /** Identifies the Event object for serialising its writes (and for `renamed`). */
      key: string;
    };

export interface CorrelatorOptions {
  clock: Clock;
  /** A fresh Event name for `objectName` (client-go: `<name>.<UnixNano hex>`). */
  newName: (objectName: string, now: Instant) => string;
  /** Entries of each cache (client-go: 4096). */
  cacheSize?: number;
}

const AGGREGATE_MAX_EVENTS = 10;
const AGGREGATE_INTERVAL_MS = 600_000;
const SPAM_BURST = 25;
const SPAM_QPS = 1 / 300;
export const COMBINED_PREFIX = '(combined from similar events): ';

/** A Map that forgets its least recently used entry beyond `size` (client-go's lru.Cache). */
class Lru<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly size: number) {}

  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }

  set(key: string, v: V): void {
    this.map.delete(key);
    this.map.set(key, v);
    if (this.map.size > this.size) this.map.delete(this.map.keys().next().value!);
  }
}

interface AggregateRecord {
  messages: Set<string>;
  last: Instant;
}

interface Occurrence {
  name: string;
  count: number;
  firstTimestamp: Instant;
}

const join = (parts: (string | undefined)[]) => JSON.stringify(parts.map((p) => p ?? ''));

function objectParts(e: EventFacts): string[] {
  const o = e.involvedObject;
  return [e.source.component, e.source.host, o.kind ?? '', o.namespace ?? '', o.name ?? '', o.uid ?? '', o.apiVersion ?? ''];
}

export class EventCorrelator {
  private readonly aggregates: Lru<AggregateRecord>;
  private readonly occurrences: Lru<Occurrence>;
  private readonly spam: Lru<TokenBucket>;

  constructor(private readonly opts: CorrelatorOptions) {
    const size = opts.cacheSize ?? 4096;
    this.aggregates = new Lru(size);
    this.occurrences = new Lru(size);
    this.spam = new Lru(size);
  }

  correlate(e: EventFacts): Correlation {
    const now = this.opts.clock.now();
    const { message, key } = this.aggregate(e, now);
    const seen = this.occurrences.get(key);
    const occurrence = seen ? { ...seen, count: seen.count + 1 } : { name: this.opts.newName(e.involvedObject.name ?? '', now), count: 1, firstTimestamp: now };
    this.occurrences.set(key, occurrence);
    if (this.spamFiltered(e)) return { skip: true };
    return { skip: false, name: occurrence.name, count: occurrence.count, firstTimestamp: occurrence.firstTimestamp, message, key };
  }

  /** The Event for `key` was created under another name (its first name was taken). */
  renamed(key: string, name: string): void {
    const seen = this.occurrences.get(key);
    if (seen) this.occurrences.set(key, { ...seen, name });
  }

  /** Step 1: the event as written and its dedup key (the full key, or the aggregate's once combined). */
  private aggregate(e: EventFacts, now: Instant): { message: string; key: string } {
    const aggregateKey = join([...objectParts(e), e.type, e.reason, e.reportingController, e.reportingInstance]);
    const eventKey = join([...objectParts(e), e.type, e.reason, e.message]);
    let record = this.aggregates.get(aggregateKey);
    if (record === undefined || now - record.last > AGGREGATE_INTERVAL_MS) record = { messages: new Set(), last: now };
    record.messages.add(e.message);
    record.last = now;
    this.aggregates.set(aggregateKey, record);
    if (record.messages.size < AGGREGATE_MAX_EVENTS) return { message: e.message, key: eventKey };
    // client-go keeps the set below the threshold (PopAny), so every further new message stays combined
    record.messages.delete(record.messages.values().next().value!);
    return { message: COMBINED_PREFIX + e.message, key: aggregateKey };
  }

  /** Step 3: whether the source has used up its tokens for this object and type. */
  private spamFiltered(e: EventFacts): boolean {
    const key = join([...objectParts(e), e.type]);
    let bucket = this.spam.get(key);
    if (bucket === undefined) {
      bucket = createTokenBucket({ qps: SPAM_QPS, burst: SPAM_BURST, clock: this.opts.clock });
      this.spam.set(key, bucket);
    }
    return !bucket.tryAccept();
  }
}
