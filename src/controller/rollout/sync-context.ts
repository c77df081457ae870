// Everything one sync decides with, computed once: the set at both revisions, the slots, the strategy.

import type { Features } from '../../api/features.js';
import { appliedRevision } from '../../api/revision/hash.js';
import type { ControllerRevision, Instant, PersistentVolumeClaim, Pod, StatefulSet, StorageClass } from '../../api/types.js';
import { newVersionedStatefulSetPod } from '../model/identity.js';
import type { ForecastBand } from '../model/learned-durations.js';
import { mergeAscending } from '../model/merge.js';
import type { AnalysisResult, ObservedDisruptionBudget } from '../model/plan-types.js';
import { isUnavailable, podOrdinal, podRevision } from '../model/pod-state.js';
import type { ReplicaClaims } from '../replica/claim-state.js';
import { countsUnavailable } from '../replica/replica.js';
import { unavailability, type Slots, type Unavailability } from '../replica/replicas.js';
import type { EffectiveStrategy } from './effective-strategy.js';
import type { PlannerCache } from './planner-cache.js';
import type { PriorityRollout, Rollback, Rollout, StepPlan, ZoneRollout } from './rollout.js';

export interface SyncContext {
  /** The live set. */
  set: StatefulSet;
  /** The set with the current / update revision's template applied (upstream currentSet / updateSet). */
  currentSet: StatefulSet;
  updateSet: StatefulSet;
  currentRevision: string;
  updateRevision: string;
  now: Instant;
  features: Features;
  minReadySeconds: number;
  monotonic: boolean;
  strategy: EffectiveStrategy;
  slots: Slots;
  /** Observed claims by name. */
  claims: ReadonlyMap<string, PersistentVolumeClaim>;
  /** The rollout record (rollout.ts): every knob of the strategy that runs, the holds. */
  rollout: Rollout;
  /** Observed StorageClasses by name (InPlace; absent when not observed). */
  storageClasses?: ReadonlyMap<string, StorageClass>;
  /** respectPodDisruptionBudgets: the budgets selecting the set's pods (disruption-budget.ts). */
  disruptionBudgets?: readonly ObservedDisruptionBudget[] | undefined;
  /** rollingUpdate.topologyKey: node labels by node name (zone-order.ts). */
  nodeLabels?: ReadonlyMap<string, Readonly<Record<string, string>>> | undefined;
  /** The set's revisions by name (a pod may be on one that is neither current nor update). */
  revisions: ReadonlyMap<string, ControllerRevision>;
  /**
   * onFailure: Rollback is bringing the pods back (rollback.ts): then currentRevision and updateRevision both
   * name the revision they go back to, so every phase moves pods there; the partition is 0.
   */
  rollback?: Rollback;
  /** What several phases of one sync ask for, worked out once (see `slotUnavailability`). */
  memo: SyncMemo;
  /** What the planner remembers between syncs (its caller's). */
  cache: PlannerCache;
  /** The p95 of each per-pod step, from the durations the runtime learned (slow-rollout.ts). */
  band: ForecastBand;
  /** spec.progressDeadlineSeconds in seconds (`auto` derived from `band`). */
  progressDeadlineSeconds: number;
  /**
   * rollingUpdate.steps and paused (rollout-steps.ts), outside a rollback: `strategy.partition` is already the
   * step's; `holds` keeps the update phase from updating any pod or claim.
   */
  steps?: StepPlan;
  /** The HTTP checks the runtime made (analysis steps and preUpdate hooks), oldest first. */
  analysisResults?: readonly AnalysisResult[] | undefined;
}

/**
 * Facts several phases of one sync need; the pods and `now` are fixed for the sync. (A per-pod memo of
 * `unavailable` was measured and dropped: the Map costs as much as the predicate.)
 */
export interface SyncMemo {
  unavailability?: Unavailability;
  /** Unavailable at `now` beyond the index's down class, ascending ordinals (see `alsoDown`). */
  alsoDown?: number[];
  /** InPlace: what each pod's claims say about its replica. */
  replicaClaims?: Map<Pod, ReplicaClaims>;
  /** Whether a revision's pod template is the update revision's, by revision name. */
  sameTemplate?: Map<string, boolean>;
  /** rollingUpdate.topologyKey: the zone this sync moves (zone-order.ts); null when the set has no topologyKey. */
  zones?: ZoneRollout | null;
  /** rollingUpdate.updateOrder Priority: the priority that moves this sync (update-order.ts); null when none. */
  priority?: PriorityRollout | null;
}

/** podUpdatePolicy moves pods in place (InPlaceIfPossible, InPlaceOnly) under the RollingUpdate that runs. */
export const usesInPlaceUpdates = (ctx: SyncContext): boolean => ctx.rollout.knobs.podUpdatePolicy !== 'Recreate';

/** The unsaved pod upstream puts in an empty slot (newVersionedStatefulSetPod). */
export function placeholderPod(ctx: SyncContext, index: number): Pod {
  return newVersionedStatefulSetPod(ctx.currentSet, ctx.updateSet, ctx.currentRevision, ctx.updateRevision, ctx.slots.start + index, ctx.steps?.partition);
}

/** The set as of `revision` (upstream's currentSet / updateSet, or another revision of its history); undefined for an unknown one. */
export function setAtRevision(ctx: SyncContext, revision: string): StatefulSet | undefined {
  if (revision === ctx.updateRevision) return ctx.updateSet;
  if (revision === ctx.currentRevision) return ctx.currentSet;
  const rev = ctx.revisions.get(revision);
  return rev === undefined ? undefined : appliedRevision(ctx.set, rev, ctx.cache.revisions);
}

export const isOld = (ctx: SyncContext, pod: Pod): boolean => podRevision(pod) !== ctx.updateRevision;
/**
 * The replica is unavailable at `now` (replica.ts availability: its pod, its claims, its in-place move). A pod
 * that holds no slot (a name that lost its ordinal) is judged by itself.
 */
export function unavailable(ctx: SyncContext, pod: Pod): boolean {
  const r = ctx.slots.index.member(podOrdinal(pod));
  return r?.pod === pod ? countsUnavailable(r, ctx.now) : isUnavailable(pod, ctx.minReadySeconds, ctx.now);
}

/**
 * Ordinals unavailable at `now` that the index's `down` class (terminating, or not Running and Ready) leaves
 * out: Ready pods inside minReadySeconds, (InPlace) replicas whose claims are not available, and (podUpdatePolicy)
 * pods moving in place. Ascending.
 */
export function alsoDown(ctx: SyncContext): number[] {
  if (ctx.memo.alsoDown === undefined) {
    const down = ctx.slots.index.down;
    ctx.memo.alsoDown = ctx.slots.index.notYetAvailable(ctx.now).filter((o) => !down.has(o));
  }
  return ctx.memo.alsoDown;
}

/** Indices in [from, to) whose replica is unavailable at `now`, ascending (missing slots not included). */
export function* downIndices(ctx: SyncContext, from = 0, to = ctx.slots.count): Generator<number> {
  const { slots } = ctx;
  const lo = slots.start + from;
  const hi = slots.start + Math.min(to, slots.count);
  const extra = alsoDown(ctx).filter((o) => o >= lo && o < hi);
  for (const o of mergeAscending(slots.index.down.ascending(lo, hi), extra)) yield o - slots.start;
}

/** Indices in [from, to) whose replica is unavailable at `now`, descending. */
export function downIndicesDescending(ctx: SyncContext, from = 0, to = ctx.slots.count): number[] {
  return [...downIndices(ctx, from, to)].reverse();
}

/** unavailability() of the sync's slots, worked out once. */
export function slotUnavailability(ctx: SyncContext): Unavailability {
  if (ctx.memo.unavailability === undefined) {
    const { slots } = ctx;
    const extra = alsoDown(ctx).filter((o) => slots.inRange(o));
    const first = slots.index.down.first(slots.start);
    const firstDown = first !== undefined && slots.inRange(first) ? first - slots.start : undefined;
    const firstExtra = extra[0] === undefined ? undefined : extra[0] - slots.start;
    const down = { count: slots.countOf(slots.index.down) + extra.length, first: firstDown === undefined ? firstExtra : firstExtra === undefined ? firstDown : Math.min(firstDown, firstExtra) };
    ctx.memo.unavailability = unavailability(slots, down, (pod) => unavailable(ctx, pod));
  }
  return ctx.memo.unavailability;
}
export const podIndex = (ctx: SyncContext, ordinal: number): number => ordinal - ctx.slots.start;
