// How well SlowerThanForecast sees a slow-down, on the simulated cluster: a 30-pod rollout whose pods start
// in 8, 10 or 12 s (`even`) or in one of 100 times spread as a log-normal with median 10 s and σ 0.2 (6.0 to
// 16.7 s, `tail`), one draw per pod from the seed; and the same rollout with a release three times slower on
// the lower ordinals, from `slowFrom` down: the slow-down starts when that pod is created.
// Each run says when the rollout first reported SlowerThanForecast and whether a fixed progress deadline
// (600 s, the default) or `progressDeadlineSeconds: auto` failed it.

import { runScenario } from '../runner.js';
import { parseScenario } from '../scenario.js';
import type { StatusRecord } from '../timeline.js';

export interface SlowRolloutCase {
  seed: number;
  /**
   * Log-normal start and termination times: each pod draws one of 100 quantiles of a log-normal with median
   * POD_START_SECONDS (σ `start`) and TERMINATION_SECONDS (σ `termination`); overrides `starts`. `samples`: draw
   * from these measured durations instead (seconds; e.g. recorded on a cluster).
   */
  spread?: { start: number; termination: number } | { samples: { start: readonly number[]; termination: readonly number[] } };
  /** Three times slower from this ordinal down; undefined: the unchanged release. */
  slowFrom?: number;
  /** spec.progressDeadlineSeconds (default 600). */
  deadline?: number | 'auto';
  replicas?: number;
  starts?: StartSpread;
  /** Restart the controller this many seconds into the rollout (it relearns from the pods). */
  restartAfter?: number;
  /**
   * The set's history before the rollout: created with 3 × replicas pods and scaled down, so the controller has
   * learned 3 × replicas starts and 2 × replicas terminations, as from earlier rollouts (a band needs enough).
   */
  history?: boolean;
}

export type StartSpread = 'even' | 'tail';
const STARTS: Record<StartSpread, number[]> = {
  even: [8, 10, 12],
  // 10 s × exp(0.2 z) at the 100 quantiles (i + 0.5) / 100 of the standard normal
  tail: [6.0, 6.5, 6.8, 7.0, 7.1, 7.3, 7.4, 7.5, 7.6, 7.7, 7.8, 7.9, 7.9, 8.0, 8.1, 8.2, 8.2, 8.3, 8.4, 8.4, 8.5, 8.5, 8.6, 8.7, 8.7, 8.8, 8.8, 8.9, 8.9, 9.0, 9.0, 9.1, 9.1, 9.2, 9.2, 9.3, 9.3, 9.4, 9.4, 9.5, 9.5, 9.6, 9.6, 9.7, 9.7, 9.8, 9.8, 9.9, 9.9, 10.0, 10.0, 10.1, 10.1, 10.2, 10.2, 10.3, 10.3, 10.4, 10.4, 10.5, 10.5, 10.6, 10.7, 10.7, 10.8, 10.8, 10.9, 10.9, 11.0, 11.1, 11.1, 11.2, 11.3, 11.3, 11.4, 11.5, 11.6, 11.6, 11.7, 11.8, 11.9, 12.0, 12.1, 12.2, 12.3, 12.4, 12.5, 12.6, 12.7, 12.8, 13.0, 13.2, 13.3, 13.5, 13.8, 14.0, 14.4, 14.8, 15.4, 16.7],
};

/** The median start of the unchanged release: the "pod-start time" detection latency is counted in. */
export const POD_START_SECONDS = 10;
/** The median termination of a log-normal spread (about what a cluster's pods take to go). */
export const TERMINATION_SECONDS = 2;
const SLOW_FACTOR = 3;

/** The standard normal's quantile function (Acklam's rational approximation, |error| < 1.2e-9). */
function probit(p: number): number {
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const tail = (q: number): number => (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) / ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  if (p < 0.02425) return tail(Math.sqrt(-2 * Math.log(p)));
  if (p > 1 - 0.02425) return -tail(Math.sqrt(-2 * Math.log(1 - p)));
  const q = p - 0.5;
  const r = q * q;
  return ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) / (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1);
}

/** `median` × exp(σ z) at the 100 quantiles (i + 0.5) / 100, to a tenth of a second. */
export const logNormal = (median: number, sigma: number): number[] => Array.from({ length: 100 }, (_, i) => Math.round(median * Math.exp(sigma * probit((i + 0.5) / 100)) * 10) / 10);

function spreadOf(c: SlowRolloutCase): { starts: readonly number[]; terminations: readonly number[] | undefined } {
  const spread = c.spread;
  if (spread === undefined) return { starts: STARTS[c.starts ?? 'even'], terminations: undefined };
  if ('samples' in spread) return { starts: spread.samples.start, terminations: spread.samples.termination };
  return { starts: logNormal(POD_START_SECONDS, spread.start), terminations: logNormal(TERMINATION_SECONDS, spread.termination) };
}

export function slowRolloutScenario(c: SlowRolloutCase): string {
  const replicas = c.replicas ?? 30;
  const slowPods = c.slowFrom === undefined ? [] : Array.from({ length: c.slowFrom + 1 }, (_, i) => `web-${i}`);
  const { starts, terminations } = spreadOf(c);
  const slow = starts.map((s) => Math.round(s * SLOW_FACTOR * 10) / 10);
  const images = slowPods.length === 0 ? '' : `\n  images:\n    "app:v2": {startSeconds: {samples: [${slow.join(', ')}]}, pods: [${slowPods.join(', ')}]}`;
  const initial = c.history ? 3 * replicas : replicas;
  const scaleDown = c.history ? `\n  - patch: {kind: StatefulSet, name: web, merge: {spec: {replicas: ${replicas}}}}\n  - waitFor: Converged\n    timeoutSeconds: 20000` : '';
  return `kind: Scenario
name: slow rollout
seed: ${c.seed}
endSeconds: 100000
cluster:
  podStartSeconds: {samples: [${starts.join(', ')}]}
  podTerminationSeconds: ${terminations === undefined ? 2 : `{samples: [${terminations.join(', ')}]}`}${images}
objects:
  - apiVersion: apps.ordinal.dev/v1
    kind: StatefulSet
    metadata: {name: web}
    spec:
      replicas: ${initial}
      progressDeadlineSeconds: ${JSON.stringify(c.deadline ?? 600)}
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec: {containers: [{name: app, image: "app:v1"}]}
steps:
  - waitFor: Converged
    timeoutSeconds: 20000${scaleDown}
  - setImage: {name: web, container: app, image: "app:v2"}${c.restartAfter === undefined ? '' : `\n  - advance: ${c.restartAfter}\n  - restartController: {}`}
  - waitFor: Converged
    timeoutSeconds: 20000
`;
}

export interface SlowRolloutRun {
  converged: boolean;
  /** When the image changed (the first status of the rollout's generation). */
  rolloutAt?: number;
  /** When the first pod of the slow release was created (undefined: unchanged release). */
  slowDownAt?: number;
  /** The first status with Progressing=False, reason SlowerThanForecast. */
  slowerAt?: number;
  /** The first status with Progressing=False, reason ProgressDeadlineExceeded. */
  deadlineAt?: number;
  /** What the slower-than-forecast message said first. */
  message?: string;
}

const progressing = (r: StatusRecord) => r.status.conditions?.find((c) => c.type === 'Progressing');

export async function runSlowRollout(c: SlowRolloutCase): Promise<SlowRolloutRun> {
  const result = await runScenario(parseScenario(slowRolloutScenario(c)));
  const slowPod = c.slowFrom === undefined ? undefined : `web-${c.slowFrom}`;
  // the rollout's generation: after the scale-down of the history, if any
  const rolloutGeneration = c.history ? 3 : 2;
  let generation2: number | undefined;
  const run: SlowRolloutRun = { converged: result.summary.converged };
  for (const r of result.records) {
    if (r.type === 'status' && r.generation === rolloutGeneration) {
      generation2 ??= r.t;
      run.rolloutAt ??= r.t;
      const p = progressing(r);
      if (p?.reason === 'SlowerThanForecast' && run.slowerAt === undefined) {
        run.slowerAt = r.t;
        run.message = p.message ?? '';
      }
      if (p?.reason === 'ProgressDeadlineExceeded') run.deadlineAt ??= r.t;
    }
    // the slow pod's creation on the new revision: after the image changed
    if (r.type === 'pod' && r.name === slowPod && r.event === 'Created' && generation2 !== undefined) run.slowDownAt ??= r.t;
  }
  return run;
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? POD_START_SECONDS;

/** What seeds `from`..`to` show, slow and unchanged, in pod-start times. */
export interface SlowRolloutFigures {
  runs: number;
  /** Slow runs in which SlowerThanForecast fired, and within 2 pod-start times of the slow-down. */
  detected: number;
  detectedWithin2: number;
  /** Detection latency (s): median and max over the slow runs that detected it. */
  latencyMedian?: number;
  latencyMax?: number;
  /** Unchanged runs in which SlowerThanForecast fired. */
  falseAlarms: number;
  /** The fixed 600 s deadline: slow runs it failed, unchanged runs it failed. */
  deadlineDetected: number;
  deadlineFalseAlarms: number;
  /** Runs of either kind that did not converge. */
  notConverged: number;
}

export async function slowRolloutFigures(seeds: readonly number[], slowFrom: number, starts: StartSpread = 'even', spread?: SlowRolloutCase['spread'], history = false): Promise<SlowRolloutFigures> {
  const latencies: number[] = [];
  const f: SlowRolloutFigures = { runs: seeds.length, detected: 0, detectedWithin2: 0, falseAlarms: 0, deadlineDetected: 0, deadlineFalseAlarms: 0, notConverged: 0 };
  const shape = { starts, history, ...(spread !== undefined ? { spread } : {}) };
  // "within 2 pod starts": of the release's own median start
  const podStart = spread !== undefined && 'samples' in spread ? median(spread.samples.start) : POD_START_SECONDS;
  for (const seed of seeds) {
    const slow = await runSlowRollout({ seed, slowFrom, ...shape });
    const same = await runSlowRollout({ seed, ...shape });
    if (!slow.converged || !same.converged) f.notConverged++;
    if (slow.slowerAt !== undefined && slow.slowDownAt !== undefined) {
      const latency = slow.slowerAt - slow.slowDownAt;
      f.detected++;
      latencies.push(latency);
      if (latency >= 0 && latency <= 2 * podStart) f.detectedWithin2++;
    }
    if (same.slowerAt !== undefined) f.falseAlarms++;
    if (slow.deadlineAt !== undefined) f.deadlineDetected++;
    if (same.deadlineAt !== undefined) f.deadlineFalseAlarms++;
  }
  latencies.sort((a, b) => a - b);
  if (latencies.length > 0) {
    f.latencyMedian = latencies[Math.floor((latencies.length - 1) / 2)];
    f.latencyMax = latencies[latencies.length - 1];
  }
  return f;
}
