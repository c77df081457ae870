// Named invariant checkers, each returning violation strings (empty when it holds). State
// checkers look at pods; plan checkers look at one sync's observed state and plan; `checkDeletion` judges a
// single controller deletion against the world as the simulator sees it. Tests, fast-check and the
// simulator all call these.

import { preUpdateHookRespected } from './hook-invariant.js';
import { parseGoDuration } from '../../api/duration.js';
import type { Features } from '../../api/features.js';
import { fromTimestamp, PromoteAnnotation, PROGRESS_DEADLINE_AUTO, type Instant, type RolloutStep, type PersistentVolumeClaim, type Pod, type StatefulSet, type StatefulSetStatus } from '../../api/types.js';
import { claimNamesForOrdinal, claimOrdinal, claimTemplates, isClaimOwnerUpToDate } from '../model/claim-identity.js';
import { claimRevision, claimsAvailableFrom, claimsReadiness } from '../replica/claim-state.js';
import { isBrokenPod } from '../rollout/safety-halt.js';
import { identityMatches, storageMatches } from '../model/identity.js';
import { mergeAscending } from '../model/merge.js';
import { observedPods, ReplicaIndex } from '../replica/replica-index.js';
import type { Action, Plan } from '../model/plan-types.js';
import type { ObservedState } from '../replica/observed-state.js';
import { inPlaceTarget, isFailed, isRunningAndAvailable, isSucceeded, isTerminating, isUnavailable, parentNameAndOrdinal, podOrdinal, podRevision } from '../model/pod-state.js';
import { forecastBand } from '../rollout/slow-rollout.js';
import { isParallel, minReadySecondsOf, podUpdatePolicyOf, slotCountOf, startOrdinal } from '../model/spec.js';
import { progressDeadlineSecondsOf } from '../rollout/progress-deadline.js';
import { effectiveStrategy, type EffectiveStrategy } from '../rollout/effective-strategy.js';
import { isRollingBack, movingTo } from '../rollout/rollback.js';
import { gateOf, isUserPaused, stepPartition, stepsOf } from '../rollout/rollout-steps.js';
import { disruptionBudgetsRespected } from './budget-invariant.js';
import { drainRespected } from './drain-invariant.js';
import { isDrainedPod } from '../model/readiness-gate.js';

const nameOf = (p: Pod): string => p.metadata.name ?? '';
const ownPods = (set: StatefulSet, pods: readonly Pod[]): Pod[] =>
  pods.filter((p) => parentNameAndOrdinal(p.metadata.name).parent === set.metadata.name && (p.metadata.namespace ?? '') === (set.metadata.namespace ?? ''));
type Delete = Extract<Action, { kind: 'deletePod' }>;
type Create = Extract<Action, { kind: 'createPod' }>;

/** Never two pods for one ordinal of one set (e.g. `web-1` and `web-01`). */
export function noDuplicateOrdinal(pods: readonly Pod[]): string[] {
  const seen = new Map<string, string>();
  const out: string[] = [];
  for (const pod of pods) {
    const { parent, ordinal } = parentNameAndOrdinal(pod.metadata.name);
    if (ordinal < 0) continue;
    const key = `${pod.metadata.namespace ?? ''}/${parent}/${ordinal}`;
    const other = seen.get(key);
    if (other !== undefined) out.push(`pods ${other} and ${nameOf(pod)} share ordinal ${ordinal} of ${parent}`);
    else seen.set(key, nameOf(pod));
  }
  return out;
}

/** Every pod of the set has its identity and stable storage (upstream assertBurstInvariants). */
export function identityAndStorage(set: StatefulSet, pods: readonly Pod[]): string[] {
  return pods.flatMap((p) => [
    ...(identityMatches(set, p) ? [] : [`pod ${nameOf(p)} does not have the identity of a member of ${set.metadata.name ?? ''}`]),
    ...(storageMatches(set, p) ? [] : [`pod ${nameOf(p)} does not mount the claims of its ordinal`]),
  ]);
}

/** Existing pods' claims carry the owner references of the retention policy (after a sync fixed them). */
export function pvcRetention(set: StatefulSet, pods: readonly Pod[], claims: readonly PersistentVolumeClaim[]): string[] {
  const byName = new Map(claims.map((c) => [c.metadata.name ?? '', c]));
  return pods.flatMap((pod) =>
    claimNamesForOrdinal(set, podOrdinal(pod)).flatMap((name) => {
      const claim = byName.get(name);
      return claim === undefined || isClaimOwnerUpToDate(claim, set, pod) ? [] : [`claim ${name} of pod ${nameOf(pod)} has owner references that do not follow the retention policy`];
    }),
  );
}

/**
 * InPlace: the ordinals whose claims keep their replica unavailable at `now` (expanding, or expanded less than
 * minReadySeconds ago), as the planner counts them; empty for any other set.
 */
export function claimHeldOrdinals(set: StatefulSet, claims: Iterable<PersistentVolumeClaim>, now: Instant): Set<number> {
  const held = new Set<number>();
  if (set.spec.volumeClaimUpdatePolicy !== 'InPlace') return held;
  const mrs = minReadySecondsOf(set);
  for (const [o, list] of claimsByOrdinal(set, claims)) if (claimsAvailableFrom(claimsReadiness(list, mrs), mrs) > now) held.add(o);
  return held;
}

/** The claims of `claims` that the set's templates name, by ordinal. */
export function claimsByOrdinal(set: StatefulSet, claims: Iterable<PersistentVolumeClaim>): Map<number, PersistentVolumeClaim[]> {
  const templates = claimTemplates(set);
  const out = new Map<number, PersistentVolumeClaim[]>();
  for (const claim of claims) {
    for (const t of templates) {
      const o = claimOrdinal(set, t, claim.metadata.name ?? '');
      if (o === undefined) continue;
      const list = out.get(o);
      if (list === undefined) out.set(o, [claim]);
      else list.push(claim);
      break;
    }
  }
  return out;
}

/**
 * In-range ordinals without an available, non-terminating pod, or (InPlace) whose claims keep the replica
 * unavailable: the simulator's maxUnavailableObserved.
 */
export function unavailableOrdinals(set: StatefulSet, pods: readonly Pod[], now: Instant, claims: Iterable<PersistentVolumeClaim> = []): number {
  const start = startOrdinal(set);
  const count = slotCountOf(set);
  const mrs = minReadySecondsOf(set);
  const held = claimHeldOrdinals(set, claims, now);
  const ok = new Set<number>();
  for (const p of ownPods(set, pods)) {
    const o = podOrdinal(p);
    if (o >= start && o - start < count && !isUnavailable(p, mrs, now) && !held.has(o)) ok.add(o);
  }
  return count - ok.size;
}

interface World {
  set: StatefulSet;
  strategy: EffectiveStrategy;
  /** An aborted rollout's way back (rollback.ts): pods move to `updateRevision` (the status's current one), partition 0. */
  rollback: boolean;
  /** The set's pods as the planner saw them: the controller's index, or one built from the pods listed. */
  index: ReplicaIndex;
  updateRevision: string;
  now: Instant;
  /** spec.progressDeadlineSeconds as the planner reads it (`auto` from the same durations). */
  deadlineSeconds: number;
  /** InPlace: ordinals whose claims keep the replica unavailable (claimHeldOrdinals). */
  held: ReadonlySet<number>;
}

/** The strategy and the revision pods move to, as of `status` (during an abort: back to its current revision, partition 0). */
function moving(set: StatefulSet, status: StatefulSetStatus | undefined, features: Features): Pick<World, 'strategy' | 'rollback' | 'updateRevision'> {
  const strategy = effectiveStrategy(set, features);
  const rollback = isRollingBack(status);
  return { strategy: rollback ? { ...strategy, partition: 0 } : strategy, rollback, updateRevision: movingTo(status) ?? '' };
}

/** spec.progressDeadlineSeconds as the planner reads it; the band only for `auto` (it sorts the durations). */
const deadlineOf = (set: StatefulSet, observed: ObservedState): number =>
  progressDeadlineSecondsOf(set, set.spec.progressDeadlineSeconds === PROGRESS_DEADLINE_AUTO ? forecastBand(observed.durations) : {});

/**
 * `claims: false`: judge pods alone, leaving out what claims hold (claimHeldOrdinals) and pods moving in place
 * (podUpdatePolicy), whose pods are Running and Ready.
 */
function world(observed: ObservedState, plan: Plan, now: Instant, features: Features, claims = true): World {
  const set = observed.set;
  const index = observed.replicas?.forSet(set) ?? ReplicaIndex.of(set, ownPods(set, observed.pods), observed.claims);
  const held = claims ? claimHeldOrdinals(set, index.claimsByName.values(), now) : new Set<number>();
  // podUpdatePolicy may move the set's pods in place (they are unavailable while they move, and from their
  // drain on: inPlaceUpdateStrategy)
  if (claims && podUpdatePolicyOf(set) !== 'Recreate') {
    for (const o of index.ordinals.ascending()) {
      const pod = index.member(o)?.pod;
      if (pod !== undefined && (inPlaceTarget(pod) !== undefined || isDrainedPod(pod))) held.add(o);
    }
  }
  return { set, ...moving(set, plan.status, features), index, now, held, deadlineSeconds: deadlineOf(set, observed) };
}

const podAt = (w: World, ordinal: number): Pod | undefined => w.index.member(ordinal)?.pod;
const inRange = (w: World, ordinal: number): boolean => ordinal >= startOrdinal(w.set) && ordinal - startOrdinal(w.set) < slotCountOf(w.set);
/** A pod moving in place (podUpdatePolicy) is not healthy, whatever its status says. */
const healthy = (w: World, p: Pod | undefined): boolean =>
  p !== undefined && !isTerminating(p) && isRunningAndAvailable(p, minReadySecondsOf(w.set), w.now) && !w.held.has(podOrdinal(p));
const replaceable = (w: World, ordinal: number, p: Pod | undefined): boolean =>
  p !== undefined && (w.strategy.kind === 'EnforcedRollingUpdate' || w.rollback) && ordinal - startOrdinal(w.set) >= w.strategy.partition && podRevision(p) !== w.updateRevision && !isTerminating(p);
/** EnforcedRollingUpdate goes past a broken old pod below the partition (it cannot replace it). */
const brokenOld = (w: World, p: Pod | undefined): boolean =>
  p !== undefined && w.strategy.kind === 'EnforcedRollingUpdate' && podRevision(p) !== w.updateRevision && !isTerminating(p) && isBrokenPod(p, w.deadlineSeconds, w.now);

/**
 * Ordinals in [lo, hi) holding a pod that is not healthy, ascending: the index's classes and the claim-held
 * ordinals name the candidates (a pod outside them is Running, Ready, available and not terminating), and
 * `healthy` judges each.
 */
function* unhealthyPods(w: World, lo: number, hi: number): Generator<number> {
  const within = (o: number): boolean => o >= lo && o < hi && w.index.member(o) !== undefined;
  const late = w.index.notYetAvailable(w.now).filter(within);
  const held = [...w.held].filter(within).sort((a, b) => a - b);
  for (const o of mergeAscending(w.index.down.ascending(lo, hi), late, held)) if (!healthy(w, podAt(w, o))) yield o;
}

const deletes = (plan: Plan): Delete[] => plan.actions.filter((a): a is Delete => a.kind === 'deletePod');
const creates = (plan: Plan): Create[] => plan.actions.filter((a): a is Create => a.kind === 'createPod');

/**
 * OrderedReady: a pod is created only when every lower ordinal of the range holds a Running, Ready,
 * available pod (EnforcedRollingUpdate: or a replaceable or broken old pod; Together: or a pod created with it), and
 * one pod per sync (Together: up to maxUnavailable).
 */
export function orderedReadyInvariant(observed: ObservedState, plan: Plan, now: Instant, features: Features): string[] {
  // the pass gates on pods, as upstream's; a replica whose claim expands counts against maxUnavailable instead
  const w = world(observed, plan, now, features, false);
  const mixed = w.index.ordinals.size + w.index.unslottedMembers().length > w.index.onRevision(w.updateRevision).size;
  if (isParallel(w.set) || (w.strategy.kind === 'Recreate' && mixed)) return [];
  const created = creates(plan).map((c) => c.ordinal);
  const limit = w.strategy.together ? w.strategy.maxUnavailable : 1;
  const out = created.length > limit ? [`OrderedReady created ${created.length} pods in one sync (at most ${limit})`] : [];
  const batch = new Set(created);
  for (const o of created) {
    const start = startOrdinal(w.set);
    const gap = w.index.ordinals.firstGap(start, o);
    for (const lower of mergeAscending(gap === undefined ? [] : [gap], unhealthyPods(w, start, o))) {
      const p = podAt(w, lower);
      if (replaceable(w, lower, p) || brokenOld(w, p) || (w.strategy.together && batch.has(lower))) continue;
      out.push(`OrderedReady created ordinal ${o} while ordinal ${lower} is not Running, Ready and available`);
      break;
    }
  }
  return out;
}

/** Update deletions (cause update/forced) only at or above the partition. */
export function partitionRespected(observed: ObservedState, plan: Plan, features: Features): string[] {
  const strategy = effectiveStrategy(observed.set, features);
  const start = startOrdinal(observed.set);
  return deletes(plan)
    .filter((d) => (d.cause === 'update' || d.cause === 'forced') && d.ordinal - start < strategy.partition)
    .map((d) => `update deletion of ${d.name} below partition ${strategy.partition}`);
}

/** In-range slots unavailable before the sync (EnforcedRollingUpdate: replaceable old pods excluded; a rollback counts them all). */
function unavailableBefore(w: World): number {
  const start = startOrdinal(w.set);
  const end = start + slotCountOf(w.set);
  let down = end - start - w.index.ordinals.count(start, end);
  for (const o of unhealthyPods(w, start, end)) if (w.rollback || !replaceable(w, o, podAt(w, o))) down++;
  return down;
}

function deletionWorld(set: StatefulSet, pods: readonly Pod[], now: Instant, features: Features, held: ReadonlySet<number>): World {
  return { set, ...moving(set, set.status, features), index: ReplicaIndex.of(set, ownPods(set, pods)), now, held, deadlineSeconds: progressDeadlineSecondsOf(set) };
}

/**
 * Rolling updates (gate on, and EnforcedRollingUpdate) never make more available replicas unavailable than
 * the budget maxUnavailable − already unavailable allows: by deleting their pod, by patching it in place
 * (podUpdatePolicy), or (InPlace) by growing a claim of theirs; replicas already down may be replaced (#137666
 * phase 1). The legacy loop deletes at most one pod per sync.
 */
export function maxUnavailableBudget(observed: ObservedState, plan: Plan, now: Instant, features: Features): string[] {
  const w = world(observed, plan, now, features);
  const updates = deletes(plan).filter((d) => d.cause === 'update' || d.cause === 'forced' || d.cause === 'rollback');
  if (w.strategy.kind === 'RollingUpdate' && w.strategy.legacy && !w.rollback) return updates.length > 1 ? [`legacy rolling update deleted ${updates.length} pods in one sync`] : [];
  const grown = plan.actions.flatMap((a) => (a.kind === 'patchClaim' && a.growsTo !== undefined ? [parentNameAndOrdinal(a.podName).ordinal] : []));
  // an in-place restart's disruption is its patch, or (inPlaceUpdateStrategy) the drain before it
  const patched = plan.actions.flatMap((a) => (a.kind === 'patchPod' || (a.kind === 'setPodCondition' && a.drain !== undefined) ? [a.ordinal] : []));
  const touched = new Set([...updates.map((d) => d.ordinal), ...grown, ...patched]);
  const madeUnavailable = [...touched].filter((o) => inRange(w, o) && healthy(w, podAt(w, o))).length;
  const budget = Math.max(0, w.strategy.maxUnavailable - unavailableBefore(w));
  return madeUnavailable > budget ? [`update made ${madeUnavailable} available replicas unavailable with a budget of ${budget} (maxUnavailable ${w.strategy.maxUnavailable})`] : [];
}

/** Recreate: no pod is created while a pod of another revision exists. */
export function recreateNoMixedRevisions(observed: ObservedState, plan: Plan, features: Features): string[] {
  if (effectiveStrategy(observed.set, features).kind !== 'Recreate' || creates(plan).length === 0) return [];
  const updateRevision = plan.status.updateRevision ?? '';
  const old = ownPods(observed.set, observedPods(observed)).filter((p) => podRevision(p) !== updateRevision);
  return old.length > 0 ? [`Recreate created ${creates(plan).map((c) => c.pod.metadata.name).join(', ')} while ${old.length} old pods exist`] : [];
}

/**
 * EnforcedRollingUpdate never deletes a lower ordinal while the highest new-revision pod is unavailable. (The
 * way back of an aborted rollout replaces its broken pods without waiting: the budget holds it instead.)
 */
export function enforcedHaltRespected(observed: ObservedState, plan: Plan, now: Instant, features: Features): string[] {
  const w = world(observed, plan, now, features);
  if (w.strategy.kind !== 'EnforcedRollingUpdate' || w.rollback) return [];
  const start = startOrdinal(w.set);
  let newest: number | undefined;
  for (const o of w.index.onRevision(w.updateRevision).descending(start, start + slotCountOf(w.set))) {
    if (!isTerminating(podAt(w, o) as Pod)) {
      newest = o;
      break;
    }
  }
  const pod = newest === undefined ? undefined : podAt(w, newest);
  if (newest === undefined || pod === undefined || healthy(w, pod)) return [];
  return deletes(plan)
    .filter((d) => (d.cause === 'update' || d.cause === 'forced') && d.ordinal < newest)
    .map((d) => `deleted ${d.name} while the highest new-revision pod ${nameOf(pod)} is unavailable`);
}

/** An action that moves a pod or claim of the set toward the update revision (an update), at `ordinal`. */
interface UpdateWrite {
  ordinal: number;
  what: string;
  /**
   * What goes on while the rollout is held: EnforcedRollingUpdate's replacement of a broken old pod, and a
   * creation (scaling, a failed pod replaced), which the step's partition alone bounds.
   */
  whileHeld: boolean;
}

/** The plan's updates: update deletions, in-place patches, claims patched to the update revision, relabels and creations on it. */
function updateWrites(w: World, observed: ObservedState, plan: Plan): UpdateWrite[] {
  // a pod created while every pod is on one revision (a new set, a completed rollout) updates nothing
  const rolling = (observed.set.status?.currentRevision ?? plan.status.currentRevision) !== w.updateRevision;
  const created = new Set(creates(plan).map((c) => c.pod.metadata.name ?? ''));
  const out: UpdateWrite[] = [];
  for (const a of plan.actions) {
    if (a.kind === 'deletePod' && (a.cause === 'update' || a.cause === 'forced')) {
      const pod = podAt(w, a.ordinal);
      const brokenOld = a.cause === 'forced' && pod !== undefined && podRevision(pod) !== w.updateRevision && !healthy(w, pod);
      out.push({ ordinal: a.ordinal, what: `update deletion of ${a.name}`, whileHeld: brokenOld });
    } else if (a.kind === 'patchPod') {
      // the restart of a drained pod follows its drain whatever the rollout does (inPlaceUpdateStrategy)
      const pod = podAt(w, a.ordinal);
      out.push({ ordinal: a.ordinal, what: `in-place patch of ${a.name}`, whileHeld: pod !== undefined && isDrainedPod(pod) });
    } else if (a.kind === 'setPodCondition' && a.drain !== undefined) out.push({ ordinal: a.ordinal, what: `drain of ${a.name}`, whileHeld: false });
    else if (a.kind === 'relabelPod' && a.revision === w.updateRevision && a.clearsInPlaceUpdate !== true) out.push({ ordinal: a.ordinal, what: `relabel of ${a.name} to the update revision`, whileHeld: false });
    else if (a.kind === 'createPod' && rolling && podRevision(a.pod) === w.updateRevision) out.push({ ordinal: a.ordinal, what: `creation of ${a.pod.metadata.name ?? ''} on the update revision`, whileHeld: true });
    else if (a.kind === 'patchClaim') {
      const before = w.index.claimsByName.get(a.name);
      const moves = claimRevision(a.claim) === w.updateRevision && (before === undefined || claimRevision(before) !== w.updateRevision);
      // the claims of a pod created in this sync follow its revision: part of the creation
      if (moves || a.growsTo !== undefined) out.push({ ordinal: parentNameAndOrdinal(a.podName).ordinal, what: `patch of claim ${a.name}`, whileHeld: created.has(a.podName) });
    }
  }
  return out;
}

/** Why the rollout may have passed step `i` this sync (undefined: nothing allowed it). */
function stepPassed(observed: ObservedState, plan: Plan, i: number, first: boolean, now: Instant): string | undefined {
  const set = observed.set;
  const revision = plan.status.updateRevision ?? '';
  const promote = set.metadata.annotations?.[PromoteAnnotation];
  if (promote === `${revision}/${i}` || promote === `${revision}/full`) return 'promoted';
  if (isUserPaused(set)) return undefined;
  const step = stepsOf(set)[i];
  if (step === undefined) return undefined;
  const stored = set.status;
  const timed = (state: string, duration: string | undefined): string | undefined => {
    const since = fromTimestamp(stored?.currentStepSince);
    const ms = duration === undefined ? 0 : parseGoDuration(duration);
    return first && stored?.currentStepState === state && since !== undefined && now >= since + ms ? 'timed' : undefined;
  };
  switch (gateOf(step)) {
    case 'none':
    case 'http':
    case 'prometheus':
      return 'gate';
    case 'pause':
      return undefined;
    case 'bake':
      return timed('Baking', step.pause?.duration);
    case 'readiness':
      return timed('Analyzing', step.analysis?.readiness?.duration);
  }
}

/**
 * rollingUpdate.steps and paused: no update (deletion, in-place patch, claim patch, relabel or creation on the
 * update revision) below the partition of the step the rollout is at after this sync, and none at all while the
 * user paused the rollout or a step failed it (EnforcedRollingUpdate still replaces broken old pods then; scaling
 * and replacing failed pods create on the update revision above the step's partition). The step moves on this
 * sync only past gates that allow it: no gate, an analysis, a promote naming it, or a bake or readiness window
 * that started in an earlier sync and has run its time.
 */
export function stepBoundaryRespected(observed: ObservedState, plan: Plan, now: Instant, features: Features): string[] {
  const set = observed.set;
  const steps = stepsOf(set);
  const w = world(observed, plan, now, features);
  const rolling = w.strategy.kind === 'RollingUpdate' || w.strategy.kind === 'EnforcedRollingUpdate';
  const paused = isUserPaused(set);
  if (!rolling || w.rollback || (steps.length === 0 && !paused)) return [];
  const status = plan.status;
  const revision = status.updateRevision ?? '';
  const ours = steps.length > 0 && status.stepRevision === revision && typeof status.currentStepIndex === 'number';
  const index = ours ? Math.min(status.currentStepIndex as number, steps.length) : steps.length;
  const at = steps[index];
  const bound = at === undefined ? w.strategy.partition : Math.max(w.strategy.partition, stepPartition(at, slotCountOf(set)));
  const held = paused || (ours && status.currentStepState === 'Failed');
  const start = startOrdinal(set);
  const out: string[] = [];
  for (const u of updateWrites(w, observed, plan)) {
    if (held && !u.whileHeld) out.push(`${u.what} while the rollout is ${paused ? 'paused' : 'failed at a step'}`);
    else if (u.ordinal - start < bound) out.push(`${u.what} below the partition ${bound}${at === undefined ? '' : ` of step ${index + 1}/${steps.length}`}`);
  }
  const stored = set.status;
  if (!ours) return out;
  // where the rollout was before this sync: the stored step, or the first one of a new rollout
  const kept = stored?.stepRevision === revision && typeof stored.currentStepIndex === 'number';
  const from = kept ? (stored.currentStepState === 'Completed' ? steps.length : stored.currentStepIndex) : stored?.currentRevision !== undefined && stored.currentRevision !== revision ? 0 : undefined;
  if (from === undefined) return out;
  for (let i = from; i < index; i++) {
    if (stepPassed(observed, plan, i, kept && i === from, now) === undefined) out.push(`passed step ${i + 1}/${steps.length} (${gateOf(steps[i] as RolloutStep)}) this sync without its gate allowing it`);
  }
  return out;
}

/** Every plan-level checker. */
export function checkPlan(observed: ObservedState, plan: Plan, now: Instant, features: Features): string[] {
  return [
    ...orderedReadyInvariant(observed, plan, now, features),
    ...partitionRespected(observed, plan, features),
    ...maxUnavailableBudget(observed, plan, now, features),
    ...recreateNoMixedRevisions(observed, plan, features),
    ...enforcedHaltRespected(observed, plan, now, features),
    ...stepBoundaryRespected(observed, plan, now, features),
    ...disruptionBudgetsRespected(observed, plan, now, features),
    ...preUpdateHookRespected(observed, plan),
    ...drainRespected(observed, plan, now),
  ];
}

/**
 * One controller deletion judged against `pods` as they are just before it (simulator use): not an
 * in-range pod below the partition unless it finished (Failed/Succeeded) or the strategy is Recreate; and,
 * for rolling updates, an available in-range pod only while fewer than maxUnavailable slots are unavailable.
 * `unavailable`, when given, is unavailableOrdinals(set, pods, now, claims) as the caller keeps it
 * incrementally; the caller promises that no two of `pods` share an ordinal. Not used under
 * EnforcedRollingUpdate, whose replaceable old pods do not count as unavailable. `held`: claimHeldOrdinals
 * of the set's claims (InPlace: a replica whose claim expands is unavailable).
 */
export function checkDeletion(
  set: StatefulSet,
  pods: readonly Pod[],
  victim: Pod,
  now: Instant,
  features: Features,
  unavailable?: () => number,
  held: ReadonlySet<number> = new Set(),
): string[] {
  const { strategy, rollback } = moving(set, set.status, features);
  const ordinal = podOrdinal(victim);
  const start = startOrdinal(set);
  const inside = ordinal >= start && ordinal - start < slotCountOf(set);
  if (!inside || isFailed(victim) || isSucceeded(victim) || strategy.kind === 'Recreate' || strategy.kind === 'OnDelete') return [];
  const out = ordinal - start < strategy.partition ? [`deleted ${nameOf(victim)} below partition ${strategy.partition}`] : [];
  const mrs = minReadySecondsOf(set);
  if ((strategy.legacy && !rollback) || isUnavailable(victim, mrs, now) || held.has(ordinal)) return out;
  const down = unavailable !== undefined && (strategy.kind !== 'EnforcedRollingUpdate' || rollback) ? unavailable() : unavailableBefore(deletionWorld(set, pods, now, features, held));
  if (down >= strategy.maxUnavailable) out.push(`deleted available ${nameOf(victim)} while ${down} ordinals were unavailable (maxUnavailable ${strategy.maxUnavailable})`);
  return out;
}
