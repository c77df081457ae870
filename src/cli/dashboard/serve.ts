// Serving the dashboard (`kubectl ordinal dashboard`, cli/commands/dashboard.ts): the cluster view's informers,
// the model, the view stream and the HTTP server wired together on the user's client (createDashboard, which
// starts nothing; tests use it on the in-memory cluster), then listening on the address given until `stopped`.
// Loaded by the command only when it runs, so that the CLI's start-up does not pay for it.

import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Features } from '../../api/features.js';
import { realRandom } from '../../runtime/real-clock.js';
import type { CommandDeps } from '../explain/command-runner.js';
import { ClusterView } from './cluster-view.js';
import { DashboardModel } from './dashboard-model.js';
import { createDashboardServer } from './dashboard-server.js';
import { ForecastPanel } from './forecast-panel.js';
import { allowedHosts, hostPort, remoteWarning, type ListenAddress } from './listen-address.js';
import type { Guard } from './request-guard.js';
import { ViewStream } from './view-stream.js';

export interface DashboardSetup {
  /** Watched namespaces; empty: all. */
  namespaces: string[];
  /** The token the page's writes must carry (request-guard.ts). */
  token: string;
  features: Features;
  /** Uniform in [0, 1), for the reflectors' reconnect jitter. */
  random: () => number;
}

export interface Dashboard {
  view: ClusterView;
  stream: ViewStream;
  server: Server;
  /** Its `hosts` are set once the server listens (listen-address.ts allowedHosts). */
  guard: Guard;
  /** Stops the stream and the informers and closes the server. */
  close(): Promise<void>;
}

/** The dashboard's parts on `deps`' client, wired and not started (the informers start with `view.start()`). */
export function createDashboard(deps: CommandDeps, setup: DashboardSetup): Dashboard {
  const view = new ClusterView({ client: deps.client, timers: deps.timers, namespaces: setup.namespaces, random: setup.random });
  const onError = (e: unknown) => deps.io.stderr(`error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  const changed = () => stream.changed();
  const model = new DashboardModel(view, deps.timers, setup.features, changed);
  const stream: ViewStream = new ViewStream((selected) => model.snapshot(selected), deps.timers, onError);
  model.start();
  view.onChange(changed);
  const guard: Guard = { hosts: undefined, token: setup.token };
  const page = { token: setup.token, context: deps.context ?? 'in-memory', namespaces: setup.namespaces };
  const forecast = new ForecastPanel(deps.client, deps.timers);
  const audit = (line: string) => deps.io.stdout(`${line}\n`);
  const server = createDashboardServer({ client: deps.client, timers: deps.timers, model, stream, forecast, page, guard: () => guard, onError, audit });
  const close = async () => {
    stream.stop();
    view.stop();
    server.closeAllConnections();
    if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { view, stream, server, guard, close };
}

/** Listens on `address`; the port (the one the system picked for port 0). */
export function listen(d: Dashboard, address: ListenAddress): Promise<number> {
  return new Promise((resolve, reject) => {
    d.server.once('error', reject);
    d.server.listen(address.port, address.host, () => {
      d.server.off('error', reject);
      const port = (d.server.address() as AddressInfo).port;
      d.guard.hosts = allowedHosts(address, port);
      resolve(port);
    });
  });
}

/** Whether any set or pod list succeeded; if none did, each error's first line is printed. */
function reportProblems(deps: CommandDeps, d: Dashboard): boolean {
  const listed = [...d.view.sets.values(), d.view.pods].some((i) => i.hasSynced());
  for (const p of d.view.problems()) deps.io.stderr(`${listed ? 'note' : 'error'}: ${p.split('\n')[0] ?? ''}\n`);
  return listed;
}

/** Serves the dashboard on `address` until `stopped` resolves; the exit code. */
export async function serveDashboard(deps: CommandDeps, address: ListenAddress, features: Features, opts: { allNamespaces?: boolean }, stopped: Promise<void>): Promise<number> {
  const namespaces = opts.allNamespaces ? [] : [deps.namespace];
  // A random token per run, from the operating system's CSPRNG: it proves that a write comes from the page this run served.
  const d = createDashboard(deps, { namespaces, token: randomBytes(24).toString('base64url'), features, random: realRandom });
  try {
    let port: number;
    try {
      port = await listen(d, address);
    } catch (e) {
      deps.io.stderr(`error: cannot listen on ${hostPort(address.host, address.port)}: ${(e as Error).message} (pick another with --address HOST:PORT)\n`);
      return 1;
    }
    d.view.start();
    await Promise.race([d.view.waitForSync(), stopped]);
    if (!reportProblems(deps, d)) return 1;
    const context = deps.context ?? 'in-memory';
    const warning = remoteWarning({ ...address, port }, context);
    if (warning !== undefined) deps.io.stderr(`${warning}\n`);
    const scope = namespaces.length === 0 ? 'all namespaces' : `namespace ${namespaces.join(', ')}`;
    const host = address.host === '0.0.0.0' || address.host === '::' ? 'localhost' : address.host;
    deps.io.stdout(`Ordinal dashboard of context ${context}, ${scope}: http://${hostPort(host, port)}/ (Ctrl-C stops it)\n`);
    await stopped;
    return 0;
  } finally {
    await d.close();
  }
}
