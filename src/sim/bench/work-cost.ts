// The cost guard's rollouts (test/sim/cost-guard.test.ts, and `ordinal bench`'s counter table): small rollouts
// run with every layer's work counted (src/runtime/work-counters.ts), over the rollout only (from the first
// image change to convergence), so two sizes of one shape can be compared counter by counter.

import { countsBetween, WorkCounters, type WorkCounts } from '../../runtime/work-counters.js';
import { Simulation } from '../simulation.js';
import type { TimelineRecord } from '../timeline.js';
import { benchScenario, type BenchCase } from './cases.js';

export interface CostShape {
  name: string;
  /** The case at its smaller size; `at(n)` gives it with n× its pods. */
  at(n: number): BenchCase;
  /** The node declares an allocatable, so resize admission keeps its totals. */
  allocatable?: boolean;
}

export interface CostRun {
  shape: string;
  sets: number;
  replicas: number;
  podsReplaced: number;
  converged: boolean;
  violations: number;
  counts: WorkCounts;
}

const oneSet = (replicas: number, podManagementPolicy: BenchCase['podManagementPolicy'], maxUnavailable: number | string): BenchCase => ({
  name: `1x${replicas}-${podManagementPolicy}`,
  description: `1 set × ${replicas} replicas, ${podManagementPolicy}, maxUnavailable ${maxUnavailable}`,
  sets: 1,
  replicas,
  podManagementPolicy,
  maxUnavailable,
  namespaces: 1,
});

/** Sets of 10 in one namespace: a pass over the namespace, not the set, grows with the sets. */
const manySets = (sets: number): BenchCase => ({
  name: `${sets}x10-OrderedReady`,
  description: `${sets} sets × 10 replicas in one namespace, OrderedReady, maxUnavailable 2`,
  sets,
  replicas: 10,
  podManagementPolicy: 'OrderedReady',
  maxUnavailable: 2,
  namespaces: 1,
});

export const COST_SHAPES: readonly CostShape[] = [
  { name: 'parallel', at: (n) => oneSet(40 * n, 'Parallel', '10%'), allocatable: true },
  { name: 'ordered', at: (n) => oneSet(12 * n, 'OrderedReady', 1) },
  { name: 'many-sets', at: (n) => manySets(4 * n) },
];

/** Runs the shape at `n`× its size; the counts cover the rollout. */
export async function runCostShape(shape: CostShape, n: number): Promise<CostRun> {
  const c = shape.at(n);
  const scenario = benchScenario(c);
  if (shape.allocatable) scenario.cluster = { ...scenario.cluster, allocatable: { cpu: '1000', memory: '1000Gi' } };
  const counters = new WorkCounters();
  let start: WorkCounts | undefined;
  let replaced = 0;
  const onRecord = (r: TimelineRecord) => {
    if (r.type === 'step' && r.index === 1) start = counters.snapshot();
    if (start !== undefined && r.type === 'pod' && r.event === 'Deleted') replaced++;
  };
  const sim = new Simulation(scenario, { onRecord, keepRecords: false, counters });
  await sim.start();
  await sim.runSteps();
  const end = counters.snapshot();
  const summary = await sim.finish();
  return {
    shape: shape.name,
    sets: c.sets,
    replicas: c.replicas,
    podsReplaced: replaced,
    converged: summary.converged,
    violations: summary.violations.length,
    counts: countsBetween(start ?? end, end),
  };
}
