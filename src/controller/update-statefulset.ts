// One sync's pod decisions in upstream's order (stateful_set_control.go updateStatefulSet), as a fold over
// phases: EnforcedRollingUpdate's guards, Recreate's delete-and-wait, the replica pass, condemned claims and
// scale-down, then the strategy's update deletions. Each phase returns data (PhaseResult); planSync numbers
// their writes into batches and stops where upstream's sync returns.

import { fromTimestamp, type Instant, type Pod } from '../api/types.js';
import { BatchWriter, type Item } from './batches.js';
import { earliest } from './availability.js';
import { claimsAvailableAt, recordResizes, replicaClaims, resizingBlocker, updateStep, type ReplicaClaims } from './claim-updates.js';
import { condemnedPass } from './condemned.js';
import { isOld, slotUnavailability, type SyncContext } from './sync-context.js';
import { oldCount, staleCount } from './update-range.js';
import { brokenBelowPartition, checkSafetyHalt, haltBlocker, isStuck, planEnforcedUpdate, stuckSince, type HaltCheck } from './enforced-rolling-update.js';
import { claimBlockedEvent, forcedReplacementEvent } from './event-texts.js';
import type { Action, Blocker, PlannedEvent } from './plan-types.js';
import { isTerminating, podOrdinal, podRevision } from './pod-state.js';
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

type Phase = (ctx: SyncContext, body: SyncBody) => PhaseResult;

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

/** The update step of one chosen replica: its deletion, its relabel, or (InPlace) its claims first (claim-updates.ts). */
function updateItem(ctx: SyncContext, pod: Pod, position: number, out: { forced: Pod[]; blockers: Blocker[] }): Item[] {
  const step = updateStep(ctx, pod, ctx.strategy.kind !== 'RollingUpdate');
  switch (step.kind) {
    case 'patchClaims':
      return [{ position, steps: [step.actions] }];
    case 'relabel':
      return [{ position, steps: [[step.action]] }];
    case 'wait':
      out.blockers.push(step.blocker);
      return [];
    case 'none':
      return [];
    case 'replace':
      break;
  }
  // EnforcedRollingUpdate replacing a pod that is down (stuck): a forced replacement
  const isForced = !step.forClaims && ctx.strategy.kind === 'EnforcedRollingUpdate' && isOld(ctx, pod) && isStuck(ctx, pod);
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

/**
 * InPlace, over every replica: records the end of each expansion the controller asked for (so minReadySeconds
 * counts from it), and says which replicas wait for their claims (the budget counts them unavailable while
 * their pods are Ready).
 */
/**
 * A pod the rollout created on the update revision whose claim's expansion ended after it had mounted it, and
 * now waits for a restart to grow its file system (offline expansion): restarted, under every strategy. The
 * replica is unavailable already, so this costs no budget. (A pod the rollout keeps, on the old revision,
 * is restarted for its claims only by EnforcedRollingUpdate and Recreate: updateStep.)
 */
function restartForClaims(ctx: SyncContext, pod: Pod, claims: ReplicaClaims): Action | undefined {
  const resizing = claims.resizing;
  if (isOld(ctx, pod) || isTerminating(pod) || resizing === undefined || !resizing.offline || resizing.failed !== undefined) return undefined;
  // a pod created once the storage side had finished mounts the grown volume: its start ends the expansion
  const created = fromTimestamp(pod.metadata.creationTimestamp);
  if (created === undefined || resizing.offlineSince === undefined || created >= resizing.offlineSince) return undefined;
  return { kind: 'deletePod', batch: 0, name: pod.metadata.name ?? '', uid: pod.metadata.uid ?? '', ordinal: podOrdinal(pod), cause: 'update' };
}

const claimsPhase: Phase = (ctx, body) => {
  if (!ctx.inPlace) return result({});
  const reported = new Set(body.blockers.flatMap((b) => (b.kind === 'claimResizing' || b.kind === 'claimResizeFailed' ? [b.pod] : [])));
  const out = { items: [] as Item[], blockers: [] as Blocker[] };
  let wakeAt: Instant | undefined;
  for (const i of ctx.slots.indices()) {
    const pod = ctx.slots.pod(i) as Pod;
    const claims = replicaClaims(ctx, pod);
    const records = recordResizes(ctx, pod, claims);
    if (records.length > 0) out.items.push({ position: out.items.length, steps: [records] });
    const restart = restartForClaims(ctx, pod, claims);
    if (restart !== undefined) out.items.push({ position: out.items.length, steps: [[restart]] });
    const name = pod.metadata.name ?? '';
    if (claims.resizing !== undefined && !reported.has(name)) out.blockers.push(resizingBlocker(name, claims.resizing));
    wakeAt = earliest(wakeAt, claimsAvailableAt(ctx, claims));
  }
  const facts = wakeAt === undefined ? {} : { facts: { wakeAt } };
  return result({ work: [{ order: 'slowStart', items: out.items }], blockers: out.blockers, ...facts });
};

/** Update deletions, one batch each in order; the status already counts them out of currentReplicas. */
function deleteVictims(ctx: SyncContext, decision: UpdateDecision): PhaseResult {
  const out = { forced: [] as Pod[], blockers: [] as Blocker[] };
  const items = decision.victims.flatMap(({ pod }, position) => updateItem(ctx, pod, position, out));
  // a replica whose claims cannot follow holds the rolling update where it is (KEP-4650), not the budget
  const held = out.blockers.some((b) => b.kind === 'claimExpansionRefused' || b.kind === 'claimIncompatible');
  out.blockers.unshift(...decision.blockers.filter((b) => !(held && b.kind === 'budgetExhausted')));
  const facts: Partial<SyncFacts> = { forced: out.forced, ...(decision.unavailablePods !== undefined ? { unavailablePods: decision.unavailablePods } : {}) };
  const events = out.forced.map((pod) => forcedReplacementEvent(ctx.set, pod));
  return result({ work: [{ order: 'sequential', items }], blockers: out.blockers, events, facts });
}

/** The strategy's update phase (upstream §4.1 dispatch). */
const updatePhase: Phase = (ctx, facts) => {
  switch (ctx.strategy.kind) {
    case 'OnDelete': {
      const outdated = oldCount(ctx, 0);
      return result({ blockers: outdated > 0 ? [{ kind: 'onDeleteStrategy', outdatedPods: outdated }] : [] });
    }
    case 'Recreate':
      // every pod that needed a new template is gone (recreatePhase); replicas that change only their claims
      // or label are moved like a rolling update, one at a time, and none is deleted
      return oldCount(ctx, 0) > 0 || staleCount(ctx, 0) > 0 ? deleteVictims(ctx, planMaxUnavailableUpdate(ctx)) : result({});
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
  { name: 'claims', run: claimsPhase },
];

// upstream: stateful_set_control.go updateStatefulSet
export function planSync(ctx: SyncContext): SyncBody {
  const writer = new BatchWriter(1);
  const body: SyncBody = { actions: writer.actions, blockers: [], events: [], halt: {}, forced: [] };
  let updateHeld = false;
  for (const phase of PHASES) {
    if (phase.name === 'update' && updateHeld) continue;
    const r = phase.run(ctx, body);
    for (const w of r.work) {
      if (w.order === 'policy') writer.runForAll(w.items, ctx.monotonic);
      else if (w.order === 'sequential') writer.sequential(w.items);
      else writer.slowStart(w.items);
    }
    body.blockers.push(...r.blockers);
    body.events.push(...r.events);
    const { wakeAt, ...facts } = r.facts ?? {};
    Object.assign(body, facts);
    const wake = earliest(body.wakeAt, wakeAt);
    if (wake !== undefined) body.wakeAt = wake;
    if (r.stop === 'sync') break;
    updateHeld ||= r.stop === 'update';
  }
  body.events.push(...body.blockers.flatMap((b) => claimBlockedEvent(ctx.set, b) ?? []));
  return body;
}
