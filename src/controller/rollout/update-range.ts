// The pods a rolling update still has to move, read from the replica index's classes: top-down from the
// highest index, without visiting the pods already on the update revision.

import { needsUpdate, replicaClaims } from './claim-apply.js';
import { mergeDescending } from '../model/merge.js';
import { alsoDown, type SyncContext } from './sync-context.js';

/** InPlace: ordinals on the update revision whose claims are not (so the replica still moves). */
export function laggingOrdinals(ctx: SyncContext): number[] {
  if (!ctx.rollout.knobs.claimsInPlace) return [];
  const index = ctx.slots.index;
  const out: number[] = [];
  for (const o of index.onRevision(ctx.updateRevision).ascending()) {
    const f = index.member(o);
    if (f !== undefined && replicaClaims(ctx, f.pod).lagging) out.push(o);
  }
  return out;
}

/** Ordinals of pods on other revisions than the update one, descending. */
function oldDescending(ctx: SyncContext, lo: number, hi: number): Generator<number> {
  const index = ctx.slots.index;
  const others = index.revisions().filter((r) => r !== ctx.updateRevision);
  return mergeDescending(...others.map((r) => index.onRevision(r).descending(lo, hi)));
}

/**
 * Indices in [from, to) of replicas that still move to the update revision and are not terminating (the
 * victims a rolling update chooses from), highest first.
 */
export function* staleDescending(ctx: SyncContext, from: number, to = ctx.slots.count): Generator<number> {
  const { slots } = ctx;
  const lo = slots.start + from;
  const hi = slots.start + Math.min(to, slots.count);
  const lagging = laggingOrdinals(ctx).filter((o) => o >= lo && o < hi).reverse();
  const terminating = slots.index.terminating;
  for (const o of mergeDescending(oldDescending(ctx, lo, hi), lagging)) if (!terminating.has(o)) yield o - slots.start;
}

/** Pods in [from, to) not on the update revision, terminating ones included (upstream's "old" pods). */
export function oldCount(ctx: SyncContext, from: number, to = ctx.slots.count): number {
  const { slots } = ctx;
  return slots.countOf(slots.index.ordinals, from, to) - slots.countOf(slots.index.onRevision(ctx.updateRevision), from, to);
}

/** How many replicas in [from, to) still move to the update revision and are not terminating. */
export function staleCount(ctx: SyncContext, from: number, to = ctx.slots.count): number {
  const { slots } = ctx;
  const update = slots.index.onRevision(ctx.updateRevision);
  let terminatingOld = 0;
  for (const i of slots.ascending(slots.index.terminating, from, to)) if (!update.has(slots.start + i)) terminatingOld++;
  const lagging = laggingOrdinals(ctx).filter((o) => o - slots.start >= from && o - slots.start < to && !slots.index.terminating.has(o)).length;
  return oldCount(ctx, from, to) - terminatingOld + lagging;
}

/** The replica at index `i` still moves to the update revision and is not terminating. */
export function isStale(ctx: SyncContext, i: number): boolean {
  const f = ctx.slots.facts(i);
  return f !== undefined && !f.terminating && needsUpdate(ctx, f.pod);
}

/**
 * Indices of the update range whose replica still moves and is unavailable, highest first (#137666's
 * phase 1): not Running and Ready on an old revision (the index keeps those by revision), and what the time
 * or the claims add (alsoDown, a short list), and lagging replicas that are down.
 */
export function staleDownDescending(ctx: SyncContext): number[] {
  const { slots } = ctx;
  const lo = slots.start + ctx.strategy.partition;
  const hi = slots.start + slots.count;
  const index = slots.index;
  const old = index.revisions().filter((r) => r !== ctx.updateRevision).map((r) => index.notReadyOn(r).descending(lo, hi));
  // plus (InPlace) replicas on the update revision whose claims lag and whose pod is down
  const lagging = laggingOrdinals(ctx).filter((o) => index.down.has(o));
  const extra = [...new Set([...alsoDown(ctx), ...lagging])].filter((o) => o >= lo && o < hi).sort((a, b) => b - a);
  const out: number[] = [];
  for (const o of mergeDescending(...old, extra)) if (isStale(ctx, o - slots.start)) out.push(o - slots.start);
  return out;
}
