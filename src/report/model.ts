// Turns timeline records into what the report draws: one row per (set, ordinal) with state segments
// coloured by revision, event markers, its claims' expansions, and the status counters over time.

import type { StatefulSetStatus } from '../api/types.js';
import { inProgressReason, isInProgressReason, Reason } from '../controller/model/conditions.js';
import { analysisOutcome, analysisTarget, type ClaimRecord, type PodRecord, type RolloutSummary, type SummaryRecord, type TimelineRecord } from '../sim/timeline.js';
import { stepPhases, type AnalysisCheck, type StepPhase } from './rollout-steps.js';
import { userPauses, type UserPause } from './user-pauses.js';

export type PodState = 'Pending' | 'Running' | 'NotAvailable' | 'Ready' | 'NotReady' | 'Restarting' | 'Failed' | 'Terminating';

export interface Segment {
  start: number;
  end: number;
  state: PodState;
  revision: string | null;
  pod: string;
  /** Why the pod waits, from a `waiting` record (ImagePullBackOff, CrashLoopBackOff, …). */
  reason?: string;
}

export interface Marker {
  t: number;
  kind: 'event' | 'warning' | 'violation';
  label: string;
}

/** A claim of the row's replica expanding (InPlace): from `Resizing` to `Resized`, a failure, or the run's end. */
export interface ClaimResize {
  claim: string;
  start: number;
  end: number;
  from: string | null;
  to: string | null;
  outcome: 'Resized' | 'ResizeFailed' | 'Unfinished';
  /** The volume grew offline and waited for a pod restart from this instant (FileSystemResizePending). */
  pendingRestartAt?: number;
}

export interface Row {
  /** `namespace/set` (or `namespace/pod` for pods without a set). */
  group: string;
  ordinal: number | null;
  label: string;
  segments: Segment[];
  markers: Marker[];
  resizes: ClaimResize[];
}

export interface CounterSeries {
  group: string;
  points: { t: number; status: StatefulSetStatus }[];
}

export interface ReportModel {
  title: string;
  end: number;
  rows: Row[];
  /** Markers on a set as a whole, keyed by group. */
  groupMarkers: Map<string, Marker[]>;
  /** Revisions of each group (set) in order of first appearance: colours are per set. */
  revisions: Map<string, string[]>;
  counters: CounterSeries[];
  /** rollingUpdate.steps: each set's step phases (rollout-steps.ts), keyed by group; sets without steps are absent. */
  stepPhases: Map<string, StepPhase[]>;
  /** rollingUpdate.steps: each set's HTTP analysis checks (the simulator's analysis records), keyed by group. */
  analysisChecks: Map<string, AnalysisCheck[]>;
  /** Each set's user pauses (status.pauseConditions UserPause), keyed by group; sets never paused are absent. */
  userPauses: Map<string, UserPause[]>;
  steps: { t: number; index: number; step: unknown }[];
  expects: { t: number; index: number; ok: boolean; message: string }[];
  failures: { t: number; index: number; message: string }[];
  events: { t: number; type: string; object: string; reason: string; message: string }[];
  summary: SummaryRecord | undefined;
}

/** Strategies under which maxUnavailable bounds nothing: Recreate takes every pod down, OnDelete none. */
const WITHOUT_BUDGET = ['Recreate', 'OnDelete'];

/** The update strategy the set's Progressing condition last named (`RecreateInProgress`, `RecreateCompleted`, …). */
function strategyOf(series: CounterSeries | undefined): string | undefined {
  let strategy: string | undefined;
  for (const { status } of series?.points ?? []) {
    const reason = status.conditions?.find((c) => c.type === 'Progressing')?.reason;
    if (reason === Reason.recreateCompleted) strategy = 'Recreate';
    else if (reason !== undefined && isInProgressReason(reason)) strategy = reason.slice(0, -inProgressReason('').length);
  }
  return strategy;
}

/** kube-controller-manager's name, which Ordinal exports (src/runtime/metrics.ts). */
const MAX_UNAVAILABLE = 'statefulset_controller_statefulset_max_unavailable';

/**
 * The set's maxUnavailable as the controller last exported it (statefulset_controller_statefulset_max_unavailable),
 * if any and if its strategy has such a budget.
 */
export function maxUnavailableOf(model: ReportModel, group: string): number | undefined {
  const strategy = strategyOf(model.counters.find((c) => c.group === group));
  if (strategy !== undefined && WITHOUT_BUDGET.includes(strategy)) return undefined;
  const [namespace, name] = group.split('/');
  const labels = [`statefulset_name=${JSON.stringify(name)}`, `statefulset_namespace=${JSON.stringify(namespace)}`];
  for (const [key, value] of Object.entries(model.summary?.metrics ?? {})) {
    if (!key.startsWith(`${MAX_UNAVAILABLE}{`)) continue;
    const pairs = key.slice(MAX_UNAVAILABLE.length + 1, -1).split(',');
    if (labels.every((l) => pairs.includes(l))) return value;
  }
  return undefined;
}

/** The run's rollouts, as its summary gives them (rollout-tracker.ts): none when the run did not finish. */
export const rolloutsOf = (model: ReportModel): readonly RolloutSummary[] => model.summary?.rollouts ?? [];

const STATE_OF: Record<PodRecord['event'], PodState | null> = {
  Created: 'Pending',
  Scheduled: 'Pending',
  Running: 'Running',
  // an in-place restart: the pod stays, its container starts again on the new image
  Restarted: 'Restarting',
  Ready: 'Ready',
  NotReady: 'NotReady',
  Failed: 'Failed',
  Terminating: 'Terminating',
  Deleted: null,
};

interface OpenRow extends Row {
  /** The segment being drawn; a NotAvailable one turns Ready at availableAt. */
  open?: Segment & { availableAt?: number };
}

export function buildModel(records: readonly TimelineRecord[], title: string): ReportModel {
  const summary = records.find((r): r is SummaryRecord => r.type === 'summary');
  const end = summary?.endedAt ?? records.reduce((m, r) => Math.max(m, r.t), 0);
  const model: ReportModel = {
    title,
    end,
    rows: [],
    groupMarkers: new Map(),
    revisions: new Map(),
    counters: [],
    stepPhases: new Map(),
    analysisChecks: new Map(),
    userPauses: new Map(),
    steps: [],
    expects: [],
    failures: [],
    events: [],
    summary,
  };
  const rows = new Map<string, OpenRow>();
  const podRows = new Map<string, OpenRow>();
  for (const r of records) addRecord(model, rows, podRows, r);
  for (const row of rows.values()) closeSegment(row, end);
  for (const row of rows.values()) for (const r of row.resizes) if (r.outcome === 'Unfinished') r.end = end;
  model.rows = [...rows.values()].map(({ open: _open, ...row }) => row).sort(compareRows);
  for (const series of model.counters) {
    const phases = stepPhases(series, end);
    if (phases.length > 0) model.stepPhases.set(series.group, phases);
    const pauses = userPauses(series, end);
    if (pauses.length > 0) model.userPauses.set(series.group, pauses);
  }
  return model;
}

function addRecord(model: ReportModel, rows: Map<string, OpenRow>, podRows: Map<string, OpenRow>, r: TimelineRecord): void {
  switch (r.type) {
    case 'pod':
      return addPod(model, rows, podRows, r);
    case 'status':
      return void counterSeries(model, `${r.namespace}/${r.name}`).points.push({ t: r.t, status: r.status });
    case 'event': {
      const marker: Marker = { t: r.t, kind: r.eventType === 'Warning' ? 'warning' : 'event', label: `${r.reason}: ${r.message}` };
      const row = r.involvedObject.kind === 'Pod' ? podRows.get(`${r.namespace}/${r.involvedObject.name}`) : undefined;
      if (row) row.markers.push(marker);
      else groupMarkers(model, `${r.namespace}/${r.involvedObject.name}`).push(marker);
      model.events.push({ t: r.t, type: r.eventType, object: `${r.involvedObject.kind}/${r.involvedObject.name}`, reason: r.reason, message: r.message });
      return;
    }
    case 'waiting':
      return waiting(podRows, r.t, `${r.namespace}/${r.name}`, r.reason);
    case 'claim':
      return addClaim(rows, r);
    case 'violation':
      return void groupMarkers(model, '').push({ t: r.t, kind: 'violation', label: `${r.invariant}: ${r.message}` });
    case 'step':
      return void model.steps.push({ t: r.t, index: r.index, step: r.step });
    case 'expect':
      return void model.expects.push({ t: r.t, index: r.index, ok: r.ok, message: r.message });
    case 'failure':
      return void model.failures.push({ t: r.t, index: r.index, message: r.message });
    case 'analysis': {
      // a preUpdate hook's calls show in its events; the report's checks are the steps'
      if (r.step === undefined) return;
      const group = `${r.namespace}/${r.set}`;
      const check = { t: r.t, ...(r.step !== undefined ? { step: r.step } : {}), revision: r.revision, ok: r.ok, target: analysisTarget(r), outcome: analysisOutcome(r), message: r.message };
      return void model.analysisChecks.set(group, [...(model.analysisChecks.get(group) ?? []), check]);
    }
    // the controller's writes and the summary are read elsewhere (the summary by buildModel)
    case 'action':
    case 'summary':
      return;
  }
}

/** The row under `key`, made empty on first use: a replica's (`group#ordinal`) or a pod's without a set. */
function rowAt(rows: Map<string, OpenRow>, key: string, row: Pick<Row, 'group' | 'ordinal' | 'label'>): OpenRow {
  let found = rows.get(key);
  if (!found) {
    found = { ...row, segments: [], markers: [], resizes: [] };
    rows.set(key, found);
  }
  return found;
}

/** The row of the set's replica `ordinal` (made here when the claim comes before the pod). */
const replicaRow = (rows: Map<string, OpenRow>, namespace: string, set: string, ordinal: number): OpenRow =>
  rowAt(rows, `${namespace}/${set}#${ordinal}`, { group: `${namespace}/${set}`, ordinal, label: `${set}-${ordinal}` });

/** A claim's expansion, drawn on its replica's row. */
function addClaim(rows: Map<string, OpenRow>, r: ClaimRecord): void {
  if (r.set === null || r.ordinal === null) return;
  const row = replicaRow(rows, r.namespace, r.set, r.ordinal);
  const open = row.resizes.find((x) => x.claim === r.name && x.outcome === 'Unfinished');
  switch (r.event) {
    case 'Resizing':
      if (open === undefined) row.resizes.push({ claim: r.name, start: r.t, end: r.t, from: r.capacity, to: r.request, outcome: 'Unfinished' });
      return;
    case 'FileSystemResizePending':
      if (open !== undefined) open.pendingRestartAt = r.t;
      return;
    case 'Resized':
    case 'ResizeFailed':
      if (open !== undefined) Object.assign(open, { end: r.t, outcome: r.event });
      if (r.event === 'ResizeFailed') row.markers.push({ t: r.t, kind: 'warning', label: `${r.name}: resize to ${r.request ?? '?'} failed` });
      return;
    // a claim's life outside an expansion draws nothing
    case 'Created':
    case 'Bound':
    case 'Deleted':
      return;
  }
}

function addPod(model: ReportModel, rows: Map<string, OpenRow>, podRows: Map<string, OpenRow>, r: PodRecord): void {
  const group = `${r.namespace}/${r.set ?? r.name}`;
  const key = r.set !== null && r.ordinal !== null ? `${group}#${r.ordinal}` : `${r.namespace}/${r.name}#pod`;
  const row = rowAt(rows, key, { group, ordinal: r.set !== null ? r.ordinal : null, label: r.name });
  podRows.set(`${r.namespace}/${r.name}`, row);
  const revisions = model.revisions.get(group) ?? [];
  model.revisions.set(group, revisions);
  if (r.revision !== null && !revisions.includes(r.revision)) revisions.push(r.revision);
  // the container's restart makes the pod NotReady: still the in-place restart, until it is Ready again
  const restarting = row.open?.state === 'Restarting' && row.open.pod === r.name && (r.event === 'NotReady' || r.event === 'Running');
  const state = restarting ? 'Restarting' : STATE_OF[r.event];
  const revision = r.revision ?? row.open?.revision ?? null;
  closeSegment(row, r.t);
  // Ready within minReadySeconds: its own state until availableAt (closeSegment makes it Ready from there).
  if (state === 'Ready' && r.availableAt !== undefined && r.availableAt > r.t) row.open = { start: r.t, end: r.t, state: 'NotAvailable', revision, pod: r.name, availableAt: r.availableAt };
  else if (state !== null) row.open = { start: r.t, end: r.t, state, revision, pod: r.name };
}

/** The pod's current state goes on from `t` with the reason it waits for. */
function waiting(podRows: Map<string, OpenRow>, t: number, pod: string, reason: string): void {
  const row = podRows.get(pod);
  const open = row?.open;
  if (row === undefined || open === undefined) return;
  closeSegment(row, t);
  row.open = { ...open, start: t, end: t, reason };
}

function closeSegment(row: OpenRow, t: number): void {
  const open = row.open;
  if (!open) return;
  row.open = undefined;
  const { availableAt, ...segment } = open;
  if (availableAt !== undefined && availableAt < t) {
    // Ready and not yet available until availableAt, then available.
    if (availableAt > open.start) row.segments.push({ ...segment, end: availableAt });
    row.segments.push({ ...segment, state: 'Ready', start: Math.max(open.start, availableAt), end: t });
    return;
  }
  if (t > open.start) row.segments.push({ ...segment, end: t });
}

function compareRows(a: Row, b: Row): number {
  if (a.group !== b.group) return a.group < b.group ? -1 : 1;
  return (a.ordinal ?? Number.MAX_SAFE_INTEGER) - (b.ordinal ?? Number.MAX_SAFE_INTEGER) || (a.label < b.label ? -1 : 1);
}

function counterSeries(model: ReportModel, group: string): CounterSeries {
  let series = model.counters.find((c) => c.group === group);
  if (!series) {
    series = { group, points: [] };
    model.counters.push(series);
  }
  return series;
}

function groupMarkers(model: ReportModel, group: string): Marker[] {
  let list = model.groupMarkers.get(group);
  if (!list) {
    list = [];
    model.groupMarkers.set(group, list);
  }
  return list;
}
