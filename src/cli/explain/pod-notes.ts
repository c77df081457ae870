// Short per-pod notes for `why`'s table, from the plan's blockers and actions: the table says, next to each
// ordinal, what the controller waits for there or what it does next.

import type { Blocker, Plan } from '../../controller/model/plan-types.js';
import { isTerminating, parentNameAndOrdinal, podRevision } from '../../controller/model/pod-state.js';
import { GATE_FIELD } from '../../controller/model/readiness-gate.js';
import { actionNote } from './action-text.js';
import { budgetInUse, type ExplainContext } from './blocker-text.js';
import { formatSecondsLeft } from './durations.js';
import { podState } from './pod-view.js';

type Note = { pod: string; note: string };

function notAvailableNote(b: Extract<Blocker, { kind: 'podNotAvailable' }>, ctx: ExplainContext): string {
  const pod = ctx.pods.get(b.pod);
  const ready = pod !== undefined && podState(pod, ctx.minReadySeconds, ctx.now).ready;
  return ready && b.availableAt < Number.MAX_SAFE_INTEGER ? `available in ${formatSecondsLeft(b.availableAt - ctx.now)}` : 'waiting to become available';
}

/** Pods on the old revision whose index is below the partition. */
function heldBack(ctx: ExplainContext): Note[] {
  const out: Note[] = [];
  for (const pod of ctx.pods.values()) {
    const index = parentNameAndOrdinal(pod.metadata.name).ordinal - ctx.start;
    if (index >= 0 && index < Math.min(ctx.strategy.partition, ctx.replicas) && podRevision(pod) !== ctx.updateRevision) {
      out.push({ pod: pod.metadata.name ?? '', note: 'held by the partition' });
    }
  }
  return out;
}

/** Old pods of the update range [partition, replicas) that wait for budget (the plan deletes none of them). */
function waitingForBudget(ctx: ExplainContext): Note[] {
  const out: Note[] = [];
  for (const pod of ctx.pods.values()) {
    const index = parentNameAndOrdinal(pod.metadata.name).ordinal - ctx.start;
    const inUpdateRange = index >= ctx.strategy.partition && index < ctx.replicas;
    if (inUpdateRange && podRevision(pod) !== ctx.updateRevision && !isTerminating(pod)) {
      out.push({ pod: pod.metadata.name ?? '', note: 'old revision: waits for the maxUnavailable budget' });
    }
  }
  return out;
}

type InPlaceBlocker = Extract<Blocker, { kind: 'podUpdatingInPlace' | 'inPlaceUpdateImpossible' | 'podResizeDeferred' | 'podResizeImpossible' }>;

/** podUpdatePolicy: a pod moving in place, or one that cannot. */
function inPlaceNote(b: InPlaceBlocker): string {
  switch (b.kind) {
    case 'podUpdatingInPlace':
      return `updated in place: waits for its kubelet to run ${b.containers.join(', ')}`;
    case 'inPlaceUpdateImpossible':
      return b.fields.includes(GATE_FIELD) ? 'has no readiness gate to drain it (InPlaceOnly): held; delete it once' : 'cannot be updated in place (InPlaceOnly): held';
    case 'podResizeDeferred':
      return `resize Deferred: ${b.message}`;
    case 'podResizeImpossible':
      return `resize ${b.reason}: ${b.message} (InPlaceOnly): held`;
  }
}

/** The pods a PodDisruptionBudget, the zone order or the priority order holds back, or waits for. */
function disruptionNotes(b: Extract<Blocker, { kind: 'podDisruptionBudget' | 'zoneOrder' | 'updateOrder' }>): Note[] {
  switch (b.kind) {
    case 'podDisruptionBudget':
      return b.pods.map((pod) => ({ pod, note: `held by PodDisruptionBudget ${b.budget}` }));
    case 'zoneOrder':
      return (b.disrupted?.pods ?? []).map((pod) => ({ pod, note: `unavailable${b.disrupted?.zone ? ` in ${b.disrupted.zone}` : ''}: the next zone waits for it` }));
    case 'updateOrder':
      return (b.waitingFor ?? []).map((pod) => ({ pod, note: 'unavailable: the next priority waits for it' }));
  }
}

/** Blockers of the set as a whole: no pod of their own. */
const SET_WIDE = [
  'invalidSpec',
  'internalError',
  'featureDisabled',
  'setDeleting',
  'progressDeadlineExceeded',
  'workCapped',
  'ordinalOverflow',
  'onDeleteStrategy',
  'rolloutAborted',
  'noRollbackTarget',
  'rolloutPaused',
  'rolloutStep',
  'rolloutAnalysis',
  'stepFailed',
] as const;
const isSetWide = (b: Blocker): b is Extract<Blocker, { kind: (typeof SET_WIDE)[number] }> => (SET_WIDE as readonly string[]).includes(b.kind);

function blockerNotes(b: Blocker, ctx: ExplainContext): Note[] {
  if (isSetWide(b)) return [];
  switch (b.kind) {
    case 'podNotAvailable':
      return [{ pod: b.pod, note: notAvailableNote(b, ctx) }];
    case 'podNotRunningAndReady':
      return [{ pod: b.pod, note: 'waiting for Running and Ready' }];
    case 'podTerminating':
      return [{ pod: b.pod, note: 'waiting for it to be gone' }];
    case 'podMissing':
      return [{ pod: b.pod, note: 'waiting for it to be created' }];
    case 'podCreating':
      return [{ pod: b.pod, note: 'being created' }];
    case 'staleClaim':
      return [{ pod: b.pod, note: `claim ${b.claim} is stale` }];
    case 'claimDeleting':
      return [{ pod: b.pod, note: `claim ${b.claim} is deleting` }];
    case 'claimResizing':
      return [{ pod: b.pod, note: b.waitingForPodRestart ? `claim ${b.claim} expanded offline: waits for a pod restart` : `claim ${b.claim} is expanding` }];
    case 'claimExpansionRefused':
      return [{ pod: b.pod, note: `claim ${b.claim} cannot grow to ${b.request}: held until it can` }];
    case 'claimIncompatible':
      return [{ pod: b.pod, note: `claim ${b.claim} differs from the template (${b.field}): held` }];
    case 'claimResizeFailed':
      return [{ pod: b.pod, note: `claim ${b.claim} failed to expand: held` }];
    case 'podUpdatingInPlace':
    case 'inPlaceUpdateImpossible':
    case 'podResizeDeferred':
    case 'podResizeImpossible':
      return [{ pod: b.pod, note: inPlaceNote(b) }];
    case 'budgetExhausted':
      return [...b.unavailablePods.map((pod) => ({ pod, note: 'unavailable: uses the maxUnavailable budget' })), ...(budgetInUse(b, ctx).exhausted ? waitingForBudget(ctx) : [])];
    case 'stuckOldRevision':
      return [{ pod: b.pod, note: `stuck (${b.state}); RollingUpdate will not replace it` }];
    case 'slowerThanForecast':
      return [{ pod: b.pod, note: b.step === 'start' ? `slower than forecast: not Ready after ${Math.round(b.seconds)} s (p95 ${Math.round(b.p95)} s)` : `slower than forecast: not gone after ${Math.round(b.seconds)} s (p95 ${Math.round(b.p95)} s)` }];
    case 'safetyHalt':
      return [{ pod: b.pod, note: 'failed: rollout halted here' }];
    case 'brokenBelowPartition':
      return b.pods.map((pod) => ({ pod, note: 'broken below the partition: not replaced' }));
    case 'waitingForTermination':
      return b.pods.map((pod) => ({ pod, note: 'Recreate: waiting for it to be gone' }));
    case 'podDisruptionBudget':
    case 'zoneOrder':
    case 'updateOrder':
      return disruptionNotes(b);
    case 'partition':
      return heldBack(ctx);
    case 'overlappingDisruptionBudgets':
      return [{ pod: b.pod, note: `selected by ${b.budgets.length} PodDisruptionBudgets: cannot be evicted` }];
    case 'inPlaceDraining':
      return [{ pod: b.pod, note: `drains before its in-place restart: NotReady for ${Math.max(0, Math.floor((ctx.now - b.since) / 1000))}s of ${b.graceSeconds}s` }];
    case 'preUpdateHook':
      return [{ pod: b.pod, note: b.state === 'failed' ? 'preUpdate hook failed: held' : `waits for its preUpdate hook${b.answer !== undefined ? ` (${b.answer})` : ''}` }];
    case 'disruptionWaits':
      return [{ pod: b.pod, note: `${b.cause === 'inPlaceFallback' ? 'recreation' : b.cause === 'claimRestart' ? 'restart' : 'update'} waits (${b.waitsFor === 'disruptionBudget' ? 'PodDisruptionBudget' : b.waitsFor})` }];
  }
}

/** Notes by pod name, in plan order; a pod being created this sync shows only the action. */
export function podNotes(plan: Plan, ctx: ExplainContext): Map<string, string[]> {
  const notes = new Map<string, string[]>();
  const add = ({ pod, note }: Note) => {
    const list = notes.get(pod) ?? [];
    if (!list.includes(note)) list.push(note);
    notes.set(pod, list);
  };
  const created = new Set(plan.actions.flatMap((a) => (a.kind === 'createPod' ? [a.pod.metadata.name ?? ''] : [])));
  const deleted = new Set(plan.actions.flatMap((a) => (a.kind === 'deletePod' ? [a.name] : [])));
  const skip = (b: Blocker, n: Note) => (b.kind === 'podCreating' && created.has(n.pod)) || (b.kind === 'budgetExhausted' && deleted.has(n.pod));
  for (const b of plan.blockers) {
    for (const n of blockerNotes(b, ctx)) if (!skip(b, n)) add(n);
  }
  for (const a of plan.actions) {
    const n = actionNote(a);
    if (n !== undefined) add(n);
  }
  return notes;
}
