// The forecast figures of `ordinal bench`: `ordinal forecast -f M.yaml --image c=img:2 --pod-start-seconds
// 5,8,12 --termination-seconds 3` with its defaults (20 runs per setting, the default candidates) on one set of
// 100, 300 and 1,000 replicas under each pod management policy, run as its own process and timed whole (start-up
// included): wall time, CPU of every thread, peak RSS; and the ETA of `rollout status` on a 300-replica set
// under way: how long after it asks the ETA is there.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Resources } from '../../api/client.js';
import type { Pod, StatefulSet } from '../../api/types.js';
import type { GoalCheck } from '../../sim/bench/goals.js';
import { stopwatch } from '../../runtime/real-clock.js';

export type Policy = 'OrderedReady' | 'Parallel';

export interface ForecastCase {
  name: string;
  description: string;
  kind: 'forecast' | 'eta';
  replicas: number;
  policy: Policy;
  /** The goal: wall seconds. */
  goalSeconds: number;
}

export interface ForecastResult {
  case: string;
  description: string;
  kind: ForecastCase['kind'];
  replicas: number;
  policy: Policy;
  wallSeconds: number;
  /** Every thread's. */
  cpuSeconds: number;
  peakRssMiB: number;
  goalSeconds: number;
}

const short = (p: Policy) => (p === 'OrderedReady' ? 'ordered' : 'parallel');
const forecastCase = (replicas: number, policy: Policy, goalSeconds: number): ForecastCase => ({
  name: `forecast-${replicas}-${short(policy)}`,
  description: `ordinal forecast, 1 set × ${replicas} replicas, ${policy}, defaults`,
  kind: 'forecast',
  replicas,
  policy,
  goalSeconds,
});
const etaCase = (replicas: number, policy: Policy): ForecastCase => ({
  name: `eta-${replicas}-${short(policy)}`,
  description: `rollout status ETA, 1 set × ${replicas} replicas, ${policy}`,
  kind: 'eta',
  replicas,
  policy,
  goalSeconds: 2,
});

export const FORECAST_CASES: readonly ForecastCase[] = [
  forecastCase(100, 'OrderedReady', 2),
  forecastCase(100, 'Parallel', 2),
  forecastCase(300, 'OrderedReady', 5),
  forecastCase(300, 'Parallel', 5),
  forecastCase(1000, 'OrderedReady', 20),
  forecastCase(1000, 'Parallel', 20),
  etaCase(300, 'OrderedReady'),
  etaCase(300, 'Parallel'),
];

/** The command: its image change and durations. */
const FORECAST_ARGS = ['--image', 'app=bench/app:2', '--pod-start-seconds', '5,8,12', '--termination-seconds', '3'];

/** The benchmark's set (also bench/forecast-calibration.ts's): `web`, image bench/app:1, 3 s grace; `maxUnavailable` when given. */
export function manifest(replicas: number, policy: Policy, maxUnavailable?: number): StatefulSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      replicas,
      podManagementPolicy: policy,
      serviceName: 'web',
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { terminationGracePeriodSeconds: 3, containers: [{ name: 'app', image: 'bench/app:1' }] } },
      ...(maxUnavailable === undefined ? {} : { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable } } }),
    },
  };
}

/** The `ordinal` executable (from src/cli/commands or dist/cli/commands alike). */
const BIN = fileURLToPath(new URL('../../../bin/ordinal.js', import.meta.url));
/** Loaded first into the timed process: on exit it reports its CPU (all threads) and peak RSS on stderr. */
const REPORT_USAGE = `data:text/javascript,process.on('exit',()=>{const c=process.cpuUsage();process.stderr.write('\\nusage '+JSON.stringify({cpu:(c.user+c.system)/1e6,rss:process.resourceUsage().maxRSS/1024})+'\\n')})`;

function runForecastCommand(c: ForecastCase): Omit<ForecastResult, 'case' | 'description' | 'kind' | 'replicas' | 'policy' | 'goalSeconds'> {
  const file = join(mkdtempSync(join(tmpdir(), 'ordinal-bench-forecast-')), `web-${c.replicas}.yaml`);
  writeFileSync(file, JSON.stringify(manifest(c.replicas, c.policy)));
  const started = stopwatch.now();
  // Plain node: not this process's execArgv, which may load tsx for the benchmark itself.
  const res = spawnSync(process.execPath, ['--import', REPORT_USAGE, BIN, 'forecast', '-f', file, ...FORECAST_ARGS], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const wallSeconds = (stopwatch.now() - started) / 1000;
  const usage = /\nusage (\{.*\})\n/.exec(res.stderr)?.[1];
  if (res.status !== 0 || usage === undefined) throw new Error(`ordinal forecast failed (exit ${res.status}): ${res.stderr.trim()}`);
  const { cpu, rss } = JSON.parse(usage) as { cpu: number; rss: number };
  return { wallSeconds, cpuSeconds: cpu, peakRssMiB: rss };
}

/** A set of `replicas` created on the simulated cluster, its image changed: the ETA is asked for as `rollout status` asks. */
async function measureEta(c: ForecastCase): Promise<Omit<ForecastResult, 'case' | 'description' | 'kind' | 'replicas' | 'policy' | 'goalSeconds'>> {
  const [{ Simulation }, { scenarioFromDocument }, { forecastEta }] = await Promise.all([
    import('../../sim/simulation.js'),
    import('../../sim/scenario.js'),
    import('../rollout/rollout-eta.js'),
  ]);
  const cluster = { podStartSeconds: { samples: [5, 8, 12] }, podTerminationSeconds: 3, maxObjects: 100_000 };
  const sim = new Simulation(scenarioFromDocument({ kind: 'Scenario', cluster, objects: [manifest(c.replicas, c.policy)], steps: [{ waitFor: 'Converged', timeoutSeconds: 86400 }] }));
  await sim.start();
  await sim.runSteps();
  const user = sim.world.user;
  await user.patch(Resources.statefulSets, 'default', 'web', { spec: { template: { spec: { containers: [{ name: 'app', image: 'bench/app:2' }] } } } });
  // Until the status shows the rollout, as `rollout status` waits for it before it asks.
  await sim.runFor(sim.now() + 60_000, () => {
    const s = sim.state.findSet('default', 'web')?.set.status;
    return !s || s.currentRevision === s.updateRevision;
  });
  const set = await user.get<StatefulSet>(Resources.statefulSets, 'default', 'web');
  const pods = (await user.list<Pod>(Resources.pods, 'default')).items;
  const [started, cpu] = [stopwatch.now(), process.cpuUsage()];
  const eta = await forecastEta(user, Resources.statefulSets, set, pods, []);
  const wallSeconds = (stopwatch.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  if (typeof eta !== 'object') throw new Error(`no ETA: ${eta ?? 'no rollout under way'}`);
  await sim.finish();
  return { wallSeconds, cpuSeconds: (used.user + used.system) / 1e6, peakRssMiB: process.resourceUsage().maxRSS / 1024 };
}

export async function runForecastCase(c: ForecastCase): Promise<ForecastResult> {
  const measured = c.kind === 'forecast' ? runForecastCommand(c) : await measureEta(c);
  return { case: c.name, description: c.description, kind: c.kind, replicas: c.replicas, policy: c.policy, goalSeconds: c.goalSeconds, ...measured };
}

export function formatForecastBench(results: readonly ForecastResult[]): string {
  const rows = results.map((r) => [r.case, `${r.wallSeconds.toFixed(2)} s`, `${r.cpuSeconds.toFixed(2)} s`, `${r.peakRssMiB.toFixed(0)} MiB`]);
  const head = ['forecast case', 'wall', 'CPU (all threads)', 'peak RSS'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  return [head, ...rows].map((r) => r.map((v, i) => (i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join('  ')).join('\n');
}

/** Each case against its wall-time goal. */
export function checkForecastGoals(results: readonly ForecastResult[]): GoalCheck[] {
  return results.map((r) => ({
    label: r.kind === 'eta' ? `ETA of rollout status appears, ${r.replicas} replicas ${r.policy}` : `ordinal forecast wall, ${r.replicas} replicas ${r.policy}`,
    figure: `${r.wallSeconds.toFixed(2)} s`,
    goal: `< ${r.goalSeconds} s`,
    met: r.wallSeconds < r.goalSeconds,
  }));
}

/** How the forecast's CPU grows with the replicas, per policy (linear: the ratio of the replicas). */
export function forecastRatios(results: readonly ForecastResult[]): string[] {
  const by = new Map(results.map((r) => [r.case, r]));
  return (['OrderedReady', 'Parallel'] as const).flatMap((p) =>
    [
      [100, 300],
      [300, 1000],
    ].flatMap(([a = 0, b = 0]) => {
      const small = by.get(`forecast-${a}-${short(p)}`);
      const large = by.get(`forecast-${b}-${short(p)}`);
      if (small === undefined || large === undefined || small.cpuSeconds <= 0) return [];
      return [`forecast CPU, ${b} / ${a} replicas ${p}: ${(large.cpuSeconds / small.cpuSeconds).toFixed(2)}× (the replicas: ${(b / a).toFixed(1)}×)`];
    }),
  );
}
