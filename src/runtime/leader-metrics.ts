// Leader election's metric, client-go's name (leaderelection/metrics.go): 1 while this process leads the
// Lease `name`, 0 otherwise. In a registry of the caller's (the controller's), beside its own metrics.

import { Gauge, type Registry } from 'prom-client';

export interface LeaderMetrics {
  set(leading: boolean): void;
}

// upstream: client-go/tools/leaderelection/metrics.go leader_election_master_status
export function createLeaderMetrics(registry: Registry, name: string): LeaderMetrics {
  const status = new Gauge({
    name: 'leader_election_master_status',
    help: 'Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. \'name\' is the string used to identify the lease.',
    labelNames: ['name'],
    registers: [registry],
  });
  status.set({ name }, 0);
  return { set: (leading) => status.set({ name }, leading ? 1 : 0) };
}
