// One run of a forecast: the set from its start state, the change applied, until the rollout converges; what
// it says is summed up as the records stream by, so a run keeps no timeline unless asked to. The same job
// (setup, candidate, seed) gives the same run in any thread.

import { runScenario } from './runner.js';
import { scenarioFromDocument } from './scenario.js';
import type { StatefulSet } from '../api/types.js';
import { forecastableScenario, forecastSteps, type ForecastStep } from './forecast-steps.js';
import { scenarioFromManifests, type ManifestChange, type ManifestTiming } from './scenario-from-manifests.js';
import type { StartState } from './simulation.js';
import { isPodRemoval, type SummaryRecord, type TimelineRecord } from './timeline.js';

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
  /** onFailure: Rollback aborted the rollout (a forecast of a failing release): see Abort. */
  aborted?: Abort;
  /** updatedAt[k]: seconds after the change when `status.updatedReplicas` first reached k (index 0 is 0). */
  updatedAt: number[];
  /** rollingUpdate.steps: stepsDoneAt[k]: seconds after the change when step k (0-based) passed. */
  stepsDoneAt: number[];
  /** Why the run did not converge: the step that failed and its message (a write the API refused, a wait that timed out). */
  why?: string;
}

/** A run's abort, from the rollout summary's record of it (rollout-tracker.ts) and the RolloutAborted event. */
export interface Abort {
  /** Seconds from the change to the abort: how long the failure took to be detected. */
  at: number;
  /** Seconds from the abort to every pod available on the last good revision; undefined when the way back did not end. */
  back?: number;
  /** The way back's lowest availability, and when (seconds after the change). */
  lowestAvailable: { replicas: number; at: number };
  /** The RolloutAborted event's message: what failed and where the pods go back to. */
  message: string;
}

/** What every run of a forecast shares: sent once to each worker. */
export interface ForecastSetup {
  /** Shown in the scenario's name. */
  name: string;
  manifests: readonly unknown[];
  timing: ManifestTiming;
  /** Per candidate: the change, and which of `starts` its runs start from. */
  candidates: Array<{ label: string; change: ManifestChange; start: number }>;
  starts: StartState[];
}

export interface RunJob {
  candidate: number;
  seed: number;
}

/** Sums a run up from its records, from the first change step (index 1) on. */
class RunSummary {
  /** When the change was applied; undefined until its step record. */
  private change: number | undefined;
  private readonly batches = new Map<number, Batch>();
  private readonly updatedAt = [0];
  private readonly stepsDoneAt: number[] = [];
  private abortMessage = '';
  /** The first failed step's message (before the change too: a start the change cannot be applied to). */
  private failure: string | undefined;
  /** The last Warning Event after the change: what the controller reported it could not do. */
  private warning: string | undefined;

  add(r: TimelineRecord): void {
    if (r.type === 'failure') this.failure ??= r.message;
    if (this.change === undefined) {
      // Records before the change, even at its instant, belong to how the set was before.
      if (r.type === 'step' && r.index === 1) this.change = r.t;
      return;
    }
    const change = this.change;
    // Counted once the status names the new revision: before that, updatedReplicas counts the old one.
    if (r.type === 'status' && r.generation !== null && r.status.observedGeneration === r.generation) {
      while (this.updatedAt.length <= (r.status.updatedReplicas ?? 0)) this.updatedAt.push(r.t - change);
      if (r.status.stepRevision === r.status.updateRevision) while (this.stepsDoneAt.length < (r.status.currentStepIndex ?? 0)) this.stepsDoneAt.push(r.t - change);
    }
    if (r.type === 'event' && r.reason === 'RolloutAborted' && this.abortMessage === '') this.abortMessage = r.message;
    if (r.type === 'event' && r.eventType === 'Warning') this.warning = `${r.reason}: ${r.message}`;
    const removal = r.type === 'action' && isPodRemoval(r);
    if (removal || (r.type === 'action' && r.resource === 'pods' && r.verb === 'create')) {
      const batch = this.batches.get(r.t) ?? { at: r.t - change, deleted: [], created: [] };
      (removal ? batch.deleted : batch.created).push(r.name);
      this.batches.set(r.t, batch);
    }
  }

  /**
   * The run's duration and lowest availability are those of the set's rollout as the simulator measured it
   * (rollout-tracker.ts, the same figures the report of the run shows); a change that rolled nothing took no time.
   */
  result(seed: number, summary: SummaryRecord, ok: boolean): RunForecast {
    const change = this.change ?? 0;
    const converged = ok && summary.converged;
    const rollout = summary.rollouts.find((r) => r.startedAt >= change);
    const seconds = rollout === undefined ? (converged ? 0 : undefined) : converged && rollout.convergedAt !== null ? rollout.convergedAt - rollout.startedAt : undefined;
    // No rollout: availability stayed what the summary reports.
    const lowestAvailable = rollout
      ? { replicas: rollout.lowestAvailable.replicas, at: rollout.lowestAvailable.at - change }
      : { replicas: Math.min(...Object.values(summary.sets).map((s) => s?.availableReplicas ?? 0)), at: 0 };
    const a = rollout?.aborted;
    const aborted: Abort | undefined = a && {
      at: a.at - rollout.startedAt,
      ...(converged && rollout.convergedAt !== null ? { back: rollout.convergedAt - a.at } : {}),
      lowestAvailable: { replicas: a.lowestAvailable.replicas, at: a.lowestAvailable.at - change },
      message: this.abortMessage,
    };
    const failed = this.failure ?? (ok ? 'the run ended before the rollout converged' : 'an expectation of the run failed');
    const why = seconds === undefined ? (this.warning === undefined ? failed : `${failed}; the controller's last warning: ${this.warning}`) : undefined;
    return { seed, ...(seconds !== undefined ? { seconds } : {}), lowestAvailable, batches: [...this.batches.values()], ...(aborted ? { aborted } : {}), updatedAt: this.updatedAt, stepsDoneAt: this.stepsDoneAt, ...(why ? { why } : {}) };
  }
}

/** Runs one job; with `keepRecords`, also returns the run's timeline (the report draws the median run). */
export async function runForecastJob(setup: ForecastSetup, job: RunJob, keepRecords = false): Promise<{ run: RunForecast; records: TimelineRecord[] }> {
  const candidate = setup.candidates[job.candidate];
  const start = candidate && setup.starts[candidate.start];
  if (candidate === undefined || start === undefined) throw new Error(`forecast job for candidate ${job.candidate}, which the setup does not have`);
  const doc = { ...forecastableScenario(scenarioFromManifests(setup.name, setup.manifests, candidate.change, setup.timing)), seed: job.seed };
  const summary = new RunSummary();
  const result = await runScenario(scenarioFromDocument(doc, `forecast of ${setup.name} (${candidate.label})`), { start, keepRecords, checkPlans: false, onRecord: (r) => summary.add(r) });
  return { run: summary.result(job.seed, result.summary, result.exitCode === 0), records: result.records };
}

/** The steps of the set a candidate's change applies (a forecast takes one set), as the forecast reports them. */
export function candidateSteps(setup: ForecastSetup, candidate: number): ForecastStep[] {
  const change = setup.candidates[candidate]?.change;
  if (change === undefined) return [];
  const doc = scenarioFromManifests(setup.name, setup.manifests, change, setup.timing);
  const steps = Array.isArray(doc.steps) ? (doc.steps as Array<{ apply?: { kind?: unknown } }>) : [];
  const set = steps.map((s) => s.apply).find((o) => o?.kind === 'StatefulSet');
  return set === undefined ? [] : forecastSteps(set as StatefulSet);
}
