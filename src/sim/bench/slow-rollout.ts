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
  /** Three times slower from this ordinal down; undefined: the unchanged release. */
  slowFrom?: number;
  /** spec.progressDeadlineSeconds (default 600). */
  deadline?: number | 'auto';
  replicas?: number;
  starts?: StartSpread;
  /** Restart the controller this many seconds into the rollout (it relearns from the pods). */
  restartAfter?: number;
}

export type StartSpread = 'even' | 'tail';
const STARTS: Record<StartSpread, number[]> = {
  even: [8, 10, 12],
  // 10 s × exp(0.2 z) at the 100 quantiles (i + 0.5) / 100 of the standard normal
  tail: [6.0, 6.5, 6.8, 7.0, 7.1, 7.3, 7.4, 7.5, 7.6, 7.7, 7.8, 7.9, 7.9, 8.0, 8.1, 8.2, 8.2, 8.3, 8.4, 8.4, 8.5, 8.5, 8.6, 8.7, 8.7, 8.8, 8.8, 8.9, 8.9, 9.0, 9.0, 9.1, 9.1, 9.2, 9.2, 9.3, 9.3, 9.4, 9.4, 9.5, 9.5, 9.6, 9.6, 9.7, 9.7, 9.8, 9.8, 9.9, 9.9, 10.0, 10.0, 10.1, 10.1, 10.2, 10.2, 10.3, 10.3, 10.4, 10.4, 10.5, 10.5, 10.6, 10.7, 10.7, 10.8, 10.8, 10.9, 10.9, 11.0, 11.1, 11.1, 11.2, 11.3, 11.3, 11.4, 11.5, 11.6, 11.6, 11.7, 11.8, 11.9, 12.0, 12.1, 12.2, 12.3, 12.4, 12.5, 12.6, 12.7, 12.8, 13.0, 13.2, 13.3, 13.5, 13.8, 14.0, 14.4, 14.8, 15.4, 16.7],
};

/** The median start of the unchanged release: the "pod-start time" detection latency is counted in. */
export const POD_START_SECONDS = 10;
const SLOW_FACTOR = 3;

export function slowRolloutScenario(c: SlowRolloutCase): string {
  const replicas = c.replicas ?? 30;
  const slowPods = c.slowFrom === undefined ? [] : Array.from({ length: c.slowFrom + 1 }, (_, i) => `web-${i}`);
  const starts = STARTS[c.starts ?? 'even'];
  const slow = starts.map((s) => Math.round(s * SLOW_FACTOR * 10) / 10);
  const images = slowPods.length === 0 ? '' : `\n  images:\n    "app:v2": {startSeconds: {samples: [${slow.join(', ')}]}, pods: [${slowPods.join(', ')}]}`;
  return `kind: Scenario
name: slow rollout
seed: ${c.seed}
endSeconds: 100000
cluster:
  podStartSeconds: {samples: [${starts.join(', ')}]}
  podTerminationSeconds: 2${images}
objects:
  - apiVersion: apps.ordinal.dev/v1
    kind: StatefulSet
    metadata: {name: web}
    spec:
      replicas: ${replicas}
      progressDeadlineSeconds: ${JSON.stringify(c.deadline ?? 600)}
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec: {containers: [{name: app, image: "app:v1"}]}
steps:
  - waitFor: Converged
    timeoutSeconds: 20000
  - setImage: {name: web, container: app, image: "app:v2"}${c.restartAfter === undefined ? '' : `\n  - advance: ${c.restartAfter}\n  - restartController: {}`}
  - waitFor: Converged
    timeoutSeconds: 20000
`;
}

export interface SlowRolloutRun {
  converged: boolean;
  /** When the image changed (the first status of generation 2). */
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
  let generation2: number | undefined;
  const run: SlowRolloutRun = { converged: result.summary.converged };
  for (const r of result.records) {
    if (r.type === 'status' && r.generation === 2) {
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

export async function slowRolloutFigures(seeds: readonly number[], slowFrom: number, starts: StartSpread = 'even'): Promise<SlowRolloutFigures> {
  const latencies: number[] = [];
  const f: SlowRolloutFigures = { runs: seeds.length, detected: 0, detectedWithin2: 0, falseAlarms: 0, deadlineDetected: 0, deadlineFalseAlarms: 0, notConverged: 0 };
  for (const seed of seeds) {
    const slow = await runSlowRollout({ seed, slowFrom, starts });
    const same = await runSlowRollout({ seed, starts });
    if (!slow.converged || !same.converged) f.notConverged++;
    if (slow.slowerAt !== undefined && slow.slowDownAt !== undefined) {
      const latency = slow.slowerAt - slow.slowDownAt;
      f.detected++;
      latencies.push(latency);
      if (latency >= 0 && latency <= 2 * POD_START_SECONDS) f.detectedWithin2++;
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
