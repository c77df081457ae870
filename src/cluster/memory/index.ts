// createMemoryCluster: the in-memory API server behind the `ClusterClient` port, for the simulator and
// tests. Time comes only from the injected Timers and randomness only from the injected `random`.

import { Resources } from '../../api/client.js';
import { isAlreadyExists } from '../../api/errors.js';
import { createClientView } from './client-view.js';
import { FaultInjector } from './faults.js';
import { defaultRandom } from './names.js';
import { ApiServer } from './server.js';
import type { FaultConfig, MemoryCluster, MemoryClusterOptions, MemorySnapshot } from './types.js';

export type * from './types.js';

/** Writes through the cluster object itself are attributed to this actor. */
export const ADMIN_ACTOR = 'admin';

export function createMemoryCluster(opts: MemoryClusterOptions): MemoryCluster {
  const random = opts.random ?? defaultRandom();
  const server = new ApiServer({
    timers: opts.timers,
    features: opts.features,
    random,
    watchHistory: opts.watchHistory ?? 1000,
    gcDelayMs: opts.gcDelayMs ?? 100,
  });
  const client = (identity: string, faults?: FaultConfig) =>
    createClientView(server, opts.timers, identity, new FaultInjector(faults, random));
  const admin = client(ADMIN_ACTOR);
  return {
    ...admin,
    client,
    onWrite: (listener) => server.commits.onWrite(listener),
    snapshot: () => snapshotOf(server),
    async addNode(name) {
      try {
        await admin.create(Resources.nodes, { apiVersion: 'v1', kind: 'Node', metadata: { name } });
      } catch (e) {
        if (!isAlreadyExists(e)) throw e;
      }
    },
    compact: () => server.compact(),
    closeWatches: ({ identity, error } = {}) => server.closeWatches((s) => identity === undefined || s.identity === identity, error),
  };
}

function snapshotOf(server: ApiServer): MemorySnapshot {
  const resources: MemorySnapshot['resources'] = {};
  for (const res of server.store.knownResources()) {
    const items = server.store.list(res);
    if (items.length > 0) resources[res.group ? `${res.plural}.${res.group}` : res.plural] = structuredClone(items);
  }
  return { resourceVersion: String(server.store.currentRevision()), resources };
}
