// The start-up figure of `ordinal bench`: the CPU time (user + system) of `ordinal --version` run as a
// child process, the cost every command pays before it does anything. Read from the kernel's account of
// waited-for children (/proc/self/stat cutime + cstime, in USER_HZ = 100 ticks per second on Linux), so
// it is the child's own CPU, not wall time on a shared machine.

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { GoalCheck } from '../../sim/bench/goals.js';

export const STARTUP_GOAL_SECONDS = 0.3;
const USER_HZ = 100;

/** The `ordinal` executable (from src/cli/commands or dist/cli/commands alike). */
const BIN = fileURLToPath(new URL('../../../bin/ordinal.js', import.meta.url));

/** CPU seconds of this process's waited-for children so far, or undefined without /proc. */
function childrenCpuSeconds(): number | undefined {
  let stat: string;
  try {
    stat = readFileSync('/proc/self/stat', 'utf8');
  } catch {
    return undefined;
  }
  // Fields after the command name, which is in parentheses and may contain spaces: state is field 3.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[16 - 3]) + Number(fields[17 - 3])) / USER_HZ;
}

/** Median CPU seconds of `ordinal --version` over a few runs; undefined where it cannot be measured. */
export function measureStartup(runs = 5): number | undefined {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const before = childrenCpuSeconds();
    // Plain node: not this process's execArgv, which may load tsx for the benchmark itself.
    const res = spawnSync(process.execPath, [BIN, '--version'], { encoding: 'utf8' });
    const after = childrenCpuSeconds();
    if (res.status !== 0) throw new Error(`ordinal --version failed (exit ${res.status}): ${res.stderr.trim()}`);
    if (before === undefined || after === undefined) return undefined;
    samples.push(after - before);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

/** The goal's row: `ordinal --version` under 0.3 s of CPU (none where it cannot be measured). */
export function checkStartupGoal(seconds: number | undefined): GoalCheck[] {
  if (seconds === undefined) return [];
  return [{ label: 'ordinal --version CPU', figure: `${seconds.toFixed(2)} s`, goal: `< ${STARTUP_GOAL_SECONDS} s`, met: seconds < STARTUP_GOAL_SECONDS }];
}

export function formatStartup(seconds: number | undefined): string {
  const goal = `goal < ${STARTUP_GOAL_SECONDS} s`;
  if (seconds === undefined) return `start-up: ordinal --version CPU not measured (needs /proc) (${goal})`;
  const line = `start-up: ordinal --version CPU ${seconds.toFixed(2)} s (${goal})`;
  // bin/ordinal.js runs the TypeScript sources whenever dist/ is missing or older than src/.
  return seconds < STARTUP_GOAL_SECONDS ? line : `${line} — over the goal; after editing src/, \`npm run build\` first`;
}
