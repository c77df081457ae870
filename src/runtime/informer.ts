// A shared informer per resource: a cache kept current by list + watch, and add/update/delete handlers
// called in watch order. The constructor does nothing; `start()` begins listing.

import type { ClusterClient, Resource, WatchEvent } from '../api/client.js';
import type { KubeObject } from '../api/types.js';
import type { Timers } from './clock.js';
import type { WorkCounters } from './work-counters.js';
import { noopLogger, type Logger } from './logging-port.js';
import { ObjectCache, type CacheDelta, type IndexFunc } from './object-cache.js';
import type { BackoffPolicy } from './backoff.js';
import { Reflector } from './reflector.js';

export interface InformerHandlers<T> {
  onAdd?(obj: T): void;
  onUpdate?(oldObj: T, newObj: T): void;
  /** `obj` is the last state the cache knew (it may be older than the deletion, as after a relist). */
  onDelete?(obj: T): void;
}

export interface InformerOptions {
  client: ClusterClient;
  resource: Resource;
  /** Watch only these namespaces (one list/watch each); all namespaces when absent or empty. */
  namespaces?: string[];
  labelSelector?: string;
  timers: Timers;
  /** Uniform in [0, 1), for reconnect jitter. */
  random: () => number;
  backoff?: BackoffPolicy;
  logger?: Logger;
  /** Every failed list of a reflector, before it retries (see ReflectorOptions.onListError). */
  onListError?: (err: unknown) => void;
  /** Applied to each object before it is cached (client-go's SetTransform); must not mutate its argument. */
  transform?: <T extends KubeObject>(obj: T) => T;
  /** Counts the objects its cache's lists and index lookups read (the cost guard). */
  counters?: WorkCounters;
}

/**
 * The object without metadata.managedFields, which often outweighs the rest of a pod and which the controller
 * never reads (kube-controller-manager trims them from its informers alike). A copy: cached objects may be
 * shared with their source. An update sent without managedFields keeps the server's.
 */
// upstream: cmd/kube-controller-manager/app/controllermanager.go CreateControllerContext (trim)
export function trimManagedFields<T extends KubeObject>(obj: T): T {
  if (obj.metadata.managedFields === undefined) return obj;
  const { managedFields: _dropped, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

/** What expectations need from a cache: the objects, and how far the watch has come. */
export interface ObservedSource<T extends KubeObject = KubeObject> {
  /** The resource it watches, when it is an informer (what statefulset_controller_stale_sync_skips_total names). */
  readonly resource?: Resource;
  get(namespace: string | undefined, name: string): T | undefined;
  lastSyncResourceVersion(namespace?: string): string;
}

/** Objects handed to handlers and returned by get/list are shared: treat them as read-only. */
// upstream: client-go/tools/cache/shared_informer.go sharedIndexInformer
export class Informer<T extends KubeObject> implements ObservedSource<T> {
  readonly resource: Resource;
  private readonly cache: ObjectCache<T>;
  private readonly handlers = new Set<InformerHandlers<T>>();
  private readonly reflectors = new Map<string | undefined, Reflector<T>>();
  private readonly syncWaiters: ((synced: boolean) => void)[] = [];
  private readonly log: Logger;
  private started = false;

  constructor(private readonly opts: InformerOptions) {
    this.resource = opts.resource;
    this.cache = new ObjectCache<T>(opts.counters);
    this.log = opts.logger ?? noopLogger;
  }

  /** Registers handlers; returns a function that removes them. */
  addHandler(h: InformerHandlers<T>): () => void {
    this.handlers.add(h);
    return () => this.handlers.delete(h);
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    const scopes = this.opts.namespaces?.length ? [...new Set(this.opts.namespaces)].sort() : [undefined];
    for (const ns of scopes) {
      const r = new Reflector<T>({
        ...this.opts,
        namespace: ns,
        sink: { replace: (items) => this.onReplace(ns, items), event: (e) => this.onEvent(e) },
      });
      this.reflectors.set(ns, r);
      r.start();
    }
  }

  stop(): void {
    if (!this.started) return;
    this.started = false;
    for (const r of this.reflectors.values()) r.stop();
    this.reflectors.clear();
    for (const resolve of this.syncWaiters.splice(0)) resolve(false);
  }

  /** True once every namespace scope has completed its first list. */
  hasSynced(): boolean {
    if (this.reflectors.size === 0) return false;
    for (const r of this.reflectors.values()) if (!r.hasSynced()) return false;
    return true;
  }

  /** Resolves true when synced, or false if the informer is stopped first. */
  waitForSync(): Promise<boolean> {
    if (this.hasSynced()) return Promise.resolve(true);
    if (!this.started) return Promise.resolve(false);
    return new Promise((resolve) => this.syncWaiters.push(resolve));
  }

  /** The resourceVersion the watch for `namespace`'s scope has reached ('' before the first list). */
  lastSyncResourceVersion(namespace?: string): string {
    const r = this.reflectors.get(namespace) ?? this.reflectors.get(undefined);
    return r?.lastSyncResourceVersion() ?? '';
  }

  get(namespace: string | undefined, name: string): T | undefined {
    return this.cache.get(namespace, name);
  }

  /** Cached objects, sorted by namespace/name. */
  list(namespace?: string, predicate?: (obj: T) => boolean): T[] {
    return this.cache.list(namespace, predicate);
  }

  /** Adds the index `name` unless it exists (client-go AddIndexers); it also covers what is cached already. */
  addIndex(name: string, fn: IndexFunc): void {
    this.cache.addIndex(name, fn);
  }

  /** Cached objects in bucket `value` of index `name`, sorted by namespace/name. */
  byIndex(name: string, value: string): T[] {
    return this.cache.byIndex(name, value);
  }

  private onReplace(namespace: string | undefined, items: T[]): void {
    const { transform } = this.opts;
    for (const d of this.cache.replace(namespace, transform ? items.map((o) => transform(o)) : items)) this.dispatch(d);
    if (this.hasSynced()) for (const resolve of this.syncWaiters.splice(0)) resolve(true);
  }

  private onEvent(e: WatchEvent<T>): void {
    const obj = this.opts.transform ? this.opts.transform(e.object) : e.object;
    const d = e.type === 'DELETED' ? this.cache.remove(obj) : this.cache.upsert(obj);
    if (d !== undefined) this.dispatch(d);
  }

  private dispatch(d: CacheDelta<T>): void {
    for (const h of [...this.handlers]) {
      try {
        if (d.type === 'add') h.onAdd?.(d.obj);
        else if (d.type === 'update') h.onUpdate?.(d.old, d.obj);
        else h.onDelete?.(d.obj);
      } catch (err) {
        this.log.error({ resource: this.resource.plural, err: String(err) }, 'informer handler failed');
      }
    }
  }
}
