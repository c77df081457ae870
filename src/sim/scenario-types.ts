// The parsed, validated and defaulted form of a scenario file. Every step keeps `raw`,
// the step exactly as given, because the timeline's `step` record echoes it.

import type { StorageConfig } from '../cluster/storage/storage-actor.js';
import type { Resource } from '../api/client.js';
import type { KubeObject } from '../api/types.js';
import type { Seconds } from '../cluster/kubelet/config.js';
import type { Allocatable } from '../cluster/kubelet/resize.js';

export type ImageBehavior = 'ImagePullBackOff' | 'CrashLoopBackOff' | 'NotReadyAfter';

export interface ImageSpec {
  behavior?: ImageBehavior;
  /** Start time for this image (overrides podStartSeconds): a number, or `{samples}` each pod draws one of. */
  startSeconds?: Seconds;
  /** NotReadyAfter: seconds of readiness before the pod turns NotReady. */
  seconds?: number;
  /** Only pods whose name matches one of these globs (a fault at one ordinal); absent: every pod. */
  pods?: string[];
}

/** `cluster`: the simulated kubelet's behaviour. */
export interface ClusterSpec {
  /** A number, or `{samples}` each pod draws one of. */
  podStartSeconds: Seconds;
  podTerminationSeconds: Seconds;
  /** Keys are exact images or globs with `*`; kept in file order. */
  images: Record<string, ImageSpec>;
  /** Most objects of one resource the in-memory API server stores (default 10,000); creates beyond get 403 `exceeded quota`. */
  maxObjects?: number;
  /** The simulated storage (binding and expanding claims); absent: claims stay Pending, as before. */
  storage?: StorageConfig;
  /** The node's allocatable cpu and memory (in-place resizes are admitted against it); absent: the Node reports none. */
  allocatable?: Allocatable;
  /** What each URL answers to a staged rollout's HTTP analysis check (a status code); a URL not listed refuses the connection. */
  analysisEndpoints?: Record<string, number>;
  /** The series the simulated Prometheus holds for Prometheus analyses (scenario-metrics.ts). */
  metrics?: MetricSeriesSpec[];
  /**
   * How long a preUpdate hook whose URL analysisEndpoints does not list takes (a number, or samples each pod and
   * revision draws one of): its GETs answer 503 until then, then the expected status. Absent: such a URL refuses.
   */
  preUpdateHookSeconds?: Seconds;
}

/** One metric every running pod exports (`cluster.metrics`): a counter's rate per second, or a gauge's value. */
export interface MetricSeriesSpec {
  name: string;
  type: 'counter' | 'gauge';
  labels?: Record<string, string>;
  value: number;
  /** Other values for pods running an image (exact, or a glob with `*`), in file order. */
  images?: Record<string, number>;
}

/** `faults`: applies only to the controller's client. */
export interface FaultSpec {
  apiErrors?: { rate: number; verbs: ('create' | 'delete' | 'update' | 'patch')[] };
  conflicts?: { rate: number };
  watch?: { delaySeconds?: number; breakEverySeconds?: number; goneRate?: number };
}

export type ControllerTarget = 'crd' | 'native' | 'both';

export interface ControllerSpec {
  featureGates: Record<string, boolean>;
  /** `both` is chosen when the file does not say and the objects use both apiVersions. */
  target: ControllerTarget;
}

/** An object to create, with the API resource it lives in. */
export interface ScenarioObject {
  resource: Resource;
  object: KubeObject;
}

export interface ObjectRef {
  namespace: string;
  name: string;
}

export type WaitTarget =
  | { kind: 'allConverged' }
  | { kind: 'pod'; ref: ObjectRef; condition: 'Ready' | 'Deleted' }
  | { kind: 'statefulset'; ref: ObjectRef; condition: 'Converged' | 'ProgressDeadlineExceeded' | 'RolloutAborted' };

export interface PodExpectation {
  /** `update` / `current` compare with the set's status revisions; anything else is a revision name. */
  revision?: string;
  ready?: boolean;
  available?: boolean;
  phase?: string;
  /** false: the pod must not exist. */
  exists?: boolean;
}

export interface EventExpectation {
  reason: string;
  type?: 'Normal' | 'Warning';
  /** Substring of the message. */
  message?: string;
  /** Name of the involved object. */
  involvedObject?: string;
  /** false: no such event may have been recorded so far. */
  present?: boolean;
}

export interface Expectation {
  /** Set key (`name` or `namespace/name`) → subset of its status. */
  status?: Record<string, Record<string, unknown>>;
  /** Pod key (`name` or `namespace/name`) → expectations. */
  pods?: Record<string, PodExpectation>;
  maxUnavailableObserved?: Record<string, number>;
  /** `event: {reason}`; a list (extension) checks each. */
  event?: EventExpectation[];
  /** Extension: every StatefulSet converged (true) or not (false) right now. */
  converged?: boolean;
}

interface StepBase {
  /** The step as given in the file. */
  raw: unknown;
}

export type Step = StepBase &
  (
    | { kind: 'waitFor'; target: WaitTarget; timeoutSeconds: number }
    | { kind: 'apply'; object: ScenarioObject }
    | { kind: 'patch'; target: ObjectTarget; merge: Record<string, unknown> }
    | { kind: 'delete'; target: ObjectTarget }
    | { kind: 'setImage'; set: ObjectRef; apiVersion: string; container: string; image: string }
    | { kind: 'deletePod'; pod: ObjectRef }
    | { kind: 'advance'; seconds: number }
    | { kind: 'restartController' }
    | { kind: 'expect'; expect: Expectation }
    /** From now on `url` answers `status` to analysis checks (null: refuses the connection). */
    | { kind: 'endpoint'; url: string; status: number | null }
    /** A user's signal to a staged rollout, the plugin's merge patch (api/rollout-signals.ts). */
    | { kind: RolloutSignal; set: ObjectRef; apiVersion: string; full?: boolean }
  );

/** `kubectl ordinal rollout pause|resume|promote|abort|retry`, as scenario steps. */
export type RolloutSignal = 'pause' | 'resume' | 'promote' | 'abort' | 'retry';

export type StepKind = Step['kind'];

/** The object a `patch` or `delete` step names. */
export interface ObjectTarget extends ObjectRef {
  kind: string;
  /** Given, or resolved from the scenario's objects and earlier apply steps. */
  apiVersion: string;
}

export interface Scenario {
  kind: 'Scenario';
  name?: string;
  seed: number;
  endSeconds: number;
  cluster: ClusterSpec;
  faults?: FaultSpec;
  controller: ControllerSpec;
  objects: ScenarioObject[];
  steps: Step[];
}

export const DEFAULT_NAMESPACE = 'default';
export const DEFAULT_END_SECONDS = 86400;
export const DEFAULT_WAIT_TIMEOUT_SECONDS = 600;
