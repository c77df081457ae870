// The rollout record: what this sync's rollout is, decided once before any phase runs (plan-statefulset.ts
// syncContext) — the strategy after feature gates with the partition after steps and a rollback (the context's
// `strategy`), the revisions pods move between, every knob a feature reads, and the holds. Phases and the
// admission read these values; none of them reads a strategy knob from the spec again.

import type { PodUpdatePolicy, StatefulSet } from '../../api/types.js';
import { podUpdatePolicyOf, respectsBudgets } from '../model/spec.js';
import type { StrategyKind } from './effective-strategy.js';
import type { HaltCheck } from './safety-halt.js';

/** The knobs of the rolling update, as they apply to the strategy that runs (each off for the others). */
export interface RolloutKnobs {
  /** podUpdatePolicy (RollingUpdate only): how a pod moves to a new revision. */
  podUpdatePolicy: PodUpdatePolicy;
  /** volumeClaimUpdatePolicy InPlace: claims move with their replica's revision. */
  claimsInPlace: boolean;
  /** respectPodDisruptionBudgets (RollingUpdate only). */
  respectDisruptionBudgets: boolean;
  /** topologyKey (RollingUpdate only): one zone at a time. */
  topologyKey?: string;
  /** updateOrder Priority (RollingUpdate only): by a pod label, lowest priority first. */
  priority?: { label: string; values: readonly string[] };
}

/**
 * What keeps the rollout from updating pods this sync (the admission's first rule): the user's pause, a failed
 * step (an analysis, or the user's abort under onFailure Halt), EnforcedRollingUpdate's safety halt.
 */
export interface Holds {
  userPause: boolean;
  stepFailed: boolean;
  /** The highest pod of the revision pods move to has failed (EnforcedRollingUpdate, and a rollback's way back). */
  safetyHalt?: NonNullable<HaltCheck['halted']>;
}

export interface Rollout {
  knobs: RolloutKnobs;
  holds: Holds;
  /** EnforcedRollingUpdate's (and a rollback's) safety check of the highest new pod, with when it would fail. */
  halt: HaltCheck;
}

/** The knobs of `set` under the strategy that runs. */
export function knobsOf(set: StatefulSet, kind: StrategyKind): RolloutKnobs {
  const rolling = kind === 'RollingUpdate';
  const ru = set.spec.updateStrategy?.rollingUpdate;
  const label = ru?.priority?.label;
  return {
    podUpdatePolicy: rolling ? podUpdatePolicyOf(set) : 'Recreate',
    claimsInPlace: set.spec.volumeClaimUpdatePolicy === 'InPlace',
    respectDisruptionBudgets: rolling && respectsBudgets(set),
    ...(rolling && ru?.topologyKey ? { topologyKey: ru.topologyKey } : {}),
    ...(rolling && ru?.updateOrder === 'Priority' && label ? { priority: { label, values: ru.priority?.values ?? [] } } : {}),
  };
}

/** Whether anything holds the update phase (the user's pause, a failed step). */
export const updateHeld = (h: Holds): boolean => h.userPause || h.stepFailed;
