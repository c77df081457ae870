// Blocker values (controller/plan-types.ts) as sentences for `why`. Pure: everything a sentence needs is in
// the ExplainContext, so each kind is tested by a table (test/cli/blocker-text.test.ts).

import { IN_PLACE_READINESS_GATE, LIFECYCLE_STATE_LABEL, PodAnnotations, PREPARING_UPDATE, type Instant, type Pod, type StatefulSet, type StepAnalysisStatus } from '../../api/types.js';
import type { Blocker } from '../../controller/model/plan-types.js';
import { parentNameAndOrdinal } from '../../controller/model/pod-state.js';
import { INT32_MAX } from '../../controller/model/spec.js';
import { GATE_FIELD } from '../../controller/model/readiness-gate.js';
import { lateStepText } from '../../controller/rollout/slow-rollout.js';
import type { EffectiveStrategy } from '../../controller/rollout/effective-strategy.js';
import { formatSecondsLeft, humanDuration } from './durations.js';
import { podState, revisionMark } from './pod-view.js';

export interface ExplainContext {
  set: StatefulSet;
  /** The pods the planner saw, by name. */
  pods: ReadonlyMap<string, Pod>;
  now: Instant;
  strategy: EffectiveStrategy;
  /** The revision the plan rolls to (plan.status.updateRevision). */
  updateRevision: string;
  minReadySeconds: number;
  /** First ordinal of the range (spec.ordinals.start). */
  start: number;
  replicas: number;
  /** Pods the plan deletes this sync for the update (they use budget the blocker did not count yet). */
  updateDeletions: readonly string[];
  /**
   * InPlace: pods whose claims the plan grows this sync (their replicas use budget the same way), leaving out
   * a growth the API server refused last time: it is retried, not in flight.
   */
  claimUpdates?: readonly string[];
  /** podUpdatePolicy: pods the plan patches in place this sync (their replicas use budget the same way). */
  inPlaceUpdates?: readonly string[];
}

type Of<K extends Blocker['kind']> = Extract<Blocker, { kind: K }>;

const policy = (ctx: ExplainContext): string => (ctx.set.spec.podManagementPolicy === 'Parallel' ? 'Parallel' : 'OrderedReady');
const indexOf = (ctx: ExplainContext, pod: string): number => parentNameAndOrdinal(pod).ordinal - ctx.start;
const inRange = (ctx: ExplainContext, pod: string): boolean => indexOf(ctx, pod) >= 0 && indexOf(ctx, pod) < ctx.replicas;

/** "ImagePullBackOff" / "Pending" / "missing" for a pod name. */
export function stateOf(ctx: ExplainContext, name: string): string {
  const pod = ctx.pods.get(name);
  return pod === undefined ? 'missing' : podState(pod, ctx.minReadySeconds, ctx.now).state;
}

function revisionPhrase(ctx: ExplainContext, name: string): string {
  const pod = ctx.pods.get(name);
  return pod === undefined ? '' : ` on the ${revisionMark(pod, ctx.updateRevision)} revision`;
}

function notAvailable(b: Of<'podNotAvailable'>, ctx: ExplainContext): string {
  const pod = ctx.pods.get(b.pod);
  const state = pod ? podState(pod, ctx.minReadySeconds, ctx.now) : undefined;
  if (state?.ready && b.availableAt < Number.MAX_SAFE_INTEGER) {
    return `${b.pod} is Ready but not yet available: ${formatSecondsLeft(b.availableAt - ctx.now)} of minReadySeconds ${ctx.minReadySeconds} left`;
  }
  if (state?.ready) return `${b.pod} is Ready but has no Ready transition time, so it cannot count as available (minReadySeconds ${ctx.minReadySeconds})`;
  const since = state?.since === undefined ? '' : ` for ${humanDuration(ctx.now - state.since)}`;
  return `the rollout waits for ${b.pod}${revisionPhrase(ctx, b.pod)} to become available: it is ${state?.state ?? 'missing'}${since}`;
}

/** What the OrderedReady pass is doing when it stops at this pod. */
function orderedPass(ctx: ExplainContext, pod: string): string {
  if (!inRange(ctx, pod)) return `${policy(ctx)} scale-down`;
  const status = ctx.set.status;
  const rolling = (status?.updateRevision ?? ctx.updateRevision) !== status?.currentRevision;
  return rolling ? `${policy(ctx)} rolling update` : `${policy(ctx)} scale-up`;
}

function notRunningAndReady(b: Of<'podNotRunningAndReady'>, ctx: ExplainContext): string {
  if (b.phase === 'Failed' || b.phase === 'Succeeded') {
    return `${b.pod} has phase ${b.phase}: it is deleted and recreated once it is gone`;
  }
  return `${orderedPass(ctx, b.pod)} waits for ${b.pod} to be Running and Ready (it is ${stateOf(ctx, b.pod)})`;
}

/** Deleted or patched in place this sync while available: the budget counted them as available, the next sync will not. */
function stillAvailable(ctx: ExplainContext, names: readonly string[]): string[] {
  return names.filter((name) => {
    const pod = ctx.pods.get(name);
    return pod !== undefined && podState(pod, ctx.minReadySeconds, ctx.now).available;
  });
}

/** What uses the update budget: the unavailable ordinals, plus the pods deleted or patched in place and the claims grown this sync. */
export function budgetInUse(b: Of<'budgetExhausted'>, ctx: ExplainContext): { count: number; exhausted: boolean; parts: string[] } {
  const listed = b.unavailablePods.map((name) => {
    const below = inRange(ctx, name) && indexOf(ctx, name) < ctx.strategy.partition ? ' below the partition' : '';
    return `${name} ${stateOf(ctx, name)}${below}`;
  });
  const more = b.unavailable > listed.length ? `, and ${b.unavailable - listed.length} more` : '';
  const fresh = stillAvailable(ctx, ctx.updateDeletions);
  const patched = stillAvailable(ctx, ctx.inPlaceUpdates ?? []);
  const claims = (ctx.claimUpdates ?? []).filter((name) => !b.unavailablePods.includes(name));
  const parts = [
    ...listed.map((l, i) => (i === listed.length - 1 ? `${l}${more}` : l)),
    ...fresh.map((name) => `${name} deleted now`),
    ...patched.map((name) => `${name} updated in place now`),
    ...claims.map((name) => `${name}'s claims updated now`),
  ];
  const count = b.unavailable + fresh.length + patched.length + claims.length;
  return { count, exhausted: count >= b.maxUnavailable, parts };
}

/** Blocked only when the budget is used up; with budget left the other sentences say what holds the rollout. */
function budgetExhausted(b: Of<'budgetExhausted'>, ctx: ExplainContext): string {
  const { count, exhausted, parts } = budgetInUse(b, ctx);
  const detail = parts.length ? ` (${parts.join(', ')})` : '';
  const what = ctx.strategy.kind === 'EnforcedRollingUpdate' ? 'enforced rolling update' : 'rolling update';
  if (!exhausted) return `${what} has budget left (${count} of maxUnavailable ${b.maxUnavailable} ordinals unavailable${detail}) but replaces no pod now`;
  return `${what} blocked: ${count} of maxUnavailable ${b.maxUnavailable} ordinals unavailable${detail}`;
}

function stuckOld(b: Of<'stuckOldRevision'>): string {
  return (
    `stuck: ${b.pod} is in ${b.state} on the old revision; RollingUpdate will not replace it — ` +
    'use EnforcedRollingUpdate or Recreate, or delete the pod'
  );
}

function partition(b: Of<'partition'>): string {
  const pods = b.heldBack === 1 ? '1 pod stays' : `${b.heldBack} pods stay`;
  return `partition ${b.partition}: ${pods} on the old revision (ordinals below index ${b.partition} are not updated; lower the partition to continue)`;
}

function safetyHalt(b: Of<'safetyHalt'>, ctx: ExplainContext): string {
  return (
    `halted: ${b.pod} on the new revision failed to become available (${stateOf(ctx, b.pod)}); ` +
    'EnforcedRollingUpdate replaces no lower ordinal until the template changes (fix the template, or roll back with `rollout undo`)'
  );
}

function brokenBelowPartition(b: Of<'brokenBelowPartition'>, ctx: ExplainContext): string {
  const more = b.count > b.pods.length ? ` and ${b.count - b.pods.length} more` : '';
  if (b.count === 1) {
    return `${b.pods[0] ?? ''} is broken (${stateOf(ctx, b.pods[0] ?? '')}) on the old revision below partition ${b.partition}, so EnforcedRollingUpdate does not replace it: lower the partition to replace it`;
  }
  const pods = b.pods.map((name) => `${name} (${stateOf(ctx, name)})`).join(', ');
  return `${pods}${more} are broken on the old revision below partition ${b.partition}, so EnforcedRollingUpdate does not replace them: lower the partition to replace them`;
}

function deadline(b: Of<'progressDeadlineExceeded'>, ctx: ExplainContext): string {
  const spec = ctx.set.spec.progressDeadlineSeconds ?? 600;
  const seconds = spec === 'auto' ? `auto, ${b.seconds ?? '?'} s from the set's pod durations` : spec;
  return `no progress for ${humanDuration(ctx.now - b.since)} (progressDeadlineSeconds ${seconds}): Progressing=False, reason ProgressDeadlineExceeded`;
}

/** A step past the set's p95 band: what is late, by how much, and that it is only a warning. */
const slowerThanForecast = (b: Of<'slowerThanForecast'>): string =>
  `slower than forecast: ${lateStepText(b)} (it has taken ${humanDuration(b.seconds * 1000)}); Progressing=False, reason SlowerThanForecast (a warning: the rollout goes on, and only the progress deadline fails it)`;

function invalidSpec(b: Of<'invalidSpec'>): string {
  const shown = b.issues.slice(0, 3).map((i) => (i.path ? `${i.path}: ${i.detail}` : i.detail));
  const more = b.issues.length > 3 ? `; and ${b.issues.length - 3} more` : '';
  return `the spec is invalid, so the controller creates and deletes nothing until it is fixed: ${shown.join('; ')}${more}`;
}

function disruptionBudget(b: Of<'podDisruptionBudget'>): string {
  const more = b.count > b.pods.length ? ` and ${b.count - b.pods.length} more` : '';
  const who = `${b.pods.join(', ')}${more}`;
  if (b.stale) return `${who} ${b.count === 1 ? 'waits' : 'wait'}: PodDisruptionBudget ${b.budget} has no status for its current spec yet, and allows no disruption until the disruption controller writes one`;
  const counts = `(${b.currentHealthy} healthy, ${b.desiredHealthy} desired)`;
  const deleted = `${who} ${b.count === 1 ? 'is' : 'are'} not deleted`;
  if (b.expectedPods > 0 && b.desiredHealthy >= b.expectedPods) {
    return `${deleted}: PodDisruptionBudget ${b.budget} wants all ${b.expectedPods} of its pods healthy ${counts}, so it never allows a disruption; lower its minAvailable or raise its maxUnavailable`;
  }
  const allows = `${deleted}: PodDisruptionBudget ${b.budget} allows ${b.disruptionsAllowed} more ${b.disruptionsAllowed === 1 ? 'disruption' : 'disruptions'} ${counts}`;
  if (b.unready) return `${allows}; a pod that is not Ready goes only while the budget has its desired healthy pods (set unhealthyPodEvictionPolicy: AlwaysAllow on the budget to let the rollout replace it)`;
  return `${allows}; the rollout waits for its pods to become healthy`;
}

const zoneName = (z: string | null): string => (z === null ? '(no zone)' : z);

/** The zone order, the zone that moves, and what it waits for. */
function zoneOrder(b: Of<'zoneOrder'>): string {
  const order = b.order.map(zoneName).join(' → ');
  const held = b.heldBack > 0 ? `; ${b.heldBack} ${b.heldBack === 1 ? 'replica' : 'replicas'} of later zones ${b.heldBack === 1 ? 'waits' : 'wait'} for it` : '';
  const d = b.disrupted;
  const where = d?.zone === null ? 'replicas not yet placed in a zone are unavailable' : `${d?.zone ?? ''} has unavailable pods`;
  const disrupted = d === undefined ? '' : `; no available pod of ${zoneName(b.zone)} is deleted while ${where} (${d.pods.join(', ')})`;
  // a zone that waits for the one before has not started yet
  return `the update moves one ${b.topologyKey} at a time, in the order ${order}: ${zoneName(b.zone)} ${d === undefined ? 'now' : 'next'}${held}${disrupted}`;
}

/** The priority order, the pods in the order they go, and what the next priority waits for. */
function updateOrder(b: Of<'updateOrder'>): string {
  const ranks = ['(no listed value)', ...b.values].join(' → ');
  const held = b.heldBack > 0 ? `; ${b.heldBack} ${b.heldBack === 1 ? 'pod' : 'pods'} of a higher priority ${b.heldBack === 1 ? 'waits' : 'wait'} for the lower ones` : '';
  const waiting = b.waitingFor === undefined ? '' : `; the next priority waits until every replica is available (${b.waitingFor.join(', ')} ${b.waitingFor.length === 1 ? 'is' : 'are'} not)`;
  return `the update takes pods by their ${b.label} label, lowest priority first (${ranks}), in the order ${b.order.join(', ')}${held}${waiting}`;
}

/** What failed, what the controller does about it, and what the user can do. */
function rolloutAborted(b: Of<'rolloutAborted'>, ctx: ExplainContext): string {
  const claims = b.claimsKeptGrown.length > 0 && !b.message.includes('claims never shrink') ? `; claims of ${b.claimsKeptGrown.join(', ')} keep their larger size (claims never shrink)` : '';
  const name = ctx.set.metadata.name ?? '';
  return `${b.message.replace(/\.$/, '')}${claims}; spec is left as written: \`kubectl ordinal rollout retry ${name}\` tries revision ${b.revision} again, and a new template starts a new rollout`;
}

const noRollbackTarget = (b: Of<'noRollbackTarget'>): string =>
  `the rollout to revision ${b.revision} failed (${b.failure}), but onFailure: Rollback has no revision to go back to: none was fully available before it ` +
  '(status.lastAvailableRevision is recorded when a rollout completes), so the set halts as with onFailure: Halt';

const analysisLabel = (b: Of<'rolloutStep'>): string => (b.gate === 'prometheus' ? 'prometheus analysis' : 'analysis');

/** Where a staged rollout is, what it waits for, and how the user moves it on. */
function rolloutStep(b: Of<'rolloutStep'>, ctx: ExplainContext): string {
  const name = ctx.set.metadata.name ?? '';
  const where = `the rollout is at step ${b.step + 1}/${b.steps} (partition ${b.partition}: pods from index ${b.partition} up move to the new revision)`;
  const left = b.until === undefined ? '' : ` for ${formatSecondsLeft(b.until - ctx.now)} more`;
  const checks = b.analysis === undefined ? '' : ` (${checkCounts(b.analysis)})`;
  const promote = `\`kubectl ordinal rollout promote ${name}\``;
  switch (b.state) {
    case 'Paused':
      return `${where}: paused until promoted; ${promote} goes on to the next step`;
    case 'Baking':
      return `${where}: baking${left} while every updated replica stays available; ${promote} skips the rest`;
    case 'Analyzing':
      if (b.gate === 'readiness') return `${where}: readiness analysis${left}${checks}`;
      return b.analysis?.paused === true
        ? `${where}: ${analysisLabel(b)} inconclusive${checks}: held (its policy is Pause) until a check gives a verdict; ${promote} skips it`
        : `${where}: ${analysisLabel(b)} running${checks}; ${promote} skips it`;
    case 'Updating':
      return `${where}: waits for those replicas to be updated and available before the step's ${b.gate === 'none' ? 'end' : b.gate === 'prometheus' ? 'prometheus analysis' : b.gate}`;
    case 'Failed':
    case 'Completed':
      return where;
  }
}

/** "2 passed, 0 failed, 1 without a verdict; last: result 0.2: result < 0.05 is false". */
function checkCounts(a: StepAnalysisStatus): string {
  const inconclusive = a.inconclusive === undefined ? '' : `, ${a.inconclusive} without a verdict`;
  return `${a.successful} passed, ${a.failed} failed${inconclusive}${a.message ? `; last: ${a.message}` : ''}`;
}

/** The rollout's background analysis: what it has seen, and whether it holds the update. */
function rolloutAnalysis(b: Of<'rolloutAnalysis'>): string {
  const what = `the rollout's ${b.check} analysis (rollingUpdate.analysis) checks until the rollout completes (${checkCounts(b.analysis)})`;
  return b.paused ? `${what}; its last check gave no verdict and its policy is Pause: no pod is updated until a check gives one` : what;
}

/** What the pod's preUpdate hook is doing or did, for how long, and (failed) how to call it again. */
function preUpdateHook(b: Of<'preUpdateHook'>, ctx: ExplainContext): string {
  if (b.state === 'failed') {
    return `${b.pod} is held by its preUpdate hook (${b.target}), which did not pass within ${b.timeoutSeconds}s${b.answer !== undefined ? ` (last: ${b.answer})` : ''} (failurePolicy Fail); ` +
      `the rollout stalls into its progress deadline: remove the pod's annotation ${PodAnnotations.preUpdateHook} to call the hook again`;
  }
  const since = humanDuration(Math.max(0, ctx.now - b.since));
  if (b.handler === 'labels') return `${b.pod} waits for its preUpdate hook: labelled ${LIFECYCLE_STATE_LABEL}=${PREPARING_UPDATE} ${since} ago, waiting for ${b.target}`;
  return b.answer === undefined ? `${b.pod} waits for its preUpdate hook: ${b.target} called ${since} ago, no answer yet` : `${b.pod} waits for its preUpdate hook: ${b.target} answered ${b.answer} for ${since}`;
}

const internalError = (b: Of<'internalError'>): string =>
  `internal error in the planner: ${b.message}; this is a bug in Ordinal, please report it with the log line`;

/** 1,000: a limit as the docs write it. */
const count = (n: number): string => n.toLocaleString('en-US');

type Sentences = { [K in Blocker['kind']]: (b: Of<K>, ctx: ExplainContext) => string };

const SENTENCES: Sentences = {
  slowerThanForecast,
  rolloutAnalysis,
  invalidSpec,
  internalError,
  featureDisabled: (b) => `feature gate ${b.gate} is disabled, so ${b.field} falls back to upstream behaviour`,
  setDeleting: () => 'the StatefulSet is being deleted: no pod is created or deleted any more',
  podTerminating: (b, ctx) => `${orderedPass(ctx, b.pod)} waits for ${b.pod} to finish terminating`,
  podNotRunningAndReady: notRunningAndReady,
  podNotAvailable: notAvailable,
  podMissing: (b) => `the rolling update waits for ${b.pod} to be created`,
  staleClaim: (b) => `${b.pod} is not created: its claim ${b.claim} still belongs to a deleted pod; it waits for the garbage collector`,
  claimDeleting: (b) => `${b.pod} waits for its claim ${b.claim} to finish deleting`,
  claimResizing: (b) =>
    b.waitingForPodRestart
      ? `${b.pod} waits for its claim ${b.claim}: the volume expanded offline and its file system grows when a pod that mounts it starts again (delete ${b.pod}, or use EnforcedRollingUpdate, which restarts it)`
      : `${b.pod} waits for its claim ${b.claim} to finish expanding`,
  claimExpansionRefused: (b) =>
    `${b.pod} is not updated: its claim ${b.claim} must grow to ${b.request}, but ${b.storageClass === '' ? 'it has no StorageClass' : `StorageClass ${b.storageClass} does not set allowVolumeExpansion`}; ` +
    `${b.storageClass === '' ? '' : `set allowVolumeExpansion: true on ${b.storageClass} if its provisioner can expand volumes, or `}delete the claim ${b.claim} and the pod ${b.pod} to have both created again at the new size (the volume's data is lost); until then nothing is deleted`,
  claimIncompatible: (b) =>
    `${b.pod} is not updated: its claim ${b.claim} has ${b.field} ${b.have} where the template says ${b.want}, which a claim cannot change; ` +
    `delete the claim ${b.claim} and the pod ${b.pod} to have both created again from the template (the volume's data is lost); until then nothing is deleted`,
  claimResizeFailed: (b) =>
    `${b.pod} is not updated: the expansion of its claim ${b.claim} failed (${b.message}); fix the storage, or lower the claim's request to a size still above its current capacity to retry with less (nothing is deleted)`,
  budgetExhausted,
  partition,
  waitingForTermination: (b) => `Recreate waits for every old pod to be gone before creating new ones: ${b.pods.join(', ')}`,
  stuckOldRevision: stuckOld,
  safetyHalt,
  brokenBelowPartition,
  progressDeadlineExceeded: deadline,
  workCapped: (b) => `creating at most ${count(b.perSync)} pods per sync; ${b.remaining} replicas still to create`,
  ordinalOverflow: (b) =>
    `spec.ordinals.start ${b.start} + spec.replicas ${b.replicas} runs past ${INT32_MAX}, the largest pod ordinal: ` +
    `${b.uncreatable} ${b.uncreatable === 1 ? 'replica' : 'replicas'} can never be created (lower spec.ordinals.start or spec.replicas)`,
  onDeleteStrategy: (b) =>
    `OnDelete: ${b.outdatedPods} ${b.outdatedPods === 1 ? 'pod runs' : 'pods run'} the old revision until you delete ${b.outdatedPods === 1 ? 'it' : 'them'}`,
  podDisruptionBudget: disruptionBudget,
  zoneOrder,
  updateOrder,
  podUpdatingInPlace: (b) =>
    `${b.pod} was updated in place to revision ${b.revision}; the rollout waits for its kubelet to report the new image and resources of ${b.containers.join(', ')} (the pod counts as unavailable until then)`,
  inPlaceUpdateImpossible: (b) =>
    b.fields.includes(GATE_FIELD)
      ? `${b.pod} is not updated: podUpdatePolicy InPlaceOnly drains a pod through its readiness gate ${IN_PLACE_READINESS_GATE} before an in-place restart (inPlaceUpdateStrategy.gracePeriodSeconds), ` +
        `but ${b.pod} was created without the gate; delete it once so it is created with the gate (nothing is deleted until then)`
      :
    `${b.pod} is not updated: podUpdatePolicy InPlaceOnly, but the new revision changes ${b.fields.join(', ')}, which a running pod cannot take; ` +
    'change only container images, cpu/memory (keeping the QoS class), labels and annotations, or set podUpdatePolicy InPlaceIfPossible to have it recreated (nothing is deleted)',
  podResizeDeferred: (b, ctx) =>
    `${b.pod}'s resize is Deferred by its kubelet ("${b.message}"); the rollout waits ${formatSecondsLeft(b.fallbackAt - ctx.now)} more, then ${ctx.set.spec.updateStrategy?.rollingUpdate?.podUpdatePolicy === 'InPlaceOnly' ? 'halts' : 'recreates the pod (its claims are kept)'}`,
  podResizeImpossible: (b) =>
    `${b.pod} is not updated: podUpdatePolicy InPlaceOnly, but its resize ${b.reason === 'Forbidden' ? 'was refused by the API server' : b.reason === 'Infeasible' ? 'is Infeasible on its node' : 'stayed Deferred too long'} ("${b.message}"); ` +
    'lower the requests, or set podUpdatePolicy InPlaceIfPossible to have it recreated (its claims are kept)',
  podCreating: (b, ctx) => `${b.pod} is being created; ${policy(ctx)} waits for it to be Running and Ready before the next ordinal`,
  rolloutAborted,
  noRollbackTarget,
  rolloutPaused: (_b, ctx) => `the rollout is paused (spec paused: true): no pod or claim is updated until \`kubectl ordinal rollout resume ${ctx.set.metadata.name ?? ''}\`; scaling and the replacement of failed pods go on`,
  rolloutStep,
  stepFailed: (b, ctx) =>
    `the rollout failed${b.steps === 0 ? '' : ` at step ${b.step + 1}/${b.steps}`}: ${b.message}; nothing more is updated until \`kubectl ordinal rollout retry ${ctx.set.metadata.name ?? ''}\` runs the step again or the template changes`,
  overlappingDisruptionBudgets: (b) =>
    `${b.pod} is selected by more than one PodDisruptionBudget (${b.budgets.join(', ')}): the Eviction API refuses to evict such a pod, so it waits until only one budget selects it`,
  disruptionWaits: (b, ctx) => `${b.pod} ${DISRUPTION_WHAT[b.cause]} ${disruptionWaitText(b.waitsFor, ctx.set.metadata.name ?? '')}`,
  preUpdateHook,
  inPlaceDraining: (b, ctx) =>
    `${b.pod} drains before its in-place restart: NotReady for ${Math.max(0, Math.floor((ctx.now - b.since) / 1000))}s of ${b.graceSeconds}s ` +
    `(readiness gate ${IN_PLACE_READINESS_GATE} False, so endpoints send it no traffic); then it is restarted in place to revision ${b.revision}`,
};

/** What a waiting disruption would do to its pod. */
const DISRUPTION_WHAT: Record<Extract<Blocker, { kind: 'disruptionWaits' }>['cause'], string> = {
  failed: 'is to be replaced (it failed)',
  condemned: 'is to be deleted (scale-down)',
  recreate: 'is to be deleted (Recreate)',
  update: 'is to be updated',
  forced: 'is to be replaced (stuck on an old revision)',
  rollback: 'is to go back to the last fully available revision',
  inPlaceFallback: 'is to be recreated (its in-place resize does not proceed)',
  inPlaceOvertaken: 'is to move on to the new update revision (it was moving in place)',
  claimRestart: 'is to be restarted (its claim waits for it to finish an offline expansion)',
  drained: 'is to be restarted in place (its drain is over)',
};

/** What a waiting disruption waits for, in words. */
function disruptionWaitText(w: Extract<Blocker, { kind: 'disruptionWaits' }>['waitsFor'], set: string): string {
  switch (w) {
    case 'resume':
      return `once the rollout is resumed (\`kubectl ordinal rollout resume ${set}\`)`;
    case 'retry':
      return `once the failed rollout is retried (\`kubectl ordinal rollout retry ${set}\`)`;
    case 'verdict':
      return 'once an analysis check gives a verdict';
    case 'halt':
      return 'once the safety halt ends (a new template)';
    case 'budget':
      return 'once fewer replicas are unavailable than maxUnavailable allows';
    case 'disruptionBudget':
      return 'once its PodDisruptionBudget allows a disruption';
  }
}

/** One sentence (no final period) saying what `b` means for this set. */
export function blockerSentence(b: Blocker, ctx: ExplainContext): string {
  const render = SENTENCES[b.kind] as (b: Blocker, ctx: ExplainContext) => string;
  return render(b, ctx);
}
