// RollingUpdate deletions: the legacy one-at-a-time loop when MaxUnavailableStatefulSet is off, and the
// maxUnavailable budget with #137666's two-phase Parallel deletion when it is on. One victim selector replaces
// upstream's three copies of the top-down loop; the candidates come from the replica index's classes
// (update-range.ts), so a pod already updated and available is never visited.

import type { Pod } from '../../api/types.js';
import * as block from '../model/blockers.js';
import { DisruptionLedger } from './disruption-budget.js';
import { downIndices, downIndicesDescending, type SyncContext } from '../rollout/sync-context.js';
import { updateBudget, type UpdateBudget } from './update-budget.js';
import type { Blocker } from '../model/plan-types.js';
import { isTerminating } from '../model/pod-state.js';
import { missingDescending, missingIndices } from '../replica/replicas.js';
import { oldCount, staleCount, staleDescending, staleDownDescending } from '../rollout/update-range.js';
import { priorityBlocker, priorityRollout } from './update-order.js';
import { zoneBlocker, zoneRollout } from './zone-order.js';

export interface Candidate {
  index: number;
  pod: Pod;
}

export interface UpdateDecision {
  /** Pods to delete, in upstream's order (each its own batch). */
  victims: Candidate[];
  blockers: Blocker[];
  /** In-range unavailable slots (statefulset_unavailable_replicas), when the gate-on path ran. */
  unavailablePods?: number;
}

const candidate = (ctx: SyncContext, index: number): Candidate => ({ index, pod: ctx.slots.pod(index) as Pod });

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
 * The first `budget` update candidates; with a ledger, up to the first whose deletion a PodDisruptionBudget
 * refuses (a pod never goes before one earlier in the order that it holds back).
 */
function topStale(ctx: SyncContext, budget: number, skip?: ReadonlySet<number>, ledger?: DisruptionLedger): Candidate[] {
  const out: Candidate[] = [];
  if (budget <= 0) return out;
  for (const index of updateCandidates(ctx)) {
    if (skip?.has(index)) continue;
    const c = candidate(ctx, index);
    if (ledger !== undefined && !ledger.admit(c.pod)) break;
    out.push(c);
    if (out.length >= budget) break;
  }
  return out;
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
 * What is still to update after `victims`, as blockers: the budget exhausted (when `budget` limited the
 * choice), or the partition holding pods back.
 */
export function remainingBlockers(ctx: SyncContext, victims: readonly Candidate[], budget: UpdateBudget | undefined): Blocker[] {
  const out: Blocker[] = [];
  const waiting = budget !== undefined && staleCount(ctx, ctx.strategy.partition) > victims.length;
  if (waiting) {
    out.push({ kind: 'budgetExhausted', unavailable: budget.unavailable, maxUnavailable: budget.maxUnavailable, unavailablePods: unavailableNames(ctx) });
  }
  const heldBack = oldCount(ctx, 0, ctx.strategy.partition);
  if (heldBack > 0) out.push({ kind: 'partition', partition: ctx.strategy.partition, heldBack });
  return out;
}

/** Top-down from the highest index: delete the first old pod, or wait on the first unavailable one. */
// upstream: stateful_set_control.go updateStatefulSet (legacy loop, MaxUnavailableStatefulSet off)
export function planLegacyUpdate(ctx: SyncContext): UpdateDecision {
  const { partition } = ctx.strategy;
  const zones = zoneRollout(ctx);
  const priority = priorityRollout(ctx);
  const held = [...zoneBlocker(zones), ...priorityBlocker(ctx, priority)];
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
  if (top < 0) return { victims: [], blockers: [...held, ...remainingBlockers(ctx, [], undefined)] };
  const pod = ctx.slots.pod(top);
  if (pod === undefined) return { victims: [], blockers: [{ kind: 'podMissing', pod: `${ctx.set.metadata.name ?? ''}-${ctx.slots.start + top}`, ordinal: ctx.slots.start + top }] };
  if (stale === top) {
    if (zones?.disrupted !== undefined || priority?.waitingFor !== undefined) return { victims: [], blockers: held };
    const ledger = DisruptionLedger.of(ctx);
    if (ledger === undefined || ledger.admit(pod)) return { victims: [{ index: top, pod }], blockers: held };
    return { victims: [], blockers: [...ledger.blockers(), ...held, ...remainingBlockers(ctx, [], undefined)] };
  }
  return { victims: [], blockers: [isTerminating(pod) ? block.terminating(pod) : block.notAvailable(pod, ctx.minReadySeconds)] };
}

/**
 * Gate on (#137666): OrderedReady deletes up to maxUnavailable − unavailable old pods top-down, whatever their
 * health. Parallel first deletes every old pod that is already unavailable (no budget: they are down), then
 * old available pods while budget remains.
 */
// upstream: stateful_set_control.go updateStatefulSetAfterInvariantEstablished
export function planMaxUnavailableUpdate(ctx: SyncContext): UpdateDecision {
  if (!ctx.monotonic) return planDownFirst(ctx);
  const budget = updateBudget(ctx);
  const ledger = DisruptionLedger.of(ctx);
  return withBudgets(ctx, budget, [], topStale(ctx, budget.remaining, undefined, ledger), ledger);
}

/**
 * Every stale pod that is down (no budget: it is unavailable already), then stale available ones while the
 * budget — which counts every unavailable slot — has room, each top-down: #137666's Parallel deletion, and
 * the way back of an aborted rollout under either policy (rollback.ts), so availability never drops below
 * replicas − maxUnavailable there and a broken pod never waits.
 */
// upstream: stateful_set_control.go updateStatefulSetAfterInvariantEstablished (Parallel)
export function planDownFirst(ctx: SyncContext): UpdateDecision {
  const budget = updateBudget(ctx);
  const ledger = DisruptionLedger.of(ctx);
  const admitted = (c: Candidate): boolean => ledger === undefined || ledger.admit(c.pod);
  const phase1 = staleDownDescending(ctx);
  const zones = zoneRollout(ctx);
  const priority = priorityRollout(ctx);
  // a pod that is down already goes without budget, but only in the zone and the priority that move
  const moves = (i: number): boolean => (zones === undefined || zones.moves(i)) && (priority === undefined || priority.moves(i));
  const down = phase1.filter(moves).map((i) => candidate(ctx, i)).filter(admitted);
  return withBudgets(ctx, budget, down, topStale(ctx, budget.remaining, new Set(phase1), ledger), ledger);
}

/** The decision, with what PodDisruptionBudgets (respectPodDisruptionBudgets), the zone order (topologyKey) and the priority order (updateOrder) hold back. */
function withBudgets(ctx: SyncContext, budget: UpdateBudget, down: Candidate[], available: Candidate[], ledger: DisruptionLedger | undefined): UpdateDecision {
  const victims = [...down, ...available];
  const zones = zoneRollout(ctx);
  const priority = priorityRollout(ctx);
  // what a PodDisruptionBudget, the zone or the priority order holds back does not wait for maxUnavailable while the budget has room
  const ordered = zones === undefined && priority === undefined;
  const limited = (ledger === undefined && ordered) || (available.length >= budget.remaining && zones?.disrupted === undefined && priority?.waitingFor === undefined);
  const held = [...(ledger?.blockers() ?? []), ...zoneBlocker(zones), ...priorityBlocker(ctx, priority)];
  return { victims, blockers: [...held, ...remainingBlockers(ctx, victims, limited ? budget : undefined)], unavailablePods: budget.unavailable };
}
