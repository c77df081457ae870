// One sync's pod decisions in upstream's order (stateful_set_control.go updateStatefulSet), read top to
// bottom in planSync: EnforcedRollingUpdate's guards, Recreate's delete-and-wait, the replica pass,
// condemned claims and scale-down, the strategy's update, then (InPlace) the claims. Each phase returns data
// (PhaseResult); planSync numbers their writes into batches and returns where upstream's sync returns.

import type { Instant, Pod } from '../../api/types.js';
import { Admission } from '../admission/admission.js';
import { enforcedBudget, noWalkBlockers, walkKind, walkUpdate } from '../admission/update-walk.js';
import { BatchWriter, type Item } from '../model/batches.js';
import { claimBlockedEvent } from '../model/event-texts.js';
import { earliest } from '../model/instants.js';
import type { Action, AnalysisProbe, Blocker, DisruptionWait, PlannedEvent } from '../model/plan-types.js';
import { recordResizes, resizingBlocker, restartForClaims } from '../proposals/claim-updates.js';
import { replicaClaims } from '../rollout/claim-apply.js';
import { condemnedPass } from '../proposals/condemned.js';
import { brokenBelowPartition } from '../proposals/enforced-rolling-update.js';
import { inPlacePass } from '../proposals/pod-in-place.js';
import { drainPass } from '../proposals/drain-pass.js';
import type { Proposal, Refusal } from '../proposals/proposal.js';
import { planRecreate, type RecreateDecision } from '../proposals/recreate.js';
import { replicaPass } from '../proposals/replica-pass.js';
import { haltBlocker } from '../rollout/safety-halt.js';
import type { HaltCheck } from '../rollout/rollout.js';
import { slotUnavailability, type SyncContext } from '../rollout/sync-context.js';

/** What the status, metrics and wake-up of a sync need to know besides its writes. */
export interface SyncFacts {
  /** EnforcedRollingUpdate's safety check of the highest new pod. */
  halt: HaltCheck;
  /** Old pods replaced while unavailable (EnforcedRollingUpdate). */
  forced: Pod[];
  recreate?: RecreateDecision;
  /** statefulset_unavailable_replicas, when the gate-on rolling-update path ran. */
  unavailablePods?: number;
  /** When an old pod below the partition will count as broken (EnforcedRollingUpdate: the pass stops waiting for it); when a hook is due again. */
  wakeAt?: Instant;
  /** spec.lifecycle.preUpdate: the hooks' GETs due now. */
  probes?: AnalysisProbe[];
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
 * EnforcedRollingUpdate: the safety halt (a hold of the rollout record) and the broken pods the partition holds
 * back. The way back of an aborted rollout has the same safety check: when a pod it brought back fails too, it
 * halts there.
 */
function enforcedGuards(ctx: SyncContext): PhaseResult {
  if (ctx.strategy.kind !== 'EnforcedRollingUpdate' && ctx.rollback === undefined) return result({});
  const halt = ctx.rollout.halt;
  const halting = haltBlocker(ctx, halt);
  const held = brokenBelowPartition(ctx);
  const blockers = [...(halting ? [halting] : []), ...(held.blocker ? [held.blocker] : [])];
  return result({ blockers, facts: { halt, ...(held.failsAt !== undefined ? { wakeAt: held.failsAt } : {}) } });
}

/** Recreate: while old pods exist, delete them and do nothing else this sync. */
// upstream: stateful_set_control.go recreateDeleteAndWait
function recreatePhase(ctx: SyncContext, admission: Admission): PhaseResult {
  if (ctx.strategy.kind !== 'Recreate') return result({});
  const decision = planRecreate(ctx, admission);
  if (decision.proceed) return result({ facts: { recreate: decision } });
  return result({ work: [{ order: 'slowStart', items: decision.deletions }], blockers: decision.blockers, returns: true, facts: { recreate: decision } });
}

// upstream: stateful_set_control.go updateStatefulSet (runForAll(replicas, processReplica))
function replicasPhase(ctx: SyncContext, admission: Admission): PhaseResult & { holdsUpdate: boolean } {
  const pass = replicaPass(ctx, admission);
  // an OrderedReady pass that stopped ends the sync; EnforcedRollingUpdate (and a rollback) deletes condemned
  // pods without waiting for it, and only its update waits
  const enforced = ctx.strategy.kind === 'EnforcedRollingUpdate' || ctx.rollback !== undefined;
  return { ...result({ work: [{ order: 'policy', items: pass.items }], blockers: pass.blockers, events: pass.events, ...(pass.stopped && !enforced ? { returns: true as const } : {}) }), holdsUpdate: pass.stopped };
}

// upstream: stateful_set_control.go updateStatefulSet (fixPodClaim and processCondemned over condemned)
function condemnedPhase(ctx: SyncContext, admission: Admission): PhaseResult {
  const condemned = condemnedPass(ctx, slotUnavailability(ctx).firstUnavailable, admission);
  const work: Work[] = [
    { order: 'policy', items: condemned.claimItems },
    { order: 'policy', items: condemned.deleteItems },
  ];
  return result({ work, blockers: condemned.blockers, events: condemned.events, ...(condemned.stopped ? { returns: true as const } : {}) });
}

/** What a refused disruption of a pod waits for (`why`), by the rule that refused it. */
const WAITS_FOR: Record<Exclude<Refusal, 'preUpdateHook' | 'draining'>, DisruptionWait> = { held: 'resume', halted: 'halt', budget: 'budget', disruptionBudget: 'disruptionBudget' };

/** A phase's admitted writes (one item each, in proposal order), the blockers of what waits, the events. */
interface Admitted {
  items: Item[];
  blockers: Blocker[];
  events: PlannedEvent[];
}

/** Offers one proposal to the admission: its actions as the next item when admitted, else what it waits for. */
function admitInto(ctx: SyncContext, admission: Admission, p: Proposal, out: Admitted): void {
  const verdict = admission.admit(p);
  if (verdict.admitted) {
    out.items.push({ position: out.items.length, steps: [verdict.actions] });
    if (p.event !== undefined) out.events.push(p.event);
    return;
  }
  // the hook's own blocker (preUpdateHook), or the drain's (inPlaceDraining), says what the pod waits for
  if (verdict.refusal === 'preUpdateHook' || verdict.refusal === 'draining') return;
  const { userPause, stepFailed } = ctx.rollout.holds;
  const waitsFor = verdict.refusal !== 'held' || userPause ? WAITS_FOR[verdict.refusal] : stepFailed ? 'retry' : 'verdict';
  out.blockers.push({ kind: 'disruptionWaits', pod: p.pod.metadata.name ?? '', ordinal: p.ordinal, cause: p.cause, waitsFor });
}

/**
 * podUpdatePolicy: the pods moving in place — relabelled once their kubelet reports the new images and
 * resources (pod-in-place.ts); their fallbacks and moves on go through the admission like every disruption.
 */
function inPlacePhase(ctx: SyncContext, admission: Admission): PhaseResult {
  const pass = inPlacePass(ctx);
  const out: Admitted = { items: [], blockers: [], events: [] };
  for (const m of [...pass.moves, ...drainPass(ctx)]) {
    if (m.action !== undefined) out.items.push({ position: out.items.length, steps: [[m.action]] });
    else admitInto(ctx, admission, m.proposal, out);
  }
  const facts = pass.wakeAt === undefined ? {} : { facts: { wakeAt: pass.wakeAt } };
  return result({ work: [{ order: 'slowStart', items: out.items }], blockers: [...pass.blockers, ...out.blockers], events: out.events, ...facts });
}

/**
 * InPlace, over every replica: records the end of each expansion the controller asked for (so minReadySeconds
 * counts from it), restarts updated pods an offline expansion waits for (through the admission), and says which
 * replicas wait for their claims.
 */
function claimsPhase(ctx: SyncContext, admission: Admission, known: readonly Blocker[]): PhaseResult {
  if (!ctx.rollout.knobs.claimsInPlace) return result({});
  const reported = new Set(known.flatMap((b) => (b.kind === 'claimResizing' || b.kind === 'claimResizeFailed' ? [b.pod] : [])));
  const out: Admitted = { items: [], blockers: [], events: [] };
  for (const i of ctx.slots.indices()) {
    const pod = ctx.slots.pod(i) as Pod;
    const claims = replicaClaims(ctx, pod);
    const records = recordResizes(ctx, pod, claims);
    if (records.length > 0) out.items.push({ position: out.items.length, steps: [records] });
    const restart = restartForClaims(ctx, pod, claims);
    if (restart !== undefined) admitInto(ctx, admission, restart, out);
    const name = pod.metadata.name ?? '';
    if (claims.resizing !== undefined && !reported.has(name)) out.blockers.push(resizingBlocker(name, claims.resizing));
  }
  return result({ work: [{ order: 'slowStart', items: out.items }], blockers: out.blockers, events: out.events });
}

/** The strategy's update (upstream §4.1 dispatch): the update walk (admission/update-walk.ts). */
function updatePhase(ctx: SyncContext, admission: Admission): PhaseResult {
  const kind = walkKind(ctx);
  if (kind === undefined) return result({ blockers: noWalkBlockers(ctx) });
  const walked = walkUpdate(ctx, kind, kind === 'enforced' || kind === 'held' ? admission.withBudget(enforcedBudget(ctx)) : admission);
  const facts: Partial<SyncFacts> = { forced: walked.forced, ...(walked.unavailablePods !== undefined ? { unavailablePods: walked.unavailablePods } : {}) };
  return result({ work: [{ order: 'sequential', items: walked.items }], blockers: walked.blockers, events: walked.events, facts });
}

/** spec.lifecycle.preUpdate: what the admission's hook rule asked for this sync — records, GETs, the pods it holds. */
function hookPhase(admission: Admission): PhaseResult {
  const work = admission.hookWork();
  if (work === undefined) return result({});
  const items = work.actions.map((a, position): Item => ({ position, steps: [[a]] }));
  const facts: Partial<SyncFacts> = { ...(work.probes.length > 0 ? { probes: work.probes } : {}), ...(work.wakeAt !== undefined ? { wakeAt: work.wakeAt } : {}) };
  return result({ work: [{ order: 'slowStart', items }], blockers: work.blockers, facts });
}

/** inPlaceUpdateStrategy: the pods the admission's drain rule has draining, and when the first drain ends. */
function drainPhase(admission: Admission): PhaseResult {
  const work = admission.drainWork();
  if (work === undefined) return result({});
  return result({ blockers: work.blockers, ...(work.wakeAt !== undefined ? { facts: { wakeAt: work.wakeAt } } : {}) });
}

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
  // one admission for the sync: every phase's disruptions spend the same budget and PodDisruptionBudgets
  const admission = new Admission(ctx);
  const done = (): SyncBody => {
    fold.add(hookPhase(admission));
    fold.add(drainPhase(admission));
    body.blockers.push(...admission.disruptionBudgetBlockers());
    body.events.push(...body.blockers.flatMap((b) => claimBlockedEvent(ctx.set, b) ?? []));
    return body;
  };
  fold.add(enforcedGuards(ctx));
  if (fold.add(recreatePhase(ctx, admission))) return done();
  const replicas = replicasPhase(ctx, admission);
  const stops = fold.add(replicas);
  // a restarting pod stops an OrderedReady pass: its relabel must not wait for it to be Ready
  fold.add(inPlacePhase(ctx, admission));
  if (stops) return done();
  if (fold.add(condemnedPhase(ctx, admission))) return done();
  if (!replicas.holdsUpdate) fold.add(updatePhase(ctx, admission));
  fold.add(claimsPhase(ctx, admission, body.blockers));
  return done();
}
