// client-go's leader-election metric under kube-controller-manager's name (component-base
// metrics/prometheus/clientgo/leaderelection): `leader_election_master_status{name}`, 1 while this process
// holds the Lease `name`, 0 while it is a candidate (set to 0 when the elector is made, as client-go's
// NewLeaderElector does), so a leader change shows as the gauge moving on two processes.

import { Gauge, type Registry } from 'prom-client';

export class LeaderElectionMetrics {
  private readonly status: Gauge<'name'>;

  constructor(registry: Registry) {
    this.status = new Gauge({
      name: 'leader_election_master_status',
      help: "Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. 'name' is the string used to identify the lease. Please make sure to group by name.",
      labelNames: ['name'],
      registers: [registry],
    });
  }

  // upstream: client-go/tools/leaderelection/metrics.go leaderOn, leaderOff
  set(lease: string, leading: boolean): void {
    this.status.set({ name: lease }, leading ? 1 : 0);
  }
}
