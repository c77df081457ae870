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
}

/** A duration measured between whole-second timestamps, as samples around it (see the header). */
export const wholeSecondSamples = (seconds: number): number[] => [seconds - 0.5, seconds, seconds + 0.5].filter((s) => s >= 0);

/** The index of the p-th percentile (nearest rank) in a sorted list of `n` values. */
export const percentileIndex = (n: number, p: number): number => Math.min(n - 1, Math.max(0, Math.ceil((p / 100) * n) - 1));

export const percentile = (sorted: readonly number[], p: number): number | undefined => (sorted.length === 0 ? undefined : sorted[percentileIndex(sorted.length, p)]);

/** Measured durations widened to their whole-second samples, sorted (for `percentile`). */
export const sortedSamples = (measured: readonly number[]): number[] => measured.flatMap(wholeSecondSamples).sort((a, b) => a - b);

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

/** The band of each per-pod step (undefined: too few measured). */
export interface ForecastBand {
  start?: StepBand;
  termination?: StepBand;
}
