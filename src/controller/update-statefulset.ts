// One sync's pod decisions in upstream's order (stateful_set_control.go updateStatefulSet), read top to
// bottom in planSync: EnforcedRollingUpdate's guards, Recreate's delete-and-wait, the replica pass,
// condemned claims and scale-down, the strategy's update, then (InPlace) the claims. Each phase returns data
// (PhaseResult); planSync numbers their writes into batches and returns where upstream's sync returns.

import { fromTimestamp, type Instant, type Pod } from '../api/types.js';
import { BatchWriter, type Item } from './batches.js';
import { earliest } from './availability.js';
import { claimsAvailableAt, recordResizes, replicaClaims, resizingBlocker, updateStep, type ReplicaClaims } from './claim-updates.js';
import { condemnedPass } from './condemned.js';
import { evictsUpdates } from './disruption-budget.js';
import { downIndicesDescending, isOld, slotUnavailability, type SyncContext } from './sync-context.js';
import { oldCount, staleCount } from './update-range.js';
import { brokenBelowPartition, checkSafetyHalt, haltBlocker, isStuck, planEnforcedUpdate, stuckSince, type HaltCheck } from './enforced-rolling-update.js';
import { claimBlockedEvent, forcedReplacementEvent } from './event-texts.js';
import type { Action, Blocker, PlannedEvent } from './plan-types.js';
import { inPlacePass, inPlaceStep } from './pod-in-place.js';
import { isTerminating, podOrdinal, podRevision } from './pod-state.js';
import { planRecreate, type RecreateDecision } from './recreate.js';
import { replicaPass } from './replica-pass.js';
import { planDownFirst, planLegacyUpdate, planMaxUnavailableUpdate, type UpdateDecision } from './rolling-update-deletions.js';

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
  /** Upstream's sync returns here: no later phase runs. */
  returns?: true;
  facts?: Partial<SyncFacts>;
}

/** The sync's writes (numbered into batches, not yet dense), blockers, events and facts. */
export interface SyncBody extends SyncFacts {
  actions: Action[];
  blockers: Blocker[];
  events: PlannedEvent[];
}

const result = (r: Partial<PhaseResult>): PhaseResult => ({ work: [], blockers: [], events: [], ...r });

/**
 * EnforcedRollingUpdate: the safety halt and the broken pods the partition holds back. The way back of an
 * aborted rollout has the same safety check: when a pod it brought back fails too, it halts there.
 */
function enforcedGuards(ctx: SyncContext): PhaseResult {
  if (ctx.strategy.kind !== 'EnforcedRollingUpdate' && ctx.rollback === undefined) return result({});
  const halt = checkSafetyHalt(ctx);
  const halting = haltBlocker(ctx, halt);
  const held = brokenBelowPartition(ctx);
  const blockers = [...(halting ? [halting] : []), ...(held.blocker ? [held.blocker] : [])];
  return result({ blockers, facts: { halt, ...(held.failsAt !== undefined ? { wakeAt: held.failsAt } : {}) } });
}

/** Recreate: while old pods exist, delete them and do nothing else this sync. */
// upstream: stateful_set_control.go recreateDeleteAndWait
function recreatePhase(ctx: SyncContext): PhaseResult {
  if (ctx.strategy.kind !== 'Recreate') return result({});
  const decision = planRecreate(ctx);
  if (decision.proceed) return result({ facts: { recreate: decision } });
  return result({ work: [{ order: 'slowStart', items: decision.deletions }], blockers: decision.blockers, returns: true, facts: { recreate: decision } });
}

// upstream: stateful_set_control.go updateStatefulSet (runForAll(replicas, processReplica))
function replicasPhase(ctx: SyncContext): PhaseResult & { holdsUpdate: boolean } {
  const pass = replicaPass(ctx);
  // an OrderedReady pass that stopped ends the sync; EnforcedRollingUpdate (and a rollback) deletes condemned
  // pods without waiting for it, and only its update waits
  const enforced = ctx.strategy.kind === 'EnforcedRollingUpdate' || ctx.rollback !== undefined;
  return { ...result({ work: [{ order: 'policy', items: pass.items }], blockers: pass.blockers, events: pass.events, ...(pass.stopped && !enforced ? { returns: true as const } : {}) }), holdsUpdate: pass.stopped };
}

// upstream: stateful_set_control.go updateStatefulSet (fixPodClaim and processCondemned over condemned)
function condemnedPhase(ctx: SyncContext): PhaseResult {
  const condemned = condemnedPass(ctx, slotUnavailability(ctx).firstUnavailable);
  const work: Work[] = [
    { order: 'policy', items: condemned.claimItems },
    { order: 'policy', items: condemned.deleteItems },
  ];
  return result({ work, blockers: condemned.blockers, events: condemned.events, ...(condemned.stopped ? { returns: true as const } : {}) });
}

const stuckSeconds = (pod: Pod, now: Instant): number => {
  const since = stuckSince(pod);
  return since === undefined ? 0 : Math.max(0, (now - since) / 1000);
};

/** The update step of one chosen replica: its deletion, its relabel, or (InPlace) its claims first (claim-updates.ts). */
function updateItem(ctx: SyncContext, pod: Pod, position: number, out: { forced: Pod[]; blockers: Blocker[] }): Item[] {
  const inPlace = inPlaceStep(ctx, pod);
  if (inPlace?.kind === 'patch') return [{ position, steps: [[inPlace.action]] }];
  if (inPlace?.kind === 'wait') out.blockers.push(inPlace.blocker);
  if (inPlace !== undefined) return [];
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
  const isForced = !step.forClaims && ctx.rollback === undefined && ctx.strategy.kind === 'EnforcedRollingUpdate' && isOld(ctx, pod) && isStuck(ctx, pod);
  if (isForced) out.forced.push(pod);
  const action: Action = {
    kind: 'deletePod',
    batch: 0,
    name: pod.metadata.name ?? '',
    uid: pod.metadata.uid ?? '',
    ordinal: podOrdinal(pod),
    cause: ctx.rollback !== undefined ? 'rollback' : isForced ? 'forced' : 'update',
    decrementsCurrentReplicas: podRevision(pod) === ctx.currentRevision,
    ...(isForced ? { stuckSeconds: stuckSeconds(pod, ctx.now) } : {}),
    // the budgets admitted it (disruption-budget.ts): the API server's eviction handler has the last word
    ...(evictsUpdates(ctx) ? { eviction: true as const } : {}),
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

/** podUpdatePolicy: the pods moving in place, relabelled once their kubelet reports the new images and resources (pod-in-place.ts). */
function inPlacePhase(ctx: SyncContext): PhaseResult {
  const pass = inPlacePass(ctx);
  const facts = pass.wakeAt === undefined ? {} : { facts: { wakeAt: pass.wakeAt } };
  return result({ work: [{ order: 'slowStart', items: pass.actions.map((a, position) => ({ position, steps: [[a]] })) }], blockers: pass.blockers, ...facts });
}

function claimsPhase(ctx: SyncContext, known: readonly Blocker[]): PhaseResult {
  if (!ctx.inPlace) return result({});
  const reported = new Set(known.flatMap((b) => (b.kind === 'claimResizing' || b.kind === 'claimResizeFailed' ? [b.pod] : [])));
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
}

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

/**
 * A paused rollout (rollingUpdate.paused, or a failed step: rollout-steps.ts) updates no pod or claim; under
 * EnforcedRollingUpdate it still replaces broken pods of an old revision (as Deployments and Kruise do while paused).
 */
function heldUpdate(ctx: SyncContext, halt: HaltCheck): PhaseResult {
  if (ctx.strategy.kind !== 'EnforcedRollingUpdate' || halt.halted !== undefined) return result({});
  // the stuck old pods from the partition up, highest first: none is available, so none takes budget
  const victims = downIndicesDescending(ctx, ctx.strategy.partition)
    .map((index) => ({ index, pod: ctx.slots.pod(index) }))
    .filter((c): c is { index: number; pod: Pod } => c.pod !== undefined && !isTerminating(c.pod) && isOld(ctx, c.pod) && isStuck(ctx, c.pod))
    .slice(0, ctx.strategy.maxUnavailable);
  return deleteVictims(ctx, { victims, blockers: [] });
}

/** The strategy's update phase (upstream §4.1 dispatch); an aborted rollout's way back (rollback.ts) instead. */
function updatePhase(ctx: SyncContext, halt: HaltCheck): PhaseResult {
  if (ctx.rollback !== undefined) return deleteVictims(ctx, halt.halted === undefined ? planDownFirst(ctx) : { victims: [], blockers: [] });
  if (ctx.steps?.holds === true) return heldUpdate(ctx, halt);
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
      return deleteVictims(ctx, planEnforcedUpdate(ctx, halt));
    case 'RollingUpdate':
      return deleteVictims(ctx, ctx.strategy.legacy ? planLegacyUpdate(ctx) : planMaxUnavailableUpdate(ctx));
  }
};

/** The writes, blockers, events and facts of the phases run so far, in order. */
class SyncFold {
  private readonly writer = new BatchWriter(1);
  readonly body: SyncBody = { actions: this.writer.actions, blockers: [], events: [], halt: {}, forced: [] };

  constructor(private readonly monotonic: boolean) {}

  /** Adds a phase's result; true when upstream's sync returns there. */
  add(r: PhaseResult): boolean {
    for (const w of r.work) {
      if (w.order === 'policy') this.writer.runForAll(w.items, this.monotonic);
      else if (w.order === 'sequential') this.writer.sequential(w.items);
      else this.writer.slowStart(w.items);
    }
    this.body.blockers.push(...r.blockers);
    this.body.events.push(...r.events);
    const { wakeAt, ...facts } = r.facts ?? {};
    Object.assign(this.body, facts);
    const wake = earliest(this.body.wakeAt, wakeAt);
    if (wake !== undefined) this.body.wakeAt = wake;
    return r.returns === true;
  }
}

// upstream: stateful_set_control.go updateStatefulSet
export function planSync(ctx: SyncContext): SyncBody {
  const fold = new SyncFold(ctx.monotonic);
  const body = fold.body;
  const done = (): SyncBody => {
    body.events.push(...body.blockers.flatMap((b) => claimBlockedEvent(ctx.set, b) ?? []));
    return body;
  };
  fold.add(enforcedGuards(ctx));
  if (fold.add(recreatePhase(ctx))) return done();
  const replicas = replicasPhase(ctx);
  const stops = fold.add(replicas);
  // a restarting pod stops an OrderedReady pass: its relabel must not wait for it to be Ready
  fold.add(inPlacePhase(ctx));
  if (stops) return done();
  if (fold.add(condemnedPhase(ctx))) return done();
  if (!replicas.holdsUpdate) fold.add(updatePhase(ctx, body.halt));
  fold.add(claimsPhase(ctx, body.blockers));
  return done();
}
