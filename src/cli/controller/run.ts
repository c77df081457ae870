// `ordinal controller` at run time: the kube client, the controller runtime, optional Lease leader
// election, /healthz + /readyz and /metrics servers, and signal handling. Shutdown order, as
// controller-runtime's manager: stop taking work and drain in-flight syncs (bounded by
// --graceful-shutdown-timeout), then release the Lease, so a successor never acts while our last
// syncs are still writing; then close the servers. Losing the Lease stops at once, as
// kube-controller-manager exits after `leaderelection lost` (exit 1): the write fence has already shut (no
// write goes out after it), every connection is reset so that nothing queued in a socket reaches the server
// later, syncs under way and queued Events are dropped, and the process leaves within LOST_EXIT_MS.

import { randomUUID } from 'node:crypto';
import { createKubeClient, type KubeClient, type KubeClientOptions } from '../../cluster/kube/index.js';
import { sleep, type Timers } from '../../runtime/clock.js';
import { createStatefulSetController, type StatefulSetController } from '../../runtime/statefulset-controller-factory.js';
import { createEventRecorder } from '../../runtime/event-recorder.js';
import { probePortByKind } from '../../runtime/analysis-prober.js';
import { httpProbePort } from '../../runtime/http-probe.js';
import { prometheusProbePort } from '../../runtime/prometheus-probe.js';
import { createLeaderElector, type LeaderElector } from '../../runtime/leader-election.js';
import { OPEN_FENCE, type WriteFence } from '../../runtime/lease-fence.js';
import { startHealthServer, startMetricsServer, type RunningServer } from '../../runtime/health.js';
import { createControllerMetrics, type ControllerMetrics } from '../../runtime/metrics.js';
import type { Clock } from '../../runtime/clock.js';
import { holdProcessOpen, monotonicClock, realRandom, realTimers } from '../../runtime/real-clock.js';
import { createLogger } from './pino-logger.js';
import type { ControllerConfig, LeaderElectionConfig } from './controller-options.js';

type Signal = 'SIGTERM' | 'SIGINT';

export interface RunDeps {
  onSignal(signal: Signal, handler: () => void): void;
  hostname: string;
  /** Log sink (default stderr). */
  logWrite?: (text: string) => void;
  timers?: Timers;
  /** Monotonic time for the Lease's renew deadline (default: the process's monotonic clock). */
  monotonic?: Clock;
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

/** The fairness flow of Event writes (a sync's flow is its set's key, `namespace/name`, which never looks like this). */
const EVENTS_FLOW = 'events:';

/** How long a controller that lost its Lease waits for its syncs to unwind before it exits anyway. */
export const LOST_EXIT_MS = 1000;

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
  /** `host_uuid`: the Lease holder identity, also in the user agent so the API server's audit log tells processes apart. */
  private readonly identity: string;
  private readonly elector: LeaderElector | undefined;
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
    this.identity = `${deps.hostname}_${randomUUID()}`;
    // kube-apiserver names a write's field manager after the user agent up to its first '/': ordinal-controller
    const tuning = { userAgent: `ordinal-controller/${deps.version ?? 'dev'} (${this.identity})` };
    const clientOpts: KubeClientOptions = { qps: config.qps, burst: config.burst, timers: this.timers, random: this.random, logger: this.log, tuning };
    if (config.kubeconfig !== undefined) clientOpts.kubeconfig = config.kubeconfig;
    this.client = (deps.createClient ?? createKubeClient)(clientOpts);
    this.metrics = createControllerMetrics({ processMetrics: true, ...(deps.version !== undefined ? { version: deps.version } : {}) });
    this.elector = config.leaderElection && this.buildElector(config.leaderElection);
    this.controller = this.buildController(this.elector?.fence ?? OPEN_FENCE);
  }

  private buildController(fence: WriteFence): StatefulSetController {
    const { config, client, timers, log } = this;
    // Events share the request budget as a flow of their own (kube-controller-manager's recorder shares its
    // controller's client): they take their turn beside the sets', so they never hold up a set's writes, and
    // when the budget is saturated they queue and the recorder drops beyond 1,000, as client-go's does.
    // Those still queued when the fence shuts are dropped with it.
    const events = createEventRecorder({
      client: client.withScope({ flow: EVENTS_FLOW, fence, signal: fence.signal }),
      clock: timers,
      component: 'ordinal-controller',
      host: this.deps.hostname,
      logger: log,
      onDropped: (type) => this.metrics.eventDropped(type),
      fence,
    });
    return createStatefulSetController({
      fence,
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
      // staged rollouts' analyses: this process makes the GETs and the Prometheus queries itself
      probePort: probePortByKind({ http: httpProbePort(timers), prometheus: prometheusProbePort(timers) }),
    });
  }

  async start(): Promise<void> {
    const { config } = this;
    this.log.info(
      { server: this.client.server, identity: this.identity, target: config.target, namespaces: config.namespaces ?? 'all', workers: config.concurrentSyncs, leaderElection: config.leaderElection ?? false },
      'starting ordinal controller',
    );
    for (const sig of ['SIGTERM', 'SIGINT'] as const) this.deps.onSignal(sig, () => this.onSignal(sig));
    await this.startServers();
    if (this.elector) this.elector.start();
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

  private buildElector(le: LeaderElectionConfig): LeaderElector {
    const { identity } = this;
    this.metrics.leaderStatus(le.id, false);
    return createLeaderElector({
      // renewals have a budget of their own: a set's thousand queued writes must not cost the Lease
      client: this.client.withOwnBudget(),
      timers: this.timers,
      monotonic: this.deps.monotonic ?? monotonicClock,
      namespace: le.namespace,
      name: le.id,
      identity,
      leaseDurationMs: le.leaseDurationMs,
      renewDeadlineMs: le.renewDeadlineMs,
      retryPeriodMs: le.retryPeriodMs,
      random: this.random,
      logger: this.log,
      onStartedLeading: () => {
        this.metrics.leaderStatus(le.id, true);
        void this.runController(); // the elector logs 'became leader'
      },
      onStoppedLeading: () => {
        this.metrics.leaderStatus(le.id, false);
        if (this.stopping) return;
        // the fence shut before this runs; what is still queued in a socket must not reach the server
        this.client.resetConnections();
        this.log.error({ lease: `${le.namespace}/${le.id}`, identity }, 'leader election lost');
        void this.shutdown(1, 'leader election lost', false);
      },
      onNewLeader: (holder) => this.log.info({ holder }, 'new leader observed'),
    });
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
    const timeoutMs = drain ? this.config.gracefulShutdownTimeoutMs : Math.min(LOST_EXIT_MS, this.config.gracefulShutdownTimeoutMs);
    const stopped = this.controller.stop({ drain }).then(() => 'stopped' as const);
    const limit = sleep(this.timers, timeoutMs).then(() => 'timeout' as const);
    if ((await Promise.race([stopped, limit])) === 'timeout') {
      this.log.warn({ timeoutMs }, drain ? 'graceful shutdown timed out; in-flight syncs abandoned' : 'in-flight syncs abandoned');
    }
    await this.elector?.stop().catch((e: unknown) => this.log.warn({ err: e }, 'could not release the lease'));
    await Promise.all(this.servers.map((s) => s.close()));
    this.client.close();
    this.log.info({ code }, 'stopped');
    this.resolveExit(code);
  }
}
