// Stalls seen early: the p95 band of a rollout, from the set's own pods' durations (learned-durations.ts) as
// the runtime observed them. Each step of a rollout is one pod's: an old pod's termination (deletion
// requested → gone) and its replacement's start (creation → Ready); minReadySeconds is the spec's, and the
// controller itself creates the next pod at once, so the batches (maxUnavailable, podManagementPolicy) are
// made of these steps. Each step's band runs from its p50 to its p95; a step is out of it once it has taken
// the p95 plus the band's width (p95 − p50) — a single step past its p95 is one in twenty, and a 30-pod
// rollout would nearly always have one; with half the width, a 30-pod rollout of log-normal start times
// (σ 0.2) raised it in 20 of 100 unchanged runs, with the whole width in 5 — plus 1 s for whole-second
// timestamps. A pod of the update revision
// not Ready by then, or a pod not gone by then, means the progress made so far should have come earlier: the
// rollout is slower than forecast (Progressing=False, reason SlowerThanForecast, a warning, not a failure).
// The planner wakes itself when the first step in flight leaves its band.
// `progressDeadlineSeconds: auto` comes from the same band (autoDeadlineSeconds).

import type { Instant } from '../../api/types.js';
import type { LateStep } from '../model/plan-types.js';
import { percentile, sortedSamples, type ForecastBand, type ObservedDurations, type StepBand } from '../model/learned-durations.js';
import { stateSince } from '../model/pod-state.js';
import type { SyncContext } from './sync-context.js';

/** Fewer pods measured than this: no band (a p95 of one or two pods says little). */
export const MIN_MEASURED_PODS = 3;
/** Creation and deletion timestamps have whole seconds, `now` does not: a step may look up to 1 s longer. */
const TIMESTAMP_SLACK_SECONDS = 1;
/** `progressDeadlineSeconds: auto` never goes below this: a step may need what the set's past pods did not (an image pull on a new node). */
export const AUTO_DEADLINE_FLOOR_SECONDS = 60;
/** The auto deadline is this many times one step at p95 (termination + start + minReadySeconds). */
const AUTO_DEADLINE_STEPS = 2;

/** How long a step may take before it is out of its band: its p95 plus the band's width. */
const outOfBandAfter = (p50: number, p95: number): number => p95 + (p95 - p50);

function bandOf(measured: readonly number[] | undefined): StepBand | undefined {
  if (measured === undefined || measured.length < MIN_MEASURED_PODS) return undefined;
  const samples = sortedSamples(measured);
  const p50 = percentile(samples, 50);
  const p95 = percentile(samples, 95);
  if (p50 === undefined || p95 === undefined) return undefined;
  return { p50, p95, pods: measured.length, limit: outOfBandAfter(p50, p95) + TIMESTAMP_SLACK_SECONDS };
}

export function forecastBand(durations: ObservedDurations | undefined): ForecastBand {
  const start = bandOf(durations?.start);
  const termination = bandOf(durations?.termination);
  return { ...(start ? { start } : {}), ...(termination ? { termination } : {}) };
}

/**
 * `progressDeadlineSeconds: auto`: the deadline counts seconds without progress, as the integer does, so it
 * must fit one step of the rollout, not its length: two steps at p95 (termination, or the grace period when
 * no termination was measured, + start + minReadySeconds), at least AUTO_DEADLINE_FLOOR_SECONDS; undefined
 * (the default deadline applies) while fewer than MIN_MEASURED_PODS starts are measured.
 */
export function autoDeadlineSeconds(band: ForecastBand, minReadySeconds: number, graceSeconds: number): number | undefined {
  if (band.start === undefined) return undefined;
  const step = (band.termination?.p95 ?? graceSeconds) + band.start.p95 + minReadySeconds;
  return Math.max(AUTO_DEADLINE_FLOOR_SECONDS, Math.ceil(AUTO_DEADLINE_STEPS * step));
}

export interface BandCheck {
  /** The step furthest past its band, if any. */
  late?: LateStep;
  /** When the first step still in its band leaves it. */
  checkAt?: Instant;
}

/** The steps in flight (the down pods: terminating, or new and not Running and Ready yet) against the band. */
export function checkBand(ctx: SyncContext): BandCheck {
  const index = ctx.slots.index;
  let late: LateStep | undefined;
  let checkAt: Instant | undefined;
  for (const o of index.down.ascending()) {
    const f = index.member(o);
    if (f === undefined) continue;
    const step = f.terminating ? 'termination' : f.revision === ctx.updateRevision ? 'start' : undefined;
    const band = step === undefined ? undefined : ctx.band[step];
    const since = step === 'termination' ? stateSince(f.pod) : f.created;
    if (step === undefined || band === undefined || since === undefined) continue;
    const due = since + band.limit * 1000;
    if (ctx.now < due) {
      checkAt = checkAt === undefined ? due : Math.min(checkAt, due);
      continue;
    }
    const seconds = (ctx.now - since) / 1000;
    if (late === undefined || seconds / band.p95 > late.seconds / late.p95) late = { pod: f.name, step, seconds, p50: band.p50, p95: band.p95, pods: band.pods };
  }
  return { ...(late ? { late } : {}), ...(checkAt !== undefined ? { checkAt } : {}) };
}

const round = (s: number): number => Math.round(s * 10) / 10;

/**
 * "pod web-14 not Ready 15 s after its creation; the set's last 30 pods were Ready in 10 s (p50), 12.5 s (p95)":
 * the same text while the same step is late (the condition's message, written once); the time it has taken is
 * `why`'s.
 */
export function lateStepText(l: LateStep): string {
  const after = round(outOfBandAfter(l.p50, l.p95));
  const band = `${round(l.p50)} s (p50), ${round(l.p95)} s (p95)`;
  return l.step === 'start'
    ? `pod ${l.pod} not Ready ${after} s after its creation; the set's last ${l.pods} pods were Ready in ${band}`
    : `pod ${l.pod} not gone ${after} s after its deletion; the set's last ${l.pods} pods were gone in ${band}`;
}
