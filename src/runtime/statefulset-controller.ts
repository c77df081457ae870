// The StatefulSet controller's wiring (upstream stateful_set.go): shared informers for sets, pods, claims
// and revisions; event handlers that enqueue set keys; N workers pulling keys from the rate-limited queue
// (the queue serialises each key); expectations gating every sync. Constructing it does nothing;
// `start()` lists, watches and starts the workers; `stop()` drains. Each sync's requests go out as the set's
// own fairness flow (its key) with a signal of its own: deleting the set, stopping without drain or the
// write fence shutting (a lost Lease) stops it before its next request or batch.

import { Resources, type ClusterClient, type Resource } from '../api/client.js';
import type { Features } from '../api/features.js';
import type { AnalysisProbe, AnalysisResult } from '../controller/model/plan-types.js';
import type { ControllerRevision, KubeObject, Node, PersistentVolumeClaim, Pod, PodDisruptionBudget, StatefulSet, StorageClass } from '../api/types.js';
import { AnalysisProber, type ProbePort } from './analysis-prober.js';
import type { Timers } from './clock.js';
import type { EventRecorder } from './event-recorder.js';
import { Expectations, type ObservedChange } from './expectations.js';
import { Informer, trimManagedFields } from './informer.js';
import { noopLogger, type Logger } from './logging-port.js';
import type { ControllerMetrics, ReconcileResult } from './metrics.js';
import { SetDefaults, type Caches } from './observe.js';
import { ReplicaIndexes } from './replica-indexes.js';
import { DurationLearner } from './duration-learner.js';
import type { Planner } from './planner-port.js';
import { keysForClaim, keysForStorageClass } from './claim-handlers.js';
import { keysForBudget } from './disruption-budgets.js';
import { InFlightDisruptions } from './in-flight-disruptions.js';
import { keysForNode, nodeLabelsChanged } from './node-zones.js';
import { keysForPodAdd, keysForPodDelete, keysForPodUpdate } from './pod-handlers.js';
import { controllerRefOf, resourcesFor, SetTargets, type ControllerTarget } from './set-targets.js';
import { OPEN_FENCE, type WriteFence } from './lease-fence.js';
import { scopedClient, scopeRefusal } from './scoped-client.js';
import { syncStatefulSet, type ReconcileOutcome, type SyncDeps } from './reconcile.js';
import { WorkQueue } from './work-queue.js';
import type { WorkCounters } from './work-counters.js';

export interface StatefulSetControllerDeps {
  client: ClusterClient;
  timers: Timers;
  features: Features;
  target: ControllerTarget;
  /** Reconcile only these namespaces (default: all). */
  namespaces?: string[];
  /** Concurrent syncs (upstream --concurrent-statefulset-syncs, default 5). */
  workers?: number;
  metrics: ControllerMetrics;
  events: EventRecorder;
  logger?: Logger;
  /** Uniform in [0, 1): reconnect jitter of the informers. */
  random: () => number;
  planner: Planner;
  expectationsTtlMs?: number;
  /** Called after every sync with its outcome (timelines, tests). */
  onReconcile?(key: string, outcome: ReconcileOutcome): void;
  /** Makes the checks of staged rollouts' analyses (http-probe.ts, prometheus-probe.ts); absent: none are made. */
  probePort?: ProbePort;
  /** Called when an analysis check came back, before the set is queued again (timelines). */
  onAnalysisResult?(set: StatefulSet, probe: AnalysisProbe, result: AnalysisResult): void;
  /** The leader's write fence (lease-fence.ts), consulted before every write; absent: always open (no leader election). */
  fence?: WriteFence;
  /** Counts the informers' and expectations' work (the cost guard). */
  counters?: WorkCounters;
}

/** Why a sync was stopped part-way (its set deleted, the controller stopping): not a failure, not retried. */
export class SyncCancelledError extends Error {
  override name = 'SyncCancelledError';
}

type State = 'new' | 'starting' | 'running' | 'stopping' | 'stopped';

export class StatefulSetController {
  private state: State = 'new';
  private readonly queue: WorkQueue<string>;
  private readonly targets: SetTargets;
  private readonly caches: Caches;
  private readonly indexes: ReplicaIndexes;
  private readonly durations: DurationLearner;
  private readonly defaults = new SetDefaults();
  private readonly expectations: Expectations;
  private readonly prober: AnalysisProber | undefined;
  /** The process's disruptions under PodDisruptionBudgets, shared by every set's sync (with budgets watched). */
  private readonly disruptions: InFlightDisruptions | undefined;
  /** Keys skipped for unobserved writes, in the order they first waited (the order they are rechecked). */
  private readonly waiting = new Map<string, number>();
  private waitingSeq = 0;
  private readonly unsubscribe: (() => void)[] = [];
  private readonly workerDone: Promise<void>[] = [];
  private readonly log: Logger;
  private inFlight = 0;
  /** The signal of each sync under way, by key. */
  private readonly syncs = new Map<string, AbortController>();
  private readonly fence: WriteFence;
  private abandon = false;
  private stopped: Promise<void> | undefined;

  constructor(private readonly deps: StatefulSetControllerDeps) {
    this.log = deps.logger ?? noopLogger;
    this.fence = deps.fence ?? OPEN_FENCE;
    const base = { client: deps.client, timers: deps.timers, random: deps.random, logger: this.log, transform: trimManagedFields, ...(deps.counters ? { counters: deps.counters } : {}) };
    const scope = deps.namespaces ? { namespaces: deps.namespaces } : {};
    const informer = <T extends KubeObject>(resource: Resource) => new Informer<T>({ ...base, ...scope, resource });
    const tag = (r: Resource) => (deps.target === 'both' ? r.group : '');
    this.targets = new SetTargets(resourcesFor(deps.target).map((r) => ({ resource: r, informer: informer<StatefulSet>(r), tag: tag(r) })));
    this.caches = {
      pods: informer<Pod>(Resources.pods),
      claims: informer<PersistentVolumeClaim>(Resources.persistentVolumeClaims),
      revisions: informer<ControllerRevision>(Resources.controllerRevisions),
      // InPlace claim updates (apps.ordinal.dev/v1 only) read whether a class allows expansion; cluster-scoped
      ...(deps.target === 'native' ? {} : { storageClasses: new Informer<StorageClass>({ ...base, resource: Resources.storageClasses }) }),
      // respectPodDisruptionBudgets (apps.ordinal.dev/v1 only) reads the budgets selecting a set's pods
      ...(deps.target === 'native' ? {} : { podDisruptionBudgets: informer<PodDisruptionBudget>(Resources.podDisruptionBudgets) }),
      // topologyKey (apps.ordinal.dev/v1 only) reads the zone of a pod's node; cluster-scoped
      ...(deps.target === 'native' ? {} : { nodes: new Informer<Node>({ ...base, resource: Resources.nodes }) }),
    };
    this.indexes = new ReplicaIndexes(this.caches.pods, this.caches.claims);
    const budgets = this.caches.podDisruptionBudgets;
    this.disruptions = budgets && new InFlightDisruptions({ pods: this.caches.pods, budgets, clock: deps.timers });
    this.durations = new DurationLearner(this.caches.pods, deps.timers);
    const ttl = deps.expectationsTtlMs ? { ttlMs: deps.expectationsTtlMs } : {};
    this.expectations = new Expectations({ clock: deps.timers, ...ttl, ...(deps.counters ? { counters: deps.counters } : {}) });
    this.queue = new WorkQueue<string>({ timers: deps.timers, metrics: deps.metrics.workQueue<string>('statefulset', deps.timers) });
    this.prober = deps.probePort && new AnalysisProber({ port: deps.probePort, timers: deps.timers, logger: this.log, onResult: (key, set, probe, result) => this.analysisResult(key, set, probe, result) });
  }

  /** A check came back: counted, and the set synced again to fold it into its step's analysis. */
  private analysisResult(key: string, set: StatefulSet, probe: AnalysisProbe, result: AnalysisResult): void {
    // a preUpdate hook's GET has its own metrics (ordinal_preupdate_hooks_total), from the pod's hook record
    if (probe.pod === undefined) this.deps.metrics.observeAnalysisCheck(set, probe.kind, result.ok, result.inconclusive !== undefined);
    this.deps.onAnalysisResult?.(set, probe, result);
    this.queue.add(key);
  }

  /** Lists and watches, waits for every cache to sync, then starts the workers. Aborting `signal` stops with drain. */
  async start(signal?: AbortSignal): Promise<void> {
    if (this.state !== 'new') throw new Error(`controller cannot start: it is ${this.state}`);
    this.state = 'starting';
    // a shut fence stops every sync under way at once, before its next request or batch
    this.fence.signal.addEventListener('abort', () => this.cancelSyncs(this.fence.signal.reason as Error), { once: true });
    this.registerHandlers();
    for (const i of this.informers()) i.start();
    const synced = await Promise.all(this.informers().map((i) => i.waitForSync()));
    if (this.state !== 'starting' || !synced.every(Boolean)) return;
    this.state = 'running';
    this.log.info({ target: this.deps.target, workers: this.deps.workers ?? 5 }, 'caches synced; starting workers');
    for (let i = 0; i < (this.deps.workers ?? 5); i++) this.workerDone.push(this.worker());
    if (signal?.aborted) void this.stop({ drain: true });
    else signal?.addEventListener('abort', () => void this.stop({ drain: true }), { once: true });
  }

  /** Stops accepting work; `drain` (default) finishes queued and in-flight syncs first. Idempotent. */
  stop(opts: { drain?: boolean } = {}): Promise<void> {
    this.stopped ??= this.shutDown(opts.drain ?? true);
    return this.stopped;
  }

  /** Nothing to do right now: no key ready in the queue and no sync in flight (delayed keys may be pending). */
  idle(): boolean {
    return this.state === 'stopped' || (this.queue.len() === 0 && this.inFlight === 0);
  }

  /** Every cache has completed its first list (readiness). */
  hasSynced(): boolean {
    return this.informers().every((i) => i.hasSynced());
  }

  /** Queues a set key for a sync (e.g. `default/web`). */
  enqueue(key: string): void {
    this.queue.add(key);
  }

  private async shutDown(drain: boolean): Promise<void> {
    this.state = 'stopping';
    this.abandon = !drain;
    if (!drain) this.cancelSyncs(new SyncCancelledError('the controller is stopping'));
    this.prober?.stop();
    await this.queue.shutDown({ drain });
    await Promise.all(this.workerDone);
    for (const off of this.unsubscribe.splice(0)) off();
    for (const i of this.informers()) i.stop();
    await this.deps.events.flush();
    this.state = 'stopped';
    this.log.info({}, 'controller stopped');
  }

  private informers(): Informer<KubeObject>[] {
    const { pods, claims, revisions, storageClasses, podDisruptionBudgets, nodes } = this.caches;
    const optional = [storageClasses, podDisruptionBudgets, nodes].filter((i) => i !== undefined);
    return [...this.targets.all.map((t) => t.informer), pods, claims, revisions, ...optional] as Informer<KubeObject>[];
  }

  private cancelSyncs(reason: Error): void {
    for (const sync of this.syncs.values()) sync.abort(reason);
  }

  /** One sync's dependencies: its requests carry the set's flow, the sync's signal and the fence. */
  private syncDeps(key: string, signal: AbortSignal): SyncDeps {
    const { timers, features, planner, metrics, events } = this.deps;
    const { targets, caches, indexes, durations, defaults, expectations, log, prober, disruptions } = this;
    const memo = { defaults, indexes, durations, ...(prober ? { analysis: prober } : {}), ...(disruptions ? { disruptions } : {}) };
    const scope = { flow: key, signal, fence: this.fence };
    const client = scopedClient(this.deps.client, scope);
    const halt = () => scopeRefusal(scope, true);
    return { client, clock: timers, features, planner, metrics, events, targets, caches, memo, expectations, logger: log, halt, ...(prober ? { prober } : {}) };
  }

  private async worker(): Promise<void> {
    for (;;) {
      const key = await this.queue.get();
      if (key === undefined) return;
      if (this.abandon) {
        this.queue.done(key);
        return;
      }
      this.inFlight++;
      try {
        await this.process(key);
      } finally {
        this.inFlight--;
        this.queue.done(key);
      }
    }
  }

  private async process(key: string): Promise<void> {
    const started = this.deps.timers.now();
    const sync = new AbortController();
    this.syncs.set(key, sync);
    let outcome: ReconcileOutcome;
    try {
      outcome = await syncStatefulSet(key, this.syncDeps(key, sync.signal));
    } catch (err) {
      // syncStatefulSet reports every expected failure as an outcome: a throw is a bug in Ordinal
      outcome = { kind: 'internalError', error: err instanceof Error ? err : new Error(String(err)) };
      this.log.error({ key, err: outcome.error.message, stack: outcome.error.stack }, 'sync crashed, requeuing');
    } finally {
      this.syncs.delete(key);
    }
    this.requeue(key, outcome);
    this.deps.metrics.observeReconcile(resultOf(outcome), (this.deps.timers.now() - started) / 1000);
    if (outcome.kind === 'internalError') this.deps.metrics.observeInternalError();
    this.deps.onReconcile?.(key, outcome);
  }

  // upstream: stateful_set.go processNextWorkItem (+ requeue at the planner's wakeAt)
  private requeue(key: string, outcome: ReconcileOutcome): void {
    const now = this.deps.timers.now();
    switch (outcome.kind) {
      case 'done':
        this.waiting.delete(key);
        this.queue.forget(key);
        if (outcome.wakeAt !== undefined) this.queue.addAfter(key, Math.max(outcome.wakeAt - now, 1));
        return;
      case 'retry':
      case 'internalError':
        this.queue.addRateLimited(key);
        return;
      case 'terminal':
        this.log.error({ key, err: outcome.error.message }, 'dropping key');
        this.queue.forget(key);
        return;
      case 'cancelled':
        this.log.info({ key, reason: outcome.reason.message }, 'sync stopped part-way');
        this.queue.forget(key);
        return;
      case 'waiting':
        if (!this.waiting.has(key)) this.waiting.set(key, this.waitingSeq++);
        if (outcome.until !== undefined) this.queue.addAfter(key, Math.max(outcome.until - now, 1));
        return;
    }
  }

  private enqueueAll(keys: readonly string[]): void {
    for (const k of keys) this.queue.add(k);
  }

  /** Keys skipped because the caches were behind go back in the queue as soon as their writes are seen. */
  private recheckWaiting(change: ObservedChange): void {
    const keys = [...this.expectations.candidates(change)].filter((k) => this.waiting.has(k));
    keys.sort((a, b) => this.waiting.get(a)! - this.waiting.get(b)!);
    for (const key of keys) {
      if (!this.expectations.satisfied(key)) continue;
      this.waiting.delete(key);
      this.queue.add(key);
    }
  }

  private registerHandlers(): void {
    const { targets } = this;
    const handle = (keys: string[], source: Informer<KubeObject>, obj: KubeObject): void => {
      this.enqueueAll(keys);
      this.recheckWaiting({ source, namespace: obj.metadata.namespace, name: obj.metadata.name ?? '' });
    };
    type Keys<T> = { add(o: T): string[]; update(a: T, b: T): string[]; del(o: T): string[] };
    const on = <T extends KubeObject>(inf: Informer<T>, keys: Keys<T>) =>
      this.unsubscribe.push(
        inf.addHandler({
          onAdd: (o) => handle(keys.add(o), inf, o),
          onUpdate: (a, b) => handle(keys.update(a, b), inf, b),
          onDelete: (o) => handle(keys.del(o), inf, o),
        }),
      );
    // the replica indexes take every delta before the sets are queued for it
    this.unsubscribe.push(...this.indexes.register(), this.durations.register());
    for (const t of targets.all) {
      const key = (s: StatefulSet) => [targets.keyOf(t, s.metadata.namespace, s.metadata.name)];
      const gone = (s: StatefulSet) => {
        // the batches and queued requests of a sync under way for it are dropped at once
        this.syncs.get(key(s)[0]!)?.abort(new SyncCancelledError(`StatefulSet ${s.metadata.namespace}/${s.metadata.name} was deleted`));
        this.indexes.forget(s);
        this.durations.forget(s);
        this.defaults.forget(s.metadata.uid);
        this.prober?.forget(s);
        return key(s);
      };
      on(t.informer, { add: key, update: (_a, b) => key(b), del: gone });
    }
    on(this.caches.pods, {
      add: (p) => keysForPodAdd(targets, p),
      update: (a, b) => keysForPodUpdate(targets, a, b),
      del: (p) => keysForPodDelete(targets, p),
    });
    const owner = (r: ControllerRevision) => {
      const k = targets.resolve(r.metadata.namespace, controllerRefOf(r));
      return k === undefined ? [] : [k];
    };
    on(this.caches.revisions, { add: owner, update: (_a, b) => owner(b), del: owner });
    const claimKeys = (c: PersistentVolumeClaim) => keysForClaim(targets, c);
    const claimUpdated = (a: PersistentVolumeClaim, b: PersistentVolumeClaim) => {
      if (a.metadata.resourceVersion === b.metadata.resourceVersion) return [];
      this.deps.metrics.observeClaim(b, this.deps.timers.now()); // completes or fails a resize the controller follows
      return claimKeys(b);
    };
    on(this.caches.claims, { add: claimKeys, update: claimUpdated, del: claimKeys });
    if (this.caches.storageClasses) {
      const classKeys = (c: StorageClass) => keysForStorageClass(targets, c);
      on(this.caches.storageClasses, { add: classKeys, update: (a, b) => (a.metadata.resourceVersion === b.metadata.resourceVersion ? [] : classKeys(b)), del: classKeys });
    }
    if (this.caches.podDisruptionBudgets) {
      const budgetKeys = (b: PodDisruptionBudget) => keysForBudget(targets, b);
      on(this.caches.podDisruptionBudgets, { add: budgetKeys, update: (a, b) => (a.metadata.resourceVersion === b.metadata.resourceVersion ? [] : budgetKeys(b)), del: budgetKeys });
    }
    if (this.caches.nodes) {
      const nodeKeys = () => keysForNode(targets);
      on(this.caches.nodes, { add: nodeKeys, update: (a, b) => (nodeLabelsChanged(a, b) ? nodeKeys() : []), del: nodeKeys });
    }
  }
}

function resultOf(outcome: ReconcileOutcome): ReconcileResult {
  if (outcome.kind === 'done') return 'success';
  if (outcome.kind === 'waiting' || outcome.kind === 'cancelled') return 'skipped';
  return 'error';
}
