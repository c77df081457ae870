// The update walk: the one place a rolling update chooses which replicas move to the update revision this sync.
// It visits candidates in update order — top-down by ordinal from the partition (the step's, after steps and a
// rollback), or by priority (updateOrder), within the zone that moves (topologyKey) — works out what moving each
// one takes (proposals/update-move.ts) and offers every disruption to the admission (admission.ts), which
// applies the holds, the budget and PodDisruptionBudgets. A move that disrupts nothing (a relabel) costs nothing.
// The walk's shape is the strategy's (a `WalkKind`), as upstream's three copies of the top-down loop are:
// - legacy (MaxUnavailableStatefulSet off): the first old pod from the top, unless an unhealthy replica is
//   above it (upstream's one-at-a-time loop);
// - ordered (OrderedReady, #137666): up to maxUnavailable − unavailable old pods top-down, whatever their health;
// - downFirst (Parallel, #137666; and a rollback's way back): every old pod that is down first (no budget: it is
//   unavailable already), then available ones while the budget has room;
// - enforced (EnforcedRollingUpdate, KEP-3541's first design): top-down, stuck old pods without budget, stopping
//   at a replica of the update revision that is not available yet;
// - held (EnforcedRollingUpdate while paused or failed at a step): only stuck old pods are replaced.

import type { Pod } from '../../api/types.js';
import type { Item } from '../model/batches.js';
import * as block from '../model/blockers.js';
import { forcedReplacementEvent } from '../model/event-texts.js';
import { mergeDescending } from '../model/merge.js';
import type { Blocker, PlannedEvent } from '../model/plan-types.js';
import { isTerminating, podOrdinal } from '../model/pod-state.js';
import { updateMove } from '../proposals/update-move.js';
import type { Charge } from '../proposals/proposal.js';
import { missingDescending, missingIndices } from '../replica/replicas.js';
import { downIndices, downIndicesDescending, isOld, unavailable, type SyncContext } from '../rollout/sync-context.js';
import { needsUpdate } from '../rollout/claim-apply.js';
import { isReplaceableOldPod } from '../proposals/enforced-rolling-update.js';
import { isStuck } from '../rollout/safety-halt.js';
import { oldCount, staleCount, staleDescending, staleDownDescending } from '../rollout/update-range.js';
import type { Admission } from './admission.js';
import { priorityBlocker, priorityRollout } from '../rollout/update-order.js';
import { updateHeld } from '../rollout/rollout.js';
import { updateBudget, type UpdateBudget } from './update-budget.js';
import { zoneBlocker, zoneRollout } from '../rollout/zone-order.js';

export type WalkKind = 'legacy' | 'ordered' | 'downFirst' | 'enforced' | 'held';

/** What the walk decided: the moves in order (each its own batch), blockers, forced replacements, events. */
export interface WalkResult {
  items: Item[];
  blockers: Blocker[];
  forced: Pod[];
  events: PlannedEvent[];
  /** In-range unavailable slots (statefulset_unavailable_replicas), when the gate-on path ran. */
  unavailablePods?: number;
}

/** What happened to one candidate: a disruption admitted or a replica that cannot move (`taken`), no cost (`free`), or refused. */
type Offer = 'taken' | 'free' | 'budget' | 'disruptionBudget' | 'held' | 'halted';

/** One walk's record of its moves. */
class Moves {
  readonly items: Item[] = [];
  readonly waits: Blocker[] = [];
  readonly forced: Pod[] = [];
  readonly events: PlannedEvent[] = [];
  taken = 0;

  constructor(
    private readonly ctx: SyncContext,
    private readonly admission: Admission,
  ) {}

  /** Works out the candidate's move and offers its disruption, if any, to the admission. */
  offer(pod: Pod, charge: Charge): Offer {
    const move = updateMove(this.ctx, pod);
    switch (move.kind) {
      case 'none':
        return 'free';
      case 'relabel':
        this.items.push({ position: this.items.length, steps: [[move.action]] });
        return 'free';
      case 'wait':
        // a replica that cannot move holds its place in the walk (KEP-4650: the user decides)
        this.waits.push(move.blocker);
        this.taken++;
        return 'taken';
      case 'disrupt':
        break;
    }
    const ordinal = podOrdinal(pod);
    const verdict = this.admission.admit({ cause: move.cause, pod, ordinal, disruption: move.disruption, charge, ...(move.stuckSeconds !== undefined ? { stuckSeconds: move.stuckSeconds } : {}) });
    if (!verdict.admitted) {
      if (verdict.refusal !== 'preUpdateHook' && verdict.refusal !== 'draining') return verdict.refusal;
      // a pod whose hook runs (or that drains) holds its place in the walk, as it would going down
      this.taken++;
      return 'taken';
    }
    this.items.push({ position: this.items.length, steps: [verdict.actions] });
    if (move.event !== undefined) this.events.push(move.event);
    if (move.cause === 'forced') {
      this.forced.push(pod);
      this.events.push(forcedReplacementEvent(this.ctx.set, pod));
    }
    this.taken++;
    return 'taken';
  }

  /** The walk's result: its own blockers first, then the moves' waits. */
  result(blockers: Blocker[], unavailablePods?: number): WalkResult {
    // a replica whose claims cannot follow holds the rolling update where it is (KEP-4650), not the budget
    const held = this.waits.some((b) => b.kind === 'claimExpansionRefused' || b.kind === 'claimIncompatible');
    const own = blockers.filter((b) => !(held && b.kind === 'budgetExhausted'));
    return { items: this.items, blockers: [...own, ...this.waits], forced: this.forced, events: this.events, ...(unavailablePods !== undefined ? { unavailablePods } : {}) };
  }
}

const candidate = (ctx: SyncContext, index: number): Pod => ctx.slots.pod(index) as Pod;

/**
 * The stale replicas of the update range a batch chooses from, in update order: top-down, or under updateOrder
 * Priority those of the priority that moves; under a topologyKey only those of the zone that moves. Nothing
 * while another zone is disrupted or a higher priority waits for the set to be whole.
 */
function* updateCandidates(ctx: SyncContext): Generator<number> {
  const zones = zoneRollout(ctx);
  const priority = priorityRollout(ctx);
  if (zones?.disrupted !== undefined || priority?.waitingFor !== undefined) return;
  // the priority order holds the stale replicas of the zone that moves only
  if (priority !== undefined) yield* priority.order.filter(priority.moves);
  else for (const index of staleDescending(ctx, ctx.strategy.partition)) if (zones === undefined || zones.moves(index)) yield index;
}

/**
 * Offers the first update candidates at a charge of a budget slot each, while `cap` of them have not been taken;
 * a candidate a PodDisruptionBudget refuses ends the walk (a pod never goes before one earlier in the order that
 * it holds back).
 */
function offerTop(ctx: SyncContext, moves: Moves, cap: number, skip?: ReadonlySet<number>): number {
  let taken = 0;
  if (cap <= 0) return taken;
  for (const index of updateCandidates(ctx)) {
    if (skip?.has(index)) continue;
    const offer = moves.offer(candidate(ctx, index), 'slot');
    if (offer === 'taken') taken++;
    else if (offer !== 'free') break;
    if (taken >= cap) break;
  }
  return taken;
}

/** Names of unavailable or missing slots for a budget blocker (bounded: stops after MAX_LISTED_PODS names). */
function unavailableNames(ctx: SyncContext): string[] {
  const names: string[] = [];
  const missing = missingIndices(ctx.slots);
  const down = downIndices(ctx);
  let m = missing.next();
  let d = down.next();
  while (names.length < block.MAX_LISTED_PODS && (m.done !== true || d.done !== true)) {
    const takeMissing = d.done === true || (m.done !== true && m.value < d.value);
    const i = takeMissing ? (m.value as number) : (d.value as number);
    if (takeMissing) m = missing.next();
    else d = down.next();
    names.push(`${ctx.set.metadata.name ?? ''}-${ctx.slots.start + i}`);
  }
  return names;
}

/**
 * What is still to update after `taken` replicas, as blockers: the budget exhausted (when `budget` limited the
 * choice), or the partition holding pods back.
 */
function remainingBlockers(ctx: SyncContext, taken: number, budget: UpdateBudget | undefined): Blocker[] {
  const out: Blocker[] = [];
  const waiting = budget !== undefined && staleCount(ctx, ctx.strategy.partition) > taken;
  if (waiting) {
    out.push({ kind: 'budgetExhausted', unavailable: budget.unavailable, maxUnavailable: budget.maxUnavailable, unavailablePods: unavailableNames(ctx) });
  }
  const heldBack = oldCount(ctx, 0, ctx.strategy.partition);
  if (heldBack > 0) out.push({ kind: 'partition', partition: ctx.strategy.partition, heldBack });
  return out;
}

/** What the zone order (topologyKey) and the priority order (updateOrder) hold back. */
const orderBlockers = (ctx: SyncContext): Blocker[] => [...zoneBlocker(zoneRollout(ctx)), ...priorityBlocker(ctx, priorityRollout(ctx))];

/** Top-down from the highest index: move the first old pod, or wait on the first unavailable one. */
// upstream: stateful_set_control.go updateStatefulSet (legacy loop, MaxUnavailableStatefulSet off)
function legacyWalk(ctx: SyncContext, moves: Moves): WalkResult {
  const { partition } = ctx.strategy;
  const zones = zoneRollout(ctx);
  const priority = priorityRollout(ctx);
  const held = orderBlockers(ctx);
  const missing = missingDescending(ctx.slots, partition, ctx.slots.count).next();
  // under a topologyKey the loop passes over the replicas of the zones that wait; under Priority it takes the
  // first of the priority that moves (within the zone that moves)
  let stale = priority?.order.find(priority.moves);
  if (priority === undefined) {
    for (const i of staleDescending(ctx, partition)) {
      if (zones !== undefined && !zones.moves(i)) continue;
      stale = i;
      break;
    }
  }
  const downs = downIndicesDescending(ctx, partition);
  const missingTop = missing.done === true ? -1 : missing.value;
  // the highest of the three decides, as the loop would meet it first (an index is either missing or a pod);
  // under Priority any other replica missing or down is waited for first, one pod at a time as the loop does
  const other = Math.max(missingTop, downs.find((i) => i !== stale) ?? -1);
  const top = priority === undefined ? Math.max(missingTop, stale ?? -1, downs[0] ?? -1) : other >= 0 ? other : (stale ?? -1);
  if (top < 0) return moves.result([...held, ...remainingBlockers(ctx, 0, undefined)]);
  const pod = ctx.slots.pod(top);
  if (pod === undefined) return moves.result([{ kind: 'podMissing', pod: `${ctx.set.metadata.name ?? ''}-${ctx.slots.start + top}`, ordinal: ctx.slots.start + top }]);
  if (stale !== top) return moves.result([isTerminating(pod) ? block.terminating(pod) : block.notAvailable(pod, ctx.minReadySeconds)]);
  if (zones?.disrupted !== undefined || priority?.waitingFor !== undefined) return moves.result(held);
  const offer = moves.offer(pod, 'free');
  return moves.result(offer === 'disruptionBudget' ? [...held, ...remainingBlockers(ctx, 0, undefined)] : held);
}

/**
 * Gate on (#137666): OrderedReady moves up to maxUnavailable − unavailable old pods top-down, whatever their
 * health.
 */
// upstream: stateful_set_control.go updateStatefulSetAfterInvariantEstablished
function orderedWalk(ctx: SyncContext, moves: Moves, admission: Admission): WalkResult {
  const budget = admission.budget;
  const initial = budget.remaining;
  return withBudgets(ctx, moves, budget, initial, 0, offerTop(ctx, moves, initial));
}

/**
 * Every stale pod that is down (no budget: it is unavailable already), then stale available ones while the
 * budget — which counts every unavailable slot — has room, each top-down: #137666's Parallel deletion, and the
 * way back of an aborted rollout under either policy (rollback.ts), so availability never drops below
 * replicas − maxUnavailable there and a broken pod never waits. A pod that is down goes without budget, but
 * only in the zone and the priority that move, and not while a higher priority waits for the set to be whole.
 */
// upstream: stateful_set_control.go updateStatefulSetAfterInvariantEstablished (Parallel)
function downFirstWalk(ctx: SyncContext, moves: Moves, admission: Admission): WalkResult {
  const budget = admission.budget;
  const initial = budget.remaining;
  const phase1 = staleDownDescending(ctx);
  const zones = zoneRollout(ctx);
  const priority = priorityRollout(ctx);
  const moving = (i: number): boolean => (zones === undefined || zones.moves(i)) && (priority === undefined || (priority.moves(i) && priority.waitingFor === undefined));
  let down = 0;
  for (const i of phase1) if (moving(i) && moves.offer(candidate(ctx, i), 'free') === 'taken') down++;
  return withBudgets(ctx, moves, budget, initial, down, offerTop(ctx, moves, initial, new Set(phase1)));
}

/** The decision, with what PodDisruptionBudgets, the zone order (topologyKey) and the priority order (updateOrder) hold back. */
function withBudgets(ctx: SyncContext, moves: Moves, budget: UpdateBudget, initial: number, down: number, available: number): WalkResult {
  const zones = zoneRollout(ctx);
  const priority = priorityRollout(ctx);
  // what a PodDisruptionBudget, the zone or the priority order holds back does not wait for maxUnavailable while the budget has room
  const ordered = zones === undefined && priority === undefined;
  const ledger = ctx.rollout.knobs.respectDisruptionBudgets;
  const limited = (!ledger && ordered) || (available >= initial && zones?.disrupted === undefined && priority?.waitingFor === undefined);
  return moves.result([...orderBlockers(ctx), ...remainingBlockers(ctx, down + available, limited ? budget : undefined)], budget.unavailable);
}

/** The blocker that ends EnforcedRollingUpdate's top-down scan at `pod`, or undefined when the scan may continue past it. */
function scanStop(ctx: SyncContext, pod: Pod): Blocker | undefined {
  if (isTerminating(pod)) return block.terminating(pod);
  if (!isOld(ctx, pod) && unavailable(ctx, pod)) return block.notAvailable(pod, ctx.minReadySeconds);
  return undefined;
}

/** The budget of EnforcedRollingUpdate's walk: old pods it replaces anyway do not count against it. */
export const enforcedBudget = (ctx: SyncContext): UpdateBudget => updateBudget(ctx, (i, p) => isReplaceableOldPod(ctx, i, p));

// upstream: none (KEP-3541's first design, "Proposed EnforcedRollingUpdate Algorithm")
function enforcedWalk(ctx: SyncContext, moves: Moves, admission: Admission): WalkResult {
  const budget = admission.budget;
  if (ctx.rollout.holds.safetyHalt !== undefined) return moves.result(remainingBlockers(ctx, 0, undefined), budget.unavailable);
  let budgetLimited = false;
  const blockers: Blocker[] = [];
  // top-down over what can stop the scan or be moved; every other pod is updated and available
  const { slots } = ctx;
  const from = ctx.strategy.partition;
  const visits = mergeDescending(missingDescending(slots, from, slots.count), slots.descending(slots.index.terminating, from), staleDescending(ctx, from), downIndicesDescending(ctx, from));
  for (const index of visits) {
    if (moves.taken >= ctx.strategy.maxUnavailable) break;
    const pod = slots.pod(index);
    if (pod === undefined) break; // being created: wait for it
    const stop = scanStop(ctx, pod);
    if (stop !== undefined) {
      blockers.push(stop);
      break;
    }
    if (!needsUpdate(ctx, pod)) continue;
    if (unavailable(ctx, pod)) moves.offer(pod, 'free');
    else if (budget.remaining > 0) moves.offer(pod, 'slot');
    else {
      budgetLimited = true;
      break;
    }
  }
  return moves.result([...blockers, ...remainingBlockers(ctx, moves.taken, budgetLimited ? budget : undefined)], budget.unavailable);
}

/**
 * A paused rollout (rollingUpdate.paused, or a failed step) updates no pod or claim; under EnforcedRollingUpdate
 * it still replaces the stuck old pods from the partition up, highest first (none is available, so none takes
 * budget), as Deployments and Kruise do while paused.
 */
function heldWalk(ctx: SyncContext, moves: Moves): WalkResult {
  const stuck = downIndicesDescending(ctx, ctx.strategy.partition)
    .map((index) => ctx.slots.pod(index))
    .filter((pod): pod is Pod => pod !== undefined && !isTerminating(pod) && isOld(ctx, pod) && isStuck(ctx, pod))
    .slice(0, ctx.strategy.maxUnavailable);
  for (const pod of stuck) moves.offer(pod, 'free');
  return moves.result([]);
}

/** Which walk the strategy runs this sync; undefined when none runs (nothing to update, OnDelete, held, halted). */
export function walkKind(ctx: SyncContext): WalkKind | undefined {
  const holds = ctx.rollout.holds;
  if (ctx.rollback !== undefined) return holds.safetyHalt === undefined ? 'downFirst' : undefined;
  if (updateHeld(holds)) return ctx.strategy.kind === 'EnforcedRollingUpdate' && holds.safetyHalt === undefined ? 'held' : undefined;
  switch (ctx.strategy.kind) {
    case 'OnDelete':
      return undefined;
    case 'Recreate':
      // every pod that needed a new template is gone (Recreate's own phase); replicas that change only their
      // claims or label move like a rolling update, and none is deleted
      return oldCount(ctx, 0) > 0 || staleCount(ctx, 0) > 0 ? (ctx.monotonic ? 'ordered' : 'downFirst') : undefined;
    case 'EnforcedRollingUpdate':
      return 'enforced';
    case 'RollingUpdate':
      return ctx.strategy.legacy ? 'legacy' : ctx.monotonic ? 'ordered' : 'downFirst';
  }
}

/** The update walk of this sync (see the file comment). */
export function walkUpdate(ctx: SyncContext, kind: WalkKind, admission: Admission): WalkResult {
  const moves = new Moves(ctx, admission);
  switch (kind) {
    case 'legacy':
      return legacyWalk(ctx, moves);
    case 'ordered':
      return orderedWalk(ctx, moves, admission);
    case 'downFirst':
      return downFirstWalk(ctx, moves, admission);
    case 'enforced':
      return enforcedWalk(ctx, moves, admission);
    case 'held':
      return heldWalk(ctx, moves);
  }
}

/** The blocker of a walk that does not run: OnDelete's pods wait for someone to delete them. */
export function noWalkBlockers(ctx: SyncContext): Blocker[] {
  if (ctx.strategy.kind !== 'OnDelete' || ctx.rollback !== undefined) return [];
  const outdated = oldCount(ctx, 0);
  return outdated > 0 ? [{ kind: 'onDeleteStrategy', outdatedPods: outdated }] : [];
}
