// rollingUpdate.updateOrder: Priority. Upstream updates top-down by ordinal only (kubernetes/kubernetes #128315,
// #51907), so database operators switch to OnDelete to update their primary last. Here a pod's priority is the
// position of its `priority.label` value in `priority.values` (a pod without the label, or with a value not
// listed, comes first); the stale pods of the lowest priority left go first, within maxUnavailable, ties by
// ordinal, highest first, as upstream. A higher priority starts only when no stale pod of a lower one is left
// and every replica of the set is available, so the primary goes after its replicas are back and serving. Only
// which old pod is deleted next changes: OrderedReady still creates pods in ordinal order.

import type { Pod } from '../../api/types.js';
import { MAX_LISTED_PODS } from '../model/blockers.js';
import type { Blocker } from '../model/plan-types.js';
import { missingIndices } from '../replica/replicas.js';
import { downIndices, type SyncContext } from './sync-context.js';
import { staleDescending } from './update-range.js';
import { zoneRollout } from './zone-order.js';
import type { PriorityRollout } from './rollout.js';

/** The rank of a pod: 1 + the position of its label value in `values`, 0 when it has no listed value. */
export const priorityRank = (pod: Pod | undefined, label: string, values: readonly string[]): number => {
  const v = pod?.metadata.labels?.[label];
  return v === undefined ? 0 : values.indexOf(v) + 1;
};

/** The priority rollout of this sync (worked out once); undefined unless a RollingUpdate with updateOrder Priority has pods to update. */
export function priorityRollout(ctx: SyncContext): PriorityRollout | undefined {
  if (ctx.memo.priority !== undefined) return ctx.memo.priority ?? undefined;
  const ru = ctx.set.spec.updateStrategy?.rollingUpdate;
  const label = ru?.priority?.label;
  const out = ctx.strategy.kind === 'RollingUpdate' && ru?.updateOrder === 'Priority' && label ? decide(ctx, label, ru.priority?.values ?? []) : undefined;
  ctx.memo.priority = out ?? null;
  return out;
}

function decide(ctx: SyncContext, label: string, values: string[]): PriorityRollout | undefined {
  const { slots } = ctx;
  const zones = zoneRollout(ctx);
  const rank = (i: number): number => priorityRank(slots.pod(i), label, values);
  const stale = [...staleDescending(ctx, ctx.strategy.partition)].filter((i) => zones === undefined || zones.moves(i));
  if (stale.length === 0) return undefined;
  // a stable sort: ties keep the ordinal order, highest first
  const order = stale.sort((a, b) => rank(a) - rank(b));
  const active = rank(order[0] as number);
  const moves = (i: number): boolean => rank(i) === active;
  // a missing replica counts as the lowest priority: recreated, it has no label until its operator sets one
  let lowest = active;
  for (let i = 0; i < slots.count && lowest > 0; i++) lowest = Math.min(lowest, rank(i));
  const out: PriorityRollout = { label, values, order, moves, heldBack: order.filter((i) => !moves(i)).length };
  if (active === lowest) return out;
  // a higher priority goes once the set is whole: its stale pods that are down already are not waited for
  const isCandidate = new Set(order.filter(moves));
  const name = (i: number): string => `${ctx.set.metadata.name ?? ''}-${slots.start + i}`;
  const unavailable = [...new Set([...downIndices(ctx), ...missingIndices(slots)])].filter((i) => !isCandidate.has(i)).sort((a, b) => a - b);
  return unavailable.length === 0 ? out : { ...out, waitingFor: unavailable.slice(0, MAX_LISTED_PODS).map(name) };
}

/** The blocker saying what the priority order holds back this sync, if anything. */
export function priorityBlocker(ctx: SyncContext, p: PriorityRollout | undefined): Blocker[] {
  if (p === undefined || (p.heldBack === 0 && p.waitingFor === undefined)) return [];
  const name = (i: number): string => `${ctx.set.metadata.name ?? ''}-${ctx.slots.start + i}`;
  const order = p.order.slice(0, MAX_LISTED_PODS).map(name);
  return [{ kind: 'updateOrder', label: p.label, values: p.values, order, heldBack: p.heldBack, ...(p.waitingFor ? { waitingFor: p.waitingFor } : {}) }];
}
