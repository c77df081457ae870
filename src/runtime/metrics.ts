// Ordinal's Prometheus metrics, on a registry per controller (never prom-client's global one, so the
// simulator and tests can build many). Values come from the planner's PlanMetrics and the runtime's own
// outcomes; durations are measured on the injected clock. Where kube-controller-manager exports the same
// metric, Ordinal uses its name and labels (pkg/controller/statefulset/metrics: the subsystem
// `statefulset_controller`, labels `statefulset_namespace`, `statefulset_name`), so one query reads both; every
// per-set metric takes those labels, which a scrape's own `namespace` target label cannot clobber.

import type { HookPhase } from '../controller/replica/hook-state.js';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { claimCapacity, type Condition, type Instant, type PersistentVolumeClaim, type StatefulSet } from '../api/types.js';
import { compareQuantities } from '../api/validation/quantity.js';
import { resizeFailure } from '../controller/replica/claim-state.js';
import type { AnalysisProbe, PlanMetrics } from '../controller/model/plan-types.js';
import type { Clock } from './clock.js';
import { ConditionMetrics } from './condition-metrics.js';
import type { EvictionResult } from './eviction-refusals.js';
import { LeaderElectionMetrics } from './leader-election-metrics.js';
import type { WorkQueueMetrics } from './work-queue.js';
import { createWorkQueueMetrics } from './workqueue-metrics.js';

export type ReconcileResult = 'success' | 'error' | 'skipped';
/** Why a claim did not grow: the API refused the patch, the class does not allow it, the resize reported an error. */
export type ClaimResizeFailure = 'PatchRefused' | 'ExpansionNotAllowed' | 'ResizeError';

export interface ControllerMetricsOptions {
  /** Adds prom-client's process metrics (CPU, memory, event loop): for the real process only. */
  processMetrics?: boolean;
  /** Ordinal's version: exports `ordinal_build_info{version, node_version} 1` (what dashboards and alerts select Ordinal's scrape by). */
  version?: string;
}

export interface ControllerMetrics {
  readonly registry: Registry;
  /** Writes one sync's PlanMetrics for `set`. */
  recordPlanMetrics(set: StatefulSet, m: PlanMetrics): void;
  /** A pod that was stuck (not Ready) for `seconds` was replaced (EnforcedRollingUpdate). */
  observeStuckPod(set: StatefulSet, seconds: number): void;
  observeReconcile(result: ReconcileResult, seconds: number): void;
  /** A sync was skipped: the cache of `resource` has not yet seen the controller's own writes (KEP-5647). */
  staleSyncSkipped(resource: { group: string; plural: string }): void;
  /** The conditions the sync planned for `set` (statefulset_status_condition). */
  recordConditions(set: StatefulSet, conditions: readonly Condition[]): void;
  /** This process holds (or no longer holds) the Lease `lease` (leader_election_master_status). */
  leaderStatus(lease: string, leading: boolean): void;
  /** A sync ended in an internal error, i.e. a bug (also counted as an `error` reconcile). */
  observeInternalError(): void;
  /** An Event of `type` (Normal, Warning) was dropped: too many were waiting to be written. */
  eventDropped(type: string): void;
  /** One pods/eviction the controller sent: the pod evicted, refused by its PodDisruptionBudget (429), or failed otherwise. */
  observeEviction(result: EvictionResult): void;
  /** InPlace: the controller grew `claim`'s request to `request` at `at` (a resize it now follows). */
  claimResizeStarted(set: StatefulSet, claim: string, request: string, at: Instant): void;
  /** A claim seen by the informer: a resize the controller started completes (capacity reached) or fails. */
  observeClaim(claim: PersistentVolumeClaim, at: Instant): void;
  /** The API refused a patch that grows a claim (counted per attempt, as FailedUpdate events are). */
  claimPatchRefused(set: StatefulSet): void;
  /** The plan holds `claim`: its class does not allow expansion to `request` (counted once per claim and request). */
  claimExpansionRefused(set: StatefulSet, claim: string, request: string): void;
  /** A check of a staged rollout's analysis came back (analysis-prober.ts); `gate`: its kind, as a step's gate names it. */
  observeAnalysisCheck(set: StatefulSet, gate: AnalysisGate, ok: boolean, inconclusive?: boolean): void;
  /** spec.lifecycle.preUpdate: a pod's hook record was written — Calling (called), or its result after `seconds`. */
  observePreUpdateHook(set: StatefulSet, phase: HookPhase, seconds: number): void;
  /** Deletes every series of the set (it was deleted). */
  forgetSet(namespace: string, name: string): void;
  /** Work-queue metrics (`workqueue_*{name}`) in this registry. */
  workQueue<K>(name: string, clock: Clock): WorkQueueMetrics<K>;
}

const SET_LABELS = ['statefulset_namespace', 'statefulset_name', 'pod_management_policy'] as const;
/** An analysis check's kind: the gate of a step with that analysis ('http' or 'prometheus'). */
export type AnalysisGate = AnalysisProbe['kind'];
const ANALYSIS_GATES: readonly AnalysisGate[] = ['http', 'prometheus'];
type SetLabels = Record<(typeof SET_LABELS)[number], string>;
const DURATION_BUCKETS = [1, 5, 10, 30, 60, 120, 300, 600, 1800, 3600, 7200, 21600];
const RECONCILE_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 60];

function build(registry: Registry) {
  const registers = [registry];
  const labelNames = SET_LABELS;
  const gauge = (name: string, help: string) => new Gauge({ name, help, labelNames, registers });
  const counter = (name: string, help: string) => new Counter({ name, help, labelNames, registers });
  const histogram = <L extends string>(name: string, help: string, labels: readonly L[], buckets = DURATION_BUCKETS) =>
    new Histogram<L>({ name, help, labelNames: labels, buckets, registers });
  const labelled = <L extends string>(name: string, help: string, labels: readonly L[]) => new Counter<L>({ name, help, labelNames: labels, registers });
  return {
    // upstream: pkg/controller/statefulset/metrics/metrics.go MaxUnavailable, UnavailableReplicas
    maxUnavailable: gauge('statefulset_controller_statefulset_max_unavailable', 'Maximum number of unavailable pods allowed during StatefulSet rolling updates'),
    unavailable: gauge('statefulset_controller_statefulset_unavailable_replicas', 'Current number of unavailable pods in StatefulSet'),
    violations: counter(
      'statefulset_unavailability_violation_total',
      'Times spec.replicas - availableReplicas > maxUnavailable was observed during a rolling update',
    ),
    forced: counter('statefulset_forced_pod_replacements_total', 'Pods replaced by EnforcedRollingUpdate although they were not Ready'),
    halts: counter('statefulset_safety_halt_total', 'Times EnforcedRollingUpdate halted because the highest-ordinal new pod failed'),
    enforced: counter('statefulset_enforced_rolling_updates_total', 'EnforcedRollingUpdate rollouts started'),
    rollbacks: counter('statefulset_rollbacks_total', 'Rollouts aborted by onFailure: Rollback (each brings every pod back to the last fully available revision)'),
    slower: counter('statefulset_slower_than_forecast_total', 'Rollouts that fell out of the p95 band of their pods\' learned durations (Progressing=False, reason SlowerThanForecast)'),
    updateDuration: histogram(
      'statefulset_update_duration_seconds',
      'Time from the start of a rollout to its completion, by update strategy',
      ['statefulset_namespace', 'statefulset_name', 'strategy'],
    ),
    stuck: histogram('statefulset_stuck_pod_duration_seconds', 'How long a pod was not Ready before it was forcibly replaced', labelNames),
    claimsResized: counter('statefulset_claims_resized_total', 'Claims grown in place (volumeClaimUpdatePolicy: InPlace) whose capacity reached the new request'),
    claimResizeDuration: histogram('statefulset_claim_resize_duration_seconds', 'From the controller patching a claim to a larger request to its capacity reaching it', labelNames),
    claimResizeFailures: labelled('statefulset_claim_resize_failures_total', 'Claims that did not grow in place, by reason (PatchRefused, ExpansionNotAllowed, ResizeError)', [...labelNames, 'reason']),
    // upstream: pkg/controller/statefulset/metrics/metrics.go StatefulSetRequeueSkips
    staleSkips: labelled('statefulset_controller_stale_sync_skips_total', 'Total number of StatefulSet syncs skipped due to a stale watch cache.', ['group', 'resource']),
    reconciles: labelled('ordinal_reconcile_total', 'StatefulSet syncs by result', ['result']),
    // controller-runtime's controller_runtime_reconcile_panics_total: a recovered bug, not a failed API call
    panics: new Counter({ name: 'ordinal_reconcile_panics_total', help: 'StatefulSet syncs that ended in an internal error (a bug in Ordinal)', registers }),
    reconcileDuration: histogram('ordinal_reconcile_duration_seconds', 'Duration of one StatefulSet sync', [], RECONCILE_BUCKETS),
    analysisChecks: labelled(
      'ordinal_analysis_checks_total',
      'Checks of staged rollouts\' analyses, by gate (http, prometheus) and result (success: the expected status, or the successCondition held; failure: not; inconclusive: a Prometheus check with no verdict)',
      ['statefulset_namespace', 'statefulset_name', 'gate', 'result'],
    ),
    hooks: labelled('ordinal_preupdate_hooks_total', 'preUpdate hooks by result: calling (called for a pod and revision), passed, ignored (timed out under failurePolicy Ignore), failed (timed out under Fail: the pod is held)', [...labelNames, 'result']),
    hookDuration: histogram('ordinal_preupdate_hook_duration_seconds', 'From a preUpdate hook\'s first call to its result (passed, ignored or failed)', labelNames),
    evictions: labelled('ordinal_evictions_total', 'Evictions of pods the controller sent (respectPodDisruptionBudgets update deletions), by result (evicted, refused: a PodDisruptionBudget answered 429, failed)', ['result']),
    eventsDropped: labelled('ordinal_events_dropped_total', 'Events not written because too many were waiting to be (client-go drops them alike), by type', ['type']),
  };
}

type Metrics = ReturnType<typeof build>;

/** Label values a set has used, so forgetSet can delete exactly its series. */
interface Seen {
  policies: Set<string>;
  strategies: Set<string>;
  halted: boolean;
  /** Failure reasons counted, for forgetSet. */
  claimFailures: Set<string>;
}

/** A resize the controller started and follows until the claim's capacity reaches `request`. */
interface Resize {
  labels: SetLabels;
  request: string;
  startedAt: Instant;
  failed: boolean;
}

/** How often the process metrics sample the event-loop delay (`nodejs_eventloop_lag_*`). */
export const EVENT_LOOP_SAMPLE_MS = 1000;

export function createControllerMetrics(opts: ControllerMetricsOptions = {}): ControllerMetrics {
  const registry = new Registry();
  // prom-client samples the event-loop delay every 10 ms by default: a timer that wakes the process 100
  // times a second and was most of an idle controller's CPU (about 420 ms per minute). Once a second still
  // catches every stall of a second or more and most shorter ones.
  if (opts.processMetrics) collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  // kube-controller-manager's kubernetes_build_info, for Ordinal: a series only Ordinal's scrape has
  if (opts.version !== undefined) {
    new Gauge({ name: 'ordinal_build_info', help: 'Ordinal\'s version and the Node.js it runs on (always 1)', labelNames: ['version', 'node_version'], registers: [registry] })
      .set({ version: opts.version, node_version: process.version }, 1);
  }
  return new PromControllerMetrics(registry, build(registry));
}

class PromControllerMetrics implements ControllerMetrics {
  private readonly seen = new Map<string, Seen>();
  /** By claim namespace/name. */
  private readonly resizes = new Map<string, Resize>();
  /** Claims held because their class cannot expand, with the request counted, by claim namespace/name. */
  private readonly refused = new Map<string, { request: string; statefulset: string }>();
  private readonly conditions: ConditionMetrics;
  private readonly leader: LeaderElectionMetrics;

  constructor(
    readonly registry: Registry,
    private readonly m: Metrics,
  ) {
    this.conditions = new ConditionMetrics(registry);
    this.leader = new LeaderElectionMetrics(registry);
  }

  recordPlanMetrics(set: StatefulSet, pm: PlanMetrics): void {
    const labels = this.labelsOf(set);
    const seen = this.seenOf(labels);
    this.m.maxUnavailable.set(labels, pm.maxUnavailable);
    if (pm.unavailableReplicas !== undefined) this.m.unavailable.set(labels, pm.unavailableReplicas);
    if (pm.unavailabilityViolation) this.m.violations.inc(labels);
    if (pm.forcedReplacements > 0) this.m.forced.inc(labels, pm.forcedReplacements);
    // Counted on the transition into a halt, so a halt that lasts many syncs counts once.
    if (pm.safetyHalt && !seen.halted) this.m.halts.inc(labels);
    seen.halted = pm.safetyHalt;
    if (pm.enforcedRollingUpdateStarted) this.m.enforced.inc(labels);
    if (pm.rolloutAborted === true) this.m.rollbacks.inc(labels);
    if (pm.slowerThanForecast === true) this.m.slower.inc(labels);
    if (pm.updateCompletedSeconds !== undefined) {
      const strategy = set.spec.updateStrategy?.type ?? 'RollingUpdate';
      seen.strategies.add(strategy);
      this.m.updateDuration.observe({ statefulset_namespace: labels.statefulset_namespace, statefulset_name: labels.statefulset_name, strategy }, pm.updateCompletedSeconds);
    }
  }

  observeStuckPod(set: StatefulSet, seconds: number): void {
    const labels = this.labelsOf(set);
    this.seenOf(labels);
    this.m.stuck.observe(labels, Math.max(0, seconds));
  }

  claimResizeStarted(set: StatefulSet, claim: string, request: string, at: Instant): void {
    const labels = this.labelsOf(set);
    this.seenOf(labels);
    this.resizes.set(`${labels.statefulset_namespace}/${claim}`, { labels, request, startedAt: at, failed: false });
  }

  observeClaim(claim: PersistentVolumeClaim, at: Instant): void {
    const key = `${claim.metadata.namespace ?? ''}/${claim.metadata.name ?? ''}`;
    const resize = this.resizes.get(key);
    if (resize === undefined) return;
    const capacity = claimCapacity(claim);
    if (capacity !== undefined && compareQuantities(capacity, resize.request) !== -1) {
      this.m.claimsResized.inc(resize.labels);
      this.m.claimResizeDuration.observe(resize.labels, Math.max(0, (at - resize.startedAt) / 1000));
      this.resizes.delete(key);
      return;
    }
    // counted once per resize, though the failure stays on the claim for many updates
    if (!resize.failed && resizeFailure(claim) !== undefined) {
      resize.failed = true;
      this.countFailure(resize.labels, 'ResizeError');
    }
  }

  claimPatchRefused(set: StatefulSet): void {
    this.countFailure(this.labelsOf(set), 'PatchRefused');
  }

  claimExpansionRefused(set: StatefulSet, claim: string, request: string): void {
    const labels = this.labelsOf(set);
    const key = `${labels.statefulset_namespace}/${claim}`;
    if (this.refused.get(key)?.request === request) return;
    this.refused.set(key, { request, statefulset: labels.statefulset_name });
    this.countFailure(labels, 'ExpansionNotAllowed');
  }

  private countFailure(labels: SetLabels, reason: ClaimResizeFailure): void {
    this.seenOf(labels).claimFailures.add(reason);
    this.m.claimResizeFailures.inc({ ...labels, reason });
  }

  observeReconcile(result: ReconcileResult, seconds: number): void {
    this.m.reconciles.inc({ result });
    this.m.reconcileDuration.observe(Math.max(0, seconds));
  }

  recordConditions(set: StatefulSet, conditions: readonly Condition[]): void {
    const labels = this.labelsOf(set);
    this.seenOf(labels);
    this.conditions.record(labels, conditions);
  }

  leaderStatus(lease: string, leading: boolean): void {
    this.leader.set(lease, leading);
  }

  staleSyncSkipped(resource: { group: string; plural: string }): void {
    this.m.staleSkips.inc({ group: resource.group, resource: resource.plural });
  }

  observeInternalError(): void {
    this.m.panics.inc();
  }

  eventDropped(type: string): void {
    this.m.eventsDropped.inc({ type });
  }

  observeEviction(result: EvictionResult): void {
    this.m.evictions.inc({ result });
  }

  observeAnalysisCheck(set: StatefulSet, gate: AnalysisGate, ok: boolean, inconclusive = false): void {
    const labels = this.labelsOf(set);
    this.seenOf(labels);
    this.m.analysisChecks.inc({ statefulset_namespace: labels.statefulset_namespace, statefulset_name: labels.statefulset_name, gate, result: ok ? 'success' : inconclusive ? 'inconclusive' : 'failure' });
  }

  observePreUpdateHook(set: StatefulSet, phase: HookPhase, seconds: number): void {
    const labels = this.labelsOf(set);
    this.seenOf(labels);
    this.m.hooks.inc({ ...labels, result: phase.toLowerCase() });
    if (phase !== 'Calling') this.m.hookDuration.observe(labels, Math.max(0, seconds));
  }

  forgetSet(namespace: string, name: string): void {
    const seen = this.seen.get(`${namespace}/${name}`);
    if (seen === undefined) return;
    this.seen.delete(`${namespace}/${name}`);
    this.conditions.forget(namespace, name);
    const { maxUnavailable, unavailable, violations, forced, halts, enforced, rollbacks, slower, stuck, claimsResized, claimResizeDuration, claimResizeFailures } = this.m;
    const perSet = [maxUnavailable, unavailable, violations, forced, halts, enforced, rollbacks, slower, stuck, claimsResized, claimResizeDuration];
    for (const policy of seen.policies) {
      const labels = { statefulset_namespace: namespace, statefulset_name: name, pod_management_policy: policy };
      for (const metric of perSet) metric.remove(labels);
      for (const reason of seen.claimFailures) claimResizeFailures.remove({ ...labels, reason });
      for (const result of ['calling', 'passed', 'ignored', 'failed']) this.m.hooks.remove({ ...labels, result });
      this.m.hookDuration.remove(labels);
    }
    for (const [key, resize] of this.resizes) if (resize.labels.statefulset_namespace === namespace && resize.labels.statefulset_name === name) this.resizes.delete(key);
    for (const [key, r] of this.refused) if (key.startsWith(`${namespace}/`) && r.statefulset === name) this.refused.delete(key);
    for (const strategy of seen.strategies) this.m.updateDuration.remove({ statefulset_namespace: namespace, statefulset_name: name, strategy });
    for (const gate of ANALYSIS_GATES) for (const result of ['success', 'failure', 'inconclusive']) this.m.analysisChecks.remove({ statefulset_namespace: namespace, statefulset_name: name, gate, result });
  }

  workQueue<K>(name: string, clock: Clock): WorkQueueMetrics<K> {
    return createWorkQueueMetrics<K>(this.registry, name, clock);
  }

  private labelsOf(set: StatefulSet): SetLabels {
    return {
      statefulset_namespace: set.metadata.namespace ?? '',
      statefulset_name: set.metadata.name ?? '',
      pod_management_policy: set.spec.podManagementPolicy ?? 'OrderedReady',
    };
  }

  private seenOf(labels: SetLabels): Seen {
    const key = `${labels.statefulset_namespace}/${labels.statefulset_name}`;
    let seen = this.seen.get(key);
    if (seen === undefined) {
      seen = { policies: new Set(), strategies: new Set(), halted: false, claimFailures: new Set() };
      this.seen.set(key, seen);
    }
    seen.policies.add(labels.pod_management_policy);
    return seen;
  }
}
