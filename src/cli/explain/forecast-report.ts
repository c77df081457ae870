// `forecast` output: a table of the candidates (duration p5/p50/p95, lowest availability and when), the
// durations it assumed and where they came from, and the batches of the current setting's median run.
// `-o json|yaml` gives the same as data.

import type { CandidateForecast } from '../../sim/forecast.js';
import type { LearnedSeconds } from '../../sim/learned-durations.js';
import { formatSeconds } from '../../report/chart-layout.js';
import { renderTable } from './table.js';

export interface ForecastView {
  /** `statefulset.apps/web`, or the manifest file. */
  subject: string;
  change: string;
  replicas: number;
  runs: number;
  seed: number;
  start: LearnedSeconds;
  termination: LearnedSeconds;
  results: CandidateForecast[];
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
  ];
  const lines = [`${v.runs} simulated runs per setting (seeds ${v.seed}–${v.seed + v.runs - 1}); each pod draws its durations from`, ...renderTable(['', '', ''], rows).slice(1).map((l) => l.trimEnd())];
  if (v.termination.upperBound) lines.push('  so every duration below is an upper bound: give --termination-seconds, or forecast again after pods were replaced');
  return lines;
}

export function renderForecast(v: ForecastView): string {
  const lines = [`Forecast for ${v.subject}: ${v.change}`, ...assumptions(v), ''];
  const rows = v.results.map((r) => [
    r.label,
    seconds(r.p5),
    seconds(r.p50),
    seconds(r.p95),
    `${r.lowestAvailable.replicas} of ${v.replicas} at +${seconds(r.lowestAvailable.at)}`,
    r.converged < v.runs ? `${v.runs - r.converged} run(s) did not converge` : (r.note ?? ''),
  ]);
  lines.push(...renderTable(['SETTING', 'P5', 'P50', 'P95', 'LOWEST AVAILABLE', 'NOTE'], rows).map((l) => l.trimEnd()));
  const current = v.results[0];
  if (current) {
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
    settings: v.results.map(({ medianRecords: _records, runs: _runs, ...r }) => r),
  };
}
