// Everything one sync decides with, computed once: the set at both revisions, the slots, the strategy.

import type { Features } from '../api/features.js';
import { appliedRevision } from '../api/revision/hash.js';
import type { ControllerRevision, Instant, PersistentVolumeClaim, Pod, StatefulSet, StorageClass } from '../api/types.js';
import { newVersionedStatefulSetPod } from './identity.js';
import { isUnavailable, podRevision } from './pod-state.js';
import { unavailability, type Slots, type Unavailability } from './replicas.js';
import { isParallel, minReadySecondsOf } from './spec.js';
import { claimsAvailable, replicaClaims, type ReplicaClaims } from './claim-updates.js';
import type { EffectiveStrategy } from './effective-strategy.js';

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
  /** volumeClaimUpdatePolicy: InPlace (claims move with their replica's revision). */
  inPlace: boolean;
  /** Observed StorageClasses by name (InPlace; absent when not observed). */
  storageClasses?: ReadonlyMap<string, StorageClass>;
  /** The set's revisions by name (a pod may be on one that is neither current nor update). */
  revisions: ReadonlyMap<string, ControllerRevision>;
  /** What several phases of one sync ask for, worked out once (see `slotUnavailability`). */
  memo: SyncMemo;
}

/**
 * Facts several phases of one sync need; the pods and `now` are fixed for the sync. (A per-pod memo of
 * `unavailable` was measured and dropped: the Map costs as much as the predicate.)
 */
export interface SyncMemo {
  unavailability?: Unavailability;
  /** InPlace: what each pod's claims say about its replica. */
  replicaClaims?: Map<Pod, ReplicaClaims>;
  /** Whether a revision's pod template is the update revision's, by revision name. */
  sameTemplate?: Map<string, boolean>;
}

/** What the caller supplies; the rest of SyncContext is derived from the set. */
export type ContextInput = Omit<SyncContext, 'minReadySeconds' | 'monotonic' | 'claims' | 'memo' | 'inPlace' | 'storageClasses' | 'revisions'> & {
  claims: readonly PersistentVolumeClaim[];
  storageClasses?: readonly StorageClass[] | undefined;
  revisions?: readonly ControllerRevision[];
};

export function newSyncContext(input: ContextInput): SyncContext {
  const { storageClasses, revisions, ...rest } = input;
  return {
    ...rest,
    revisions: new Map((revisions ?? []).map((r) => [r.metadata.name ?? '', r])),
    ...(storageClasses === undefined ? {} : { storageClasses: new Map(storageClasses.map((c) => [c.metadata.name ?? '', c])) }),
    minReadySeconds: minReadySecondsOf(input.set),
    monotonic: !isParallel(input.set),
    claims: new Map(input.claims.map((c) => [c.metadata.name ?? '', c])),
    inPlace: input.set.spec.volumeClaimUpdatePolicy === 'InPlace',
    memo: {},
  };
}

/** The unsaved pod upstream puts in an empty slot (newVersionedStatefulSetPod). */
export function placeholderPod(ctx: SyncContext, index: number): Pod {
  return newVersionedStatefulSetPod(ctx.currentSet, ctx.updateSet, ctx.currentRevision, ctx.updateRevision, ctx.slots.start + index);
}

/** The set as of `revision` (upstream's currentSet / updateSet, or another revision of its history); undefined for an unknown one. */
export function setAtRevision(ctx: SyncContext, revision: string): StatefulSet | undefined {
  if (revision === ctx.updateRevision) return ctx.updateSet;
  if (revision === ctx.currentRevision) return ctx.currentSet;
  const rev = ctx.revisions.get(revision);
  return rev === undefined ? undefined : appliedRevision(ctx.set, rev);
}

export const isOld = (ctx: SyncContext, pod: Pod): boolean => podRevision(pod) !== ctx.updateRevision;
/** The replica still has to move to the update revision: its pod is old, or (InPlace) its claims lag its pod. */
export const needsUpdate = (ctx: SyncContext, pod: Pod): boolean => isOld(ctx, pod) || replicaClaims(ctx, pod).lagging;
/** The replica is unavailable: its pod is, or (InPlace) its claims are expanding or not yet ready for minReadySeconds. */
export const unavailable = (ctx: SyncContext, pod: Pod): boolean =>
  isUnavailable(pod, ctx.minReadySeconds, ctx.now) || (ctx.inPlace && !claimsAvailable(ctx, replicaClaims(ctx, pod)));

/** unavailability() of the sync's slots, worked out once. */
export function slotUnavailability(ctx: SyncContext): Unavailability {
  ctx.memo.unavailability ??= unavailability(ctx.slots, (pod) => unavailable(ctx, pod));
  return ctx.memo.unavailability;
}
export const podIndex = (ctx: SyncContext, ordinal: number): number => ordinal - ctx.slots.start;
