// A rollout forecast: the same planner and controller on the simulated cluster, many times, with each pod's
// start and termination drawn from durations learned on the cluster (or given), for the set's current
// strategy and for candidate settings. Every run starts from the set as it is (start-state.ts), and the runs
// are shared by this thread and worker threads (forecast-pool.ts). Seeded: the same inputs give the same
// forecast. A failing release (`change.failure`) also gives, from the runs onFailure: Rollback aborted, when
// the failure was detected and how long and how low the way back went.

import type { Seconds } from '../cluster/kubelet/config.js';
import { percentile, percentileIndex } from '../controller/model/learned-durations.js';
import { bandOf, madeEnough, nextLook, type Band } from './forecast-band.js';
import type { Candidate } from './forecast-candidates.js';
import { defaultThreads, startForecastPool, type ForecastPool } from './forecast-pool.js';
import { candidateSteps, runForecastJob, type ForecastSetup, type RunForecast, type RunJob } from './forecast-run.js';
import { forecastableStart, type ForecastStep } from './forecast-steps.js';
import type { ManifestChange } from './scenario-from-manifests.js';
import type { StartState } from './simulation.js';
import { createdState, withSetFields } from './start-state.js';
import type { TimelineRecord } from './timeline.js';

export type { Batch, RunForecast } from './forecast-run.js';
export type { Band } from './forecast-band.js';

export interface ForecastInput {
  /** Shown in the scenario's name. */
  name: string;
  /** The set as it is (and any other objects the scenario needs). */
  manifests: readonly unknown[];
  change: ManifestChange;
  start: Seconds;
  termination: Seconds;
  /** How long a claim's expansion takes (default: the simulated storage's). */
  expansion?: Seconds;
  /** How long a preUpdate hook takes to pass (the set's hook; default: its GETs are refused and the rollout waits). */
  hook?: Seconds;
  /** The most runs per setting; a setting stops earlier once its band holds still (forecast-band.ts). */
  runs: number;
  /** Make every one of `runs`, band still or not (the forecast calibration bench reads them all). */
  everyRun?: boolean;
  seed: number;
  candidates: Candidate[];
  /** Where every run starts (a live set's objects as observed); default: the manifests once created. */
  from?: StartState;
  /**
   * Threads the runs share, this one included (default: one per core, for a forecast that replaces enough
   * pods to pay for starting worker threads); 1 runs everything in this thread. The forecast is the same either way.
   */
  threads?: number;
}

export interface CandidateForecast {
  label: string;
  note?: string;
  converged: number;
  p5?: number;
  p50?: number;
  p95?: number;
  /** The lowest availability over every run, and when (seconds after the change) in its run. */
  lowestAvailable: { replicas: number; at: number };
  /** The converged run whose duration is P50 (its batches describe the rollout); the first run when none converged. */
  median: RunForecast;
  /** That run's records, for the HTML report (the run is made again, the same). */
  medianRecords(): Promise<TimelineRecord[]>;
  /** Every run, by seed. */
  runs: RunForecast[];
  /** A failing release (`change.failure`): its detection and way back, over the runs onFailure: Rollback aborted. */
  rollback?: RollbackForecast;
  /** rollingUpdate.steps: each step, how the runs took its gate, and when it passed (seconds after the change) over the converged runs. */
  steps: StepForecast[];
}

export interface StepForecast extends ForecastStep {
  done: Band;
}

export interface RollbackForecast {
  /** Runs the failure aborted (the others halted or never reached the failing pod). */
  aborted: number;
  /** Seconds from the change to the abort. */
  detected: Band;
  /** Seconds from the abort to every pod available on the last good revision, over the runs whose way back ended. */
  back: Band;
  /** The lowest availability on the way back over those runs, and when (seconds after the change) in its run. */
  lowestAvailable: { replicas: number; at: number };
  /** What failed, as the RolloutAborted event of the first aborted run says. */
  message: string;
}

export { percentile };

const band = bandOf;

const lowestOf = (points: ReadonlyArray<{ replicas: number; at: number }>): { replicas: number; at: number } =>
  points.reduce((low, p) => (p.replicas < low.replicas ? p : low), { replicas: Infinity, at: 0 });

/** The detection and way back of the runs that were aborted; undefined when none was. */
function rollbackForecast(runs: readonly RunForecast[]): RollbackForecast | undefined {
  const aborted = runs.flatMap((r) => (r.aborted ? [r.aborted] : []));
  const first = aborted[0];
  if (first === undefined) return undefined;
  return {
    aborted: aborted.length,
    detected: band(aborted.map((a) => a.at)),
    back: band(aborted.flatMap((a) => (a.back === undefined ? [] : [a.back]))),
    lowestAvailable: lowestOf(aborted.map((a) => a.lowestAvailable)),
    message: first.message,
  };
}

/** One setting's forecast from its runs (in seed order). */
function candidateForecast(setup: ForecastSetup, index: number, candidate: Candidate, runs: RunForecast[]): CandidateForecast {
  const converged = runs.filter((r) => r.seconds !== undefined).sort((a, b) => (a.seconds ?? 0) - (b.seconds ?? 0));
  const durations = converged.map((r) => r.seconds ?? 0);
  // The run at P50 itself, so that the report of "the median run" shows the table's P50.
  const median = converged[percentileIndex(converged.length, 50)] ?? runs[0];
  if (median === undefined) throw new Error('a forecast needs at least one run');
  const lowest = lowestOf(runs.map((r) => r.lowestAvailable));
  const rollback = rollbackForecast(runs);
  const steps = candidateSteps(setup, index).map((s, k) => ({ ...s, done: band(converged.flatMap((r) => (r.stepsDoneAt[k] === undefined ? [] : [r.stepsDoneAt[k]]))) }));
  return {
    label: candidate.label,
    ...(candidate.note !== undefined ? { note: candidate.note } : {}),
    converged: durations.length,
    ...band(durations),
    lowestAvailable: lowest,
    median,
    medianRecords: async () => (await runForecastJob(setup, { candidate: index, seed: median.seed }, true)).records,
    runs,
    ...(rollback ? { rollback } : {}),
    steps,
  };
}

/** Seconds each converged run had left once `updated` pods were updated, in ascending order. */
export function remainingAfter(runs: readonly RunForecast[], updated: number): number[] {
  return runs
    .flatMap((r) => {
      const at = r.updatedAt[Math.min(updated, r.updatedAt.length - 1)];
      return r.seconds === undefined || at === undefined ? [] : [Math.max(0, r.seconds - at)];
    })
    .sort((a, b) => a - b);
}

/** Pods a forecast's runs replace, about, from which worker threads (each starting in a few tenths of a second) pay. */
const WORKERS_MIN_PODS = 1000;

/**
 * The current setting first, then each candidate. Every run starts from the same start state (made once when
 * not given); a candidate that cannot be applied to the live set (its note) starts from the set recreated with it.
 */
export async function forecastRollout(input: ForecastInput): Promise<CandidateForecast[]> {
  const timing = {
    podStartSeconds: input.start,
    podTerminationSeconds: input.termination,
    ...(input.expansion !== undefined ? { expansionSeconds: input.expansion } : {}),
    ...(input.hook !== undefined ? { hookSeconds: input.hook } : {}),
  };
  // a manual pause or an HTTP analysis the runs cannot wait for (forecast-steps.ts)
  const base = forecastableStart(input.from ?? (await createdState(input.name, input.manifests, timing)));
  const candidates: Candidate[] = [{ label: 'current', set: [] }, ...input.candidates];
  const starts: StartState[] = [base];
  const setup: ForecastSetup = {
    name: input.name,
    manifests: input.manifests,
    timing,
    starts,
    candidates: candidates.map((c) => {
      if (c.note === undefined) return { label: c.label, change: { ...input.change, set: [...input.change.set, ...c.set] }, start: 0 };
      starts.push(withSetFields(base, c.set));
      return { label: c.label, change: { ...input.change, initial: c.set }, start: starts.length - 1 };
    }),
  };
  const pods = base.snapshot.resources['pods']?.length ?? 0;
  const threads = input.threads ?? (candidates.length * input.runs * Math.max(1, pods) >= WORKERS_MIN_PODS ? defaultThreads() : 1);
  const pool = startForecastPool(setup, Math.min(threads, candidates.length * input.runs));
  try {
    const runs = await runUntilStill(pool, candidates.length, input.runs, input.seed, input.everyRun === true);
    return candidates.map((c, i) => candidateForecast(setup, i, c, runs[i] ?? []));
  } finally {
    await pool.close();
  }
}

/**
 * Each setting's runs, in seed order: all settings' next runs go to the pool together, and a setting stops
 * once its band holds still or it has made `most` (forecast-band.ts).
 */
async function runUntilStill(pool: ForecastPool, settings: number, most: number, seed: number, everyRun: boolean): Promise<RunForecast[][]> {
  const made: RunForecast[][] = Array.from({ length: settings }, () => []);
  const open = new Set(made.keys());
  while (open.size > 0) {
    const jobs: RunJob[] = [...open].flatMap((candidate) => {
      const from = made[candidate]!.length;
      const to = everyRun ? most : nextLook(from, most);
      return Array.from({ length: to - from }, (_, i) => ({ candidate, seed: seed + from + i }));
    });
    const runs = await pool.run(jobs);
    jobs.forEach((job, i) => made[job.candidate]!.push(runs[i]!));
    for (const candidate of [...open]) if (madeEnough(made[candidate]!.map((r) => r.seconds), most)) open.delete(candidate);
  }
  return made;
}
