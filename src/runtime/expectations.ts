// Read your own writes (KEP-5647, upstream #137254; and ControllerExpectations): a sync must not plan from
// a cache that has not yet seen the controller's own last writes, or it would create a pod twice or
// delete one more than allowed. Each write is remembered per set key until the informer has observed it,
// or until a TTL on the injected clock expires (upstream's 5 minutes), so a lost event cannot wedge a set.

import type { Instant, KubeObject } from '../api/types.js';
import type { Clock } from './clock.js';
import type { ObservedSource } from './informer.js';
import type { WorkCounters } from './work-counters.js';

/** Upstream ExpectationsTimeout. */
export const EXPECTATIONS_TTL_MS = 5 * 60 * 1000;

export interface PendingExpectation {
  kind: 'write' | 'delete';
  /** Which cache must observe it (the informer of the written resource). */
  source: ObservedSource;
  namespace: string | undefined;
  name: string;
  /** For writes: the resourceVersion the API returned. */
  resourceVersion?: string;
  uid?: string;
  recordedAt: Instant;
}

/**
 * Compares two resourceVersions when both are decimal integers (etcd revisions, KEP-5504); undefined
 * when either is opaque and cannot be ordered.
 */
export function compareResourceVersions(a: string, b: string): number | undefined {
  if (!/^\d+$/.test(a) || !/^\d+$/.test(b)) return undefined;
  const x = a.replace(/^0+(?=\d)/, '');
  const y = b.replace(/^0+(?=\d)/, '');
  if (x.length !== y.length) return x.length - y.length;
  return x < y ? -1 : x > y ? 1 : 0;
}

function writeObserved(p: PendingExpectation): boolean {
  const rv = p.resourceVersion ?? '';
  if ((compareResourceVersions(p.source.lastSyncResourceVersion(p.namespace), rv) ?? -1) >= 0) return true;
  const cached = p.source.get(p.namespace, p.name);
  if (cached === undefined) return false;
  if (p.uid !== undefined && cached.metadata.uid !== undefined && cached.metadata.uid !== p.uid) return true;
  const seen = cached.metadata.resourceVersion ?? '';
  return seen === rv || (compareResourceVersions(seen, rv) ?? -1) >= 0;
}

function deleteObserved(p: PendingExpectation): boolean {
  const cached = p.source.get(p.namespace, p.name);
  if (cached === undefined) return true;
  if (p.uid !== undefined && cached.metadata.uid !== p.uid) return true;
  return cached.metadata.deletionTimestamp !== undefined;
}

/** What changed in a cache: the event's object, so only the keys waiting on it are looked at. */
export interface ObservedChange {
  source: ObservedSource;
  namespace: string | undefined;
  name: string;
}

const objectKey = (namespace: string | undefined, name: string): string => `${namespace ?? ''}\u0000${name}`;

/** A decimal resourceVersion without leading zeros: two of them order by length, then as text. */
const canonical = (rv: string): string => rv.replace(/^0+(?=\d)/, '');
const rvBefore = (a: string, b: string): boolean => a.length < b.length || (a.length === b.length && a < b);

/**
 * The keys of one watch scope whose blocking write waits for the watch to reach its resourceVersion, in a
 * min-heap by that resourceVersion: the watch moving on pops the keys it reached, each once, so a scope with
 * many waiting keys costs O(log keys) per key released instead of a scan of all of them per event. `keys`
 * holds each key's current resourceVersion; a heap entry that no longer matches it is stale and skipped.
 */
class ScopeKeys {
  readonly keys = new Map<string, string>();
  private readonly heap: { rv: string; key: string }[] = [];

  add(key: string, rv: string): void {
    const at = canonical(rv);
    this.keys.set(key, at);
    const h = this.heap;
    h.push({ rv: at, key });
    for (let i = h.length - 1; i > 0; ) {
      const up = (i - 1) >> 1;
      if (!rvBefore(h[i]!.rv, h[up]!.rv)) break;
      [h[i], h[up]] = [h[up]!, h[i]!];
      i = up;
    }
  }

  /** Moves every key whose resourceVersion `at` has reached into `out` (and out of the scope). */
  release(at: string, out: Set<string>, counters?: WorkCounters): void {
    const reached = canonical(at);
    const h = this.heap;
    while (h.length > 0 && !rvBefore(reached, h[0]!.rv)) {
      const top = this.pop();
      counters?.count('expectations.examined');
      if (this.keys.get(top.key) !== top.rv) continue;
      this.keys.delete(top.key);
      out.add(top.key);
    }
  }

  private pop(): { rv: string; key: string } {
    const h = this.heap;
    const top = h[0]!;
    const last = h.pop()!;
    if (h.length === 0) return top;
    h[0] = last;
    for (let i = 0; ; ) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && rvBefore(h[l]!.rv, h[m]!.rv)) m = l;
      if (r < h.length && rvBefore(h[r]!.rv, h[m]!.rv)) m = r;
      if (m === i) return top;
      [h[i], h[m]] = [h[m]!, h[i]!];
      i = m;
    }
  }
}

/**
 * Unsatisfied keys indexed by what their blocking expectation waits for: the object (its cache entry
 * changes) and, for writes with an ordered resourceVersion, the watch position of its namespace scope.
 */
class BlockedIndex {
  private readonly byObject = new Map<ObservedSource, Map<string, Set<string>>>();
  private readonly byScope = new Map<ObservedSource, Map<string | undefined, ScopeKeys>>();

  add(key: string, p: PendingExpectation): void {
    const objects = getOrSet(this.byObject, p.source, () => new Map<string, Set<string>>());
    getOrSet(objects, objectKey(p.namespace, p.name), () => new Set<string>()).add(key);
    const rv = p.resourceVersion;
    if (p.kind !== 'write' || rv === undefined || compareResourceVersions(rv, rv) === undefined) return;
    const scopes = getOrSet(this.byScope, p.source, () => new Map<string | undefined, ScopeKeys>());
    getOrSet(scopes, p.namespace, () => new ScopeKeys()).add(key, rv);
  }

  remove(key: string, p: PendingExpectation): void {
    const objects = this.byObject.get(p.source);
    const k = objectKey(p.namespace, p.name);
    const keys = objects?.get(k);
    keys?.delete(key);
    if (keys?.size === 0) objects?.delete(k);
    const scope = this.byScope.get(p.source)?.get(p.namespace);
    scope?.keys.delete(key);
    if (scope?.keys.size === 0) this.byScope.get(p.source)?.delete(p.namespace);
  }

  /**
   * Keys waiting on `change`'s object, and keys whose write the watch position has now reached (each of those
   * once: it is checked again with `satisfied`, which blocks it anew if it must still wait).
   */
  candidates(change: ObservedChange | undefined, out: Set<string>, counters?: WorkCounters): void {
    if (change !== undefined) for (const k of this.byObject.get(change.source)?.get(objectKey(change.namespace, change.name)) ?? []) out.add(k);
    for (const [source, scopes] of this.byScope) {
      for (const [namespace, scope] of scopes) {
        const at = source.lastSyncResourceVersion(namespace);
        if (compareResourceVersions(at, at) !== undefined) scope.release(at, out, counters);
        if (scope.keys.size === 0) scopes.delete(namespace);
      }
    }
  }
}

function getOrSet<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let v = map.get(key);
  if (v === undefined) {
    v = make();
    map.set(key, v);
  }
  return v;
}

// upstream: pkg/controller/controller_utils.go ControllerExpectations (+ KEP-5647 consistency check)
export class Expectations {
  /** Per key, its expectations in the order recorded (so by recordedAt); those before `head` are done. */
  private readonly byKey = new Map<string, { items: PendingExpectation[]; head: number }>();
  /** Per unsatisfied key: the first pending expectation, which blocked its last check. */
  private readonly blocked = new Map<string, PendingExpectation>();
  private readonly index = new BlockedIndex();
  /** No blocked key expires before this (may be stale-low: then one scan of `blocked` recomputes it). */
  private earliestExpiry = Number.POSITIVE_INFINITY;
  /** Keys forgotten while blocked: whoever waits on them should look again. */
  private readonly released = new Set<string>();
  private readonly ttlMs: number;

  constructor(private readonly opts: { clock: Clock; ttlMs?: number; counters?: WorkCounters }) {
    this.ttlMs = opts.ttlMs ?? EXPECTATIONS_TTL_MS;
  }

  /** Remembers that `written` (as returned by the API) must appear in `source` before `key` syncs again. */
  expectWrite(key: string, source: ObservedSource, written: KubeObject): void {
    const m = written.metadata;
    this.push(key, {
      kind: 'write',
      source,
      namespace: m.namespace,
      name: m.name ?? '',
      resourceVersion: m.resourceVersion ?? '',
      ...(m.uid ? { uid: m.uid } : {}),
      recordedAt: this.opts.clock.now(),
    });
  }

  /** Remembers a deletion: observed once `source` has lost the object or sees it terminating. */
  expectDeletion(key: string, source: ObservedSource, ref: { namespace?: string; name: string; uid?: string }): void {
    this.push(key, {
      kind: 'delete',
      source,
      namespace: ref.namespace,
      name: ref.name,
      ...(ref.uid ? { uid: ref.uid } : {}),
      recordedAt: this.opts.clock.now(),
    });
  }

  /**
   * True when every write recorded for `key` has been observed or has expired. Drops them in the order they
   * were recorded and stops at the first that must still wait: that one blocks the key, and the rest are
   * looked at once it is observed (so a sync that made a hundred writes does not recheck all of them on
   * every event).
   */
  satisfied(key: string): boolean {
    const list = this.byKey.get(key);
    if (list === undefined) return true;
    const now = this.opts.clock.now();
    const { items } = list;
    for (; list.head < items.length; list.head++) {
      const p = items[list.head]!;
      this.opts.counters?.count('expectations.examined');
      if (now - p.recordedAt < this.ttlMs && !(p.kind === 'write' ? writeObserved(p) : deleteObserved(p))) break;
    }
    const first = items[list.head];
    if (first === undefined) this.byKey.delete(key);
    // drop the done ones once they are half the list, so a long-waiting key does not keep them all
    else if (list.head > 32 && list.head * 2 > items.length) this.byKey.set(key, { items: items.slice(list.head), head: 0 });
    this.block(key, first);
    return first === undefined;
  }

  /**
   * Keys that may have become satisfied since their last `satisfied` check, given that `change` (if any)
   * just reached its cache: every other key would still fail its check, since its blocking expectation's
   * object, watch position and TTL are as they were. Lets the controller recheck its waiting keys after
   * every event without looking at each one (only pruning is deferred, and pending lists are only read
   * right after `satisfied`).
   */
  candidates(change?: ObservedChange): Set<string> {
    const out = new Set(this.released);
    this.released.clear();
    this.index.candidates(change, out, this.opts.counters);
    const now = this.opts.clock.now();
    if (now < this.earliestExpiry) return out;
    this.earliestExpiry = Number.POSITIVE_INFINITY;
    this.opts.counters?.count('expectations.examined', this.blocked.size);
    for (const [key, p] of this.blocked) {
      const expiry = p.recordedAt + this.ttlMs;
      if (now >= expiry) out.add(key);
      else this.earliestExpiry = Math.min(this.earliestExpiry, expiry);
    }
    return out;
  }

  /** What `key` is still waiting for: from the expectation that blocked its last `satisfied` check on. */
  pending(key: string): readonly PendingExpectation[] {
    const list = this.byKey.get(key);
    return list === undefined ? [] : list.items.slice(list.head);
  }

  /** When the oldest pending expectation of `key` expires, so a skipped sync can be retried then. */
  expiresAt(key: string): Instant | undefined {
    const list = this.byKey.get(key);
    const oldest = list?.items[list.head];
    // recorded in clock order: the first left is the oldest
    return oldest === undefined ? undefined : oldest.recordedAt + this.ttlMs;
  }

  /** Keys with anything pending. */
  keys(): string[] {
    return [...this.byKey.keys()].sort();
  }

  forget(key: string): void {
    this.byKey.delete(key);
    if (this.blocked.has(key)) this.released.add(key);
    this.block(key, undefined);
  }

  private block(key: string, p: PendingExpectation | undefined): void {
    const before = this.blocked.get(key);
    if (before === p) return;
    if (before !== undefined) this.index.remove(key, before);
    if (p === undefined) {
      this.blocked.delete(key);
      return;
    }
    this.blocked.set(key, p);
    this.index.add(key, p);
    this.earliestExpiry = Math.min(this.earliestExpiry, p.recordedAt + this.ttlMs);
  }

  private push(key: string, p: PendingExpectation): void {
    const list = this.byKey.get(key);
    if (list === undefined) this.byKey.set(key, { items: [p], head: 0 });
    else list.items.push(p);
  }
}
