// Plain JSON-shaped Kubernetes objects. Only the fields Ordinal reads are named; every object keeps
// unknown fields (index signatures) so that a round trip through Ordinal loses nothing and the revision
// hash sees the template exactly as stored.

import { quantityText } from './validation/quantity.js';

/** Milliseconds since the Unix epoch, from the injected clock. */
export type Instant = number;

export type IntOrString = number | string;

/**
 * A resource quantity as JSON holds it: `"10Gi"`, or a number (`10737418240`), which apimachinery's
 * Quantity decodes from its decimal text like the string. Read it through quantityText.
 */
export type Quantity = string | number;

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  [key: string]: unknown;
}

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  [key: string]: unknown;
}

export interface LabelSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | string;
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

export interface Container {
  name: string;
  image?: string;
  [key: string]: unknown;
}

export interface Volume {
  name: string;
  persistentVolumeClaim?: { claimName: string; readOnly?: boolean };
  [key: string]: unknown;
}

export interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  volumes?: Volume[];
  restartPolicy?: string;
  activeDeadlineSeconds?: number;
  terminationGracePeriodSeconds?: number;
  hostname?: string;
  subdomain?: string;
  nodeName?: string;
  /** Conditions the kubelet requires True, beside its containers' readiness, to count the pod Ready. */
  readinessGates?: { conditionType: string }[];
  [key: string]: unknown;
}

export interface PodTemplateSpec {
  metadata?: ObjectMeta;
  spec: PodSpec;
}

export interface PodCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastProbeTime?: string | null;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface ContainerStatus {
  name: string;
  ready: boolean;
  restartCount: number;
  image?: string;
  state?: {
    waiting?: { reason?: string; message?: string };
    running?: { startedAt?: string };
    terminated?: { exitCode: number; reason?: string };
  };
  [key: string]: unknown;
}

export type PodPhase = 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';

export interface PodStatus {
  phase?: PodPhase;
  conditions?: PodCondition[];
  containerStatuses?: ContainerStatus[];
  startTime?: string;
  [key: string]: unknown;
}

export interface Pod extends KubeObject {
  spec: PodSpec;
  status?: PodStatus;
}

export interface PersistentVolumeClaimSpec {
  accessModes?: string[];
  resources?: { requests?: Record<string, Quantity> };
  storageClassName?: string;
  /** The PersistentVolume the claim is bound to (set once, by binding). */
  volumeName?: string;
  volumeAttributesClassName?: string;
  [key: string]: unknown;
}

export interface PersistentVolumeClaimCondition {
  type: string;
  status: string;
  lastTransitionTime?: string;
  message?: string;
}

export interface PersistentVolumeClaim extends KubeObject {
  spec: PersistentVolumeClaimSpec;
  status?: { phase?: string; capacity?: Record<string, Quantity>; conditions?: PersistentVolumeClaimCondition[]; [key: string]: unknown };
}

/**
 * The claim's storage request (`spec.resources.requests.storage`) as quantity text, a number read as its
 * decimal text; tolerant of a template without spec. Compare it with compareQuantities, not as text.
 */
export const claimRequest = (c: PersistentVolumeClaim): string | undefined => quantityText(c.spec?.resources?.requests?.storage);
/** The claim's size as the storage reports it (`status.capacity.storage`), as claimRequest reads it. */
export const claimCapacity = (c: PersistentVolumeClaim): string | undefined => quantityText(c.status?.capacity?.storage);
/** A claim condition of `type` with status True. */
export const hasClaimCondition = (c: PersistentVolumeClaim, type: string): boolean =>
  (c.status?.conditions ?? []).some((x) => x.type === type && x.status === 'True');

/** storage.k8s.io/v1 StorageClass: only what claim expansion needs. */
export interface StorageClass extends KubeObject {
  provisioner?: string;
  allowVolumeExpansion?: boolean;
}

/**
 * kube-apiserver's resize admission rule: a claim may grow only through a StorageClass (the one it names)
 * that sets `allowVolumeExpansion: true`; a claim without a class, or whose class is missing, may not.
 */
// upstream: plugin/pkg/admission/storage/persistentvolume/resize
export const classAllowsExpansion = (cls: StorageClass | undefined): boolean => cls?.allowVolumeExpansion === true;

/** v1 Node: what rollingUpdate.topologyKey reads (its labels); the simulated kubelet places pods on them. */
export interface Node extends KubeObject {
  spec?: { [key: string]: unknown };
}

/** policy/v1 PodDisruptionBudget: what an update deletion checks under rollingUpdate.respectPodDisruptionBudgets; the simulator keeps its status. */
export interface PodDisruptionBudget extends KubeObject {
  spec: { minAvailable?: IntOrString; maxUnavailable?: IntOrString; selector?: LabelSelector; unhealthyPodEvictionPolicy?: string; [key: string]: unknown };
  status?: {
    observedGeneration?: number;
    /** Pods the API server's eviction handler evicted that the disruption controller has not yet seen deleted, by name. */
    disruptedPods?: Record<string, string>;
    disruptionsAllowed: number;
    currentHealthy: number;
    desiredHealthy: number;
    expectedPods: number;
    conditions?: Condition[];
  };
}

export interface RollingUpdateStatefulSetStrategy {
  partition?: number;
  maxUnavailable?: IntOrString;
  /** Ordinal extension (apps.ordinal.dev/v1): how a batch of deleted pods is recreated under OrderedReady. */
  batchStartPolicy?: 'Ordered' | 'Together';
  /** Ordinal extension: an update deletion waits while it would breach a PodDisruptionBudget selecting the pod. */
  respectPodDisruptionBudgets?: boolean;
  /** Ordinal extension: a Node label (e.g. topology.kubernetes.io/zone): the update moves one of its values (a zone) at a time. */
  topologyKey?: string;
  /** Ordinal extension: Ordinal (default, upstream) takes the pods to update top-down by ordinal; Priority by `priority`. */
  updateOrder?: UpdateOrder | string;
  /** Ordinal extension: under updateOrder Priority, the pod label the priority is read from. */
  priority?: UpdatePriority;
  /** Ordinal extension (apps.ordinal.dev/v1): whether a pod moves to a new revision by recreation or in place. */
  podUpdatePolicy?: PodUpdatePolicy | string;
  /** Ordinal extension (apps.ordinal.dev/v1): how a pod is drained before its in-place restart (podUpdatePolicy InPlace*). */
  inPlaceUpdateStrategy?: InPlaceUpdateStrategy;
  /** Ordinal extension (apps.ordinal.dev/v1): what a failed rollout does (default Halt). */
  onFailure?: OnFailurePolicy | string;
  /** Ordinal extension (apps.ordinal.dev/v1): the user's pause: no pod or claim is updated while true. */
  paused?: boolean;
  /** Ordinal extension (apps.ordinal.dev/v1): how far the rollout goes, step by step, and what each step waits for. */
  steps?: RolloutStep[];
  /** Ordinal extension (apps.ordinal.dev/v1): a check made all through the rollout, from its first updated pod to its end. */
  analysis?: RolloutAnalysis;
}

/**
 * rollingUpdate.inPlaceUpdateStrategy (OpenKruise's InPlaceUpdateStrategy): before an in-place restart the pod is
 * made NotReady through the readiness gate IN_PLACE_READINESS_GATE for `gracePeriodSeconds` (0: no drain).
 */
export interface InPlaceUpdateStrategy {
  gracePeriodSeconds?: number;
}

/** rollingUpdate.analysis: a background check of the whole rollout (an HTTP check or a Prometheus query; no `count`). */
export interface RolloutAnalysis {
  http?: Omit<HttpAnalysis, 'count'>;
  prometheus?: Omit<PrometheusAnalysis, 'count'>;
}

/**
 * One step of a staged rollout (rollout-steps.ts): how far it goes — `partition` (an index, as
 * rollingUpdate.partition) or `replicas` (updated replicas: a count or a percentage of replicas, rounded up) —
 * then what must happen before the next step: a pause (until promoted, or a bake time) or an analysis.
 */
export interface RolloutStep {
  partition?: number;
  replicas?: IntOrString;
  /** `{}`: until `kubectl ordinal rollout promote`; `{duration}`: a bake time, counted while every updated replica stays available. */
  pause?: { duration?: string };
  analysis?: StepAnalysis;
}

/** A step's analysis: an HTTP check the controller makes, a Prometheus query it judges, or the set's own readiness for a duration. */
export interface StepAnalysis {
  http?: HttpAnalysis;
  prometheus?: PrometheusAnalysis;
  readiness?: { duration: string; failureLimit?: number };
}

/** What a Prometheus check that gives no verdict does: counts as failed, pauses the rollout, or is not counted. */
export type AnalysisPolicy = 'Fail' | 'Pause' | 'Ignore';

/**
 * A PromQL query the controller makes of a Prometheus server every `interval`, judged by `successCondition` (CEL
 * over `result`, and `baseline` when `baselineQuery` is given). Both queries may use the placeholders
 * `{{revision}}`, `{{baselineRevision}}`, `{{namespace}}`, `{{set}}` and `{{pods}}` (a regular expression of the
 * pods on the update revision in `query`, on the baseline revision in `baselineQuery`).
 */
export interface PrometheusAnalysis {
  /** The server's http:// or https:// URL (the controller GETs `<address>/api/v1/query`). */
  address: string;
  query: string;
  baselineQuery?: string;
  successCondition: string;
  /** Between checks (a duration, default 10s). */
  interval?: string;
  /** Checks made before the analysis passes (default 1). */
  count?: number;
  /** Failed checks tolerated; one more fails the analysis (default 0). */
  failureLimit?: number;
  /** Per query (a duration, default 5s). */
  timeout?: string;
  /** A query that returns no value (default Pause). */
  noDataPolicy?: AnalysisPolicy | string;
  /** A query that cannot be made or judged (default Pause). */
  errorPolicy?: AnalysisPolicy | string;
}

export interface HttpAnalysis {
  /** An http:// or https:// URL the controller GETs. */
  url: string;
  /** The status code a check expects (default 200). */
  expectedStatus?: number;
  /** Between checks (a duration, default 10s). */
  interval?: string;
  /** Checks made before the analysis passes (default 1). */
  count?: number;
  /** Failed checks tolerated; one more fails the analysis (default 0). */
  failureLimit?: number;
  /** Per request (a duration, default 5s). */
  timeout?: string;
}

/** Where the current step stands (status.currentStepState). */
export type StepState = 'Updating' | 'Paused' | 'Baking' | 'Analyzing' | 'Failed' | 'Completed';

/** Why the rollout does not go on: the user's pause, a step's, an analysis in flight, or EnforcedRollingUpdate's halt. */
export type PauseReason = 'UserPause' | 'StepPause' | 'AnalysisRunning' | 'AnalysisInconclusive' | 'SafetyHalt';

export interface PauseCondition {
  reason: PauseReason;
  /** RFC 3339. */
  since: string;
}

/** The current step's analysis so far. */
export interface StepAnalysisStatus {
  successful: number;
  failed: number;
  /** RFC 3339: the last HTTP check, or the last readiness change counted. */
  lastCheckTime?: string;
  message?: string;
  /** Prometheus: checks that gave no verdict (no data, or an error) and were not counted as failed. */
  inconclusive?: number;
  /** Prometheus, noDataPolicy or errorPolicy Pause: the last check gave no verdict, so the rollout holds. */
  paused?: boolean;
}

/** status.rolloutAnalysis: the background check of the rollout to `revision` so far. */
export interface RolloutAnalysisStatus extends StepAnalysisStatus {
  revision: string;
  /** RFC 3339: when it started (results from before do not count). */
  since?: string;
}

export const UPDATE_ORDERS = ['Ordinal', 'Priority'] as const;
export type UpdateOrder = (typeof UPDATE_ORDERS)[number];

/**
 * updateOrder Priority: a pod's priority is the position of its `label`'s value in `values` (listed from the
 * first updated to the last); a pod without the label, or with a value not listed, comes before them all.
 */
export interface UpdatePriority {
  label: string;
  values?: string[];
}

/**
 * How a rolling update moves a pod to a new revision (OpenKruise's names): `Recreate` deletes it (upstream);
 * `InPlaceIfPossible` patches its images and metadata when that is all that changed, else recreates it;
 * `InPlaceOnly` never recreates it for an update and halts instead.
 */
export type PodUpdatePolicy = 'Recreate' | 'InPlaceIfPossible' | 'InPlaceOnly';

/**
 * What a failed rollout does: `Halt` stays where it failed (upstream's behaviour, and SafetyHalt's);
 * `Rollback` aborts the update revision and brings every pod back to the last fully available revision.
 */
export type OnFailurePolicy = 'Halt' | 'Rollback';

/** Ordinal extension: the first KEP-3541 design. */
export interface EnforcedRollingUpdateStatefulSetStrategy {
  partition?: number;
  maxUnavailable?: IntOrString;
  onFailure?: OnFailurePolicy | string;
  paused?: boolean;
  steps?: RolloutStep[];
  analysis?: RolloutAnalysis;
}

export type VolumeClaimUpdatePolicy = 'OnDelete' | 'InPlace';

export type UpdateStrategyType = 'RollingUpdate' | 'OnDelete' | 'Recreate' | 'EnforcedRollingUpdate';

export interface StatefulSetUpdateStrategy {
  type?: UpdateStrategyType | string;
  rollingUpdate?: RollingUpdateStatefulSetStrategy;
  enforcedRollingUpdate?: EnforcedRollingUpdateStatefulSetStrategy;
}

export type PodManagementPolicy = 'OrderedReady' | 'Parallel';

/** Ordinal extension: the set's lifecycle hooks (OpenKruise's Advanced StatefulSet `lifecycle`). */
export interface StatefulSetLifecycle {
  preUpdate?: PreUpdateHook;
}

export const HOOK_FAILURE_POLICIES = ['Fail', 'Ignore'] as const;
export type HookFailurePolicy = (typeof HOOK_FAILURE_POLICIES)[number];

/**
 * Before the controller disrupts a pod for an update (a deletion, an in-place restart, a claim restart): an
 * HTTP GET the controller repeats until it answers `expectedStatus`, or labels something else sets on the pod.
 * Called once per pod per update revision; its result is kept in the pod's annotation (PodAnnotations.preUpdateHook).
 */
export interface PreUpdateHook {
  http?: PreUpdateHttp;
  /** The controller labels the pod lifecycle-state=PreparingUpdate and waits until every KEY=VALUE is on it. */
  labelsHandler?: Record<string, string>;
  /** How long the hook may take before failurePolicy applies (default 300). */
  timeoutSeconds?: number;
  /** Fail (default): the pod stays held; Ignore: the pod goes on. */
  failurePolicy?: HookFailurePolicy | string;
}

export interface PreUpdateHttp {
  /** An http:// or https:// URL; the controller adds `pod` and `revision` to its query. */
  url: string;
  /** Default 200. */
  expectedStatus?: number;
  /** Per request (default 5). */
  timeoutSeconds?: number;
}
export type PersistentVolumeClaimRetentionPolicyType = 'Retain' | 'Delete';

export interface StatefulSetSpec {
  replicas?: number;
  selector?: LabelSelector;
  template: PodTemplateSpec;
  volumeClaimTemplates?: PersistentVolumeClaim[];
  serviceName?: string;
  podManagementPolicy?: PodManagementPolicy | string;
  updateStrategy?: StatefulSetUpdateStrategy;
  revisionHistoryLimit?: number;
  minReadySeconds?: number;
  persistentVolumeClaimRetentionPolicy?: {
    whenDeleted?: PersistentVolumeClaimRetentionPolicyType | string;
    whenScaled?: PersistentVolumeClaimRetentionPolicyType | string;
  };
  ordinals?: { start?: number };
  /** Ordinal extension: detection only, like Deployments (default 600); `auto`: derived from the set's learned pod durations. */
  progressDeadlineSeconds?: number | typeof PROGRESS_DEADLINE_AUTO;
  /** Ordinal extension (KEP-4650): OnDelete (default: only new claims follow the template) or InPlace (claims patched in rollout order). */
  volumeClaimUpdatePolicy?: VolumeClaimUpdatePolicy | string;
  /** Ordinal extension (apps.ordinal.dev/v1): what must happen before the controller disrupts a pod. */
  lifecycle?: StatefulSetLifecycle;
  [key: string]: unknown;
}

export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime?: string;
  lastUpdateTime?: string;
  reason?: string;
  message?: string;
}

export interface StatefulSetStatus {
  observedGeneration?: number;
  replicas: number;
  readyReplicas?: number;
  currentReplicas?: number;
  updatedReplicas?: number;
  availableReplicas?: number;
  currentRevision?: string;
  updateRevision?: string;
  collisionCount?: number;
  conditions?: Condition[];
  /** apps.ordinal.dev/v1 only: the selector in string form, for the CRD's scale subresource (HPA). */
  selector?: string;
  /** apps.ordinal.dev/v1 only (KEP-4650): per claim template, its claims of the replicas in range. */
  volumeClaimTemplates?: VolumeClaimTemplateStatus[];
  /** apps.ordinal.dev/v1, onFailure Rollback: the update revision the controller aborted (pods go back to currentRevision). */
  abortedRevision?: string;
  /** apps.ordinal.dev/v1, onFailure Rollback: the last revision every replica was updated and available on. */
  lastAvailableRevision?: string;
  /** apps.ordinal.dev/v1, onFailure Rollback: the value of the rollout-retry annotation the controller last acted on. */
  observedRolloutRetry?: string;
  /** apps.ordinal.dev/v1, steps: the step the rollout is at (steps.length once every step passed). */
  currentStepIndex?: number;
  /** apps.ordinal.dev/v1, steps: what the current step waits for. */
  currentStepState?: StepState;
  /** apps.ordinal.dev/v1, steps: RFC 3339, since when the step is in that state (a bake counts from it). */
  currentStepSince?: string;
  /** apps.ordinal.dev/v1, steps: the update revision the steps run for (a new one restarts them). */
  stepRevision?: string;
  /** apps.ordinal.dev/v1, steps: the current step's analysis. */
  stepAnalysis?: StepAnalysisStatus;
  /** apps.ordinal.dev/v1, rollingUpdate.analysis: the rollout's background check. */
  rolloutAnalysis?: RolloutAnalysisStatus;
  /** apps.ordinal.dev/v1: why the rollout does not go on, the user's pause kept apart from the controller's. */
  pauseConditions?: PauseCondition[];
}

export interface VolumeClaimTemplateStatus {
  /** The template's name. */
  name: string;
  /** Claims whose capacity, labels, annotations and fixed fields meet the template. */
  compatible: number;
  /** Claims being expanded (request above capacity, or a Resizing / FileSystemResizePending condition). */
  updating: number;
  /** Claims larger than the template asks. */
  overSized: number;
  /** The sum of the claims' capacities. */
  totalCapacity?: string;
}

export interface StatefulSet extends KubeObject {
  spec: StatefulSetSpec;
  status?: StatefulSetStatus;
}

export interface ControllerRevision extends KubeObject {
  /** Raw JSON text exactly as stored (Go encoding), so hashing and equality are byte-exact. */
  data?: unknown;
  revision: number;
}

export interface ObjectReference {
  apiVersion?: string;
  kind?: string;
  name?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
}

export interface KubeEvent extends KubeObject {
  involvedObject: ObjectReference;
  reason?: string;
  message?: string;
  type?: 'Normal' | 'Warning';
  count?: number;
  firstTimestamp?: string;
  lastTimestamp?: string;
  source?: { component?: string };
}

export interface Lease extends KubeObject {
  spec: {
    holderIdentity?: string;
    leaseDurationSeconds?: number;
    acquireTime?: string;
    renewTime?: string;
    leaseTransitions?: number;
  };
}

export const APPS_V1 = 'apps/v1';
export const ORDINAL_V1 = 'apps.ordinal.dev/v1';

export const Labels = {
  podName: 'statefulset.kubernetes.io/pod-name',
  podIndex: 'apps.kubernetes.io/pod-index',
  revisionHash: 'controller-revision-hash',
  controllerHash: 'controller.kubernetes.io/hash',
} as const;

/**
 * Annotations the controller applies to claims it grows under volumeClaimUpdatePolicy: InPlace, so that a
 * replica counts as available only once its claims have been ready for minReadySeconds (KEP-4650): a claim
 * records when the controller asked it to grow, and when it saw the expansion finished (the API keeps no
 * such time).
 */
/**
 * `kubectl ordinal rollout retry` writes a new value here (the time, as kubectl's restartedAt): the
 * controller then retries the revision it aborted. Status is the controller's, so the user's signal is an
 * annotation on the set (metadata, not spec: no new generation, no new revision).
 */
export const RetryAnnotation = 'apps.ordinal.dev/rollout-retry';

/**
 * `kubectl ordinal rollout promote`: `<updateRevision>/<step index>` passes that step's gate now;
 * `<updateRevision>/full` passes every remaining step. Naming the revision and step makes a stale value inert.
 */
export const PromoteAnnotation = 'apps.ordinal.dev/rollout-promote';
/** `kubectl ordinal rollout abort`: the update revision whose rollout fails now (onFailure decides what follows). */
export const AbortAnnotation = 'apps.ordinal.dev/rollout-abort';

export const ClaimAnnotations = {
  resizeRequestedAt: 'apps.ordinal.dev/resize-requested-at',
  resizedAt: 'apps.ordinal.dev/resized-at',
} as const;

/**
 * The annotation a pod carries while podUpdatePolicy moves it in place: the revision whose images and metadata
 * it was patched to. Its `controller-revision-hash` label stays the old revision until the kubelet reports the
 * new images; the controller then relabels it and removes the annotation (OpenKruise keeps the same state in
 * `apps.kruise.io/inplace-update-state`).
 */
export const PodAnnotations = {
  inPlaceUpdateRevision: 'apps.ordinal.dev/in-place-update-revision',
  /**
   * kube-apiserver refused the resize the in-place update asked for (its PodResizeValidator: the node's
   * allocatable can never hold it): the refusal, which the controller treats as the kubelet's `Infeasible`.
   */
  resizeRefused: 'apps.ordinal.dev/resize-refused',
  /** spec.lifecycle.preUpdate: the hook's state for one update revision (JSON: replica/hook-state.ts). */
  preUpdateHook: 'apps.ordinal.dev/pre-update-hook',
} as const;

/**
 * rollingUpdate.inPlaceUpdateStrategy: the readiness gate (and pod condition) pods the set creates carry when
 * a drain applies; the controller writes it False before an in-place restart, True after (OpenKruise's
 * InPlaceUpdateReady).
 */
export const IN_PLACE_READINESS_GATE = 'apps.ordinal.dev/InPlaceUpdateReady';
/** The reason of the gate's False condition: the drain before an in-place restart began. */
export const DRAIN_REASON = 'StartInPlaceUpdate';

/** spec.lifecycle.preUpdate.labelsHandler: the label the controller sets while a pod's hook runs. */
export const LIFECYCLE_STATE_LABEL = 'apps.ordinal.dev/lifecycle-state';
export const PREPARING_UPDATE = 'PreparingUpdate';

/** kubectl's `rollout restart` stamp on the pod template (the time): a new value replaces every pod. */
export const RESTARTED_AT_ANNOTATION = 'kubectl.kubernetes.io/restartedAt';

/** Converts an injected-clock instant to the RFC 3339 form the API server stores (whole seconds, T9). */
export function toTimestamp(t: Instant): string {
  return new Date(Math.floor(t / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/**
 * Parses an RFC 3339 timestamp; undefined for a missing or unparsable value. (A pod's timestamps are parsed
 * once per pod object, in its facts: pod-facts.ts.)
 */
export function fromTimestamp(s: string | undefined | null): Instant | undefined {
  if (!s) return undefined;
  const t = Date.parse(s);
  return Number.isNaN(t) ? undefined : t;
}

/** `spec.progressDeadlineSeconds: auto` (apps.ordinal.dev/v1): the deadline follows the set's learned pod durations. */
export const PROGRESS_DEADLINE_AUTO = 'auto';
