// The informer's store: objects by namespace and name, plus named indexes (client-go's Indexers) so a
// sync reads its set's pods without listing the namespace. Lists come back sorted by namespace/name, so
// no consumer depends on Map insertion order.

import type { KubeObject } from '../api/types.js';
import type { WorkCounters } from './work-counters.js';

/** What changed when the cache was written; `old` is the object it replaced or removed. */
export type CacheDelta<T> =
  | { type: 'add'; obj: T }
  | { type: 'update'; old: T; obj: T }
  | { type: 'delete'; obj: T };

/** The index values of an object (client-go IndexFunc); an object is in one bucket per value. */
export type IndexFunc = (obj: KubeObject) => readonly string[];

interface Ref {
  namespace: string;
  name: string;
}

const byNamespaceThenName = (a: Ref, b: Ref): number =>
  a.namespace < b.namespace ? -1 : a.namespace > b.namespace ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0;

/**
 * One index: its buckets keep the objects' refs, sorted lazily and only again after a membership change,
 * so the common update (same object, new status) costs no sort.
 */
class Index<T extends KubeObject> {
  private readonly buckets = new Map<string, { refs: Map<string, Ref>; sorted: Ref[] | undefined }>();

  constructor(private readonly fn: IndexFunc) {}

  add(key: string, ref: Ref, obj: T): void {
    for (const value of this.fn(obj)) {
      let bucket = this.buckets.get(value);
      if (bucket === undefined) {
        bucket = { refs: new Map(), sorted: undefined };
        this.buckets.set(value, bucket);
      }
      if (bucket.refs.has(key)) continue;
      bucket.refs.set(key, ref);
      bucket.sorted = undefined;
    }
  }

  /** Moves `key` between buckets only where its values changed. */
  update(key: string, ref: Ref, old: T, obj: T): void {
    const before = this.fn(old);
    const after = this.fn(obj);
    if (before.length === after.length && before.every((v, i) => v === after[i])) return;
    this.remove(key, old);
    this.add(key, ref, obj);
  }

  remove(key: string, obj: T): void {
    for (const value of this.fn(obj)) {
      const bucket = this.buckets.get(value);
      if (bucket === undefined || !bucket.refs.delete(key)) continue;
      if (bucket.refs.size === 0) this.buckets.delete(value);
      else bucket.sorted = undefined;
    }
  }

  refs(value: string): readonly Ref[] {
    const bucket = this.buckets.get(value);
    if (bucket === undefined) return [];
    bucket.sorted ??= [...bucket.refs.values()].sort(byNamespaceThenName);
    return bucket.sorted;
  }
}

const keyOf = (namespace: string, name: string): string => `${namespace}\u0000${name}`;

export class ObjectCache<T extends KubeObject> {
  private readonly byNamespace = new Map<string, Map<string, T>>();
  private readonly indexes = new Map<string, Index<T>>();
  private count = 0;

  constructor(private readonly counters?: WorkCounters) {}

  get size(): number {
    return this.count;
  }

  get(namespace: string | undefined, name: string): T | undefined {
    return this.byNamespace.get(namespace ?? '')?.get(name);
  }

  /** Objects in `namespace` (all namespaces when undefined) passing `predicate`, sorted by namespace/name. */
  list(namespace?: string, predicate?: (obj: T) => boolean): T[] {
    const spaces = namespace === undefined ? [...this.byNamespace.keys()].sort() : [namespace];
    const out: T[] = [];
    for (const ns of spaces) {
      const objs = this.byNamespace.get(ns);
      if (objs === undefined) continue;
      this.counters?.count('informer.objectsRead', objs.size);
      for (const name of [...objs.keys()].sort()) {
        const obj = objs.get(name)!;
        if (predicate === undefined || predicate(obj)) out.push(obj);
      }
    }
    return out;
  }

  /**
   * Registers the index `name` (indexing what is cached already) unless it exists. Index functions must
   * be pure functions of the object, since cached objects are never mutated.
   */
  // upstream: client-go/tools/cache/thread_safe_store.go AddIndexers
  addIndex(name: string, fn: IndexFunc): void {
    if (this.indexes.has(name)) return;
    const index = new Index(fn);
    for (const [namespace, objs] of this.byNamespace) for (const [n, obj] of objs) index.add(keyOf(namespace, n), { namespace, name: n }, obj);
    this.indexes.set(name, index);
  }

  /** Objects whose index `name` yields `value`, sorted by namespace/name; [] when there is no such index. */
  // upstream: client-go/tools/cache/thread_safe_store.go ByIndex
  byIndex(name: string, value: string): T[] {
    const index = this.indexes.get(name);
    if (index === undefined) return [];
    const refs = index.refs(value);
    this.counters?.count('informer.objectsRead', refs.length);
    return refs.map((r) => this.byNamespace.get(r.namespace)!.get(r.name)!);
  }

  upsert(obj: T): CacheDelta<T> {
    const ns = obj.metadata.namespace ?? '';
    const name = obj.metadata.name ?? '';
    let objs = this.byNamespace.get(ns);
    if (objs === undefined) {
      objs = new Map();
      this.byNamespace.set(ns, objs);
    }
    const old = objs.get(name);
    objs.set(name, obj);
    const key = keyOf(ns, name);
    for (const index of this.indexes.values()) {
      if (old === undefined) index.add(key, { namespace: ns, name }, obj);
      else index.update(key, { namespace: ns, name }, old, obj);
    }
    if (old === undefined) {
      this.count++;
      return { type: 'add', obj };
    }
    return { type: 'update', old, obj };
  }

  /** Removes the object; the delta carries the last known state (a tombstone), or undefined if absent. */
  remove(obj: T): CacheDelta<T> | undefined {
    const ns = obj.metadata.namespace ?? '';
    const objs = this.byNamespace.get(ns);
    const old = objs?.get(obj.metadata.name ?? '');
    if (objs === undefined || old === undefined) return undefined;
    objs.delete(obj.metadata.name ?? '');
    for (const index of this.indexes.values()) index.remove(keyOf(ns, obj.metadata.name ?? ''), old);
    if (objs.size === 0) this.byNamespace.delete(ns);
    this.count--;
    return { type: 'delete', obj: old };
  }

  /**
   * Makes the cache's content in `namespace` (every namespace when undefined) equal to `items`, as after a
   * relist. Unchanged objects (same resourceVersion) produce no delta.
   */
  replace(namespace: string | undefined, items: T[]): CacheDelta<T>[] {
    const deltas: CacheDelta<T>[] = [];
    const keep = new Set(items.map((o) => `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`));
    for (const old of this.list(namespace)) {
      if (!keep.has(`${old.metadata.namespace ?? ''}/${old.metadata.name ?? ''}`)) {
        const d = this.remove(old);
        if (d !== undefined) deltas.push(d);
      }
    }
    for (const obj of items) {
      const cur = this.get(obj.metadata.namespace, obj.metadata.name ?? '');
      if (cur !== undefined && cur.metadata.resourceVersion === obj.metadata.resourceVersion) continue;
      deltas.push(this.upsert(obj));
    }
    return deltas;
  }
}
