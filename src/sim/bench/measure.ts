// Runs one benchmark case and measures the rollout phase (from the first image change to convergence):
// wall time, CPU time (the planner's, measured with process.cpuUsage around every planStatefulSet call,
// and the whole process's), peak memory and the controller's API calls per pod replaced.

import { newPlanner } from '../../runtime/statefulset-controller-factory.js';
import type { Planner } from '../../runtime/planner-port.js';
import { stopwatch } from '../../runtime/real-clock.js';
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
  const planner = newPlanner();
  return {
    plan(observed, now, features) {
      const before = process.cpuUsage();
      try {
        return planner.plan(observed, now, features);
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

/** Wall time between progress lines. */
const PROGRESS_EVERY_MS = 2000;

/** Runs `c`; `progress` (if given) gets a line about every 2 s of wall time while it runs. */
export async function runBenchCase(c: BenchCase, progress?: (line: string) => void): Promise<BenchResult> {
  const planner = { cpu: 0, calls: 0 };
  const started: Mark = { wall: stopwatch.now(), cpu: process.cpuUsage(), planner: 0, api: 0, byVerb: {}, t: 0 };
  const meter = { peakHeap: 0, replaced: 0, rollout: undefined as Mark | undefined, said: started.wall };
  const total = c.sets * c.replicas;
  const sampleHeap = () => {
    meter.peakHeap = Math.max(meter.peakHeap, process.memoryUsage().heapUsed);
    const wall = stopwatch.now();
    if (progress === undefined || wall - meter.said < PROGRESS_EVERY_MS) return;
    meter.said = wall;
    const phase = meter.rollout ? `rollout: ${meter.replaced} of ${total} pods replaced` : 'creating the sets';
    const cpu = cpuMs(process.cpuUsage(started.cpu)) / 1000;
    progress(`${c.name}: ${phase}; ${((wall - started.wall) / 1000).toFixed(0)} s wall, ${cpu.toFixed(0)} s CPU, virtual t=${sim.t().toFixed(0)} s`);
  };
  const onRecord = (r: TimelineRecord) => {
    if (r.type === 'step' && r.index === 1) meter.rollout = markNow(sim, planner.cpu, r.t);
    if (meter.rollout && r.type === 'pod' && r.event === 'Deleted') meter.replaced++;
  };
  const options = { onRecord, keepRecords: false, onProgress: sampleHeap, progressEveryMs: 1000, planner: timedPlanner(planner) };
  const sim: Simulation = new Simulation(benchScenario(c), options);
  await sim.start();
  await sim.runSteps();
  const end = markNow(sim, planner.cpu, sim.t());
  const summary = await sim.finish();
  sampleHeap();
  const m = meter.rollout ?? started;
  const per = (x: number) => (meter.replaced ? x / meter.replaced : 0);
  const byVerb = Object.fromEntries(Object.entries(end.byVerb).map(([k, v]) => [k, round(per(v - (m.byVerb[k] ?? 0)))]));
  return {
    case: c.name,
    description: c.description,
    sets: c.sets,
    replicas: c.replicas,
    podsReplaced: meter.replaced,
    converged: summary.converged,
    violations: summary.violations.length,
    virtualSeconds: end.t - m.t,
    wallSecondsTotal: (end.wall - started.wall) / 1000,
    wallSecondsRollout: (end.wall - m.wall) / 1000,
    plannerCpuMsPerPodReplaced: per(end.planner - m.planner),
    processCpuMsPerPodReplaced: per(cpuMs(end.cpu) - cpuMs(m.cpu)),
    apiCallsPerPodReplaced: per(end.api - m.api),
    apiCallsByVerb: byVerb,
    plannerCalls: planner.calls,
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
    peakHeapMiB: meter.peakHeap / 1024 / 1024,
  };
}

const round = (x: number): number => Math.round(x * 100) / 100;

function markNow(sim: Simulation, plannerCpu: number, t: number): Mark {
  const api = sim.world.apiCalls;
  return { wall: stopwatch.now(), cpu: process.cpuUsage(), planner: plannerCpu, api: api.total, byVerb: { ...api.byVerb }, t };
}
