// The huge-replicas figure of `ordinal bench`: `ordinal simulate` of a set with `replicas: 2147483647` under
// the simulator's default object limit (10,000 pods; the rest refused as a ResourceQuota refuses them) for
// 60 virtual seconds, run as its own process and timed whole, start-up included: what a user waits for when
// a typo asks for two billion pods.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GoalCheck } from '../../sim/bench/goals.js';
import { stopwatch } from '../../runtime/real-clock.js';

export const HUGE_CASE = { name: 'simulate-huge', description: 'ordinal simulate, 1 set × 2,147,483,647 replicas, Parallel, the 10,000-object limit, 60 s', goalSeconds: 30 };

export interface HugeResult {
  case: string;
  wallSeconds: number;
  cpuSeconds: number;
  peakRssMiB: number;
  /** The pods the limit let in (10,000). */
  pods: number;
}

const SCENARIO = `kind: Scenario
name: huge-replicas
endSeconds: 60
objects:
  - apiVersion: apps/v1
    kind: StatefulSet
    metadata: {name: web}
    spec:
      replicas: 2147483647
      podManagementPolicy: Parallel
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec: {containers: [{name: c, image: "app:1"}]}
steps:
  - advance: 60
`;

/** The `ordinal` executable (from src/cli/commands or dist/cli/commands alike). */
const BIN = fileURLToPath(new URL('../../../bin/ordinal.js', import.meta.url));
/** Loaded first into the timed process: on exit it reports its CPU and peak RSS on stderr. */
const REPORT_USAGE = `data:text/javascript,process.on('exit',()=>{const c=process.cpuUsage();process.stderr.write('\\nusage '+JSON.stringify({cpu:(c.user+c.system)/1e6,rss:process.resourceUsage().maxRSS/1024})+'\\n')})`;

export function runHugeCase(): HugeResult {
  const file = join(mkdtempSync(join(tmpdir(), 'ordinal-bench-huge-')), 'huge.yaml');
  writeFileSync(file, SCENARIO);
  const started = stopwatch.now();
  const res = spawnSync(process.execPath, ['--import', REPORT_USAGE, BIN, 'simulate', file, '--format', 'jsonl'], { encoding: 'utf8', maxBuffer: 512 << 20 });
  const wallSeconds = (stopwatch.now() - started) / 1000;
  const usage = /\nusage (\{.*\})\n/.exec(res.stderr)?.[1];
  if (res.status !== 0 || usage === undefined) throw new Error(`ordinal simulate of replicas 2147483647 failed (exit ${res.status}): ${res.stderr.trim().slice(0, 500)}`);
  const { cpu, rss } = JSON.parse(usage) as { cpu: number; rss: number };
  const summary = JSON.parse(res.stdout.trim().split('\n').pop() ?? '{}') as { sets?: Record<string, { replicas?: number } | null> };
  return { case: HUGE_CASE.name, wallSeconds, cpuSeconds: cpu, peakRssMiB: rss, pods: summary.sets?.['web']?.replicas ?? 0 };
}

export function formatHuge(r: HugeResult): string {
  return `${HUGE_CASE.description}: ${r.wallSeconds.toFixed(2)} s wall, ${r.cpuSeconds.toFixed(2)} s CPU, peak RSS ${r.peakRssMiB.toFixed(0)} MiB, ${r.pods} pods`;
}

export function checkHugeGoal(r: HugeResult): GoalCheck {
  return { label: 'ordinal simulate, replicas 2147483647 (10,000-object limit), wall', figure: `${r.wallSeconds.toFixed(2)} s`, goal: `< ${HUGE_CASE.goalSeconds} s`, met: r.wallSeconds < HUGE_CASE.goalSeconds };
}
