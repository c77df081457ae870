// `forecast` output: a table of the candidates (duration p5/p50/p95, lowest availability and when), the
// durations it assumed and where they came from, and the batches of the current setting's median run.
// For a failing release, a second table: when the rollout was aborted and the way back's duration and lowest availability.
// `-o json|yaml` gives the same as data.

import type { Band, CandidateForecast } from '../../sim/forecast.js';
import type { LearnedSeconds } from '../../sim/learned-durations.js';
import { formatSeconds } from '../../report/chart-layout.js';
import { renderTable } from './table.js';

export interface ForecastView {
  /** `statefulset.apps/web`, or the manifest file. */
  subject: string;
  change: string;
  replicas: number;
  /** The most runs per setting (each stops earlier once its p5/p50/p95 hold still). */
  runs: number;
  seed: number;
  start: LearnedSeconds;
  termination: LearnedSeconds;
  /** spec.lifecycle.preUpdate: what a hook costs. */
  hook?: LearnedSeconds | undefined;
  results: CandidateForecast[];
  /** The release fails (`--fail`, `--fail-at`): how, and on which pod. */
  failure?: { behavior: string; pod: string };
}

/** As the report of the median run writes them, so that the two read the same. */
const seconds = (s: number | undefined): string => (s === undefined ? '-' : formatSeconds(s));

function spread(d: LearnedSeconds): string {
  const sorted = [...d.samples].sort((a, b) => a - b);
  const lo = sorted[0] ?? 0;
  const hi = sorted[sorted.length - 1] ?? 0;
  return lo === hi ? `${lo} s` : `${lo}–${hi} s`;
}

/** Most batches listed in text; the data output has them all. */
const MAX_BATCHES = 30;

/** Each assumed duration on its own line with where it comes from. */
function assumptions(v: ForecastView): string[] {
  const rows = [
    ['  start (created → Ready)', spread(v.start), v.start.source],
    ['  termination (deletion → gone)', spread(v.termination), v.termination.source],
    ...(v.hook !== undefined ? [['  preUpdate hook (first call → passed)', spread(v.hook), v.hook.source]] : []),
  ];
  const all = v.results.every((r) => r.runs.length === v.runs);
  const made = all
    ? `${v.runs} simulated runs per setting (seeds ${v.seed}–${v.seed + v.runs - 1})`
    : `Up to ${v.runs} simulated runs per setting (seeds from ${v.seed}), each setting's until its p5/p50/p95 held still (RUNS)`;
  const lines = [`${made}; each pod draws its durations from`, ...renderTable(['', '', ''], rows).slice(1).map((l) => l.trimEnd())];
  if (v.termination.upperBound) lines.push('  so every duration below is an upper bound: give --termination-seconds, or forecast again after pods were replaced');
  return lines;
}

/** `12s`, or `10s–14s` from p5 to p95. */
const range = (b: Band): string => (b.p5 === b.p95 ? seconds(b.p50) : `${seconds(b.p5)}–${seconds(b.p95)}`);

/** A failing release: per setting, when the failure is detected and how long and how low the way back goes. */
function wayBack(v: ForecastView, failure: { behavior: string; pod: string }): string[] {
  const rows = v.results.map((r) => {
    const rb = r.rollback;
    if (rb === undefined) return [r.label, '-', '-', '-', '-', '-', 'no run was aborted'];
    const note = rb.aborted < r.runs.length ? `${r.runs.length - rb.aborted} run(s) not aborted` : rb.back.p50 === undefined ? 'no way back ended' : '';
    return [r.label, range(rb.detected), seconds(rb.back.p5), seconds(rb.back.p50), seconds(rb.back.p95), `${rb.lowestAvailable.replicas} of ${v.replicas} at +${seconds(rb.lowestAvailable.at)}`, note];
  });
  const message = v.results[0]?.rollback?.message;
  return [
    '',
    `If the release fails (${failure.behavior} on ${failure.pod}): the durations above run from the change until every pod is`,
    'available again on the last good revision; detected (p5–p95) is when the rollout was aborted, then the way back:',
    ...renderTable(['SETTING', 'DETECTED', 'BACK P5', 'BACK P50', 'BACK P95', 'LOWEST ON THE WAY BACK', 'NOTE'], rows).map((l) => l.trimEnd()),
    ...(message ? [`  ${message}`] : []),
  ];
}

/** `3 run(s) did not converge: <why the first did not>`, or undefined when every run converged. */
function notConverged(r: CandidateForecast): string | undefined {
  const failed = r.runs.filter((run) => run.seconds === undefined);
  if (failed.length === 0) return undefined;
  const why = failed[0]?.why;
  return `${failed.length} run(s) did not converge${why === undefined ? '' : `: ${why.split('\n')[0]}`}`;
}

/** A manual pause is not in the durations: the note says they exclude the wait for the promotion. */
function untilPromoted(r: CandidateForecast): string {
  const pauses = r.steps.filter((s) => s.gate === 'pause').map((s) => `${s.step}/${s.of}`);
  return pauses.length === 0 ? '' : `+ the time until promoted (step ${pauses.join(', ')})`;
}

/** A staged rollout: each step of the current setting, how the runs took its gate, and when it passed. */
function stepLines(r: CandidateForecast): string[] {
  if (r.steps.length === 0) return [];
  const rows = r.steps.map((s) => [`${s.step}/${s.of}`, s.target, s.assumption, s.done.p50 === undefined ? '-' : `+${range(s.done)}`]);
  const lines = ['', `Steps (${r.label}; passed: seconds after the change, p5–p95):`, ...renderTable(['STEP', 'TARGET', 'GATE', 'PASSED'], rows).map((l) => `  ${l.trimEnd()}`)];
  if (r.steps.some((s) => s.gate === 'pause')) {
    lines.push('  A pause until promoted waits for `kubectl ordinal rollout promote`: the durations above count it as promoted the');
    lines.push('  moment its step is reached (its PASSED time); the time until you promote comes on top.');
  }
  return lines;
}

export function renderForecast(v: ForecastView): string {
  const lines = [`Forecast for ${v.subject}: ${v.change}`, ...assumptions(v), ''];
  const rows = v.results.map((r) => [
    r.label,
    String(r.runs.length),
    seconds(r.p5),
    seconds(r.p50),
    seconds(r.p95),
    `${r.lowestAvailable.replicas} of ${v.replicas} at +${seconds(r.lowestAvailable.at)}`,
    [notConverged(r) ?? r.note ?? '', untilPromoted(r)].filter((n) => n !== '').join('; '),
  ]);
  lines.push(...renderTable(['SETTING', 'RUNS', 'P5', 'P50', 'P95', 'LOWEST AVAILABLE', 'NOTE'], rows).map((l) => l.trimEnd()));
  if (v.failure) lines.push(...wayBack(v, v.failure));
  const current = v.results[0];
  if (current) {
    lines.push(...stepLines(current));
    lines.push('', `Batches of the median run (${current.label}${current.median.seconds !== undefined ? `, ${seconds(current.median.seconds)}` : ''}):`);
    for (const b of current.median.batches.slice(0, MAX_BATCHES)) {
      lines.push(`  +${seconds(b.at).padEnd(6)} ${[...b.deleted.map((n) => `-${n}`), ...b.created.map((n) => `+${n}`)].join(' ')}`);
    }
    if (current.median.batches.length > MAX_BATCHES) lines.push(`  … ${current.median.batches.length - MAX_BATCHES} more (-o yaml lists them all)`);
  }
  return `${lines.join('\n')}\n`;
}

/** The data of `-o json|yaml` (records left out: `--report` draws the median run). */
export function forecastData(v: ForecastView): object {
  return {
    subject: v.subject,
    change: v.change,
    replicas: v.replicas,
    runs: v.runs,
    seed: v.seed,
    podStartSeconds: v.start,
    podTerminationSeconds: v.termination,
    ...(v.hook !== undefined ? { preUpdateHookSeconds: v.hook } : {}),
    ...(v.failure ? { failure: v.failure } : {}),
    settings: v.results.map(({ medianRecords: _records, runs, ...r }) => ({ ...r, runs: runs.length })),
  };
}
