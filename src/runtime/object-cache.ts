// The informer's store: objects by namespace and name. Lists come back sorted by namespace/name, so no
// consumer depends on Map insertion order (style.md T3).

import type { KubeObject } from '../api/types.js';

/** What changed when the cache was written; `old` is the object it replaced or removed. */
export type CacheDelta<T> =
  | { type: 'add'; obj: T }
  | { type: 'update'; old: T; obj: T }
  | { type: 'delete'; obj: T };

export class ObjectCache<T extends KubeObject> {
  private readonly byNamespace = new Map<string, Map<string, T>>();
  private count = 0;

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
      for (const name of [...objs.keys()].sort()) {
        const obj = objs.get(name)!;
        if (predicate === undefined || predicate(obj)) out.push(obj);
      }
    }
    return out;
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
