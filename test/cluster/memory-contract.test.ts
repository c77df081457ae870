// The ClusterClient contract, run against the in-memory API server on virtual time.

import { runClusterContract } from '../../src/cluster/contract.js';
import { newEnv } from './helpers.js';

runClusterContract({
  name: 'in-memory API server',
  async newCluster() {
    const { clock, cluster } = newEnv();
    return {
      client: cluster,
      advance: (ms) => clock.advance(ms),
      expireHistory: async () => cluster.compact(),
      async close() {},
    };
  },
});
