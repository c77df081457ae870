// Read your own writes (KEP-5647, upstream #137254; and ControllerExpectations): a sync must not plan from
// a cache that has not yet seen the controller's own last writes, or it would create a pod twice or
// delete one more than allowed. Each write is remembered per set key until the informer has observed it,
// or until a TTL on the injected clock expires (upstream's 5 minutes), so a lost event cannot wedge a set.

import type { Instant, KubeObject } from '../api/types.js';
import type { Clock } from './clock.js';
import type { ObservedSource } from './informer.js';

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

/**
 * Unsatisfied keys indexed by what their blocking expectation waits for: the object (its cache entry
 * changes) and, for writes with an ordered resourceVersion, the watch position of its namespace scope.
 * `minRv` may be stale-low after removals: that costs one extra scan, never a missed key.
 */
class BlockedIndex {
  private readonly byObject = new Map<ObservedSource, Map<string, Set<string>>>();
  private readonly byScope = new Map<ObservedSource, Map<string | undefined, { keys: Map<string, string>; minRv: string | undefined }>>();

  add(key: string, p: PendingExpectation): void {
    const objects = getOrSet(this.byObject, p.source, () => new Map<string, Set<string>>());
    getOrSet(objects, objectKey(p.namespace, p.name), () => new Set<string>()).add(key);
    const rv = p.resourceVersion;
    if (p.kind !== 'write' || rv === undefined || compareResourceVersions(rv, rv) === undefined) return;
    const scopes = getOrSet(this.byScope, p.source, () => new Map<string | undefined, { keys: Map<string, string>; minRv: string | undefined }>());
    const scope = getOrSet(scopes, p.namespace, () => ({ keys: new Map<string, string>(), minRv: rv }));
    scope.keys.set(key, rv);
    if (scope.minRv === undefined || (compareResourceVersions(rv, scope.minRv) ?? 0) < 0) scope.minRv = rv;
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

  /** Keys waiting on `change`'s object, and keys whose write every watch position has now reached. */
  candidates(change: ObservedChange | undefined, out: Set<string>): void {
    if (change !== undefined) for (const k of this.byObject.get(change.source)?.get(objectKey(change.namespace, change.name)) ?? []) out.add(k);
    for (const [source, scopes] of this.byScope) {
      for (const [namespace, scope] of scopes) {
        const at = source.lastSyncResourceVersion(namespace);
        if (scope.minRv === undefined || (compareResourceVersions(at, scope.minRv) ?? -1) < 0) continue;
        let min: string | undefined;
        for (const [key, rv] of scope.keys) {
          if ((compareResourceVersions(at, rv) ?? -1) >= 0) out.add(key);
          else if (min === undefined || (compareResourceVersions(rv, min) ?? 0) < 0) min = rv;
        }
        scope.minRv = min;
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
  private readonly byKey = new Map<string, PendingExpectation[]>();
  /** Per unsatisfied key: the first pending expectation, which blocked its last check. */
  private readonly blocked = new Map<string, PendingExpectation>();
  private readonly index = new BlockedIndex();
  /** No blocked key expires before this (may be stale-low: then one scan of `blocked` recomputes it). */
  private earliestExpiry = Number.POSITIVE_INFINITY;
  /** Keys forgotten while blocked: whoever waits on them should look again. */
  private readonly released = new Set<string>();
  private readonly ttlMs: number;

  constructor(private readonly opts: { clock: Clock; ttlMs?: number }) {
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

  /** True when every write recorded for `key` has been observed or has expired; drops those. */
  satisfied(key: string): boolean {
    const list = this.byKey.get(key);
    if (list === undefined) return true;
    const now = this.opts.clock.now();
    const left = list.filter((p) => now - p.recordedAt < this.ttlMs && !(p.kind === 'write' ? writeObserved(p) : deleteObserved(p)));
    if (left.length === 0) this.byKey.delete(key);
    else this.byKey.set(key, left);
    this.block(key, left[0]);
    return left.length === 0;
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
    this.index.candidates(change, out);
    const now = this.opts.clock.now();
    if (now < this.earliestExpiry) return out;
    this.earliestExpiry = Number.POSITIVE_INFINITY;
    for (const [key, p] of this.blocked) {
      const expiry = p.recordedAt + this.ttlMs;
      if (now >= expiry) out.add(key);
      else this.earliestExpiry = Math.min(this.earliestExpiry, expiry);
    }
    return out;
  }

  /** What `key` is still waiting for (as of the last `satisfied` check). */
  pending(key: string): readonly PendingExpectation[] {
    return this.byKey.get(key) ?? [];
  }

  /** When the oldest pending expectation of `key` expires, so a skipped sync can be retried then. */
  expiresAt(key: string): Instant | undefined {
    const list = this.byKey.get(key);
    if (list === undefined || list.length === 0) return undefined;
    return Math.min(...list.map((p) => p.recordedAt)) + this.ttlMs;
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
    if (list === undefined) this.byKey.set(key, [p]);
    else list.push(p);
  }
}
