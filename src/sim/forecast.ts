// A rollout forecast: the same planner and controller on the simulated cluster, many times, with each pod's
// start and termination drawn from durations learned on the cluster (or given), for the set's current
// strategy and for candidate settings. Seeded: the same inputs give the same forecast.

import type { Seconds } from '../cluster/kubelet/config.js';
import { runScenario, type RunResult } from './runner.js';
import { scenarioFromDocument } from './scenario.js';
import { scenarioFromManifests, type ManifestChange } from './scenario-from-manifests.js';
import type { TimelineRecord } from './timeline.js';
import type { Candidate } from './forecast-candidates.js';

export interface ForecastInput {
  /** Shown in the scenario's name. */
  name: string;
  /** The set as it is (and any other objects the scenario needs). */
  manifests: readonly unknown[];
  change: ManifestChange;
  start: Seconds;
  termination: Seconds;
  runs: number;
  seed: number;
  candidates: Candidate[];
}

export interface Batch {
  /** Seconds after the change. */
  at: number;
  deleted: string[];
  created: string[];
}

export interface RunForecast {
  seed: number;
  /** Seconds from the change to convergence; undefined when the run did not converge. */
  seconds?: number;
  lowestAvailable: { replicas: number; at: number };
  batches: Batch[];
  /** updatedAt[k]: seconds after the change when `status.updatedReplicas` first reached k (index 0 is 0). */
  updatedAt: number[];
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
  /** That run's records, for the HTML report. */
  medianRecords: TimelineRecord[];
  /** Every run, by seed. */
  runs: RunForecast[];
}

/** The index of the p-th percentile (nearest rank) in a sorted list of `n` values. */
const percentileIndex = (n: number, p: number): number => Math.min(n - 1, Math.max(0, Math.ceil((p / 100) * n) - 1));

export const percentile = (sorted: readonly number[], p: number): number | undefined => (sorted.length === 0 ? undefined : sorted[percentileIndex(sorted.length, p)]);

/**
 * What one run says, from the first change step (index 1): its duration and lowest availability are those of
 * the set's rollout as the simulator measured it (rollout-tracker.ts, the same figures the report of the run
 * shows); a change that rolled nothing took no time.
 */
function summarize(seed: number, result: RunResult): RunForecast {
  const changeIndex = result.records.findIndex((r) => r.type === 'step' && r.index === 1);
  const change = result.records[changeIndex]?.t ?? 0;
  const ok = result.summary.converged && result.exitCode === 0;
  const rollout = result.summary.rollouts.find((r) => r.startedAt >= change);
  const batches = new Map<number, Batch>();
  const updatedAt = [0];
  // From the change step on, in record order: records at the same instant before it belong to the set's creation.
  for (const r of result.records.slice(Math.max(0, changeIndex))) {
    // Counted once the status names the new revision: before that, updatedReplicas counts the old one.
    if (r.type === 'status' && r.generation !== null && r.status.observedGeneration === r.generation) {
      while (updatedAt.length <= (r.status.updatedReplicas ?? 0)) updatedAt.push(r.t - change);
    }
    if (r.type === 'action' && r.resource === 'pods' && (r.verb === 'create' || r.verb === 'delete')) {
      const batch = batches.get(r.t) ?? { at: r.t - change, deleted: [], created: [] };
      (r.verb === 'delete' ? batch.deleted : batch.created).push(r.name);
      batches.set(r.t, batch);
    }
  }
  const seconds = rollout === undefined ? (ok ? 0 : undefined) : ok && rollout.convergedAt !== null ? rollout.convergedAt - rollout.startedAt : undefined;
  // No rollout: availability stayed what the summary reports.
  const lowestAvailable = rollout
    ? { replicas: rollout.lowestAvailable.replicas, at: rollout.lowestAvailable.at - change }
    : { replicas: Math.min(...Object.values(result.summary.sets).map((s) => s?.availableReplicas ?? 0)), at: 0 };
  return { seed, ...(seconds !== undefined ? { seconds } : {}), lowestAvailable, batches: [...batches.values()], updatedAt };
}

async function forecastCandidate(input: ForecastInput, candidate: Candidate): Promise<CandidateForecast> {
  const change: ManifestChange =
    candidate.note === undefined ? { ...input.change, set: [...input.change.set, ...candidate.set] } : { ...input.change, initial: candidate.set };
  const runs: Array<{ run: RunForecast; records: TimelineRecord[] }> = [];
  for (let i = 0; i < input.runs; i++) {
    const seed = input.seed + i;
    const doc = { ...scenarioFromManifests(input.name, input.manifests, change, { podStartSeconds: input.start, podTerminationSeconds: input.termination }), seed };
    const result = await runScenario(scenarioFromDocument(doc, `forecast of ${input.name} (${candidate.label})`));
    runs.push({ run: summarize(seed, result), records: result.records });
  }
  const converged = runs.filter((r) => r.run.seconds !== undefined).sort((a, b) => (a.run.seconds ?? 0) - (b.run.seconds ?? 0));
  const durations = converged.map((r) => r.run.seconds ?? 0);
  // The run at P50 itself, so that the report of "the median run" shows the table's P50.
  const median = converged[percentileIndex(converged.length, 50)] ?? runs[0];
  if (median === undefined) throw new Error('a forecast needs at least one run');
  const lowest = runs.reduce((low, r) => (r.run.lowestAvailable.replicas < low.replicas ? r.run.lowestAvailable : low), { replicas: Infinity, at: 0 });
  const stats = { p5: percentile(durations, 5), p50: percentile(durations, 50), p95: percentile(durations, 95) };
  return {
    label: candidate.label,
    ...(candidate.note !== undefined ? { note: candidate.note } : {}),
    converged: durations.length,
    ...Object.fromEntries(Object.entries(stats).filter(([, v]) => v !== undefined)),
    lowestAvailable: lowest,
    median: median.run,
    medianRecords: median.records,
    runs: runs.map((r) => r.run),
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

/** The current setting first, then each candidate. */
export async function forecastRollout(input: ForecastInput): Promise<CandidateForecast[]> {
  const out: CandidateForecast[] = [];
  for (const candidate of [{ label: 'current', set: [] }, ...input.candidates]) out.push(await forecastCandidate(input, candidate));
  return out;
}
