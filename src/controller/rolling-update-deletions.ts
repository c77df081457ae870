// RollingUpdate deletions: the legacy one-at-a-time loop when
// MaxUnavailableStatefulSet is off, and the maxUnavailable budget with #137666's two-phase Parallel deletion
// when it is on. One victim selector replaces upstream's three copies of the top-down loop.

import type { Pod } from '../api/types.js';
import * as block from './blockers.js';
import { isOld, needsUpdate, unavailable, type SyncContext } from './sync-context.js';
import { updateBudget, type UpdateBudget } from './update-budget.js';
import type { Blocker } from './plan-types.js';
import { isTerminating } from './pod-state.js';

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

/** Existing pods of the update range [partition, replicas), highest index first. */
export function updateRange(ctx: SyncContext): Candidate[] {
  const out: Candidate[] = [];
  for (let k = ctx.slots.indices.length - 1; k >= 0; k--) {
    const index = ctx.slots.indices[k] as number;
    if (index < ctx.strategy.partition) break;
    out.push({ index, pod: ctx.slots.byIndex.get(index) as Pod });
  }
  return out;
}

/** The first `budget` candidates (top-down) that pass `filter`. */
export function selectVictims(candidates: readonly Candidate[], filter: (pod: Pod) => boolean, budget: number): Candidate[] {
  const out: Candidate[] = [];
  for (const c of candidates) {
    if (out.length >= budget) break;
    if (filter(c.pod)) out.push(c);
  }
  return out;
}

/** Names of unavailable slots for a budget blocker (bounded: stops after MAX_LISTED_PODS names). */
function unavailableNames(ctx: SyncContext): string[] {
  const names: string[] = [];
  for (let i = 0; i < ctx.slots.count && names.length < block.MAX_LISTED_PODS; i++) {
    const pod = ctx.slots.byIndex.get(i);
    if (pod === undefined || unavailable(ctx, pod)) names.push(`${ctx.set.metadata.name ?? ''}-${ctx.slots.start + i}`);
  }
  return names;
}

const stale = (ctx: SyncContext) => (pod: Pod) => needsUpdate(ctx, pod) && !isTerminating(pod);

/**
 * What is still to update after `victims`, as blockers: the budget exhausted (when `budget` limited the
 * choice), or the partition holding pods back.
 */
export function remainingBlockers(ctx: SyncContext, victims: readonly Candidate[], budget: UpdateBudget | undefined, range?: readonly Candidate[]): Blocker[] {
  const chosen = new Set(victims.map((v) => v.pod));
  const isStale = stale(ctx);
  const waiting = budget !== undefined && (range ?? updateRange(ctx)).some((c) => isStale(c.pod) && !chosen.has(c.pod));
  const out: Blocker[] = [];
  if (waiting) {
    out.push({ kind: 'budgetExhausted', unavailable: budget.unavailable, maxUnavailable: budget.maxUnavailable, unavailablePods: unavailableNames(ctx) });
  }
  const heldBack = ctx.slots.indices.filter((i) => i < ctx.strategy.partition && isOld(ctx, ctx.slots.byIndex.get(i) as Pod)).length;
  if (heldBack > 0) out.push({ kind: 'partition', partition: ctx.strategy.partition, heldBack });
  return out;
}

/** Top-down from the highest index: delete the first old pod, or wait on the first unavailable one. */
// upstream: stateful_set_control.go updateStatefulSet (legacy loop, MaxUnavailableStatefulSet off)
export function planLegacyUpdate(ctx: SyncContext): UpdateDecision {
  for (let index = ctx.slots.count - 1; index >= ctx.strategy.partition; index--) {
    const pod = ctx.slots.byIndex.get(index);
    if (pod === undefined) return { victims: [], blockers: [{ kind: 'podMissing', pod: `${ctx.set.metadata.name ?? ''}-${ctx.slots.start + index}`, ordinal: ctx.slots.start + index }] };
    if (stale(ctx)(pod)) return { victims: [{ index, pod }], blockers: [] };
    if (unavailable(ctx, pod)) return { victims: [], blockers: [isTerminating(pod) ? block.terminating(pod) : block.notAvailable(pod, ctx.minReadySeconds)] };
  }
  return { victims: [], blockers: remainingBlockers(ctx, [], undefined) };
}

/**
 * Gate on (#137666): OrderedReady deletes up to maxUnavailable − unavailable old pods top-down, whatever their
 * health. Parallel first deletes every old pod that is already unavailable (no budget: they are down), then
 * old available pods while budget remains.
 */
// upstream: stateful_set_control.go updateStatefulSetAfterInvariantEstablished
export function planMaxUnavailableUpdate(ctx: SyncContext): UpdateDecision {
  const budget = updateBudget(ctx);
  const range = updateRange(ctx);
  const isStale = stale(ctx);
  let victims: Candidate[];
  if (ctx.monotonic) {
    victims = selectVictims(range, isStale, Math.max(0, budget.remaining));
  } else {
    // both phases in one top-down pass: every stale pod that is down, then stale available ones within budget
    const phase1: Candidate[] = [];
    const phase2: Candidate[] = [];
    for (const c of range) {
      if (!isStale(c.pod)) continue;
      if (unavailable(ctx, c.pod)) phase1.push(c);
      else if (phase2.length < budget.remaining) phase2.push(c);
    }
    victims = [...phase1, ...phase2];
  }
  return { victims, blockers: remainingBlockers(ctx, victims, budget, range), unavailablePods: budget.unavailable };
}
