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

interface Fingerprint {
  pending: PendingExpectation;
  lastSync: string;
  cached: KubeObject | undefined;
}

const fingerprint = (p: PendingExpectation): Fingerprint => ({
  pending: p,
  lastSync: p.source.lastSyncResourceVersion(p.namespace),
  cached: p.source.get(p.namespace, p.name),
});

// upstream: pkg/controller/controller_utils.go ControllerExpectations (+ KEP-5647 consistency check)
export class Expectations {
  private readonly byKey = new Map<string, PendingExpectation[]>();
  /** Per unsatisfied key: its first pending expectation and what its cache showed when last checked. */
  private readonly blocked = new Map<string, Fingerprint>();
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
    if (left.length === 0) this.blocked.delete(key);
    else this.blocked.set(key, fingerprint(left[0]!));
    return left.length === 0;
  }

  /**
   * False only when `satisfied(key)` would be false: the expectation that blocked the last check has not
   * expired and its cache has neither moved on nor changed the object. Lets the controller recheck its
   * waiting keys after every event without re-evaluating each one (only pruning is deferred, and pending
   * lists are only read right after `satisfied`).
   */
  maybeSatisfied(key: string): boolean {
    const f = this.blocked.get(key);
    if (f === undefined || !this.byKey.has(key)) return true;
    const p = f.pending;
    if (this.opts.clock.now() - p.recordedAt >= this.ttlMs) return true;
    return p.source.lastSyncResourceVersion(p.namespace) !== f.lastSync || p.source.get(p.namespace, p.name) !== f.cached;
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
    this.blocked.delete(key);
  }

  private push(key: string, p: PendingExpectation): void {
    const list = this.byKey.get(key);
    if (list === undefined) this.byKey.set(key, [p]);
    else list.push(p);
  }
}
