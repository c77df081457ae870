// The current step of a staged rollout in one line, for the live views (the demo's and `rollout status
// --watch`'s): where the rollout is, what the step waits for and, given the time, for how long more.

import { parseGoDuration } from '../api/duration.js';
import { rollingBlockName } from '../api/rollout-signals.js';
import { fromTimestamp, toTimestamp, type Instant, type RolloutStep, type StatefulSet } from '../api/types.js';
import { gateOf, stepPartition } from '../controller/rollout/rollout-steps.js';
import { formatSeconds } from '../sim/format-seconds.js';
import { analysisText } from './rollout-steps.js';

/** `replicas 25%, partition 6` */
function target(step: RolloutStep, replicas: number): string {
  const partition = stepPartition(step, replicas);
  return step.partition !== undefined ? `partition ${partition}` : `replicas ${String(step.replicas)}, partition ${partition}`;
}

/** A bake's or readiness window's length and, at `now`, what is left of it (without `now`: since when it runs). */
function window(length: string | undefined, since: Instant | undefined, now: Instant | undefined): string {
  const ms = length === undefined ? 0 : parseGoDuration(length);
  if (since === undefined) return formatSeconds(ms / 1000);
  if (now === undefined) return `${formatSeconds(ms / 1000)} from ${toTimestamp(since)}`;
  return `${formatSeconds(Math.max(0, since + ms - now) / 1000)} more of ${formatSeconds(ms / 1000)}`;
}

/**
 * The current step in words (undefined for a set without steps): `step 1/4 (replicas 1, partition 7): baking,
 * 1m20s more of 2m00s`. With `now`, bakes and readiness windows say what is left.
 */
export function currentStepLine(set: StatefulSet, now?: Instant): string | undefined {
  const steps = set.spec.updateStrategy?.[rollingBlockName(set)]?.steps ?? [];
  const s = set.status;
  if (steps.length === 0 || s?.currentStepIndex === undefined) return undefined;
  const user = s.pauseConditions?.some((p) => p.reason === 'UserPause') === true ? '; paused by the user (spec paused: true)' : '';
  const step = steps[s.currentStepIndex];
  if (step === undefined) return `steps: all ${steps.length} passed${user}`;
  const since = fromTimestamp(s.currentStepSince);
  const where = `step ${s.currentStepIndex + 1}/${steps.length} (${target(step, set.spec.replicas ?? 1)})`;
  const checks = s.stepAnalysis === undefined ? '' : `, ${analysisText(s.stepAnalysis)}`;
  const what = ((): string => {
    switch (s.currentStepState) {
      case 'Paused':
        return `paused until promoted (kubectl ordinal rollout promote ${set.metadata.name ?? ''})`;
      case 'Baking':
        return `baking, ${window(step.pause?.duration, since, now)}`;
      case 'Analyzing':
        return gateOf(step) === 'readiness' ? `readiness analysis, ${window(step.analysis?.readiness?.duration, since, now)}${checks}` : gateOf(step) === 'prometheus' ? `prometheus analysis${checks}` : `analysis of ${step.analysis?.http?.url ?? ''}${checks}`;
      case 'Failed':
        return `failed${s.stepAnalysis?.message ? `: ${s.stepAnalysis.message}` : ''}`;
      case 'Updating':
      case 'Completed':
      case undefined:
        return gateOf(step) === 'none' ? 'updating' : `updating, then ${gateOf(step) === 'pause' ? 'a pause until promoted' : gateOf(step) === 'bake' ? `a bake of ${step.pause?.duration ?? ''}` : `a ${gateOf(step)} analysis`}`;
    }
  })();
  return `${where}: ${what}${user}`;
}
