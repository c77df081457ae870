// `rollout status NAME [--watch] [--timeout D]`: exit 0 once the set has converged, 1 when the rollout
// failed (ProgressDeadlineExceeded, SafetyHalt, RolloutAborted, AnalysisFailed), timed out, the set is gone,
// or the server cannot be read (a list fails: the client has already retried what is worth retrying); 3 or 4
// when it waits for a person (ExitCode; 2 is left to usage errors, as `ordinal controller` uses it). A bake
// or an analysis under way is not that: a watch goes on. Watching uses the runtime's informers (list +
// watch) on the injected Timers, so tests run it against the in-memory cluster on virtual time. With
// `-o json|yaml` it prints no progress, only one document when it ends (statusDocument).

import { Resources, type ClusterClient, type Resource } from '../../api/client.js';
import { selectorToString } from '../../api/labels.js';
import type { Condition, Pod, StatefulSet } from '../../api/types.js';
import type { TimerId, Timers } from '../../runtime/clock.js';
import { Informer } from '../../runtime/informer.js';
import { controllerRefOf } from '../../runtime/set-targets.js';
import type { CommandIO } from '../explain/io.js';
import { structured } from '../explain/output-format.js';
import { replicasOf } from '../../controller/spec.js';
import { failFast } from '../explain/observe-once.js';
import { qualifiedName } from '../explain/set-ref.js';
import { liveScreen, type Screen } from './screen.js';
import { rolloutState, staleFailure, type RolloutState } from './status-message.js';
import { etaText } from './rollout-eta.js';
import { EtaWatch } from './eta-watch.js';
import { holdingPods, podChanges, renderLiveFrame, watchRows, type WatchPodRow } from './watch-view.js';

export interface RolloutStatusArgs {
  resource: Resource;
  set: StatefulSet;
  watch: boolean;
  /** 0: wait forever. */
  timeoutMs: number;
  /** Live view (a terminal with colour); else plain lines. */
  live: boolean;
  /** One document at the end instead of progress lines. */
  output?: 'json' | 'yaml';
}

type Outcome = RolloutState['kind'] | 'timeout';

/** `-o json|yaml`: how the command ended, the set's counts and revisions, and each pod's state. */
export function statusDocument(resource: Resource, set: StatefulSet, pods: readonly Pod[], outcome: Outcome, message: string, now: number): object {
  const s = set.status ?? { replicas: 0 };
  return {
    statefulSet: qualifiedName(resource, set.metadata.name ?? ''),
    namespace: set.metadata.namespace ?? 'default',
    outcome,
    message,
    replicas: replicasOf(set),
    readyReplicas: s.readyReplicas ?? 0,
    availableReplicas: s.availableReplicas ?? 0,
    updatedReplicas: s.updatedReplicas ?? 0,
    currentRevision: s.currentRevision ?? '',
    updateRevision: s.updateRevision ?? '',
    pods: watchRows(set, pods, now).map((r) => ({ name: r.pod, ordinal: r.ordinal, state: r.state, since: r.age, revision: r.revision, available: r.available })),
  };
}

/** How often a watch re-evaluates without events (availability and "time in state" move with the clock). */
export const TICK_MS = 1000;

/** Pods the set controls (controller reference with its UID). */
export const ownedBy = (set: StatefulSet) => (pod: Pod) => controllerRefOf(pod)?.uid === set.metadata.uid;

function labelSelectorOf(set: StatefulSet): string | undefined {
  try {
    return selectorToString(set.spec.selector ?? {}) || undefined;
  } catch {
    return undefined;
  }
}

/** The exit codes: a script tells a finished rollout from a failed one, and both from one held for a person. */
export const ExitCode = {
  done: 0,
  /** Failed, timed out, the set gone, or an API error. */
  failed: 1,
  /** spec.updateStrategy.rollingUpdate.paused: nothing moves until `rollout resume`. */
  pausedByUser: 3,
  /** A step paused until promoted: nothing moves until `rollout promote` (or abort). */
  pausedAtStep: 4,
} as const;

function exitCode(state: RolloutState): number {
  if (state.kind === 'done') return ExitCode.done;
  if (state.kind === 'paused') return state.by === 'user' ? ExitCode.pausedByUser : ExitCode.pausedAtStep;
  return ExitCode.failed;
}

function report(state: RolloutState, io: CommandIO): void {
  if (state.kind === 'failed') io.stderr(`error: ${state.message}\n`);
  else io.stdout(`${state.message}\n`);
}

/** The end of the command: the document (-o), else the state's line. */
function reportEnd(args: RolloutStatusArgs, set: StatefulSet, pods: readonly Pod[], state: RolloutState, io: CommandIO, now: number): void {
  if (args.output) io.stdout(structured(statusDocument(args.resource, set, pods, state.kind, state.message, now), args.output));
  else report(state, io);
}

/** One look, no watch: exit 0 only when converged (kubectl exits 0 whatever the state; a poller needs more). */
async function statusOnce(client: ClusterClient, args: RolloutStatusArgs, io: CommandIO, timers: Timers): Promise<number> {
  const ns = args.set.metadata.namespace ?? 'default';
  const selector = labelSelectorOf(args.set);
  const pods = (await client.list<Pod>(Resources.pods, ns, selector ? { labelSelector: selector } : undefined)).items;
  const owned = pods.filter(ownedBy(args.set));
  const state = rolloutState(args.set, owned, timers.now());
  reportEnd(args, args.set, owned, state, io, timers.now());
  return exitCode(state);
}

export async function rolloutStatus(client: ClusterClient, args: RolloutStatusArgs, io: CommandIO, timers: Timers): Promise<number> {
  if (!args.watch) return statusOnce(client, args, io, timers);
  return new StatusWatch(client, args, io, timers).run();
}

class StatusWatch {
  private readonly sets: Informer<StatefulSet>;
  private readonly pods: Informer<Pod>;
  private readonly screen: Screen | undefined;
  private readonly ns: string;
  private readonly name: string;
  private lastMessage = '';
  /** The last look, for the -o document of a timeout. */
  private last: { set: StatefulSet; pods: Pod[] } | undefined;
  /** The forecast of the rollout under way (eta-watch.ts). */
  private readonly eta: EtaWatch;
  private lastEta = '';
  /** A failure condition seen on a status written for an older spec: it does not fail this rollout. */
  private staleFailure: Condition | undefined;
  /** undefined until the first look: pods that exist when watching starts are not "changes". */
  private lastRows: Map<string, WatchPodRow> | undefined;
  private tickTimer: TimerId | undefined;
  private timeoutTimer: TimerId | undefined;
  private finished = false;
  private resolve: (code: number) => void = () => {};

  constructor(
    private readonly client: ClusterClient,
    private readonly args: RolloutStatusArgs,
    private readonly io: CommandIO,
    private readonly clock: Timers,
  ) {
    this.ns = args.set.metadata.namespace ?? 'default';
    this.name = args.set.metadata.name ?? '';
    const common = { client, timers: clock, namespaces: [this.ns], random: () => 0.5 };
    const reading = (resource: Resource) => ({ resource, onListError: failFast(resource.plural, (e) => this.fail(e)) });
    const selector = labelSelectorOf(args.set);
    this.sets = new Informer<StatefulSet>({ ...common, ...reading(args.resource) });
    this.pods = new Informer<Pod>({ ...common, ...reading(Resources.pods), ...(selector ? { labelSelector: selector } : {}) });
    this.screen = args.live ? liveScreen(io) : undefined;
    this.eta = new EtaWatch(client, args.resource);
  }

  run(): Promise<number> {
    const done = new Promise<number>((resolve) => (this.resolve = resolve));
    const onChange = { onAdd: () => this.evaluate(), onUpdate: () => this.evaluate(), onDelete: () => this.evaluate() };
    this.sets.addHandler(onChange);
    this.pods.addHandler({
      onDelete: (pod) => {
        if (ownedBy(this.args.set)(pod)) this.eta.sawGone(pod, this.clock.now());
      },
    });
    this.pods.addHandler(onChange);
    if (this.args.timeoutMs > 0) this.timeoutTimer = this.clock.at(this.clock.now() + this.args.timeoutMs, () => this.timeout(), 'rollout status timeout');
    this.sets.start();
    this.pods.start();
    this.tick();
    return done.finally(() => this.stop());
  }

  private tick(): void {
    const next = () => {
      this.evaluate();
      if (!this.finished) this.tick();
    };
    this.tickTimer = this.clock.at(this.clock.now() + TICK_MS, next, 'rollout status tick');
  }

  private finish(code: number): void {
    if (this.finished) return;
    this.finished = true;
    this.resolve(code);
  }

  private stop(): void {
    for (const id of [this.tickTimer, this.timeoutTimer]) if (id !== undefined) this.clock.cancel(id);
    this.sets.stop();
    this.pods.stop();
  }

  private fail(e: Error): void {
    if (this.finished) return;
    this.io.stderr(`error: ${e.message}\n`);
    this.finish(1);
  }

  private timeout(): void {
    if (this.finished) return;
    this.io.stderr('error: timed out waiting for the condition\n');
    if (this.args.output && this.last) {
      const { set, pods } = this.last;
      this.io.stdout(structured(statusDocument(this.args.resource, set, pods, 'timeout', 'timed out waiting for the condition', this.clock.now()), this.args.output));
    }
    this.finish(1);
  }

  private evaluate(): void {
    if (this.finished || !this.sets.hasSynced() || !this.pods.hasSynced()) return;
    const set = this.sets.get(this.ns, this.name);
    if (set === undefined || set.metadata.uid !== this.args.set.metadata.uid) {
      this.io.stderr(`error: ${qualifiedName(this.args.resource, this.name)} was deleted\n`);
      return this.finish(1);
    }
    const now = this.clock.now();
    const pods = this.pods.list(this.ns, ownedBy(set));
    this.staleFailure = staleFailure(set) ?? this.staleFailure;
    const state = rolloutState(set, pods, now, this.staleFailure);
    this.last = { set, pods };
    if (this.args.output) {
      if (state.kind === 'progressing') return;
      reportEnd(this.args, set, pods, state, this.io, now);
      return this.finish(exitCode(state));
    }
    this.eta.update(set, pods, state.kind === 'progressing');
    this.show(set, pods, state, now);
    if (state.kind !== 'progressing') this.finish(exitCode(state));
  }

  private etaLine(state: RolloutState, set: StatefulSet, pods: readonly Pod[]): string | undefined {
    return state.kind === 'progressing' ? etaText(this.eta.forecast, pods, set.status?.updatedReplicas ?? 0) : undefined;
  }

  private show(set: StatefulSet, pods: Pod[], state: RolloutState, now: number): void {
    const rows = watchRows(set, pods, now);
    if (this.screen) {
      const title = `${qualifiedName(this.args.resource, this.name)} in ${this.ns}`;
      const eta = this.etaLine(state, set, pods);
      this.screen.draw(renderLiveFrame({ title, message: state.kind === 'failed' ? `error: ${state.message}` : state.message, set, rows, now, ...(eta ? { eta } : {}) }, { color: true }));
      return;
    }
    // The first look names the pods that hold the rollout (started mid-rollout, a stuck pod shows at once).
    const lines = this.lastRows === undefined ? holdingPods(rows) : podChanges(this.lastRows, rows);
    this.lastRows = new Map(rows.map((r) => [r.pod, r]));
    if (lines.length > 0) this.io.stdout(`${lines.join('\n')}\n`);
    if (state.message !== this.lastMessage) report(state, this.io);
    this.lastMessage = state.message;
    const eta = this.etaLine(state, set, pods);
    // A line when it changes, that is when a pod is updated (or the forecast arrives): not every second.
    if (eta !== undefined && eta !== this.lastEta) this.io.stdout(`${eta}\n`);
    this.lastEta = eta ?? this.lastEta;
  }
}
