// `dashboard [--address 127.0.0.1:PORT] [-n NS | -A]`: a local web page of the rollouts, live over the
// informers' watches, on the user's own kubeconfig credentials (it can do nothing kubectl could not): every set
// with its rollout state; the selected set's pods on the report's timeline, its step, ETA, `why`, `plan` and
// Events; buttons that run the plugin's `rollout` commands (a dry run shown for confirmation first) and a
// forecast of a proposed change. Served by this process alone (node:http; the page loads nothing else),
// on loopback unless `--allow-remote`. Runs until SIGINT or SIGTERM; exit 1 when it cannot listen or when
// nothing could be listed (the first line of each error is printed). See cli/dashboard/.

import type { Command } from 'commander';
import { FeatureGateError, type Features } from '../../api/features.js';
import { withCluster } from '../explain/command-runner.js';
import { processIO } from '../explain/io.js';
import { featuresFrom } from '../explain/plan-now.js';
import { DEFAULT_ADDRESS, ListenAddressError, parseListenAddress, remoteRefusal, type ListenAddress } from '../dashboard/listen-address.js';
import { addKubeFlags, type KubeFlags } from '../kube-flags.js';

export interface DashboardOptions {
  address?: string;
  allowRemote?: boolean;
  allNamespaces?: boolean;
  featureGates?: string;
}

/** Resolves on SIGINT or SIGTERM. */
function untilStopped(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop).off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop).on('SIGTERM', stop);
  });
}

export async function dashboardCommand(opts: DashboardOptions & KubeFlags): Promise<number> {
  let address: ListenAddress;
  let features: Features;
  try {
    address = parseListenAddress(opts.address ?? DEFAULT_ADDRESS);
    features = featuresFrom(opts.featureGates);
  } catch (e) {
    if (!(e instanceof ListenAddressError || e instanceof FeatureGateError)) throw e;
    processIO.stderr(`error: ${e.message}\n`);
    return 1;
  }
  const refused = remoteRefusal(address, opts.allowRemote === true);
  if (refused !== undefined) {
    processIO.stderr(`error: ${refused}\n`);
    return 1;
  }
  const stopped = untilStopped();
  // Loaded here, not at the top: the server, the informers and the planner are this command's alone.
  const { serveDashboard } = await import('../dashboard/serve.js');
  return withCluster(opts, (deps) => serveDashboard(deps, address, features, opts, stopped));
}

export function register(program: Command): void {
  addKubeFlags(
    program
      .command('dashboard')
      .description('serve a live web page of the rollouts (sets, pods on a timeline, step, ETA, why, plan, events, forecast, and the rollout actions) on your kubeconfig credentials'),
  )
    .option('--address <host:port>', 'where to serve the page (port 0: any free port)', DEFAULT_ADDRESS)
    .option('--allow-remote', 'allow an --address other than loopback: anyone who can reach it acts with your credentials')
    .option('-A, --all-namespaces', 'show the sets of every namespace (default: --namespace, else the context\'s)')
    .option('--feature-gates <gates>', 'the controller\'s feature gates for why and plan, e.g. MaxUnavailableStatefulSet=false')
    .action(async (opts: DashboardOptions & KubeFlags) => {
      process.exitCode = await dashboardCommand(opts);
    });
}
