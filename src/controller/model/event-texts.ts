// Event texts. Per-action events are upstream's exact formats, attached to each
// action here and recorded by the runtime after it ran the action; transitions are planned events.

import { IN_PLACE_READINESS_GATE, type Pod, type StatefulSet } from '../../api/types.js';
import type { Action, Blocker, OutcomeEvents, PlannedEvent } from './plan-types.js';
import { describePodState, podRevision } from './pod-state.js';

// upstream: stateful_pod_control.go recordPodEvent
function podEvents(verb: 'create' | 'update' | 'delete', pod: string, set: string): Required<OutcomeEvents> {
  const Verb = verb[0]?.toUpperCase() + verb.slice(1);
  return {
    succeeded: { type: 'Normal', reason: `Successful${Verb}`, message: `${verb} Pod ${pod} in StatefulSet ${set} successful` },
    failed: { type: 'Warning', reason: `Failed${Verb}`, message: `${verb} Pod ${pod} in StatefulSet ${set} failed error: ` },
  };
}

// upstream: stateful_pod_control.go recordClaimEvent
function claimEvents(claim: string, pod: string, set: string): OutcomeEvents {
  return {
    succeeded: { type: 'Normal', reason: 'SuccessfulCreate', message: `create Claim ${claim} Pod ${pod} in StatefulSet ${set} success` },
    failed: { type: 'Warning', reason: 'FailedCreate', message: `create Claim ${claim} for Pod ${pod} in StatefulSet ${set} failed error: ` },
  };
}

/**
 * The events upstream records for an action's outcome, or undefined when it records none (revision writes,
 * adoption). A claim owner-reference update has no success event, and its failure is reported as a failed
 * pod update, as upstream does.
 */
function outcomeEvents(action: Action, set: string): OutcomeEvents | undefined {
  switch (action.kind) {
    case 'createPod':
      return podEvents('create', action.pod.metadata.name ?? '', set);
    case 'updatePod':
      return podEvents('update', action.pod.metadata.name ?? '', set);
    case 'deletePod':
      return podEvents('delete', action.name, set);
    case 'createClaim':
      return claimEvents(action.claim.metadata.name ?? '', action.podName, set);
    case 'updateClaim':
      return { failed: podEvents('update', action.podName, set).failed };
    case 'patchClaim':
      return {
        succeeded: { type: 'Normal', reason: 'SuccessfulUpdate', message: `update Claim ${action.name} for Pod ${action.podName} in StatefulSet ${set} successful` },
        failed: { type: 'Warning', reason: 'FailedUpdate', message: `update Claim ${action.name} for Pod ${action.podName} in StatefulSet ${set} failed error: ` },
      };
    case 'relabelPod':
    case 'patchPod':
      return podEvents('update', action.name, set);
    case 'annotatePod':
      // the hook's own event (PreUpdateHookCalled, PreUpdateHookFailed) once its record is written
      return action.outcome;
    case 'setPodCondition':
      // the drain's InPlaceUpdateDraining once its condition is written
      return action.outcome;
    case 'createRevision':
    case 'updateRevision':
    case 'deleteRevision':
    case 'adoptRevision':
    case 'adoptPod':
    case 'releasePod':
      return undefined;
  }
}

/** The plan's actions, each carrying the events of its outcome, so the runtime never asks the planner. */
export function withOutcomeEvents(actions: readonly Action[], set: StatefulSet): Action[] {
  const name = set.metadata.name ?? '';
  return actions.map((a) => {
    const outcome = outcomeEvents(a, name);
    return outcome === undefined ? a : { ...a, outcome };
  });
}

export const EventReason = {
  failedValidation: 'FailedValidation',
  featureDisabled: 'FeatureDisabled',
  recreateStarted: 'RecreateStarted',
  enforcedRollingUpdateStarted: 'EnforcedRollingUpdateStarted',
  forcedReplacement: 'ForcedReplacement',
  safetyHalt: 'SafetyHalt',
  rolloutAborted: 'RolloutAborted',
  rolledBack: 'RolledBack',
  skippedBrokenPod: 'SkippedBrokenPod',
  progressDeadlineExceeded: 'ProgressDeadlineExceeded',
  failedPlanning: 'FailedPlanning',
  ordinalOverflow: 'OrdinalOverflow',
  claimExpansionRefused: 'ClaimExpansionRefused',
  claimResizeFailed: 'ClaimResizeFailed',
  claimIncompatible: 'ClaimIncompatible',
  inPlaceFallback: 'InPlaceFallback',
  inPlaceUpdateDraining: 'InPlaceUpdateDraining',
} as const;

/** InPlace: the Warning for a replica held by its claim (a class that cannot expand, other fixed fields, a failed resize). */
export function claimBlockedEvent(set: StatefulSet, b: Blocker): PlannedEvent | undefined {
  const name = set.metadata.name ?? '';
  if (b.kind === 'claimExpansionRefused') {
    const why = b.storageClass === '' ? 'it has no StorageClass' : `StorageClass ${b.storageClass} does not allow volume expansion`;
    return { type: 'Warning', reason: EventReason.claimExpansionRefused, message: `Claim ${b.claim} for Pod ${b.pod} in StatefulSet ${name} cannot grow to ${b.request}: ${why}` };
  }
  if (b.kind === 'claimIncompatible') {
    const message = `Claim ${b.claim} for Pod ${b.pod} in StatefulSet ${name} does not match its template: ${b.field} is ${b.have}, the template says ${b.want}`;
    return { type: 'Warning', reason: EventReason.claimIncompatible, message };
  }
  if (b.kind === 'claimResizeFailed') {
    return { type: 'Warning', reason: EventReason.claimResizeFailed, message: `Claim ${b.claim} for Pod ${b.pod} in StatefulSet ${name} failed to expand: ${b.message}` };
  }
  return undefined;
}

export function recreateStartedEvent(set: StatefulSet, oldPods: number, revision: string): PlannedEvent {
  return {
    type: 'Normal',
    reason: EventReason.recreateStarted,
    message: `Deleting all ${oldPods} pods of StatefulSet ${set.metadata.name ?? ''} for Recreate update to revision ${revision}`,
  };
}

export function enforcedStartedEvent(set: StatefulSet, revision: string): PlannedEvent {
  return {
    type: 'Normal',
    reason: EventReason.enforcedRollingUpdateStarted,
    message: `EnforcedRollingUpdate of StatefulSet ${set.metadata.name ?? ''} to revision ${revision} started`,
  };
}

export function forcedReplacementEvent(set: StatefulSet, pod: Pod): PlannedEvent {
  return {
    type: 'Normal',
    reason: EventReason.forcedReplacement,
    message: `Replacing pod ${pod.metadata.name ?? ''} of revision ${podRevision(pod)} in StatefulSet ${set.metadata.name ?? ''} although it is not available (${describePodState(pod)})`,
  };
}

/** podUpdatePolicy InPlaceIfPossible: a pod's resize does not proceed, so the pod is recreated at its revision instead. */
export function inPlaceFallbackEvent(set: StatefulSet, pod: string, reason: string, message: string, revision: string): PlannedEvent {
  const why = message === '' ? reason : `${reason}: ${message}`;
  return {
    type: 'Warning',
    reason: EventReason.inPlaceFallback,
    message: `Recreating pod ${pod} of StatefulSet ${set.metadata.name ?? ''} at revision ${revision}: its in-place resize does not proceed (${why})`,
  };
}

/** inPlaceUpdateStrategy: a pod without the readiness gate a drain needs is recreated (InPlaceIfPossible), and comes back with it. */
export function noGateFallbackEvent(set: StatefulSet, pod: string, revision: string): PlannedEvent {
  return {
    type: 'Warning',
    reason: EventReason.inPlaceFallback,
    message: `Recreating pod ${pod} of StatefulSet ${set.metadata.name ?? ''} at revision ${revision}: it has no readiness gate ${IN_PLACE_READINESS_GATE} to drain it before an in-place restart (it was created before inPlaceUpdateStrategy.gracePeriodSeconds was set)`,
  };
}

/** inPlaceUpdateStrategy: the drain before a pod's in-place restart began (its readiness gate False). */
export function drainEvent(set: StatefulSet, pod: string, revision: string, graceSeconds: number): PlannedEvent {
  return {
    type: 'Normal',
    reason: EventReason.inPlaceUpdateDraining,
    message: `Draining pod ${pod} of StatefulSet ${set.metadata.name ?? ''} for ${graceSeconds}s (readiness gate ${IN_PLACE_READINESS_GATE} False) before its in-place restart to revision ${revision}`,
  };
}

export function safetyHaltEvent(set: StatefulSet, pod: string, reason: string, revision: string): PlannedEvent {
  return {
    type: 'Warning',
    reason: EventReason.safetyHalt,
    message: `EnforcedRollingUpdate of StatefulSet ${set.metadata.name ?? ''} halted: pod ${pod} of revision ${revision} failed to become available (${reason})`,
  };
}

/** onFailure: Rollback aborted the rollout to `aborted`; `message` is the Progressing condition's. */
export function rolloutAbortedEvent(message: string): PlannedEvent {
  return { type: 'Warning', reason: EventReason.rolloutAborted, message };
}

/** The way back of an aborted rollout is over: every pod is available on `target`. */
export function rolledBackEvent(set: StatefulSet, aborted: string, target: string): PlannedEvent {
  return {
    type: 'Normal',
    reason: EventReason.rolledBack,
    message: `StatefulSet ${set.metadata.name ?? ''} rolled back to revision ${target}: every pod is available on it; revision ${aborted} stays aborted until the template changes or the rollout is retried`,
  };
}

/** A pod the OrderedReady pass went past (name, state, and whether the partition keeps it from being replaced). */
export interface SkippedPod {
  name: string;
  state: string;
  belowPartition: boolean;
}

const MAX_SKIPPED_LISTED = 10;

function namesWithMore(names: readonly string[], limit: number): string {
  const more = names.length > limit ? `, and ${names.length - limit} more` : '';
  return `${names.slice(0, limit).join(', ')}${more}`;
}

/** "web-0 is below partition 3 and keeps its old revision" / "web-0, web-1 are …": one clause per group. */
function clause(names: readonly string[], one: string, many: string): string {
  return `${namesWithMore(names, MAX_SKIPPED_LISTED)} ${names.length === 1 ? one : many}`;
}

/**
 * EnforcedRollingUpdate created `created` without waiting for the unavailable lower pods `skipped`. Warning
 * when the partition keeps some of them broken: only lowering it gets them replaced.
 */
export function skippedBrokenPodEvent(set: StatefulSet, created: string, skipped: readonly SkippedPod[], partition: number): PlannedEvent {
  const listed = namesWithMore(skipped.map((p) => `${p.name} (${p.state})`), MAX_SKIPPED_LISTED);
  const held = skipped.filter((p) => p.belowPartition).map((p) => p.name);
  const replaced = skipped.filter((p) => !p.belowPartition).map((p) => p.name);
  const notes = [
    ...(held.length > 0
      ? [clause(held, `is below partition ${partition} and keeps its old revision: lower the partition to replace it`, `are below partition ${partition} and keep their old revision: lower the partition to replace them`)]
      : []),
    ...(replaced.length > 0 ? [clause(replaced, 'is replaced in its turn', 'are replaced in their turn')] : []),
  ];
  return {
    type: held.length > 0 ? 'Warning' : 'Normal',
    reason: EventReason.skippedBrokenPod,
    message: `create Pod ${created} in StatefulSet ${set.metadata.name ?? ''} without waiting for ${skipped.length === 1 ? 'Pod' : 'Pods'} ${listed}; ${notes.join('; ')}`,
  };
}

export function featureDisabledEvent(message: string): PlannedEvent {
  return { type: 'Warning', reason: EventReason.featureDisabled, message };
}
