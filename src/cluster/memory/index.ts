// createMemoryCluster: the in-memory API server behind the `ClusterClient` port, for the simulator and
// tests. Time comes only from the injected Timers and randomness only from the injected `random`.

import { cloneJson } from '../../api/validation/json.js';
import { Resources, type Resource } from '../../api/client.js';
import { isAlreadyExists } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import type { Timers } from '../../runtime/clock.js';
import { ClientView } from './client-view.js';
import { FaultInjector } from './faults.js';
import { defaultRandom } from './name-source.js';
import { qualifiedResource } from './messages.js';
import { ApiServer } from './server.js';
import type { FaultConfig, MemoryCluster, MemoryClusterClient, MemoryClusterOptions, MemorySnapshot, WriteListener } from './memory-types.js';

export type * from './memory-types.js';

/** Writes through the cluster object itself are attributed to this actor. */
export const ADMIN_ACTOR = 'admin';

/** Objects of one resource the in-memory API server stores unless told otherwise (MemoryClusterOptions.maxObjects). */
export const DEFAULT_MAX_OBJECTS = 10_000;

/** Resources by the snapshot's key (`plural` or `plural.group`). */
const KNOWN_RESOURCES = new Map<string, Resource>(Object.values(Resources).map((r) => [qualifiedResource(r), r]));

export function createMemoryCluster(opts: MemoryClusterOptions): MemoryCluster {
  const random = opts.random ?? defaultRandom();
  const server = new ApiServer({
    timers: opts.timers,
    features: opts.features,
    random,
    watchHistory: opts.watchHistory ?? 1000,
    gcDelayMs: opts.gcDelayMs ?? 100,
    maxObjects: opts.maxObjects ?? DEFAULT_MAX_OBJECTS,
    ...(opts.counters ? { counters: opts.counters } : {}),
  });
  return new InMemoryCluster(server, opts.timers, random);
}

class InMemoryCluster extends ClientView implements MemoryCluster {
  constructor(
    server: ApiServer,
    timers: Timers,
    private readonly random: () => number,
  ) {
    super(server, timers, ADMIN_ACTOR, new FaultInjector(undefined, random));
  }

  client(identity: string, faults?: FaultConfig): MemoryClusterClient {
    return new ClientView(this.server, this.timers, identity, new FaultInjector(faults, this.random));
  }

  onWrite(listener: WriteListener): () => void {
    return this.server.commits.onWrite(listener);
  }

  snapshot(): MemorySnapshot {
    const resources: MemorySnapshot['resources'] = {};
    for (const res of this.server.store.knownResources()) {
      const items = this.server.store.list(res);
      if (items.length > 0) resources[qualifiedResource(res)] = cloneJson(items);
    }
    return { resourceVersion: String(this.server.store.currentRevision()), resources };
  }

  restore(snapshot: MemorySnapshot, actor = ADMIN_ACTOR): void {
    const objects = Object.entries(snapshot.resources).flatMap(([key, items]) => {
      const res = KNOWN_RESOURCES.get(key);
      if (res === undefined) throw new Error(`cannot restore ${key}: not a resource the in-memory API server knows`);
      return items.map((object) => ({ res, object }));
    });
    this.server.restore(actor, objects);
  }

  /** Creates a Node (by name, or as given) unless it exists. */
  async addNode(node: string | KubeObject): Promise<void> {
    try {
      await this.create(Resources.nodes, typeof node === 'string' ? { apiVersion: 'v1', kind: 'Node', metadata: { name: node } } : structuredClone(node));
    } catch (e) {
      if (!isAlreadyExists(e)) throw e;
    }
  }

  compact(): void {
    this.server.compact();
  }

  closeWatches({ identity, error }: { identity?: string; error?: Error } = {}): void {
    this.server.closeWatches((s) => identity === undefined || s.identity === identity, error);
  }
}
