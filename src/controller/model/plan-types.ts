// The planner's contract: observed state + `now` + features in, a Plan out. The planner
// never calls the API; the executor (runtime/executor.ts) applies `actions` batch by batch.
//
// Batch convention (how upstream's stop-at-first-error becomes data):
// - batch 0: adoption/release of pods and revisions, and the revision write (createRevision/updateRevision);
//   upstream does these before UpdateStatefulSet, and a failure there ends the sync.
// - then the replica pass, the condemned claim fixes, the condemned pass and the update deletions, in
//   upstream's order. OrderedReady: every step is its own batch, in order (claims of one pod share a batch,
//   as upstream aggregates their errors). Parallel: upstream's slowStartBatch (1, 2, 4, … ≤ 500 pods per
//   batch); each pod's sequential steps (claims → pod → claim ownerRefs) take consecutive batches, so a
//   claim is always created in an earlier batch than its pod.
// - last batch: deleteRevision actions (upstream truncates history even when the sync failed; the executor
//   runs them regardless).
// Batch numbers are dense (0, 1, 2, …) and actions are listed in batch order.

import type {
  Container,
  ControllerRevision,
  Instant,
  StepAnalysisStatus,
  StepState,
  PersistentVolumeClaim,
  Pod,
  PodCondition,
  PodDisruptionBudget,
  StatefulSetStatus,
} from '../../api/types.js';
import type { StepKind } from './learned-durations.js';


/**
 * A check of an analysis, due now: the runtime makes it (an HTTP GET of `url`, or a Prometheus query judged by its
 * successCondition) and reports an AnalysisResult. Never I/O in the planner: it only says what is due.
 */
export type AnalysisProbe = ProbeBase & (HttpProbe | PrometheusProbe);

interface ProbeBase {
  /** `<update revision>/<step index, or "rollout">/<attempt>` (the retry value in effect): the results that count for the analysis. */
  key: string;
  revision: string;
  /** The step's index (0-based); absent for the rollout's background analysis (rollingUpdate.analysis) and a hook. */
  step?: number;
  /** A preUpdate hook's pod (its key: `preUpdate/<pod>/<update revision>`). */
  pod?: string;
  timeoutMs: number;
}

export interface HttpProbe {
  kind: 'http';
  url: string;
  expectedStatus: number;
}

/** A Prometheus check: the queries with their placeholders filled in, and the CEL condition that judges their values. */
export interface PrometheusProbe {
  kind: 'prometheus';
  address: string;
  query: string;
  baselineQuery?: string;
  successCondition: string;
  /** The outcome is known without a query: `{{pods}}` matches no pod (no data), or too many to list (an error). */
  known?: { inconclusive: 'noData' | 'error'; message: string };
}

/** What one check saw. */
export interface AnalysisResult {
  key: string;
  at: Instant;
  ok: boolean;
  /** e.g. "HTTP 200", "HTTP 503, expected 200", "connect ECONNREFUSED", "result 0.031, baseline 0.012: result <= baseline * 1.5 is false". */
  message: string;
  /** A Prometheus check that gave no verdict (`ok` false): its query returned no value, or it could not be made or judged; the analysis' noDataPolicy or errorPolicy decides. */
  inconclusive?: 'noData' | 'error';
}

/** A PodDisruptionBudget and the pods its selector selects (the set's and any other workload's). */
export interface ObservedDisruptionBudget {
  budget: PodDisruptionBudget;
  pods: readonly Pod[];
  /**
   * Pods this controller process deleted or evicted under the budget that its pods and status do not show yet
   * (runtime/in-flight-disruptions.ts): the planner counts each as disrupted.
   */
  inFlight?: readonly string[];
}

/** Why a pod is deleted: upstream's reasons plus ours, for events, metrics and `why`. */
export type DeleteCause =
  | 'failed' // phase Failed/Succeeded (§3.4)
  | 'condemned' // ordinal out of range (§3.5)
  | 'update' // rolling update (§4)
  | 'recreate' // Recreate strategy (§3.8)
  | 'forced' // EnforcedRollingUpdate replacing a stuck pod (KEP-3541's first design)
  | 'rollback'; // onFailure: Rollback bringing a pod back to the last fully available revision

interface ActionBase {
  /** Batch k runs only when every action of batch k−1 succeeded. */
  batch: number;
  /** The events upstream records for this action's outcome; absent when it records none. */
  outcome?: OutcomeEvents;
  /** Upstream ends the sync before computing status when this fails (adoption, the revision write): the observed status stays. */
  endsSyncOnFailure?: true;
  /** Its failure is reported and retried but does not stop later batches (a claim update never blocks a pod's creation, KEP-4650). */
  continuesOnFailure?: true;
}

/** Upstream's per-action events (stateful_pod_control.go recordPodEvent/recordClaimEvent), decided by the planner. */
export interface OutcomeEvents {
  /** Recorded when the action ran. */
  succeeded?: PlannedEvent;
  /** Recorded when it failed, with the error's text appended to `message`; never for AlreadyExists on a create. */
  failed?: PlannedEvent;
}

export type Action = ActionBase &
  (
    | { kind: 'createRevision'; revision: ControllerRevision }
    /** Rollback: an older revision is re-numbered to become the update revision (§7.1 step 3). */
    | { kind: 'updateRevision'; revision: ControllerRevision }
    | { kind: 'deleteRevision'; name: string }
    | { kind: 'adoptRevision'; revision: ControllerRevision }
    | { kind: 'adoptPod'; pod: Pod }
    | { kind: 'releasePod'; pod: Pod }
    | { kind: 'createClaim'; claim: PersistentVolumeClaim; podName: string }
    /** Owner-reference changes for the retention policy (§2.5). */
    | { kind: 'updateClaim'; claim: PersistentVolumeClaim; podName: string }
    /**
     * volumeClaimUpdatePolicy InPlace: a claim brought to its template's revision by server-side apply of
     * `claim` (the fields the controller owns); `growsTo`: the larger storage request it sets, if any.
     */
    | { kind: 'patchClaim'; name: string; podName: string; claim: PersistentVolumeClaim; growsTo?: string }
    | { kind: 'createPod'; pod: Pod; ordinal: number }
    /**
     * A pod whose template did not change (volumeClaimUpdatePolicy InPlace), or (podUpdatePolicy) whose kubelet
     * reports the images it was patched to, moves to `revision` by its label; `clearsInPlaceUpdate` removes the
     * in-place annotation in the same patch.
     */
    | { kind: 'relabelPod'; name: string; uid: string; ordinal: number; revision: string; clearsInPlaceUpdate?: true }
    /** spec.lifecycle.preUpdate: the pod's hook record (and a labels handler's lifecycle-state label) written by merge patch. */
    | {
        kind: 'annotatePod';
        name: string;
        uid: string;
        ordinal: number;
        annotations: Record<string, string | null>;
        labels?: Record<string, string | null>;
        /** The hook state it records, and seconds since the hook's first call (metrics). */
        hook: { phase: 'Calling' | 'Passed' | 'Ignored' | 'Failed'; seconds: number };
      }
    /**
     * inPlaceUpdateStrategy: the pod's readiness-gate condition apps.ordinal.dev/InPlaceUpdateReady written through
     * pods/status (the other conditions kept): True once a gated pod exists or its restart is done, False for the
     * drain before an in-place restart (`drain`: the drain's grace, for events and `why`).
     */
    | { kind: 'setPodCondition'; name: string; uid: string; ordinal: number; condition: PodCondition; drain?: { revision: string; graceSeconds: number } }
    /** podUpdatePolicy: the pod's images and template metadata patched to `revision`'s, which its annotation names. */
    /** `resize`: new cpu/memory, sent through pods/resize after `patch` (kube-apiserver's refusal is recorded on the pod). */
    | { kind: 'patchPod'; name: string; uid: string; ordinal: number; revision: string; patch: InPlacePatch; resize?: ResizePatch }
    /** Identity/storage repair (§2.3). */
    | { kind: 'updatePod'; pod: Pod; ordinal: number }
    | {
        kind: 'deletePod';
        name: string;
        uid: string;
        ordinal: number;
        cause: DeleteCause;
        /** The plan's status already counts this pod out of currentReplicas (undone by settleStatus if it fails). */
        decrementsCurrentReplicas?: boolean;
        /** A forced replacement: seconds the pod had been unavailable (statefulset_stuck_pod_duration_seconds once it is deleted). */
        stuckSeconds?: number;
        /**
         * Deleted through pods/eviction (rollingUpdate.respectPodDisruptionBudgets): the API server's budget check is
         * the last word; a refusal (429) leaves the pod and requeues the set.
         */
        eviction?: true;
      }
  );

export type ActionKind = Action['kind'];

/** Why the controller is not doing more this sync. `why`, events, metrics and tests read these. */
export type Blocker =
  | { kind: 'invalidSpec'; issues: { path: string; detail: string }[] }
  /** The planner itself failed (a bug in Ordinal, never bad input): the runtime logs, counts and retries it. */
  | { kind: 'internalError'; message: string; stack?: string }
  | { kind: 'featureDisabled'; gate: string; field: string }
  | { kind: 'setDeleting' }
  | { kind: 'podTerminating'; pod: string; ordinal: number }
  | { kind: 'podNotRunningAndReady'; pod: string; ordinal: number; phase: string }
  | { kind: 'podNotAvailable'; pod: string; ordinal: number; availableAt: Instant }
  | { kind: 'podMissing'; pod: string; ordinal: number }
  | { kind: 'staleClaim'; pod: string; claim: string }
  | { kind: 'claimDeleting'; pod: string; claim: string }
  | { kind: 'budgetExhausted'; unavailable: number; maxUnavailable: number; unavailablePods: string[] }
  | { kind: 'partition'; partition: number; heldBack: number }
  | { kind: 'waitingForTermination'; pods: string[] }
  | { kind: 'stuckOldRevision'; pod: string; ordinal: number; state: string }
  | { kind: 'safetyHalt'; pod: string; ordinal: number }
  /** EnforcedRollingUpdate: broken pods on an old revision that the partition keeps from being replaced (`count` exact, `pods` bounded). */
  | { kind: 'brokenBelowPartition'; partition: number; pods: string[]; count: number }
  /** `seconds`: the deadline applied (spec.progressDeadlineSeconds, or what `auto` derived). */
  | { kind: 'progressDeadlineExceeded'; since: Instant; seconds?: number }
  /** A step of the rollout is past the p95 band of the set's learned pod durations (slow-rollout.ts): a warning, not a failure. */
  | ({ kind: 'slowerThanForecast' } & LateStep)
  /** Parallel creates at most `perSync` pods per sync; `remaining` missing replicas wait for later syncs. */
  | { kind: 'workCapped'; remaining: number; perSync: number }
  /** ordinals.start + replicas runs past the largest ordinal a pod name can carry: `uncreatable` replicas never get a pod. */
  | { kind: 'ordinalOverflow'; start: number; replicas: number; uncreatable: number }
  /** OnDelete: pods on an old revision wait for someone to delete them. */
  | { kind: 'onDeleteStrategy'; outdatedPods: number }
  /** volumeClaimUpdatePolicy InPlace: the pod waits until its claim's expansion is done (offline: until the pod restarts). */
  | { kind: 'claimResizing'; pod: string; claim: string; waitingForPodRestart: boolean }
  /** InPlace: the claim must grow but its StorageClass does not allow expansion (or it has none). */
  | { kind: 'claimExpansionRefused'; pod: string; claim: string; storageClass: string; request: string }
  /** InPlace: a field the claim cannot change in place differs from its template (values as JSON): the user must replace the claim. */
  | { kind: 'claimIncompatible'; pod: string; claim: string; field: string; want: string; have: string }
  /** InPlace: the claim's expansion reported a failure (ControllerResizeError, NodeResizeError, infeasible). */
  | { kind: 'claimResizeFailed'; pod: string; claim: string; message: string }
  /**
   * respectPodDisruptionBudgets: deleting these pods would breach the PodDisruptionBudget `budget` (its eviction
   * would be refused); `disruptionsAllowed` and `currentHealthy` as the planner counted them now, `desiredHealthy`
   * and `expectedPods` from its status; `stale`: its status is older than its spec; `unready`: a held pod is not
   * Ready (IfHealthyBudget lets it go only while the budget is met); `count` exact, `pods` bounded.
   */
  | {
      kind: 'podDisruptionBudget';
      budget: string;
      pods: string[];
      count: number;
      disruptionsAllowed: number;
      currentHealthy: number;
      desiredHealthy: number;
      expectedPods: number;
      stale: boolean;
      unready: boolean;
    }
  /**
   * respectPodDisruptionBudgets: more than one PodDisruptionBudget selects the pod, and the Eviction API refuses to
   * evict such a pod (kube-apiserver: "This pod has more than one PodDisruptionBudget"): it waits until one of
   * the budgets stops selecting it.
   */
  | { kind: 'overlappingDisruptionBudgets'; pod: string; budgets: string[] }
  /**
   * rollingUpdate.topologyKey: the update moves one zone (a value of the node label `topologyKey`) at a time, in
   * `order`; `zone` is the one it moves now, `heldBack` replicas of later zones wait for it; `disrupted`: another
   * zone still has unavailable replicas, so no available pod of `zone` goes yet. A zone of null: pods whose node
   * or label is unknown (they move last), and missing replicas.
   */
  | { kind: 'zoneOrder'; topologyKey: string; order: (string | null)[]; zone: string | null; heldBack: number; disrupted?: { zone: string | null; pods: string[] } }
  /**
   * rollingUpdate.updateOrder Priority: the pods still to update go in `order` (by the pod label `label`, its
   * `values` from the first updated to the last); `heldBack` of them, of higher priorities, wait for the lower
   * ones; `waitingFor`: the next priority waits for these unavailable replicas.
   */
  | { kind: 'updateOrder'; label: string; values: string[]; order: string[]; heldBack: number; waitingFor?: string[] }
  /** podUpdatePolicy: the pod was patched to `revision` in place; the kubelet has not reported the new images of `containers` yet. */
  | { kind: 'podUpdatingInPlace'; pod: string; ordinal: number; revision: string; containers: string[] }
  /**
   * inPlaceUpdateStrategy: the pod drains before its in-place restart to `revision`: NotReady (its readiness gate
   * False) since `since`, restarted once `graceSeconds` have passed.
   */
  | { kind: 'inPlaceDraining'; pod: string; ordinal: number; revision: string; since: Instant; graceSeconds: number }
  /**
   * podUpdatePolicy InPlaceOnly: the new revision changes `fields`, which a live pod cannot take: the rollout
   * halts at this pod (`spec.readinessGates`: a drain applies and the pod was created without the gate).
   */
  | { kind: 'inPlaceUpdateImpossible'; pod: string; ordinal: number; fields: string[] }
  /** podUpdatePolicy: the kubelet defers the pod's resize (it fits the node, not now): waited for until `fallbackAt`. */
  | { kind: 'podResizeDeferred'; pod: string; ordinal: number; message: string; fallbackAt: Instant }
  /**
   * podUpdatePolicy InPlaceOnly: the pod's resize does not proceed (`reason` Infeasible, Deferred past the
   * timeout, or Forbidden by kube-apiserver; `message` is theirs): the rollout halts at this pod.
   */
  | { kind: 'podResizeImpossible'; pod: string; ordinal: number; reason: string; message: string }
  /** A pod is being created this sync (OrderedReady waits for it before the next ordinal). */
  | { kind: 'podCreating'; pod: string; ordinal: number }
  /**
   * onFailure: Rollback aborted `revision`: every pod goes back to `target`. `message`: what failed and what is
   * done (the Progressing condition's); `claimsKeptGrown`: InPlace claim templates whose claims stay larger.
   */
  | { kind: 'rolloutAborted'; revision: string; target: string; message: string; claimsKeptGrown: string[] }
  /** onFailure: Rollback, the rollout to `revision` failed, and no other revision was ever fully available: it halts. */
  | { kind: 'noRollbackTarget'; revision: string; failure: string }
  /** rollingUpdate.paused: the user paused the rollout; nothing is updated until it is resumed. */
  | { kind: 'rolloutPaused' }
  /**
   * rollingUpdate.steps: the rollout is at `step` (0-based) of `steps`, working to `partition`; `state` says what
   * it waits for (`gate`: the step's pause, bake, analysis of checks or readiness analysis); `until`: when a bake or
   * readiness window ends.
   */
  | {
      kind: 'rolloutStep';
      step: number;
      steps: number;
      state: StepState;
      /** 'http' and 'prometheus': an analysis of checks the controller makes (HTTP GETs, or Prometheus queries). */
      gate: 'none' | 'pause' | 'bake' | 'http' | 'prometheus' | 'readiness';
      partition: number;
      until?: Instant;
      analysis?: StepAnalysisStatus;
    }
  /**
   * rollingUpdate.analysis: the rollout's background check so far (`check`: http or prometheus); `paused`: its last
   * check gave no verdict under a Pause policy, so no pod is updated until one does.
   */
  | { kind: 'rolloutAnalysis'; check: 'http' | 'prometheus'; analysis: StepAnalysisStatus; paused: boolean }
  /** rollingUpdate.steps: the step failed the rollout (an analysis, or the user's abort; `steps` 0: an abort of a rollout without steps); with onFailure Halt it stays there. */
  | { kind: 'stepFailed'; step: number; steps: number; message: string }
  /**
   * A disruption that finishes an update (an in-place fallback or move on, a claim restart) waits: for the rollout
   * to be resumed or retried, for the safety halt to end, for the update budget (`budget`: fewer replicas
   * unavailable), or for a PodDisruptionBudget (the podDisruptionBudget blocker says which).
   */
  | { kind: 'disruptionWaits'; pod: string; ordinal: number; cause: DisruptionWaitCause; waitsFor: DisruptionWait }
  /**
   * spec.lifecycle.preUpdate: the pod goes for the update only once its hook has passed (or failed under
   * failurePolicy Ignore). `state` calling: called since `since`, `target` is the GET or the labels it waits
   * for, `answer` the last one; failed: it timed out under failurePolicy Fail and the pod is held.
   */
  | { kind: 'preUpdateHook'; pod: string; ordinal: number; revision: string; state: 'calling' | 'failed'; handler: 'http' | 'labels'; target: string; since: Instant; answer?: string; timeoutSeconds: number };

/** The cause of a disruption that waits (disruptionWaits). */
export type DisruptionWaitCause = 'failed' | 'condemned' | 'recreate' | 'update' | 'forced' | 'rollback' | 'inPlaceFallback' | 'inPlaceOvertaken' | 'claimRestart' | 'drained';
/** What a waiting disruption waits for. */
export type DisruptionWait = 'resume' | 'retry' | 'verdict' | 'halt' | 'budget' | 'disruptionBudget';

export type BlockerKind = Blocker['kind'];

/** An event the planner decides on: a transition, or an action's outcome (OutcomeEvents). */
export interface PlannedEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

/** Metric values for this set after the sync; the runtime writes them to prom-client. */
export interface PlanMetrics {
  maxUnavailable: number;
  /** In-range unavailable slots (§4.4 step 2); undefined when the rolling-update path did not run. */
  unavailableReplicas?: number;
  /** spec.replicas − availableReplicas > maxUnavailable was observed during a rolling update. */
  unavailabilityViolation: boolean;
  forcedReplacements: number;
  safetyHalt: boolean;
  enforcedRollingUpdateStarted: boolean;
  /** onFailure: Rollback aborted a rollout this sync (statefulset_rollbacks_total). */
  rolloutAborted?: true;
  /** A rollout left its p95 band this sync: Progressing=False, reason SlowerThanForecast (statefulset_slower_than_forecast_total). */
  slowerThanForecast?: true;
  /** Seconds a rollout took, reported once when it completes (strategy label from the set). */
  updateCompletedSeconds?: number;
}

export interface Plan {
  /** The status to write; optimistic: assumes every action succeeds (runtime/settle-status.ts corrects it from the actions' data). */
  status: StatefulSetStatus;
  /** Whether `status` differs from the stored status enough to be written (upstream inconsistentStatus + conditions). */
  statusChanged: boolean;
  actions: Action[];
  blockers: Blocker[];
  events: PlannedEvent[];
  metrics: PlanMetrics;
  /** The earliest instant the answer could change with no new events (e.g. a pod becoming available). */
  wakeAt?: Instant;
  /** The status as observed (settleStatus compares with it; nothing is written when an `endsSyncOnFailure` action failed, as upstream). */
  previousStatus?: StatefulSetStatus;
  /** rollingUpdate.steps and .analysis, and preUpdate hooks: checks due now; the runtime makes them and feeds the results to the next sync. */
  probes?: AnalysisProbe[];
}

/** A step in flight past its band (rollout/slow-rollout.ts): the pod, which step, how long it has taken and the band it was given. */
export interface LateStep {
  pod: string;
  step: StepKind;
  seconds: number;
  p50: number;
  p95: number;
  pods: number;
}

/** The merge patch an in-place update sends: the pod's uid (kube-apiserver refuses it for a namesake: uid is immutable), its metadata and its containers with the new images. */
export interface InPlacePatch {
  metadata: { uid: string; labels: Record<string, string | null>; annotations: Record<string, string | null> };
  spec: { containers: Container[] };
}

/** The merge patch sent through pods/resize after the InPlacePatch: the containers with their new resources. */
export interface ResizePatch {
  metadata: { uid: string };
  spec: { containers: Container[] };
}
