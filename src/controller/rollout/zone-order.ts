// rollingUpdate.topologyKey: a rolling update that moves one zone at a time. A pod's zone is the value of the
// label `topologyKey` on the node it runs on (spec.nodeName); the zones go in a fixed order (their values
// sorted as strings, pods whose zone is unknown last), each finished — every replica in it updated and
// available — before the next one loses a pod, and maxUnavailable counts within the zone that moves. This is
// what grafana's rollout-operator gets by running one StatefulSet per zone, for one set.

import type { Pod } from '../../api/types.js';
import { MAX_LISTED_PODS } from '../model/blockers.js';
import type { Blocker } from '../model/plan-types.js';
import { missingIndices } from '../replica/replicas.js';
import { downIndices, type SyncContext } from './sync-context.js';
import { staleDescending } from './update-range.js';
import type { Zone, ZoneRollout } from './rollout.js';

/** The set's rollingUpdate.topologyKey; undefined when unset or empty. */
export const topologyKeyOf = (ctx: SyncContext): string | undefined => ctx.set.spec.updateStrategy?.rollingUpdate?.topologyKey || undefined;

/** Known zones sorted as strings (a stable rule the user can read off the node labels), then the unknown one. */
export const zoneOrder = (zones: Iterable<Zone>): Zone[] => {
  const distinct = [...new Set(zones)];
  const known = distinct.filter((z): z is string => z !== null).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return distinct.includes(null) ? [...known, null] : known;
};

/** The zone of the pod's node, from the observed node labels. */
function zoneOf(ctx: SyncContext, key: string, pod: Pod | undefined): Zone {
  const node = pod?.spec?.nodeName;
  const value = node ? ctx.nodeLabels?.get(node)?.[key] : undefined;
  return value === undefined || value === '' ? null : value;
}

/**
 * The zone this sync moves (worked out once): a zone where a replica to update is already unavailable goes first
 * (finishing it costs no more availability), else the first zone in order with a replica to update. Undefined:
 * the set has no topologyKey, the strategy is not a RollingUpdate, or nothing is left to update.
 */
export function zoneRollout(ctx: SyncContext): ZoneRollout | undefined {
  if (ctx.memo.zones !== undefined) return ctx.memo.zones ?? undefined;
  const key = ctx.strategy.kind === 'RollingUpdate' ? topologyKeyOf(ctx) : undefined;
  const out = key === undefined ? undefined : decide(ctx, key);
  ctx.memo.zones = out ?? null;
  return out;
}

function decide(ctx: SyncContext, key: string): ZoneRollout | undefined {
  const { slots } = ctx;
  const zones = new Map<number, Zone>();
  for (let i = 0; i < slots.count; i++) if (slots.pod(i) !== undefined) zones.set(i, zoneOf(ctx, key, slots.pod(i)));
  const zone = (i: number): Zone => zones.get(i) ?? null;
  const order = zoneOrder(zones.values());
  const stale = [...staleDescending(ctx, ctx.strategy.partition)];
  if (stale.length === 0) return undefined;
  const down = [...downIndices(ctx)];
  const downSet = new Set(down);
  const first = (candidates: number[]): Zone => order.find((z) => candidates.some((i) => zone(i) === z)) ?? null;
  const staleDown = stale.filter((i) => downSet.has(i));
  const active = first(staleDown.length > 0 ? staleDown : stale);
  // a replica not placed yet (missing, or a pod not yet scheduled) may be any zone's: it counts whatever moves
  const unplaced = (i: number): boolean => !slots.pod(i)?.spec?.nodeName;
  const elsewhere = [...down, ...missingIndices(slots)].filter((i) => zone(i) !== active || unplaced(i));
  const disruptedZone = elsewhere.length > 0 ? first(elsewhere) : undefined;
  const name = (i: number): string => `${ctx.set.metadata.name ?? ''}-${slots.start + i}`;
  const pods = elsewhere.filter((i) => zone(i) === disruptedZone).slice(0, MAX_LISTED_PODS).map(name);
  return {
    topologyKey: key,
    order,
    zone: active,
    moves: (i) => zone(i) === active,
    heldBack: stale.filter((i) => zone(i) !== active).length,
    ...(disruptedZone === undefined ? {} : { disrupted: { zone: disruptedZone, pods } }),
  };
}

/** The blocker saying what the zone order holds back this sync, if anything. */
export function zoneBlocker(z: ZoneRollout | undefined): Blocker[] {
  if (z === undefined || (z.heldBack === 0 && z.disrupted === undefined)) return [];
  return [{ kind: 'zoneOrder', topologyKey: z.topologyKey, order: z.order, zone: z.zone, heldBack: z.heldBack, ...(z.disrupted ? { disrupted: z.disrupted } : {}) }];
}
