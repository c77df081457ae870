// Runs one benchmark case and measures the rollout phase (from the first image change to convergence):
// wall time, CPU time (the planner's, measured with process.cpuUsage around every planStatefulSet call,
// and the whole process's), peak memory and the controller's API calls per pod replaced.

import { performance } from 'node:perf_hooks';
import { defaultPlanner } from '../../runtime/controller.js';
import type { Planner } from '../../runtime/planner-port.js';
import { Simulation } from '../simulation.js';
import type { TimelineRecord } from '../timeline.js';
import { benchScenario, type BenchCase } from './cases.js';

export interface BenchResult {
  case: string;
  description: string;
  sets: number;
  replicas: number;
  podsReplaced: number;
  converged: boolean;
  violations: number;
  virtualSeconds: number;
  /** Whole run (setup, creation of every pod, rollout). */
  wallSecondsTotal: number;
  wallSecondsRollout: number;
  plannerCpuMsPerPodReplaced: number;
  processCpuMsPerPodReplaced: number;
  apiCallsPerPodReplaced: number;
  apiCallsByVerb: Record<string, number>;
  plannerCalls: number;
  peakRssMiB: number;
  peakHeapMiB: number;
}

const cpuMs = (u: NodeJS.CpuUsage): number => (u.user + u.system) / 1000;

function timedPlanner(total: { cpu: number; calls: number }): Planner {
  return {
    ...defaultPlanner,
    plan(observed, now, features) {
      const before = process.cpuUsage();
      try {
        return defaultPlanner.plan(observed, now, features);
      } finally {
        total.cpu += cpuMs(process.cpuUsage(before));
        total.calls++;
      }
    },
  };
}

interface Mark {
  wall: number;
  cpu: NodeJS.CpuUsage;
  planner: number;
  api: number;
  byVerb: Record<string, number>;
  t: number;
}

export async function runBenchCase(c: BenchCase): Promise<BenchResult> {
  const planner = { cpu: 0, calls: 0 };
  const started = performance.now();
  let peakHeap = 0;
  let mark: Mark | undefined;
  let replaced = 0;
  const sampleHeap = () => void (peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed));
  const onRecord = (r: TimelineRecord) => {
    if (r.type === 'step' && r.index === 1) mark = markNow(sim, planner.cpu, r.t);
    if (mark && r.type === 'pod' && r.event === 'Deleted') replaced++;
  };
  const sim: Simulation = new Simulation(benchScenario(c), { onRecord, keepRecords: false, onProgress: sampleHeap, progressEveryMs: 10_000, planner: timedPlanner(planner) });
  await sim.start();
  await sim.runSteps();
  const summary = await sim.finish();
  const end = performance.now();
  sampleHeap();
  const m = mark ?? { wall: started, cpu: { user: 0, system: 0 }, planner: 0, api: 0, byVerb: {}, t: 0 };
  const api = sim.world.apiCalls;
  const per = (x: number) => (replaced ? x / replaced : 0);
  const byVerb = Object.fromEntries(Object.entries(api.byVerb).map(([k, v]) => [k, round(per(v - (m.byVerb[k] ?? 0)))]));
  return {
    case: c.name,
    description: c.description,
    sets: c.sets,
    replicas: c.replicas,
    podsReplaced: replaced,
    converged: summary.converged,
    violations: summary.violations.length,
    virtualSeconds: summary.endedAt - m.t,
    wallSecondsTotal: (end - started) / 1000,
    wallSecondsRollout: (end - m.wall) / 1000,
    plannerCpuMsPerPodReplaced: per(planner.cpu - m.planner),
    processCpuMsPerPodReplaced: per(cpuMs(process.cpuUsage(m.cpu))),
    apiCallsPerPodReplaced: per(api.total - m.api),
    apiCallsByVerb: byVerb,
    plannerCalls: planner.calls,
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
    peakHeapMiB: peakHeap / 1024 / 1024,
  };
}

const round = (x: number): number => Math.round(x * 100) / 100;

function markNow(sim: Simulation, plannerCpu: number, t: number): Mark {
  const api = sim.world.apiCalls;
  return { wall: performance.now(), cpu: process.cpuUsage(), planner: plannerCpu, api: api.total, byVerb: { ...api.byVerb }, t };
}
