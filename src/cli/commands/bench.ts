// `ordinal bench` (`npm run bench`): simulates a rollout of 1 set × 1,000 replicas and of 1,000 sets × 10
// replicas and prints wall time, CPU time per pod replaced, peak memory and API calls per pod replaced.
// Each case runs in its own child process so its peak RSS is its own.

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { BENCH_CASES, scaled } from '../../sim/bench/cases.js';
import { checkGoals, checkSyncGoals, formatGoals } from '../../sim/bench/goals.js';
import type { BenchResult } from '../../sim/bench/measure.js';
import { checkForecastGoals, FORECAST_CASES, forecastRatios, formatForecastBench, runForecastCase, type ForecastResult } from './bench-forecast.js';
import { checkStartupGoal, formatStartup, measureStartup } from './bench-startup.js';
import { checkHugeGoal, formatHuge, HUGE_CASE, runHugeCase, type HugeResult } from './bench-huge.js';

export interface BenchOptions {
  case?: string;
  scale?: string;
  namespaces?: string;
  json?: boolean;
}

/** The `ordinal` executable (from src/cli/commands or dist/cli/commands alike). */
const BIN = fileURLToPath(new URL('../../../bin/ordinal.js', import.meta.url));

function runChild<R>(name: string, scale: number, extra: string[]): R {
  const args = [...process.execArgv, BIN, 'bench', '--case', name, '--scale', String(scale), '--json', ...extra];
  const res = spawnSync(process.execPath, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 16 << 20 });
  if (res.status !== 0) throw new Error(`bench case ${name} failed (exit ${res.status})`);
  return JSON.parse(res.stdout.trim().split('\n').pop() ?? '') as R;
}

const f = (x: number, digits = 2): string => x.toFixed(digits);

export function formatBench(results: readonly BenchResult[]): string {
  const rows: [string, (r: BenchResult) => string][] = [
    ['workload', (r) => `${r.sets} × ${r.replicas} (${r.case})`],
    ['pods replaced', (r) => String(r.podsReplaced)],
    ['converged / violations', (r) => `${r.converged ? 'yes' : 'NO'} / ${r.violations}`],
    ['rollout virtual time', (r) => `${f(r.virtualSeconds, 1)} s`],
    ['wall time, rollout', (r) => `${f(r.wallSecondsRollout)} s`],
    ['wall time, whole run', (r) => `${f(r.wallSecondsTotal)} s`],
    ['planner CPU / pod replaced', (r) => `${f(r.plannerCpuMsPerPodReplaced, 3)} ms`],
    ['process CPU / pod replaced', (r) => `${f(r.processCpuMsPerPodReplaced, 3)} ms`],
    ['API calls / pod replaced', (r) => f(r.apiCallsPerPodReplaced)],
    ['  by verb', (r) => Object.entries(r.apiCallsByVerb).map(([k, v]) => `${k} ${v}`).join(', ')],
    ['peak RSS', (r) => `${f(r.peakRssMiB, 0)} MiB`],
    ['peak heap used', (r) => `${f(r.peakHeapMiB, 0)} MiB`],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  const cells = rows.map(([, get]) => results.map(get));
  // each case's column as wide as its widest cell
  const cols = results.map((_, j) => Math.max(...cells.map((row) => row[j]!.length)) + 3);
  return rows.map(([k], i) => `${k.padEnd(width)}  ${cells[i]!.map((v, j) => v.padEnd(cols[j]!)).join('')}`.trimEnd()).join('\n');
}

export async function benchCommand(opts: BenchOptions): Promise<number> {
  const scale = Number(opts.scale ?? '1');
  const namespaces = opts.namespaces === undefined ? undefined : Math.max(1, Number(opts.namespaces));
  const wanted = opts.case === undefined ? undefined : new Set(opts.case.split(',').map((n) => n.trim()));
  const known = [...BENCH_CASES, ...FORECAST_CASES, HUGE_CASE].map((c) => c.name);
  const unknown = [...(wanted ?? [])].filter((n) => !known.includes(n));
  const cases = BENCH_CASES.filter((c) => wanted === undefined || wanted.has(c.name))
    .map((c) => scaled(c, scale))
    .map((c) => (namespaces === undefined ? c : { ...c, namespaces }));
  // the forecast cases have no smaller version: they run at their size or not at all
  const forecastCases = FORECAST_CASES.filter((c) => (wanted === undefined && scale <= 1) || wanted?.has(c.name));
  const huge = (wanted === undefined && scale <= 1) || wanted?.has(HUGE_CASE.name) === true;
  if (cases.length + forecastCases.length + Number(huge) === 0 || unknown.length > 0) {
    process.stderr.write(`--case: unknown bench case ${unknown.join(', ') || opts.case} (known: ${known.join(', ')})\n`);
    return 2;
  }
  if (opts.json) {
    // Loaded only in the child that runs a case: the simulation brings in prom-client.
    const { runBenchCase } = await import('../../sim/bench/measure.js');
    const progress = (line: string) => void process.stderr.write(`  ${line}\n`);
    for (const c of cases) process.stdout.write(`${JSON.stringify(await runBenchCase(c, progress))}\n`);
    for (const c of forecastCases) process.stdout.write(`${JSON.stringify(await runForecastCase(c))}\n`);
    return 0;
  }
  const results: BenchResult[] = [];
  for (const c of cases) {
    process.stderr.write(`running ${c.description}${scale > 1 ? ` (scaled down ${scale}×)` : ''} ...\n`);
    results.push(runChild<BenchResult>(c.name, scale, opts.namespaces === undefined ? [] : ['--namespaces', opts.namespaces]));
  }
  const forecasts: ForecastResult[] = [];
  for (const c of forecastCases) {
    process.stderr.write(`running ${c.description} ...\n`);
    forecasts.push(runChild<ForecastResult>(c.name, 1, []));
  }
  if (results.length > 0) {
    process.stdout.write(`${formatBench(results)}\n`);
    process.stdout.write('(planner CPU: process.cpuUsage around every planStatefulSet call; process CPU: the whole process during the rollout, including the simulated API server and kubelet)\n');
  }
  if (forecasts.length > 0) process.stdout.write(`${formatForecastBench(forecasts)}\n${forecastRatios(forecasts).join('\n')}\n`);
  let hugeResult: HugeResult | undefined;
  if (huge) {
    process.stderr.write(`running ${HUGE_CASE.description} ...\n`);
    hugeResult = runHugeCase();
    process.stdout.write(`${formatHuge(hugeResult)}\n`);
  }
  const startup = measureStartup();
  process.stdout.write(`${formatStartup(startup)}\n`);
  const { formatSyncCosts, measureSyncCosts } = await import('../../sim/bench/sync-cost.js');
  const syncCosts = measureSyncCosts();
  process.stdout.write(`${formatSyncCosts(syncCosts)}\n`);
  // scaled-down cases are not the sizes the goals name
  const measured = [
    ...checkGoals(results),
    ...checkForecastGoals(forecasts),
    ...(hugeResult ? [checkHugeGoal(hugeResult)] : []),
    ...checkStartupGoal(startup),
    ...checkSyncGoals(syncCosts),
  ];
  const goals = scale > 1 ? formatGoals([...checkStartupGoal(startup), ...checkSyncGoals(syncCosts)]) : formatGoals(measured);
  if (goals !== '') process.stdout.write(`\ngoals (growth compares the rollouts' whole-process CPU; linear is 2× per doubling):\n${goals}\n`);
  process.stdout.write(`${UPSTREAM_GOALS}\n`);
  return results.every((r) => r.converged && r.violations === 0) ? 0 : 1;
}

/** The goals measured beside kube-controller-manager, which this command cannot run (it needs kube-apiserver). */
const UPSTREAM_GOALS =
  'beside kube-controller-manager on kube-apiserver (1 × 500 Parallel, 100 × 10 OrderedReady: CPU per pod, wall time, peak RSS ≤ 1.0× upstream): npm run bench:upstream -- --stories parallel-500,sets-100x10';

export function register(program: Command): void {
  program
    .command('bench')
    .description('benchmark simulated rollouts (1 set × 1,000 / 2,000 / 5,000 / 10,000 replicas; 100, 300 and 1,000 sets × 10), forecasts (100, 300, 1,000 replicas), a simulation of 2,147,483,647 replicas and start-up against their goals')
    .option('--case <names>', `run only these cases, comma-separated (${[...BENCH_CASES, ...FORECAST_CASES, HUGE_CASE].map((c) => c.name).join(', ')})`)
    .option('--scale <n>', 'divide the number of pods by n (quick runs)', '1')
    .option('--namespaces <n>', 'spread the sets over n namespaces (default: 1 for one-set, 100 for many-sets)')
    .option('--json', 'print one JSON result per case, in this process')
    .action(async (opts: BenchOptions) => {
      process.exitCode = await benchCommand(opts);
    });
}
