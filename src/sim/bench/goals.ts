// The benchmark's goals, each computed from the cases that ran and printed next to its figure: how cost
// grows with replicas and with sets (linear is 2× per doubling), whole-process and planner CPU per pod,
// and the 1,000 × 10 rollout's wall time and memory. A goal whose cases did not run is left out.

import type { BenchResult } from './measure.js';
import type { SyncCost } from './sync-cost.js';

export interface GoalCheck {
  label: string;
  /** The measured figure, formatted with its unit. */
  figure: string;
  goal: string;
  met: boolean;
}

/** CPU of the whole process over the rollout, in seconds. */
export const rolloutCpuSeconds = (r: BenchResult): number => (r.processCpuMsPerPodReplaced * r.podsReplaced) / 1000;

type Results = ReadonlyMap<string, BenchResult>;

function ratio(results: Results, small: string, large: string, max: number, label: string): GoalCheck[] {
  const a = results.get(small);
  const b = results.get(large);
  if (a === undefined || b === undefined || rolloutCpuSeconds(a) <= 0) return [];
  const x = rolloutCpuSeconds(b) / rolloutCpuSeconds(a);
  return [{ label, figure: `${x.toFixed(2)}×`, goal: `≤ ${max}×`, met: x <= max }];
}

interface Bound {
  unit: string;
  max: number;
  /** `<` rather than `≤`. */
  strict?: boolean;
  digits?: number;
}

function bounded(r: BenchResult | undefined, label: string, value: (r: BenchResult) => number, b: Bound): GoalCheck[] {
  if (r === undefined) return [];
  const x = value(r);
  const met = b.strict ? x < b.max : x <= b.max;
  return [{ label, figure: `${x.toFixed(b.digits ?? 2)} ${b.unit}`, goal: `${b.strict ? '<' : '≤'} ${b.max} ${b.unit}`, met }];
}

export function checkGoals(list: readonly BenchResult[]): GoalCheck[] {
  const results: Results = new Map(list.map((r) => [r.case, r]));
  const manySets = results.get('many-sets');
  const tenK = results.get('one-set-10k');
  return [
    ...ratio(results, 'one-set', 'one-set-2k', 2.2, 'rollout CPU, 1 × 2,000 / 1 × 1,000'),
    ...ratio(results, 'one-set-5k', 'one-set-10k', 2.2, 'rollout CPU, 1 × 10,000 / 1 × 5,000'),
    ...(tenK === undefined ? [] : [{ label: '1 × 10,000 rollout completes', figure: tenK.converged ? 'yes' : 'no', goal: 'yes', met: tenK.converged }]),
    ...ratio(results, 'many-sets-100', 'many-sets', 11, 'rollout CPU, 1,000 × 10 / 100 × 10'),
    ...list.flatMap((r) => bounded(r, `process CPU / pod replaced, ${r.case}`, (x) => x.processCpuMsPerPodReplaced, { unit: 'ms', max: 0.5, digits: 3 })),
    ...bounded(manySets, 'wall time, rollout, many-sets', (x) => x.wallSecondsRollout, { unit: 's', max: 10, strict: true }),
    ...bounded(manySets, 'peak RSS, many-sets', (x) => (x.peakRssMiB * 1024 * 1024) / 1e6, { unit: 'MB', max: 300, strict: true, digits: 0 }),
    ...bounded(results.get('one-set'), 'planner CPU / pod replaced, one-set', (x) => x.plannerCpuMsPerPodReplaced * 1000, { unit: 'µs', max: 50, digits: 0 }),
  ];
}

/** A no-op sync costs the same whatever the set's size: its cost follows what changed, not the replicas. */
export function checkSyncGoals(costs: readonly SyncCost[]): GoalCheck[] {
  const small = costs.find((c) => c.replicas === 100);
  const large = costs.find((c) => c.replicas === 10000);
  if (small === undefined || large === undefined) return [];
  const x = large.noopMicros / small.noopMicros;
  return [
    { label: 'no-op sync, 10,000 replicas / 100 replicas', figure: `${x.toFixed(2)}×`, goal: '≤ 2×', met: x <= 2 },
    { label: 'no-op sync, 10,000 replicas', figure: `${large.noopMicros.toFixed(0)} µs`, goal: '< 50 µs', met: large.noopMicros < 50 },
  ];
}

export function formatGoals(checks: readonly GoalCheck[]): string {
  if (checks.length === 0) return '';
  const width = Math.max(...checks.map((c) => c.label.length));
  const fig = Math.max(...checks.map((c) => c.figure.length));
  const goal = Math.max(...checks.map((c) => c.goal.length));
  return checks.map((c) => `${c.label.padEnd(width)}  ${c.figure.padStart(fig)}  goal ${c.goal.padEnd(goal)}  ${c.met ? 'met' : 'NOT MET'}`).join('\n');
}
