// One actor's view of the in-memory API server: the `ClusterClient` port (plus /scale) whose writes
// are attributed to `identity` and whose requests pass through that actor's fault injector first.
// Every method settles through plain promises; nothing waits on real time.

import { Resources, type ApplyOptions, type DeleteOptions, type EvictionOptions, type JsonPatchOperation, type ListOptions, type ListResult, type Resource, type WatchHandle, type WatchHandlers, type WriteOptions } from '../../api/client.js';
import type { KubeObject } from '../../api/types.js';
import type { Timers } from '../../runtime/clock.js';
import { evictPod } from './eviction.js';
import type { FaultInjector } from './faults.js';
import { getScale, updateScale } from './scale-subresource.js';
import type { ApiServer } from './server.js';
import type { FaultVerb, MemoryClusterClient, Scale } from './memory-types.js';

export class ClientView implements MemoryClusterClient {
  constructor(
    protected readonly server: ApiServer,
    protected readonly timers: Timers,
    readonly identity: string,
    private readonly faults: FaultInjector,
  ) {}

  async get<T extends KubeObject>(res: Resource, namespace: string | undefined, name: string): Promise<T> {
    this.guard('get', res, name);
    return this.server.get(res, namespace, name) as T;
  }

  async list<T extends KubeObject>(res: Resource, namespace: string | undefined, opts?: ListOptions): Promise<ListResult<T>> {
    this.guard('list', res, '');
    const out = this.server.list(res, namespace, opts);
    return { items: out.items as T[], resourceVersion: out.resourceVersion };
  }

  async create<T extends KubeObject>(res: Resource, obj: T, opts?: Pick<WriteOptions, 'dryRun'>): Promise<T> {
    this.guard('create', res, obj.metadata?.name || obj.metadata?.generateName || '');
    return this.server.create(this.identity, res, obj, opts?.dryRun === true) as T;
  }

  async update<T extends KubeObject>(res: Resource, obj: T, opts?: WriteOptions): Promise<T> {
    this.guard('update', res, obj.metadata?.name ?? '');
    return this.server.replace(this.identity, 'update', res, obj, opts?.subresource ?? 'main', opts?.dryRun === true) as T;
  }

  async updateStatus<T extends KubeObject>(res: Resource, obj: T): Promise<T> {
    this.guard('updateStatus', res, obj.metadata?.name ?? '');
    return this.server.replace(this.identity, 'updateStatus', res, obj, 'status') as T;
  }

  async patch<T extends KubeObject>(res: Resource, namespace: string | undefined, name: string, merge: unknown, opts?: WriteOptions): Promise<T> {
    this.guard('patch', res, name);
    return this.server.patch(this.identity, res, namespace, name, merge, opts) as T;
  }

  async jsonPatch<T extends KubeObject>(res: Resource, namespace: string | undefined, name: string, ops: readonly JsonPatchOperation[], opts?: WriteOptions): Promise<T> {
    this.guard('patch', res, name);
    return this.server.jsonPatch(this.identity, res, namespace, name, ops, opts) as T;
  }

  async apply<T extends KubeObject>(res: Resource, obj: T, opts: ApplyOptions): Promise<T> {
    this.guard('patch', res, obj.metadata?.name ?? ''); // an apply is a PATCH, for faults as on the wire
    return this.server.apply(this.identity, res, obj, opts.fieldManager) as T;
  }

  async delete(res: Resource, namespace: string | undefined, name: string, opts?: DeleteOptions): Promise<void> {
    this.guard('delete', res, name);
    this.server.delete(this.identity, res, namespace, name, opts);
  }

  /** A POST, as faults see it: pods/NAME/eviction creates an Eviction. */
  async evictPod(namespace: string, name: string, opts: EvictionOptions = {}): Promise<void> {
    this.guard('create', Resources.pods, name);
    evictPod(this.server, this.identity, namespace, name, opts, this.timers.now());
  }

  watch<T extends KubeObject>(res: Resource, namespace: string | undefined, resourceVersion: string, handlers: WatchHandlers<T>): WatchHandle {
    this.server.counters?.count('api.requests');
    const error = this.faults.failure('watch', res, '');
    if (error) {
      const id = this.timers.at(this.timers.now(), () => handlers.onClose(error), `watch refused ${this.identity}`);
      return { stop: () => this.timers.cancel(id) };
    }
    return this.server.watch(this.identity, res, namespace, resourceVersion, handlers as WatchHandlers<KubeObject>, this.faults);
  }

  async getScale(res: Resource, namespace: string, name: string): Promise<Scale> {
    this.guard('get', res, name);
    return getScale(this.server, res, namespace, name);
  }

  async updateScale(res: Resource, namespace: string, name: string, scale: Scale): Promise<Scale> {
    this.guard('update', res, name);
    return updateScale(this.server, this.identity, res, namespace, name, scale);
  }

  private guard(verb: FaultVerb, res: Resource, name: string): void {
    this.server.counters?.count('api.requests');
    const error = this.faults.failure(verb, res, name);
    if (error) throw error;
  }
}
