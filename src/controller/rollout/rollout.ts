// The rollout record: what this sync's rollout is, decided once before any phase runs (plan-statefulset.ts
// syncContext) — the strategy after feature gates with the partition after steps and a rollback (the context's
// `strategy`), the revisions pods move between, every knob a feature reads, and the holds. Phases and the
// admission read these values; none of them reads a strategy knob from the spec again.

import type { Instant, PauseCondition, Pod, PodUpdatePolicy, RolloutAnalysisStatus, RolloutStep, StatefulSet, StepAnalysisStatus, StepState } from '../../api/types.js';
import type { AnalysisProbe, Blocker, PlannedEvent } from '../model/plan-types.js';
import { podUpdatePolicyOf, respectsBudgets } from '../model/spec.js';
import type { StrategyKind } from './effective-strategy.js';

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
  /** An analysis check gave no verdict under a Pause policy (AnalysisInconclusive): nothing is updated until one does. */
  analysisPaused: boolean;
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

/** Whether anything holds the update phase (the user's pause, a failed step, an analysis without a verdict). */
export const updateHeld = (h: Holds): boolean => h.userPause || h.stepFailed || h.analysisPaused;

// The parts of the record each feature decides (in the files named), typed here so the context that carries
// them (sync-context.ts) needs none of the files that decide them.

/** EnforcedRollingUpdate's safety check of the highest new pod (safety-halt.ts). */
export interface HaltCheck {
  halted?: { pod: Pod; ordinal: number; reason: string };
  /** When the highest new pod would count as failed by the deadline (for wakeAt). */
  failsAt?: Instant;
}

/** A rollback under way: the pods move from `aborted` (and any other revision) to `target`. */
export interface Rollback {
  /** The spec's update revision, aborted: status.updateRevision keeps naming it. */
  aborted: string;
  /** The revision every pod goes back to. */
  target: string;
}

/** rollingUpdate.steps and paused this sync (rollout-steps.ts). */
/** Why a step failed the rollout (rollback.ts's RolloutFailure reads it). */
export interface StepFailure {
  kind: 'analysisFailed' | 'aborted';
  /** The step's index (0-based); absent for an abort of a rollout without steps. */
  step?: number;
  message: string;
}

/** Where a staged rollout is this sync (rollout-steps.ts planSteps). */
export interface StepPlan {
  /** The declared steps (empty: none, or not an apps.ordinal.dev/v1 rolling strategy). */
  steps: readonly RolloutStep[];
  /** The current step (steps.length: every step passed). */
  index: number;
  state: StepState;
  since: Instant;
  /** The partition every phase works to this sync, when a step holds the rollout below spec's. */
  partition?: number;
  /** No pod or claim is updated this sync: the user's pause, or a failed step. */
  holds: boolean;
  analysis?: StepAnalysisStatus;
  /** status.rolloutAnalysis: the background analysis so far (rollingUpdate.analysis). */
  rolloutAnalysis?: RolloutAnalysisStatus;
  /** The check due first now, the step's or the background one's (the runtime makes it and reports an AnalysisResult). */
  probe?: AnalysisProbe;
  /** Every check due now (probe is the first of them). */
  probes: AnalysisProbe[];
  failure?: StepFailure;
  wakeAt?: Instant;
  events: PlannedEvent[];
  blockers: Blocker[];
  /** Pauses besides SafetyHalt (plan-status adds it). */
  pauses: PauseCondition[];
  /** The rollout-retry annotation value this sync acted on. */
  retry?: string;
}

/** A zone, or null for a pod whose node, or the node's label, is not known (unscheduled, or a node without it). */
export type Zone = string | null;

/** What this sync's update does under rollingUpdate.topologyKey (zone-order.ts). */
export interface ZoneRollout {
  topologyKey: string;
  /** Every zone the set's pods run in, in update order. */
  order: Zone[];
  /** The zone that moves now. */
  zone: Zone;
  /** Whether the replica at this index is in `zone` (only those are update candidates). */
  moves(index: number): boolean;
  /** Replicas still to update in later zones. */
  heldBack: number;
  /**
   * Another zone with unavailable replicas: no available pod of `zone` goes until it is whole. Null: replicas
   * whose zone is not known yet (missing, unscheduled) while a known zone moves: they may be a zone's last batch.
   */
  disrupted?: { zone: Zone; pods: string[] };
}

/** What this sync's update does under updateOrder Priority (update-order.ts). */
export interface PriorityRollout {
  label: string;
  /** The label's values from the first updated to the last; a rank of 0 is a pod without a listed value. */
  values: string[];
  /** The stale replicas this sync may choose from (the zone that moves, if any), in update order. */
  order: number[];
  /** Whether the replica at this index is of the priority that moves now (only those are update candidates). */
  moves(index: number): boolean;
  /** Stale replicas of higher priorities that wait. */
  heldBack: number;
  /** A higher priority waits for these unavailable replicas (names, bounded) before its first pod goes. */
  waitingFor?: string[];
}
