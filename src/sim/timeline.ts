// Timeline records: every record has `t` (virtual seconds since the
// start) and `type`; the builders below fix each record's field order so that jsonl output is
// byte-identical for the same scenario and seed.

import type { Instant, StatefulSetStatus } from '../api/types.js';
import type { ClaimEvent } from './claim-lifecycle.js';

/** `Restarted`: a container now reports another image on the same pod (an in-place update). */
export type PodEvent = 'Created' | 'Scheduled' | 'Running' | 'Restarted' | 'Ready' | 'NotReady' | 'Failed' | 'Terminating' | 'Deleted';

export interface StepRecord {
  t: number;
  type: 'step';
  index: number;
  step: unknown;
}

export interface PodRecord {
  t: number;
  type: 'pod';
  namespace: string;
  name: string;
  /** Owning StatefulSet (controller ownerRef, else parsed from the name); null if neither. */
  set: string | null;
  ordinal: number | null;
  /** Value of the `controller-revision-hash` label. */
  revision: string | null;
  event: PodEvent;
  /** Extension, on `Ready` when the set has minReadySeconds: when the pod counts as available if it stays Ready. */
  availableAt?: number;
  /** On `Scheduled`, when the scenario has Node objects: the node it was bound to, and that node's zone label. */
  node?: string;
  zone?: string;
}

/**
 * Extension: a pod's container started waiting for a reason other than being created (`ImagePullBackOff`,
 * `CrashLoopBackOff`, `ErrImagePull`, …): why a pod that exists does not progress.
 */
export interface WaitingRecord {
  t: number;
  type: 'waiting';
  namespace: string;
  name: string;
  set: string | null;
  ordinal: number | null;
  revision: string | null;
  reason: string;
  message: string;
}

/**
 * Extension: a claim of a set changed in a way a rollout waits for (volumeClaimUpdatePolicy InPlace):
 * `Created`, `Bound`, `Resizing` (request above capacity), `FileSystemResizePending`, `ResizeFailed`,
 * `Resized` (capacity grew), `Deleted`. `set`/`ordinal`: the set whose claim template names it.
 */
export interface ClaimRecord {
  t: number;
  type: 'claim';
  namespace: string;
  name: string;
  set: string | null;
  ordinal: number | null;
  event: ClaimEvent;
  request: string | null;
  capacity: string | null;
}

export interface StatusRecord {
  t: number;
  type: 'status';
  namespace: string;
  name: string;
  generation: number | null;
  status: StatefulSetStatus;
}

/**
 * A Kubernetes Event. The event's own `type` (Normal/Warning) is one of its fields, which
 * would clash with the record's `type`; it is carried as `eventType`.
 */
export interface EventRecord {
  t: number;
  type: 'event';
  namespace: string;
  involvedObject: { kind: string; name: string };
  eventType: string;
  reason: string;
  message: string;
}

export type ActionVerb = 'create' | 'delete' | 'update' | 'patch';

export interface ActionRecord {
  t: number;
  type: 'action';
  namespace: string;
  set: string | null;
  verb: ActionVerb;
  /** Plural resource name, `statefulsets/status` for status writes. */
  resource: string;
  name: string;
}

/** A request that removes a pod: a DELETE, or a POST to pods/NAME/eviction (respectPodDisruptionBudgets' update deletions). */
export const isPodRemoval = (r: ActionRecord): boolean => (r.verb === 'delete' && r.resource === 'pods') || (r.verb === 'create' && r.resource === 'pods/eviction');

/**
 * Extension: a check of a staged rollout's analysis came back: an HTTP GET of `url` (`cluster.analysisEndpoints`
 * answers it) or a Prometheus `query` (with its `baselineQuery`; `cluster.metrics` answers them, with their
 * placeholders filled in). `step`: the step's index (0-based, as status.currentStepIndex) on the update revision
 * `revision`; absent for the rollout's background analysis. `inconclusive`: a Prometheus check with no verdict
 * (`noData` or `error`), which the analysis' policy decides.
 */
export interface AnalysisRecord {
  t: number;
  type: 'analysis';
  namespace: string;
  set: string;
  revision: string;
  /** A step's check: its index (absent: the rollout's background analysis, or a hook). */
  step?: number;
  /** A preUpdate hook's call: its pod. */
  pod?: string;
  url?: string;
  query?: string;
  baselineQuery?: string;
  ok: boolean;
  inconclusive?: 'noData' | 'error';
  message: string;
}

export interface ExpectRecord {
  t: number;
  type: 'expect';
  index: number;
  ok: boolean;
  message: string;
}

/** Extension: a step that could not do what it says (waitFor timed out, a write was rejected). */
export interface FailureRecord {
  t: number;
  type: 'failure';
  index: number;
  message: string;
}

export interface Violation {
  t: number;
  invariant: string;
  message: string;
}

/** Extension: an invariant broke at `t` (also listed in the summary's `violations`). */
export interface ViolationRecord extends Violation {
  type: 'violation';
}

/**
 * Extension of the summary: one change of a set's spec after its creation (metadata.generation grew), from the
 * write that made it to the set's next convergence.
 */
export interface RolloutSummary {
  namespace: string;
  name: string;
  generation: number;
  /** The update revision the controller rolled to (the status's, once it observed the change). */
  revision: string | null;
  startedAt: number;
  /** null: not converged, by the end of the run or before the next change (`replacedAt`). */
  convergedAt: number | null;
  replacedAt: number | null;
  /** The set's pods gone since the change, and its pods at the end (or the next change) that are new. */
  podsDeleted: number;
  podsCreated: number;
  /** The fewest in-range ordinals with an available, non-terminating pod, of spec.replicas, and when first. */
  lowestAvailable: { replicas: number; of: number; at: number };
  /**
   * onFailure: Rollback aborted it: when the status first showed it (`status.abortedRevision`), and the lowest
   * availability from then on (the way back; it ends at `convergedAt`).
   */
  aborted?: { at: number; lowestAvailable: { replicas: number; of: number; at: number } };
  /** Seconds the user's pause (spec `paused: true`) held it, when it was paused: part of its duration. */
  pausedSeconds?: number;
}

export interface SummaryRecord {
  t: number;
  type: 'summary';
  converged: boolean;
  convergedAt: number | null;
  endedAt: number;
  sets: Record<string, StatefulSetStatus | null>;
  metrics: Record<string, number>;
  violations: Violation[];
  rollouts: RolloutSummary[];
}

export type TimelineRecord =
  | StepRecord
  | PodRecord
  | WaitingRecord
  | ClaimRecord
  | StatusRecord
  | EventRecord
  | ActionRecord
  | AnalysisRecord
  | ExpectRecord
  | FailureRecord
  | ViolationRecord
  | SummaryRecord;

export type RecordType = TimelineRecord['type'];

// Keyed by the unions so the compiler rejects a list that misses or invents a member; exported for the
// scenario docs test, which checks every record type and pod event is documented.
const RECORD_TYPE_SET: Record<RecordType, true> = {
  step: true,
  pod: true,
  waiting: true,
  claim: true,
  status: true,
  event: true,
  action: true,
  analysis: true,
  expect: true,
  failure: true,
  violation: true,
  summary: true,
};
export const RECORD_TYPES = Object.keys(RECORD_TYPE_SET) as RecordType[];

const POD_EVENT_SET: Record<PodEvent, true> = {
  Created: true,
  Scheduled: true,
  Running: true,
  Restarted: true,
  Ready: true,
  NotReady: true,
  Failed: true,
  Terminating: true,
  Deleted: true,
};
export const POD_EVENTS = Object.keys(POD_EVENT_SET) as PodEvent[];

/** Virtual seconds since `start`, as a number. */
export const secondsSince = (start: Instant, now: Instant): number => (now - start) / 1000;

export function stepRecord(t: number, index: number, step: unknown): StepRecord {
  return { t, type: 'step', index, step };
}

export function podRecord(t: number, p: Omit<PodRecord, 't' | 'type'>): PodRecord {
  const r: PodRecord = { t, type: 'pod', namespace: p.namespace, name: p.name, set: p.set, ordinal: p.ordinal, revision: p.revision, event: p.event };
  if (p.availableAt !== undefined) r.availableAt = p.availableAt;
  if (p.node !== undefined) r.node = p.node;
  if (p.zone !== undefined) r.zone = p.zone;
  return r;
}

export function waitingRecord(t: number, w: Omit<WaitingRecord, 't' | 'type'>): WaitingRecord {
  return { t, type: 'waiting', namespace: w.namespace, name: w.name, set: w.set, ordinal: w.ordinal, revision: w.revision, reason: w.reason, message: w.message };
}

export function claimRecord(t: number, c: Omit<ClaimRecord, 't' | 'type'>): ClaimRecord {
  return { t, type: 'claim', namespace: c.namespace, name: c.name, set: c.set, ordinal: c.ordinal, event: c.event, request: c.request, capacity: c.capacity };
}

export function statusRecord(t: number, namespace: string, name: string, generation: number | null, status: StatefulSetStatus): StatusRecord {
  return { t, type: 'status', namespace, name, generation, status };
}

export function eventRecord(t: number, e: Omit<EventRecord, 't' | 'type'>): EventRecord {
  const involvedObject = { kind: e.involvedObject.kind, name: e.involvedObject.name };
  return { t, type: 'event', namespace: e.namespace, involvedObject, eventType: e.eventType, reason: e.reason, message: e.message };
}

export function actionRecord(t: number, a: Omit<ActionRecord, 't' | 'type'>): ActionRecord {
  return { t, type: 'action', namespace: a.namespace, set: a.set, verb: a.verb, resource: a.resource, name: a.name };
}

export function analysisRecord(t: number, a: Omit<AnalysisRecord, 't' | 'type'>): AnalysisRecord {
  const check = a.url !== undefined ? { url: a.url } : { query: a.query ?? '', ...(a.baselineQuery !== undefined ? { baselineQuery: a.baselineQuery } : {}) };
  return {
    t,
    type: 'analysis',
    namespace: a.namespace,
    set: a.set,
    revision: a.revision,
    ...(a.step !== undefined ? { step: a.step } : {}),
    ...(a.pod !== undefined ? { pod: a.pod } : {}),
    ...check,
    ok: a.ok,
    ...(a.inconclusive !== undefined ? { inconclusive: a.inconclusive } : {}),
    message: a.message,
  };
}

/** What an analysis record's check asked: "GET http://…", "query sum(…)". */
export const analysisTarget = (r: Pick<AnalysisRecord, 'url' | 'query'>): string => (r.url !== undefined ? `GET ${r.url}` : `query ${r.query ?? ''}`);

/** An analysis record's check in words: "step 2: GET http://…", "rollout analysis: query sum(…)". */
export const analysisCheckText = (r: Pick<AnalysisRecord, 'step' | 'url' | 'query'>): string => `${r.step === undefined ? 'rollout analysis' : `step ${r.step + 1}`}: ${analysisTarget(r)}`;

/** Its outcome in a word: passed, failed, or (Prometheus) no data or error. */
export const analysisOutcome = (r: Pick<AnalysisRecord, 'ok' | 'inconclusive'>): string => (r.ok ? 'passed' : r.inconclusive === 'noData' ? 'no data' : r.inconclusive === 'error' ? 'error' : 'failed');

export function expectRecord(t: number, index: number, ok: boolean, message: string): ExpectRecord {
  return { t, type: 'expect', index, ok, message };
}

export function failureRecord(t: number, index: number, message: string): FailureRecord {
  return { t, type: 'failure', index, message };
}

export function violationRecord(v: Violation): ViolationRecord {
  return { t: v.t, type: 'violation', invariant: v.invariant, message: v.message };
}

export function summaryRecord(s: Omit<SummaryRecord, 't' | 'type'>): SummaryRecord {
  const violations = s.violations.map((v) => ({ t: v.t, invariant: v.invariant, message: v.message }));
  return {
    t: s.endedAt,
    type: 'summary',
    converged: s.converged,
    convergedAt: s.convergedAt,
    endedAt: s.endedAt,
    sets: s.sets,
    metrics: s.metrics,
    violations,
    rollouts: s.rollouts,
  };
}

export const toJsonLine = (r: TimelineRecord): string => JSON.stringify(r);

export function toJsonl(records: readonly TimelineRecord[]): string {
  return records.map(toJsonLine).join('\n') + (records.length ? '\n' : '');
}

/** Parses jsonl produced by toJsonl (for `--report` from a saved timeline and for tests). */
export function fromJsonl(text: string): TimelineRecord[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as TimelineRecord);
}
