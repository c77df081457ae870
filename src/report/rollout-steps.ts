// A staged rollout on the report's timeline (rollingUpdate.steps): from each set's recorded status, the time
// each step spent Updating (its pods moving), Paused (until promoted), Baking, Analyzing or Failed, drawn as a
// row of bars under the set's header (with a dot for each HTTP check of an analysis), and listed in a table.
// A step whose gate passed in the sync that reached it has no bar: the RolloutStepCompleted marker on the
// header says when.

import type { StatefulSetStatus, StepAnalysisStatus, StepState } from '../api/types.js';
import { escapeHtml, num } from './escape.js';
import { formatSeconds, ROW_H, type TimeScale } from './chart-layout.js';
import type { CounterSeries, ReportModel } from './model.js';
import { renderUserPauses, USER_PAUSE_STYLE, type UserPause } from './user-pauses.js';

/** A stretch of time one step of one rollout spent in one state (Completed is not drawn: nothing waits). */
export interface StepPhase {
  /** 0-based, as status.currentStepIndex. */
  index: number;
  /** Steps declared: the index status gives once every step passed, when the run saw it. */
  of?: number;
  state: Exclude<StepState, 'Completed'>;
  revision: string;
  start: number;
  end: number;
  /** The phase lasted to the end of the run. */
  open: boolean;
  /** An analysis's checks as the phase's last status gave them. */
  analysis?: StepAnalysisStatus;
}

/** One HTTP check of a step's analysis (0-based step), as the timeline recorded it. */
export interface AnalysisCheck {
  t: number;
  step: number;
  /** The revision the step rolls to; absent for records that do not say. */
  revision?: string;
  ok: boolean;
  url: string;
  message: string;
}

export const STEP_STATE_STYLE: Record<StepPhase['state'], { color: string; help: string }> = {
  Updating: { color: '#90a4ae', help: "the step's pods moving to the new revision" },
  Paused: { color: '#fbc02d', help: 'paused until promoted' },
  Baking: { color: '#26c6da', help: 'bake time: every updated replica must stay available' },
  Analyzing: { color: '#7e57c2', help: 'analysis: HTTP checks or a readiness window' },
  Failed: { color: '#c62828', help: 'the step failed the rollout' },
};

interface StepPoint {
  t: number;
  index: number;
  state: StepState;
  revision: string;
  analysis?: StepAnalysisStatus;
}

function stepPoint(t: number, s: StatefulSetStatus): StepPoint | undefined {
  if (s.currentStepIndex === undefined || s.currentStepState === undefined) return undefined;
  return { t, index: s.currentStepIndex, state: s.currentStepState, revision: s.stepRevision ?? s.updateRevision ?? '', ...(s.stepAnalysis !== undefined ? { analysis: s.stepAnalysis } : {}) };
}

/** `2 passed, 1 failed: HTTP 503, expected 200` */
export const analysisText = (a: StepAnalysisStatus): string => `${a.successful} passed, ${a.failed} failed${a.message ? `: ${a.message}` : ''}`;

/** The step phases of one set from its status over time, up to `end`. */
export function stepPhases(series: CounterSeries, end: number): StepPhase[] {
  const points = series.points.flatMap((p) => stepPoint(p.t, p.status) ?? []);
  const of = points.filter((p) => p.state === 'Completed').reduce<number | undefined>((max, p) => Math.max(max ?? 0, p.index), undefined);
  const phases: StepPhase[] = [];
  let open: StepPhase | undefined;
  for (const p of points) {
    if (open !== undefined && open.index === p.index && open.state === p.state && open.revision === p.revision) {
      if (p.analysis !== undefined) open.analysis = p.analysis;
      continue;
    }
    if (open !== undefined) phases.push({ ...open, end: p.t, open: false });
    open =
      p.state === 'Completed'
        ? undefined
        : { index: p.index, ...(of !== undefined ? { of } : {}), state: p.state, revision: p.revision, start: p.t, end, open: true, ...(p.analysis !== undefined ? { analysis: p.analysis } : {}) };
  }
  if (open !== undefined) phases.push(open);
  return phases.filter((p) => p.end > p.start || p.open);
}

export const stepName = (p: Pick<StepPhase, 'index' | 'of'>): string => `step ${p.index + 1}${p.of !== undefined ? `/${p.of}` : ''}`;

const phaseText = (p: StepPhase): string =>
  `${stepName(p)} ${p.state} ${formatSeconds(p.start)}–${p.open ? 'end of run' : formatSeconds(p.end)} (${formatSeconds(p.end - p.start)}) revision ${p.revision}` +
  (p.analysis !== undefined ? `; checks: ${analysisText(p.analysis)}` : '');

/** Upper bound of a 10px character's width, so that a label written on a bar never overflows it. */
const CHAR_W = 6.2;

/** A check on the step row: a dot, green when it passed, red when it failed. */
function checkDot(c: AnalysisCheck, y: number, scale: TimeScale): string {
  const tip = `${formatSeconds(c.t)} step ${c.step + 1} analysis: GET ${c.url} -> ${c.message} (${c.ok ? 'passed' : 'failed'})`;
  return `<circle class="check check-${c.ok ? 'ok' : 'failed'}" data-ok="${c.ok}" cx="${num(scale.x(c.t))}" cy="${y + ROW_H / 2}" r="3.5"><title>${escapeHtml(tip)}</title></circle>`;
}

/** The set's step row at `y`: one bar per phase, its step and state written on it when they fit, the user's pauses, and its analysis checks. */
export function renderStepRow(group: string, phases: readonly StepPhase[], y: number, scale: TimeScale, checks: readonly AnalysisCheck[] = [], pauses: readonly UserPause[] = []): string {
  const bars = phases.map((p) => {
    const x = scale.x(p.start);
    const w = Math.max(scale.x(p.end) - x, 0.5);
    const label = `${p.index + 1} ${p.state}`;
    const text = w > label.length * CHAR_W + 4 ? `<text class="phase-label" x="${num(x + 3)}" y="${y + ROW_H - 5}">${escapeHtml(label)}</text>` : '';
    return (
      `<g class="phase" data-step="${p.index}" data-state="${p.state}"><title>${escapeHtml(phaseText(p))}</title>` +
      `<rect x="${num(x)}" y="${y + 2}" width="${num(w)}" height="${ROW_H - 4}" fill="${STEP_STATE_STYLE[p.state].color}"/>${text}</g>`
    );
  });
  const dots = checks.map((c) => checkDot(c, y, scale)).join('');
  return `<g class="steps-row" data-group="${escapeHtml(group)}"><text class="row-label" x="14" y="${y + ROW_H - 5}">rollout steps</text>${bars.join('')}${renderUserPauses(pauses, y, scale)}${dots}</g>`;
}

/** The legend of the step rows, when the report has any. */
export function stepLegend(model: ReportModel): string {
  if (model.stepPhases.size === 0 && model.userPauses.size === 0) return '';
  const item = (color: string, name: string, help: string) =>
    `<span class="legend-item"><span class="swatch" style="background:${color}"></span>${name} <span class="muted">(${escapeHtml(help)})</span></span>`;
  const items = [
    ...(model.stepPhases.size === 0 ? [] : (Object.keys(STEP_STATE_STYLE) as StepPhase['state'][]).map((s) => item(STEP_STATE_STYLE[s].color, s, STEP_STATE_STYLE[s].help))),
    ...(model.userPauses.size === 0 ? [] : [item(USER_PAUSE_STYLE.color, 'User pause', USER_PAUSE_STYLE.help)]),
  ];
  const dots = model.analysisChecks.size === 0 ? '' : '<span class="legend-item">● analysis checks: <span style="color:#2e7d32">passed</span>, <span style="color:#c62828">failed</span></span>';
  return `<div><strong>Rollout steps</strong> ${items.join('')}${dots}</div>`;
}

/** One step of one rollout in the table: when it started, when its gate began, when it passed or failed. */
export interface StepRecord {
  index: number;
  of?: number;
  revision: string;
  started: number;
  /** The gate's first state (Paused, Baking, Analyzing) and since when; none when it passed as it was reached. */
  gate?: { state: StepState; at: number };
  passed?: number;
  failed?: number;
  /** The analysis's checks as the step's last status gave them. */
  analysis?: StepAnalysisStatus;
}

/** Each step of each rollout of one set, from its status over time; steps passed in one sync get the same instants. */
export function stepRecords(series: CounterSeries): StepRecord[] {
  const points = series.points.flatMap((p) => stepPoint(p.t, p.status) ?? []);
  const of = points.filter((p) => p.state === 'Completed').reduce<number | undefined>((max, p) => Math.max(max ?? 0, p.index), undefined);
  const out: StepRecord[] = [];
  const at = (revision: string, index: number, t: number): StepRecord => {
    const found = out.find((r) => r.revision === revision && r.index === index);
    if (found !== undefined) return found;
    const made: StepRecord = { index, ...(of !== undefined ? { of } : {}), revision, started: t };
    out.push(made);
    return made;
  };
  let previous: StepPoint | undefined;
  for (const p of points) {
    const from = previous !== undefined && previous.revision === p.revision && previous.state !== 'Completed' ? previous.index : undefined;
    previous = p;
    // a rollout already complete when the run started, or a set without a rollout
    if (from === undefined && p.state === 'Completed') continue;
    for (let i = from ?? p.index; i < p.index; i++) at(p.revision, i, p.t).passed ??= p.t;
    if (p.state === 'Completed') continue;
    const record = at(p.revision, p.index, p.t);
    if (p.analysis !== undefined) record.analysis = p.analysis;
    if (p.state === 'Failed') record.failed ??= p.t;
    else if (p.state !== 'Updating') record.gate ??= { state: p.state, at: p.t };
  }
  return out;
}

/**
 * The step's HTTP checks as the timeline recorded them (what its dots show): of its revision and index, from
 * its start until it passed (or failed). The status counts them only up to the sync before the step passed.
 */
function checksOf(r: StepRecord, checks: readonly AnalysisCheck[]): AnalysisCheck[] {
  const until = r.passed ?? r.failed ?? Infinity;
  return checks.filter((c) => c.step === r.index && (c.revision === undefined || c.revision === r.revision) && c.t >= r.started && c.t <= until);
}

/** `3 passed, 1 failed: HTTP 503, expected 200` from the recorded checks, else (a readiness analysis) from the status. */
function checksText(r: StepRecord, checks: readonly AnalysisCheck[]): string | undefined {
  const own = checksOf(r, checks);
  if (own.length === 0) return r.analysis === undefined ? undefined : analysisText(r.analysis);
  const ok = own.filter((c) => c.ok).length;
  return `${ok} passed, ${own.length - ok} failed: ${own[own.length - 1]!.message}`;
}

/** Each step in words: where the canary started, paused, baked, was analysed and passed. */
export function stepPhaseTable(model: ReportModel): string {
  const cell = (t: number | undefined): string => (t === undefined ? '<span class="muted">-</span>' : escapeHtml(formatSeconds(t)));
  const rows = model.counters.flatMap((series) =>
    stepRecords(series).map((r) => {
      const text = checksText(r, model.analysisChecks.get(series.group) ?? []);
      const checks = text === undefined ? '' : ` (${escapeHtml(text)})`;
      const gate = r.gate === undefined ? '<span class="muted">-</span>' : `${r.gate.state} from ${escapeHtml(formatSeconds(r.gate.at))}${checks}`;
      const end = r.failed !== undefined ? `<span class="bad">failed at ${escapeHtml(formatSeconds(r.failed))}</span>${r.passed !== undefined ? `, passed at ${escapeHtml(formatSeconds(r.passed))}` : ''}` : cell(r.passed);
      return (
        `<tr><td>${escapeHtml(series.group)}</td><td>${escapeHtml(stepName(r))}</td><td><code>${escapeHtml(r.revision)}</code></td>` +
        `<td>${cell(r.started)}</td><td>${gate}</td><td>${end}</td></tr>`
      );
    }),
  );
  const head = '<tr><th>set</th><th>step</th><th>revision</th><th>started</th><th>gate</th><th>passed</th></tr>';
  return rows.length ? `<h2>Rollout steps</h2><table>${head}${rows.join('')}</table>` : '';
}
