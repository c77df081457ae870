// How long a set's pods take, per pod, as the cluster records it: start (creation → the Ready condition's
// lastTransitionTime, so readiness probes count) and termination (deletion requested, i.e. deletionTimestamp −
// the deletion's grace period → the pod gone). `forecast` learns them from the cluster's objects and Events
// (sim/learned-durations.ts); the controller's runtime learns them from its pod informer
// (runtime/duration-learner.ts) and hands them to the planner, which derives the p95 band of a rollout from
// them (slow-rollout.ts).
// API timestamps have whole seconds, so a difference of two of them is the true duration give or take a
// second: each measured value becomes three samples, itself and half a second either side (without it, eight
// pods all measured at 2 s forecast exactly 16 s for what takes 8 × 2.2 s).

import { fromTimestamp, type Instant, type Pod } from '../../api/types.js';
import { isTerminating, readyCondition, stateSince } from './pod-state.js';

export interface LearnedSeconds {
  samples: number[];
  /** Where the samples come from, for people. */
  source: string;
  /** Nothing was observed: the samples are only the most it can take (the grace period). */
  upperBound?: true;
}

/** Seconds each of a set's recent pods took, as measured (not yet widened to samples). */
export interface ObservedDurations {
  /** Creation → Ready. */
  start: readonly number[];
  /** Deletion requested → gone. */
  termination: readonly number[];
  /** The same, kept up to date one duration at a time by whoever learns them (absent: computed from the lists). */
  moments?: { start: LogMoments; termination: LogMoments };
}

/**
 * The log-normal fit of a list of durations, as running sums of the logarithms of their whole-second samples:
 * a band is a function of these (slow-rollout.ts), so a duration learned or forgotten costs O(1), and nothing
 * is sorted. `pods`: the durations measured; `n`: their samples.
 */
export interface LogMoments {
  pods: number;
  n: number;
  sum: number;
  sumSq: number;
}

/** A duration of 0 s (a pod Ready within its creation's second) counts as this in the logarithms. */
const MIN_LOG_SECONDS = 0.25;
const logOf = (seconds: number): number => Math.log(Math.max(MIN_LOG_SECONDS, seconds));

export const NO_MOMENTS: LogMoments = { pods: 0, n: 0, sum: 0, sumSq: 0 };

/** `m` with one measured duration more (`sign` 1) or less (−1). */
export function withDuration(m: LogMoments, seconds: number, sign: 1 | -1 = 1): LogMoments {
  const logs = wholeSecondSamples(seconds).map(logOf);
  return {
    pods: m.pods + sign,
    n: m.n + sign * logs.length,
    sum: m.sum + sign * logs.reduce((a, b) => a + b, 0),
    sumSq: m.sumSq + sign * logs.reduce((a, b) => a + b * b, 0),
  };
}

export const momentsOf = (measured: readonly number[]): LogMoments => measured.reduce((m, s) => withDuration(m, s), NO_MOMENTS);

/** The fit's median and 95th percentile (seconds). */
export function logNormalFit(m: LogMoments): { p50: number; p95: number } | undefined {
  if (m.n < 2) return undefined;
  const mean = m.sum / m.n;
  const sd = Math.sqrt(Math.max(0, (m.sumSq - m.n * mean * mean) / (m.n - 1)));
  return { p50: Math.exp(mean), p95: Math.exp(mean + Z95 * sd) };
}
/** The standard normal's 95th percentile. */
const Z95 = 1.6448536269514722;

/** A duration measured between whole-second timestamps, as samples around it (see the header). */
export const wholeSecondSamples = (seconds: number): number[] => [seconds - 0.5, seconds, seconds + 0.5].filter((s) => s >= 0);

/** The index of the p-th percentile (nearest rank) in a sorted list of `n` values. */
export const percentileIndex = (n: number, p: number): number => Math.min(n - 1, Math.max(0, Math.ceil((p / 100) * n) - 1));

export const percentile = (sorted: readonly number[], p: number): number | undefined => (sorted.length === 0 ? undefined : sorted[percentileIndex(sorted.length, p)]);


/** Creation → Ready of a Ready pod, in seconds (undefined when not Ready or a timestamp is missing). */
export function startSecondsOf(pod: Pod): number | undefined {
  const ready = readyCondition(pod);
  const created = fromTimestamp(pod.metadata.creationTimestamp);
  const since = ready?.status === 'True' ? fromTimestamp(ready.lastTransitionTime) : undefined;
  return created !== undefined && since !== undefined && since >= created ? (since - created) / 1000 : undefined;
}

/** When a terminating pod's deletion was requested: deletionTimestamp − its grace period. */
export const deletionRequestedAt = (pod: Pod): Instant | undefined => (isTerminating(pod) ? stateSince(pod) : undefined);

/** One step's band: its p50 and p95 (seconds), how many pods it comes from, and when it is out of it. */
export interface StepBand {
  p50: number;
  p95: number;
  pods: number;
  /** outOfBandAfter + 1 s: a step that has taken longer is out of its band. */
  limit: number;
}

export type StepKind = 'start' | 'termination';

/** The band of each per-pod step (undefined: too few measured). */
export interface ForecastBand {
  start?: StepBand;
  termination?: StepBand;
}
