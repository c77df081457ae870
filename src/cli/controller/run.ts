// `ordinal controller` at run time: the kube client, the controller runtime, optional Lease leader
// election, /healthz + /readyz and /metrics servers, and signal handling. Shutdown order, as
// controller-runtime's manager: stop taking work and drain in-flight syncs (bounded by
// --graceful-shutdown-timeout), then release the Lease, so a successor never acts while our last
// syncs are still writing; then close the servers. Losing the Lease stops at once (exit 1).

import { randomUUID } from 'node:crypto';
import { createKubeClient, type KubeClient, type KubeClientOptions } from '../../cluster/kube/index.js';
import { sleep, type Timers } from '../../runtime/clock.js';
import { createStatefulSetController, type StatefulSetController } from '../../runtime/statefulset-controller-factory.js';
import { createEventRecorder } from '../../runtime/event-recorder.js';
import { httpProbePort } from '../../runtime/http-probe.js';
import { createLeaderElector, type LeaderElector } from '../../runtime/leader-election.js';
import { startHealthServer, startMetricsServer, type RunningServer } from '../../runtime/health.js';
import { createControllerMetrics, type ControllerMetrics } from '../../runtime/metrics.js';
import { holdProcessOpen, realRandom, realTimers } from '../../runtime/real-clock.js';
import { createLogger } from './pino-logger.js';
import type { ControllerConfig } from './controller-options.js';

type Signal = 'SIGTERM' | 'SIGINT';

export interface RunDeps {
  onSignal(signal: Signal, handler: () => void): void;
  hostname: string;
  /** Log sink (default stderr). */
  logWrite?: (text: string) => void;
  timers?: Timers;
  random?: () => number;
  createClient?: (opts: KubeClientOptions) => KubeClient;
  /** Called on a second signal: leave now, without draining. */
  forceExit(code: number): void;
  /** Ordinal's version, for ordinal_build_info. */
  version?: string;
}

export interface RunningController {
  /** Resolves with the process exit code once shutdown has finished. */
  exited: Promise<number>;
  /** The bound ports (0-port binds resolved), for tests. */
  ports: { metrics?: number; health?: number };
  /** Starts a graceful shutdown as a signal would. */
  shutdown(): void;
}

export async function runController(config: ControllerConfig, deps: RunDeps): Promise<RunningController> {
  // The injected real timers are unref'd; with both endpoints disabled and every watch in backoff nothing
  // else would keep the process alive until shutdown.
  const release = holdProcessOpen();
  const proc = new ControllerProcess(config, deps);
  void proc.exited.then(release);
  await proc.start().catch((e: unknown) => {
    release();
    throw e;
  });
  return { exited: proc.exited, ports: proc.ports, shutdown: () => void proc.shutdown(0, 'shutdown requested') };
}

class ControllerProcess {
  readonly exited: Promise<number>;
  readonly ports: { metrics?: number; health?: number } = {};
  private resolveExit!: (code: number) => void;
  private readonly log;
  private readonly timers: Timers;
  private readonly random: () => number;
  private readonly client: KubeClient;
  private readonly metrics: ControllerMetrics;
  private readonly controller: StatefulSetController;
  private elector: LeaderElector | undefined;
  private servers: RunningServer[] = [];
  private stopping = false;

  constructor(
    private readonly config: ControllerConfig,
    private readonly deps: RunDeps,
  ) {
    this.exited = new Promise((resolve) => (this.resolveExit = resolve));
    this.log = createLogger(config.logFormat, config.logLevel, deps.logWrite);
    this.timers = deps.timers ?? realTimers();
    this.random = deps.random ?? realRandom;
    const clientOpts: KubeClientOptions = { qps: config.qps, burst: config.burst, timers: this.timers, random: this.random, logger: this.log };
    if (config.kubeconfig !== undefined) clientOpts.kubeconfig = config.kubeconfig;
    this.client = (deps.createClient ?? createKubeClient)(clientOpts);
    this.metrics = createControllerMetrics({ processMetrics: true, ...(deps.version !== undefined ? { version: deps.version } : {}) });
    this.controller = this.buildController();
  }

  private buildController(): StatefulSetController {
    const { config, client, timers, log } = this;
    // Events have a request budget of their own: they never hold up a pod or status write.
    const events = createEventRecorder({
      client: client.withOwnBudget(),
      clock: timers,
      component: 'ordinal-controller',
      host: this.deps.hostname,
      logger: log,
      onDropped: (type) => this.metrics.eventDropped(type),
    });
    return createStatefulSetController({
      client,
      timers,
      features: config.features,
      target: config.target,
      ...(config.namespaces ? { namespaces: config.namespaces } : {}),
      workers: config.concurrentSyncs,
      metrics: this.metrics,
      events,
      logger: log,
      random: this.random,
      // staged rollouts' HTTP analysis: this process makes the GETs itself
      probePort: httpProbePort(timers),
    });
  }

  async start(): Promise<void> {
    const { config } = this;
    this.log.info(
      { server: this.client.server, target: config.target, namespaces: config.namespaces ?? 'all', workers: config.concurrentSyncs, leaderElection: config.leaderElection ?? false },
      'starting ordinal controller',
    );
    for (const sig of ['SIGTERM', 'SIGINT'] as const) this.deps.onSignal(sig, () => this.onSignal(sig));
    await this.startServers();
    if (config.leaderElection) this.startElection(config.leaderElection);
    else void this.runController();
  }

  private async startServers(): Promise<void> {
    const { metrics, health } = this.config;
    if (health) {
      const s = await startHealthServer({ ...health, healthz: () => true, readyz: () => this.ready() });
      this.ports.health = s.port;
      this.servers.push(s);
    }
    if (metrics) {
      const s = await startMetricsServer({ ...metrics, registry: this.metrics.registry });
      this.ports.metrics = s.port;
      this.servers.push(s);
    }
  }

  /** Ready: caches synced while leading; a standby candidate is ready too (it serves probes and metrics). */
  private ready(): boolean {
    if (this.stopping) return false;
    if (this.elector && !this.elector.isLeader()) return true;
    return this.controller.hasSynced();
  }

  private startElection(le: { namespace: string; id: string }): void {
    const identity = `${this.deps.hostname}_${randomUUID()}`;
    this.metrics.leaderStatus(le.id, false);
    this.elector = createLeaderElector({
      client: this.client,
      timers: this.timers,
      namespace: le.namespace,
      name: le.id,
      identity,
      random: this.random,
      logger: this.log,
      onStartedLeading: () => {
        this.metrics.leaderStatus(le.id, true);
        void this.runController(); // the elector logs 'became leader'
      },
      onStoppedLeading: () => {
        this.metrics.leaderStatus(le.id, false);
        if (this.stopping) return;
        this.log.error({ lease: `${le.namespace}/${le.id}`, identity }, 'leader election lost');
        void this.shutdown(1, 'leader election lost', false);
      },
      onNewLeader: (holder) => this.log.info({ holder }, 'new leader observed'),
    });
    this.elector.start();
  }

  private async runController(): Promise<void> {
    try {
      await this.controller.start();
    } catch (e) {
      this.log.error({ err: e }, 'controller failed to start');
      void this.shutdown(1, 'controller failed to start', false);
    }
  }

  private onSignal(sig: Signal): void {
    if (this.stopping) {
      this.log.warn({ signal: sig }, 'second signal: exiting without draining');
      this.deps.forceExit(1);
      return;
    }
    void this.shutdown(0, `received ${sig}`);
  }

  async shutdown(code: number, reason: string, drain = true): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.log.info({ reason, drain }, 'shutting down');
    const stopped = this.controller.stop({ drain }).then(() => 'stopped' as const);
    const limit = sleep(this.timers, this.config.gracefulShutdownTimeoutMs).then(() => 'timeout' as const);
    if ((await Promise.race([stopped, limit])) === 'timeout') {
      this.log.warn({ timeoutMs: this.config.gracefulShutdownTimeoutMs }, 'graceful shutdown timed out; in-flight syncs abandoned');
    }
    await this.elector?.stop().catch((e: unknown) => this.log.warn({ err: e }, 'could not release the lease'));
    await Promise.all(this.servers.map((s) => s.close()));
    this.client.close();
    this.log.info({ code }, 'stopped');
    this.resolveExit(code);
  }
}
