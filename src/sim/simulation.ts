// One run of a scenario: builds the world, creates the objects at t=0, runs the steps in order and
// records the timeline. Records are emitted as things happen, so at equal `t` they keep the
// order in which things happened.

import { Resources } from '../api/client.js';
import type { Features } from '../api/features.js';
import { ORDINAL_V1, type Instant, type Pod, type StatefulSet } from '../api/types.js';
import type { Action, AnalysisProbe, AnalysisResult, Plan } from '../controller/model/plan-types.js';
import type { ObservedState } from '../controller/replica/observed-state.js';
import type { MemorySnapshot } from '../cluster/memory/index.js';
import type { RecordedEvent } from '../runtime/event-recorder.js';
import type { Planner } from '../runtime/planner-port.js';
import type { WorkCounters } from '../runtime/work-counters.js';
import { actionSet } from './action-set.js';
import type { ExpectContext } from './expect.js';
import { metricsSummary } from './metrics-summary.js';
import { observeWrite, type ObserverDeps } from './observer.js';
import type { SentWrite } from './recording-client.js';
import type { Found } from './violations.js';
import { scenarioFeatures } from './scenario.js';
import type { Scenario } from './scenario-types.js';
import { SetTracker } from './set-tracker.js';
import { SimState, displayName, setKey } from './state.js';
import { runStep, type StepContext } from './steps.js';
import * as tl from './timeline.js';
import { checkControllerWrite } from './violations.js';
import { CONTROLLER_ACTOR, NODE_NAME, SIM_EPOCH, buildWorld, scenarioNodes, type World } from './world.js';

export interface SimulationOptions {
  /** Called with every record as it is produced. */
  onRecord?: (record: tl.TimelineRecord) => void;
  /** Keep every record in the result (default true; the benchmark turns it off). */
  keepRecords?: boolean;
  /** Called after every `progressEveryMs` of virtual time: the demo paces and redraws here. */
  onProgress?: (sim: Simulation) => Promise<void> | void;
  progressEveryMs?: number;
  /** Replaces the real planner (the benchmark wraps it to measure its CPU time). */
  planner?: Planner;
  /** Start from these objects as they are, at this instant, instead of creating the scenario's objects. */
  start?: StartState;
  /**
   * Check every plan against the planner's invariants (default true). A forecast, which reports no
   * violations, turns it off: the checks walk every pod of the set on every sync.
   */
  checkPlans?: boolean;
  /** Counts every layer's work as the run goes (the cost guard, `ordinal bench`). */
  counters?: WorkCounters;
}

/**
 * Where a run starts: a cluster's objects as they were at `at` (pods, claims, revisions and sets with their
 * status). Virtual time starts there and the records count from there.
 */
export interface StartState {
  at: Instant;
  snapshot: MemorySnapshot;
}

/** Actions that never delete a pod: every other kind (a new one included) keeps its plan's view. */
const KEEPS_PODS: ReadonlySet<Action['kind']> = new Set([
  'createRevision',
  'updateRevision',
  'deleteRevision',
  'adoptRevision',
  'adoptPod',
  'releasePod',
  'createClaim',
  'updateClaim',
  'patchClaim',
  'createPod',
  'relabelPod',
  'patchPod',
  'setPodCondition',
  'updatePod',
]);
const mayDeletePods = (a: Action): boolean => !KEEPS_PODS.has(a.kind);

/** Who wrote a start state's objects, in the write stream. */
const RESTORE_ACTOR = 'restore';

export class Simulation {
  readonly features: Features;
  readonly state = new SimState();
  readonly tracker: SetTracker;
  /** The instant records count from: SIM_EPOCH, or the start state's. */
  readonly origin: Instant;
  readonly world: World;
  readonly records: tl.TimelineRecord[] = [];
  /** The state each set was last planned from, by namespace/name (the deletion check judges against it). */
  private readonly seen = new Map<string, Pod[]>();
  readonly events: tl.EventRecord[] = [];
  readonly violations: tl.Violation[] = [];
  readonly endAt: Instant;
  /** Some expect or step failed: exit code 1. */
  failed = false;
  /** A step could not be done: later steps do not run. */
  private stopped = false;

  constructor(
    readonly scenario: Scenario,
    private readonly opts: SimulationOptions = {},
  ) {
    this.features = scenarioFeatures(scenario);
    this.origin = opts.start?.at ?? SIM_EPOCH;
    this.tracker = new SetTracker(this.origin, opts.counters);
    this.endAt = this.origin + Math.round(scenario.endSeconds * 1000);
    this.world = buildWorld(scenario, this.features, {
      onSend: (w) => this.onSend(w),
      onEvent: (e) => this.onEvent(e),
      onAnalysis: (set, probe, result) => this.onAnalysis(set, probe, result),
      ...(opts.checkPlans !== false ? { onPlanViolation: (found: Found[], at: Instant) => found.forEach((f) => this.violation(f.invariant, f.message, at)) } : {}),
      onPlanned: (observed, plan) => this.planned(observed, plan),
      ...(opts.planner ? { planner: opts.planner } : {}),
      ...(opts.counters ? { counters: opts.counters } : {}),
    }, this.origin);
    const observer: ObserverDeps = {
      state: this.state,
      tracker: this.tracker,
      features: this.features,
      start: this.origin,
      controllerActor: CONTROLLER_ACTOR,
      emit: (r) => this.emit(r),
      violation: (f, at) => this.violation(f.invariant, f.message, at),
      seenPods: (key) => this.seen.get(key),
      ...(opts.counters ? { counters: opts.counters } : {}),
    };
    const nodes = scenarioNodes(scenario);
    if (nodes.length > 0) observer.nodes = new Map(nodes.map((n) => [n.name, n]));
    this.world.cluster.onWrite((w) => observeWrite(observer, w));
  }

  /**
   * Keeps the view a plan that deletes pods was computed from, for the deletion check (observer.ts): a
   * controller deletes a pod only as the sync's plan says, so only such a plan's view is ever read. Any other
   * plan drops the set's view (a deletion without one is judged in the cluster alone), so no copy of the
   * set's pods is made for the many syncs that delete nothing.
   */
  private planned(observed: ObservedState, plan: Plan): void {
    const resource = observed.set.apiVersion === ORDINAL_V1 ? Resources.ordinalStatefulSets : Resources.statefulSets;
    const key = setKey(resource, observed.set.metadata.namespace ?? 'default', observed.set.metadata.name ?? '');
    if (plan.actions.some(mayDeletePods)) this.seen.set(key, [...(observed.replicas?.allPods() ?? []), ...observed.pods]);
    else this.seen.delete(key);
  }

  now = (): Instant => this.world.clock.now();
  t = (): number => tl.secondsSince(this.origin, this.now());

  emit(record: tl.TimelineRecord): void {
    if (this.opts.keepRecords !== false) this.records.push(record);
    this.opts.onRecord?.(record);
  }

  private violation(invariant: string, message: string, at: Instant): void {
    const v: tl.Violation = { t: tl.secondsSince(this.origin, at), invariant, message };
    this.violations.push(v);
    this.emit(tl.violationRecord(v));
  }

  private onSend(w: SentWrite): void {
    const resource = w.status ? `${w.resource.plural}/status` : w.subresource !== undefined ? `${w.resource.plural}/${w.subresource}` : w.resource.plural;
    const namespace = w.namespace ?? '';
    this.emit(tl.actionRecord(this.t(), { namespace, set: actionSet(w, this.state), verb: w.verb, resource, name: w.name }));
    for (const f of checkControllerWrite({ kind: w.resource.kind, status: w.status, verb: w.verb, name: w.name })) this.violation(f.invariant, f.message, this.now());
  }

  private onAnalysis(set: StatefulSet, probe: AnalysisProbe, result: AnalysisResult): void {
    const where = { namespace: set.metadata.namespace ?? '', set: set.metadata.name ?? '', revision: probe.revision, ...(probe.step !== undefined ? { step: probe.step } : {}), ...(probe.pod !== undefined ? { pod: probe.pod } : {}) };
    const check = probe.kind === 'http' ? { url: probe.url } : { query: probe.query, ...(probe.baselineQuery !== undefined ? { baselineQuery: probe.baselineQuery } : {}) };
    const verdict = { ok: result.ok, ...(result.inconclusive !== undefined ? { inconclusive: result.inconclusive } : {}), message: result.message };
    this.emit(tl.analysisRecord(tl.secondsSince(this.origin, result.at), { ...where, ...check, ...verdict }));
  }

  private onEvent(e: RecordedEvent): void {
    const involvedObject = { kind: e.involvedObject.kind ?? '', name: e.involvedObject.name ?? '' };
    const record = tl.eventRecord(tl.secondsSince(this.origin, e.at), { namespace: e.namespace, involvedObject, eventType: e.type, reason: e.reason, message: e.message });
    this.events.push(record);
    this.emit(record);
  }

  /** Runs virtual time to `until` (capped at endSeconds) while `pending()` holds; false if endSeconds cut it short. */
  async runFor(until: Instant, pending: () => boolean = () => true): Promise<boolean> {
    const target = Math.min(until, this.endAt);
    const chunk = this.opts.onProgress ? Math.max(1, this.opts.progressEveryMs ?? 1000) : Infinity;
    for (;;) {
      const stop = Math.min(target, this.now() + chunk);
      const r = await this.world.clock.run({ until: stop, while: pending });
      await this.opts.onProgress?.(this);
      if (r.reason === 'while' || stop >= target) break;
    }
    return !pending() || until <= this.endAt;
  }

  stepContext(): StepContext {
    return {
      now: this.now,
      user: this.world.user,
      state: this.state,
      tracker: this.tracker,
      runFor: (until, pending) => this.runFor(until, pending),
      endpoints: this.world.endpoints,
      restartController: async () => {
        await this.world.stopController();
        await this.world.startController();
      },
      expectContext: () => this.expectContext(),
    };
  }

  expectContext(): ExpectContext {
    return {
      state: this.state,
      now: this.now(),
      events: this.events,
      maxUnavailable: (key) => this.tracker.maxUnavailable(key),
      allConverged: () => this.tracker.allConverged(),
    };
  }

  async start(): Promise<void> {
    if (this.opts.start) this.world.cluster.restore(this.opts.start.snapshot, RESTORE_ACTOR);
    // the scenario's nodes exist before any pod is bound to one of them
    const nodes = this.scenario.objects.filter((o) => o.resource === Resources.nodes);
    for (const { object } of nodes) await this.world.cluster.addNode(object);
    if (nodes.length === 0) await this.world.cluster.addNode(NODE_NAME);
    await this.world.kubelet.start();
    this.world.storage?.start();
    this.world.disruption.start();
    await this.world.startController();
    if (this.opts.start) return;
    for (const [i, { resource, object }] of this.scenario.objects.entries()) {
      if (resource === Resources.nodes) continue;
      try {
        await this.world.user.create(resource, structuredClone(object));
      } catch (e) {
        this.fail(-1, `objects[${i}] ${object.kind} ${object.metadata.name}: ${(e as Error).message}`);
        return;
      }
    }
  }

  fail(index: number, message: string): void {
    this.failed = true;
    this.stopped = true;
    this.emit(tl.failureRecord(this.t(), index, message));
  }

  /** Runs the steps in order; a failed step (not a failed expect) ends the run. */
  async runSteps(): Promise<void> {
    const ctx = this.stepContext();
    for (const [index, step] of this.scenario.steps.entries()) {
      if (this.stopped) return;
      this.emit(tl.stepRecord(this.t(), index, step.raw));
      const outcome = await runStep(step, ctx);
      if (outcome.kind === 'expect') {
        if (!outcome.ok) this.failed = true;
        this.emit(tl.expectRecord(this.t(), index, outcome.ok, outcome.message));
      } else if (outcome.kind === 'failed') {
        this.fail(index, outcome.message);
      }
    }
  }

  async finish(): Promise<tl.SummaryRecord> {
    const metrics = await metricsSummary(this.world.metrics.registry);
    await this.world.stopController();
    this.world.kubelet.stop();
    this.world.storage?.stop();
    this.world.disruption.stop();
    const sets: Record<string, tl.SummaryRecord['sets'][string]> = {};
    for (const entry of this.state.allSets()) {
      const ns = entry.set.metadata.namespace ?? 'default';
      let name = displayName(ns, entry.set.metadata.name ?? '');
      if (name in sets) name = `${name} (${entry.set.apiVersion})`;
      sets[name] = entry.set.status ?? null;
    }
    const since = this.tracker.allConvergedSince;
    const summary = tl.summaryRecord({
      converged: this.tracker.allConverged(),
      convergedAt: since === null ? null : tl.secondsSince(this.origin, since),
      endedAt: this.t(),
      sets,
      metrics,
      violations: this.violations,
      rollouts: this.tracker.rollouts.summaries(this.origin, this.now(), (key) => this.state.podsIn(key)),
    });
    this.emit(summary);
    return summary;
  }
}
