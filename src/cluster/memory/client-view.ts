// One actor's view of the in-memory API server: the `ClusterClient` port (plus /scale) whose writes
// are attributed to `identity` and whose requests pass through that actor's fault injector first.
// Every method settles through plain promises; nothing waits on real time.

import type { ClusterClient, Resource, WatchHandle, WatchHandlers } from '../../api/client.js';
import type { KubeObject } from '../../api/types.js';
import type { Timers } from '../../runtime/clock.js';
import type { FaultInjector } from './faults.js';
import { getScale, updateScale } from './scale.js';
import type { ApiServer } from './server.js';
import type { FaultVerb, MemoryClusterClient, Scale } from './types.js';

export function createClientView(server: ApiServer, timers: Timers, identity: string, faults: FaultInjector): MemoryClusterClient {
  const guard = (verb: FaultVerb, res: Resource, name: string): void => {
    const error = faults.failure(verb, res, name);
    if (error) throw error;
  };
  const view: ClusterClient & MemoryClusterClient = {
    identity,
    async get<T extends KubeObject>(res: Resource, ns: string | undefined, name: string) {
      guard('get', res, name);
      return server.get(res, ns, name) as T;
    },
    async list<T extends KubeObject>(res: Resource, ns: string | undefined, opts?: { labelSelector?: string }) {
      guard('list', res, '');
      const out = server.list(res, ns, opts);
      return { items: out.items as T[], resourceVersion: out.resourceVersion };
    },
    async create<T extends KubeObject>(res: Resource, obj: T) {
      guard('create', res, obj.metadata?.name ?? obj.metadata?.generateName ?? '');
      return server.create(identity, res, obj) as T;
    },
    async update<T extends KubeObject>(res: Resource, obj: T) {
      guard('update', res, obj.metadata?.name ?? '');
      return server.replace(identity, 'update', res, obj, 'main') as T;
    },
    async updateStatus<T extends KubeObject>(res: Resource, obj: T) {
      guard('updateStatus', res, obj.metadata?.name ?? '');
      return server.replace(identity, 'updateStatus', res, obj, 'status') as T;
    },
    async patch<T extends KubeObject>(res: Resource, ns: string | undefined, name: string, merge: unknown) {
      guard('patch', res, name);
      return server.patch(identity, res, ns, name, merge) as T;
    },
    async delete(res, ns, name, opts) {
      guard('delete', res, name);
      server.delete(identity, res, ns, name, opts);
    },
    watch<T extends KubeObject>(res: Resource, ns: string | undefined, rv: string, handlers: WatchHandlers<T>): WatchHandle {
      const error = faults.failure('watch', res, '');
      if (error) {
        const id = timers.at(timers.now(), () => handlers.onClose(error), `watch refused ${identity}`);
        return { stop: () => timers.cancel(id) };
      }
      return server.watch(identity, res, ns, rv, handlers as WatchHandlers<KubeObject>, faults);
    },
    async getScale(res: Resource, ns: string, name: string): Promise<Scale> {
      guard('get', res, name);
      return getScale(server, res, ns, name);
    },
    async updateScale(res: Resource, ns: string, name: string, scale: Scale): Promise<Scale> {
      guard('update', res, name);
      return updateScale(server, identity, res, ns, name, scale);
    },
  };
  return view;
}
