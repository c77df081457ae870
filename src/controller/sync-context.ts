// Everything one sync decides with, computed once: the set at both revisions, the slots, the strategy.

import type { Features } from '../api/features.js';
import type { Instant, PersistentVolumeClaim, Pod, StatefulSet, StorageClass } from '../api/types.js';
import { newVersionedStatefulSetPod } from './identity.js';
import { isUnavailable, podRevision } from './pod-state.js';
import { unavailability, type Slots, type Unavailability } from './replicas.js';
import { isParallel, minReadySecondsOf } from './spec.js';
import { resizingClaim, type ResizingClaim } from './claim-updates.js';
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
  /** What several phases of one sync ask for, worked out once (see `slotUnavailability`). */
  memo: SyncMemo;
}

/**
 * Facts several phases of one sync need; the pods and `now` are fixed for the sync. (A per-pod memo of
 * `unavailable` was measured and dropped: the Map costs as much as the predicate.)
 */
export interface SyncMemo {
  unavailability?: Unavailability;
  /** InPlace: each pod's resizing claim (null: none), by pod name. */
  resizing?: Map<string, ResizingClaim | null>;
}

/** What the caller supplies; the rest of SyncContext is derived from the set. */
export type ContextInput = Omit<SyncContext, 'minReadySeconds' | 'monotonic' | 'claims' | 'memo' | 'inPlace' | 'storageClasses'> & {
  claims: readonly PersistentVolumeClaim[];
  storageClasses?: readonly StorageClass[] | undefined;
};

export function newSyncContext(input: ContextInput): SyncContext {
  const { storageClasses, ...rest } = input;
  return {
    ...rest,
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

export const isOld = (ctx: SyncContext, pod: Pod): boolean => podRevision(pod) !== ctx.updateRevision;
/** The replica is unavailable: its pod is, or (InPlace) one of its claims is resizing. */
export const unavailable = (ctx: SyncContext, pod: Pod): boolean =>
  isUnavailable(pod, ctx.minReadySeconds, ctx.now) || (ctx.inPlace && resizingClaim(ctx, pod) !== undefined);

/** unavailability() of the sync's slots, worked out once. */
export function slotUnavailability(ctx: SyncContext): Unavailability {
  ctx.memo.unavailability ??= unavailability(ctx.slots, (pod) => unavailable(ctx, pod));
  return ctx.memo.unavailability;
}
export const podIndex = (ctx: SyncContext, ordinal: number): number => ordinal - ctx.slots.start;
