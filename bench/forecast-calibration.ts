// Forecast calibration: how many of a rollout's true durations fall inside the band the forecast gives
// (p5..p95, goal ≥ 90 %), and how many runs the forecast made for it. `node --import tsx
// bench/forecast-calibration.ts [--cases a,b] [--pool N] [--json]`.
//
// For each case, POOL runs of the rollout on the simulated cluster (seeds 1..POOL, every run made): the second
// half are the "true" rollouts, each pod drawing other durations from the same samples; the first half is what
// forecasts draw from. 200 forecasts of 20 runs each are drawn from the first half (a seeded shuffle): the band
// of today's forecast (forecast-band.ts: the runs' nearest rank widened to their prediction interval, runs
// stopped once it holds still), and the nearest-rank band of all 20 runs (the forecast before it stopped
// early), each with the share of true durations inside it, averaged over the forecasts.

import { parseArgs } from 'node:util';
import { bandOf, madeEnough, nextLook, type Band } from '../src/sim/forecast-band.js';
import { forecastRollout } from '../src/sim/forecast.js';
import { percentile } from '../src/controller/model/learned-durations.js';
import type { StatefulSet } from '../src/api/types.js';
import { manifest } from '../src/cli/commands/bench-forecast.js';

interface Case {
  name: string;
  set: StatefulSet;
  start: number[];
  termination: number[];
}

/** 20 quantiles of a log-normal law (median 10 s, σ 0.2), one decimal: start times as a cluster shows them. */
const LOG_NORMAL = [7.2, 7.9, 8.3, 8.6, 8.9, 9.1, 9.4, 9.6, 9.8, 9.9, 10.1, 10.3, 10.5, 10.7, 11, 11.3, 11.6, 12.1, 12.7, 13.9];

/**
 * The cases of the forecast work so far: the benchmark's rollout (start 5/8/12 s, termination 3 s) at 30 and
 * 100 replicas, in batches (Parallel, maxUnavailable 5), SlowerThanForecast's log-normal start times, and the
 * end-to-end test's 8 pods whose 1.5 s durations the whole-second timestamps widen to 1–2 s.
 */
const CASES: Case[] = [
  { name: 'ordered-30', set: manifest(30, 'OrderedReady'), start: [5, 8, 12], termination: [3] },
  { name: 'parallel-30-maxUnavailable-5', set: manifest(30, 'Parallel', 5), start: [5, 8, 12], termination: [3] },
  { name: 'ordered-30-log-normal', set: manifest(30, 'OrderedReady'), start: LOG_NORMAL, termination: [2] },
  { name: 'ordered-8-e2e', set: manifest(8, 'OrderedReady'), start: [1, 1.5, 2], termination: [1, 1.5, 2] },
  { name: 'ordered-100', set: manifest(100, 'OrderedReady'), start: [5, 8, 12], termination: [3] },
];

const RUNS = 20;
const FORECASTS = 200;

/** The forecast before it stopped early: the nearest-rank percentiles of all its runs. */
function nearestRank(values: readonly number[]): Band {
  const sorted = [...values].sort((a, b) => a - b);
  return { p5: percentile(sorted, 5), p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
}

/** Today's forecast over runs in seed order: the runs it makes (forecast.ts runUntilStill) and its band. */
function stoppedEarly(runs: readonly number[]): { made: number; band: Band } {
  let made = 0;
  do made = nextLook(made, RUNS);
  while (!madeEnough(runs.slice(0, made), RUNS));
  return { made, band: bandOf(runs.slice(0, made)) };
}

/** A seeded shuffle (the same draws every time). */
function shuffled<T>(xs: readonly T[], seed: number): T[] {
  let s = seed;
  const next = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const inside = (truth: readonly number[], b: Band): number => truth.filter((x) => b.p5 !== undefined && b.p95 !== undefined && x >= b.p5 && x <= b.p95).length / truth.length;
const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

async function calibrate(c: Case, pool: number) {
  const [forecast] = await forecastRollout({
    name: c.name,
    manifests: [c.set],
    change: { images: [{ container: 'app', image: 'bench/app:2' }], set: [], replacements: [] },
    start: { samples: c.start },
    termination: { samples: c.termination },
    runs: pool,
    everyRun: true,
    seed: 1,
    candidates: [],
  });
  const seconds = (forecast?.runs ?? []).map((r) => r.seconds).filter((s): s is number => s !== undefined);
  const half = Math.floor(seconds.length / 2);
  const [drawn, truth] = [seconds.slice(0, half), seconds.slice(half)];
  const draws = Array.from({ length: FORECASTS }, (_, i) => shuffled(drawn, i + 1).slice(0, RUNS));
  const now = draws.map(stoppedEarly);
  return {
    case: c.name,
    runs: seconds.length,
    truth: { p5: percentile([...truth].sort((a, b) => a - b), 5), p95: percentile([...truth].sort((a, b) => a - b), 95) },
    before: { runs: RUNS, inside: mean(draws.map((d) => inside(truth, nearestRank(d)))) },
    after: { runs: mean(now.map((n) => n.made)), inside: mean(now.map((n) => inside(truth, n.band))) },
  };
}

const { values } = parseArgs({ options: { cases: { type: 'string' }, pool: { type: 'string' }, json: { type: 'boolean' } } });
const wanted = values.cases?.split(',');
const pool = Number(values.pool ?? 200);
for (const c of CASES.filter((x) => wanted === undefined || wanted.includes(x.name))) {
  const r = await calibrate(c, c.name === 'ordered-100' ? pool / 2 : pool);
  if (values.json) process.stdout.write(`${JSON.stringify(r)}\n`);
  else {
    const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
    process.stdout.write(
      `${r.case.padEnd(30)} true p5–p95 ${r.truth.p5}–${r.truth.p95} s; inside the band: before ${pct(r.before.inside)} (${r.before.runs} runs), now ${pct(r.after.inside)} (${r.after.runs.toFixed(1)} runs)\n`,
    );
  }
}
