// One sync's pod decisions in upstream's order (stateful_set_control.go updateStatefulSet), as a fold over
// phases: EnforcedRollingUpdate's guards, Recreate's delete-and-wait, the replica pass, condemned claims and
// scale-down, then the strategy's update deletions. Each phase returns data (PhaseResult); planSync numbers
// their writes into batches and stops where upstream's sync returns.

import type { Instant, Pod } from '../api/types.js';
import { BatchWriter, type Item } from './batches.js';
import { inPlaceStep, resizingBlocker, resizingClaim } from './claim-updates.js';
import { condemnedPass } from './condemned.js';
import { isOld, slotUnavailability, unavailable, type SyncContext } from './sync-context.js';
import { brokenBelowPartition, checkSafetyHalt, haltBlocker, planEnforcedUpdate, stuckSince, type HaltCheck } from './enforced-rolling-update.js';
import { claimBlockedEvent, forcedReplacementEvent } from './event-texts.js';
import type { Action, Blocker, PlannedEvent } from './plan-types.js';
import { podOrdinal, podRevision } from './pod-state.js';
import { planRecreate, type RecreateDecision } from './recreate.js';
import { replicaPass } from './replica-pass.js';
import { planLegacyUpdate, planMaxUnavailableUpdate, type UpdateDecision } from './rolling-update-deletions.js';

/** What the status, metrics and wake-up of a sync need to know besides its writes. */
export interface SyncFacts {
  /** EnforcedRollingUpdate's safety check of the highest new pod. */
  halt: HaltCheck;
  /** Old pods replaced while unavailable (EnforcedRollingUpdate). */
  forced: Pod[];
  recreate?: RecreateDecision;
  /** statefulset_unavailable_replicas, when the gate-on rolling-update path ran. */
  unavailablePods?: number;
  /** When an old pod below the partition will count as broken (EnforcedRollingUpdate: the pass stops waiting for it). */
  wakeAt?: Instant;
}

/** Writes of one phase, in the order it runs them: by pod management policy, one after another, or slow start. */
interface Work {
  order: 'policy' | 'sequential' | 'slowStart';
  items: Item[];
}

/** One phase's decisions. */
interface PhaseResult {
  work: Work[];
  blockers: Blocker[];
  events: PlannedEvent[];
  /** Where upstream's sync returns: no later phase runs ('sync'), or only the update phase is skipped ('update'). */
  stop?: 'sync' | 'update';
  facts?: Partial<SyncFacts>;
}

/** The sync's writes (numbered into batches, not yet dense), blockers, events and facts. */
export interface SyncBody extends SyncFacts {
  actions: Action[];
  blockers: Blocker[];
  events: PlannedEvent[];
}

type Phase = (ctx: SyncContext, facts: SyncFacts) => PhaseResult;

const result = (r: Partial<PhaseResult>): PhaseResult => ({ work: [], blockers: [], events: [], ...r });

/** EnforcedRollingUpdate: the safety halt and the broken pods the partition holds back. */
const enforcedGuards: Phase = (ctx) => {
  if (ctx.strategy.kind !== 'EnforcedRollingUpdate') return result({});
  const halt = checkSafetyHalt(ctx);
  const halting = haltBlocker(ctx, halt);
  const held = brokenBelowPartition(ctx);
  const blockers = [...(halting ? [halting] : []), ...(held.blocker ? [held.blocker] : [])];
  return result({ blockers, facts: { halt, ...(held.failsAt !== undefined ? { wakeAt: held.failsAt } : {}) } });
};

/** Recreate: while old pods exist, delete them and do nothing else this sync. */
// upstream: stateful_set_control.go recreateDeleteAndWait
const recreatePhase: Phase = (ctx) => {
  if (ctx.strategy.kind !== 'Recreate') return result({});
  const decision = planRecreate(ctx);
  if (decision.proceed) return result({ facts: { recreate: decision } });
  return result({ work: [{ order: 'slowStart', items: decision.deletions }], blockers: decision.blockers, stop: 'sync', facts: { recreate: decision } });
};

// upstream: stateful_set_control.go updateStatefulSet (runForAll(replicas, processReplica))
const replicasPhase: Phase = (ctx) => {
  const pass = replicaPass(ctx);
  // EnforcedRollingUpdate deletes condemned pods without waiting for the replica pass
  const stop = !pass.stopped ? undefined : ctx.strategy.kind === 'EnforcedRollingUpdate' ? 'update' : 'sync';
  return result({ work: [{ order: 'policy', items: pass.items }], blockers: pass.blockers, events: pass.events, ...(stop ? { stop } : {}) });
};

// upstream: stateful_set_control.go updateStatefulSet (fixPodClaim and processCondemned over condemned)
const condemnedPhase: Phase = (ctx) => {
  const condemned = condemnedPass(ctx, slotUnavailability(ctx).firstUnavailable);
  const work: Work[] = [
    { order: 'policy', items: condemned.claimItems },
    { order: 'policy', items: condemned.deleteItems },
  ];
  return result({ work, blockers: condemned.blockers, events: condemned.events, ...(condemned.stopped ? { stop: 'sync' as const } : {}) });
};

const stuckSeconds = (pod: Pod, now: Instant): number => {
  const since = stuckSince(pod);
  return since === undefined ? 0 : Math.max(0, (now - since) / 1000);
};

/** The update step of one chosen old pod: its deletion, or under InPlace its claims first (claim-updates.ts). */
function updateItem(ctx: SyncContext, pod: Pod, position: number, out: { forced: Pod[]; blockers: Blocker[] }): Item[] {
  if (ctx.inPlace) {
    const step = inPlaceStep(ctx, pod, ctx.strategy.kind === 'EnforcedRollingUpdate');
    if (step.kind === 'patchClaims') return [{ position, steps: [step.actions] }];
    if (step.kind === 'relabel') return [{ position, steps: [[step.action]] }];
    if (step.kind === 'wait') {
      out.blockers.push(step.blocker);
      return [];
    }
  }
  // EnforcedRollingUpdate replacing a pod that is down (stuck): a forced replacement
  const isForced = ctx.strategy.kind === 'EnforcedRollingUpdate' && isOld(ctx, pod) && unavailable(ctx, pod);
  if (isForced) out.forced.push(pod);
  const action: Action = {
    kind: 'deletePod',
    batch: 0,
    name: pod.metadata.name ?? '',
    uid: pod.metadata.uid ?? '',
    ordinal: podOrdinal(pod),
    cause: isForced ? 'forced' : 'update',
    decrementsCurrentReplicas: podRevision(pod) === ctx.currentRevision,
    ...(isForced ? { stuckSeconds: stuckSeconds(pod, ctx.now) } : {}),
  };
  return [{ position, steps: [[action]] }];
}

/** InPlace: every replica whose claim is resizing says so (the budget counts it unavailable while its pod is Ready). */
function resizingBlockers(ctx: SyncContext, known: readonly Blocker[]): Blocker[] {
  const reported = new Set(known.flatMap((b) => (b.kind === 'claimResizing' || b.kind === 'claimResizeFailed' ? [b.pod] : [])));
  return ctx.slots.indices.flatMap((i): Blocker[] => {
    const pod = ctx.slots.byIndex.get(i) as Pod;
    const resizing = reported.has(pod.metadata.name ?? '') ? undefined : resizingClaim(ctx, pod);
    return resizing ? [resizingBlocker(pod.metadata.name ?? '', resizing)] : [];
  });
}

/** Update deletions, one batch each in order; the status already counts them out of currentReplicas. */
function deleteVictims(ctx: SyncContext, decision: UpdateDecision): PhaseResult {
  const out = { forced: [] as Pod[], blockers: [...decision.blockers] };
  const items = decision.victims.flatMap(({ pod }, position) => updateItem(ctx, pod, position, out));
  if (ctx.inPlace) out.blockers.push(...resizingBlockers(ctx, out.blockers));
  const facts: Partial<SyncFacts> = { forced: out.forced, ...(decision.unavailablePods !== undefined ? { unavailablePods: decision.unavailablePods } : {}) };
  const events = out.forced.map((pod) => forcedReplacementEvent(ctx.set, pod));
  return result({ work: [{ order: 'sequential', items }], blockers: out.blockers, events, facts });
}

/** The strategy's update phase (upstream §4.1 dispatch). */
const updatePhase: Phase = (ctx, facts) => {
  switch (ctx.strategy.kind) {
    case 'OnDelete': {
      const outdated = ctx.slots.indices.filter((i) => isOld(ctx, ctx.slots.byIndex.get(i) as Pod)).length;
      return result({ blockers: outdated > 0 ? [{ kind: 'onDeleteStrategy', outdatedPods: outdated }] : [] });
    }
    case 'Recreate':
      return result({});
    case 'EnforcedRollingUpdate':
      return deleteVictims(ctx, planEnforcedUpdate(ctx, facts.halt));
    case 'RollingUpdate':
      return deleteVictims(ctx, ctx.strategy.legacy ? planLegacyUpdate(ctx) : planMaxUnavailableUpdate(ctx));
  }
};

const PHASES: readonly { name: string; run: Phase }[] = [
  { name: 'guards', run: enforcedGuards },
  { name: 'recreate', run: recreatePhase },
  { name: 'replicas', run: replicasPhase },
  { name: 'condemned', run: condemnedPhase },
  { name: 'update', run: updatePhase },
];

// upstream: stateful_set_control.go updateStatefulSet
export function planSync(ctx: SyncContext): SyncBody {
  const writer = new BatchWriter(1);
  const body: SyncBody = { actions: writer.actions, blockers: [], events: [], halt: {}, forced: [] };
  let updateHeld = false;
  for (const phase of PHASES) {
    if (phase.name === 'update' && updateHeld) break;
    const r = phase.run(ctx, body);
    for (const w of r.work) {
      if (w.order === 'policy') writer.runForAll(w.items, ctx.monotonic);
      else if (w.order === 'sequential') writer.sequential(w.items);
      else writer.slowStart(w.items);
    }
    body.blockers.push(...r.blockers);
    body.events.push(...r.events);
    Object.assign(body, r.facts);
    if (r.stop === 'sync') break;
    updateHeld ||= r.stop === 'update';
  }
  body.events.push(...body.blockers.flatMap((b) => claimBlockedEvent(ctx.set, b) ?? []));
  return body;
}
