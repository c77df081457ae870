// Turns the in-memory API server's write stream into timeline records (pod and claim lifecycle, status writes),
// keeps the simulator's view and per-set trackers up to date, and runs the invariant checkers after every
// write.

import { Resources } from '../api/client.js';
import type { Features } from '../api/features.js';
import { toTimestamp, type PersistentVolumeClaim, type Pod, type PodDisruptionBudget } from '../api/types.js';
import { claimEvents, claimSizes } from './claim-lifecycle.js';
import { podList } from './converged.js';
import { podOrdinal, podRevision } from '../controller/model/pod-state.js';
import type { WriteRecord } from '../cluster/memory/index.js';
import { lifecycleEvents, podView, waitingOf } from './pod-lifecycle.js';
import type { SetTracker } from './set-tracker.js';
import type { SimState } from './state.js';
import { claimRecord, podRecord, secondsSince, statusRecord, waitingRecord, type TimelineRecord } from './timeline.js';
import { checkBudgetBreach, checkControllerDelete, checkPods, checkZoneOrder, type Found } from './violations.js';
import { ZONE_LABEL, type SimNode } from '../cluster/kubelet/index.js';
import type { WorkCounters } from '../runtime/work-counters.js';

export interface ObserverDeps {
  state: SimState;
  tracker: SetTracker;
  features: Features;
  start: number;
  /** Identity of the controller's client (its writes are checked against the invariants). */
  controllerActor: string;
  emit(record: TimelineRecord): void;
  violation(found: Found, at: number): void;
  /** The scenario's Node objects, by name (absent: the one default node). */
  nodes?: ReadonlyMap<string, SimNode>;
  /**
   * The set's pods as the controller saw them when it last planned the set, with the deletions it made since
   * marked (absent: it has not planned the set yet). The deletion check updates it.
   */
  seenPods?: (setKey: string) => Pod[] | undefined;
  /** Counts the pods the checks read (sim.podsChecked). */
  counters?: WorkCounters;
}

export function observeWrite(deps: ObserverDeps, w: WriteRecord): void {
  if (w.change === 'NONE') return;
  if (w.resource === Resources.pods) return observePod(deps, w);
  if (w.resource.kind === 'StatefulSet' && w.resource.plural === 'statefulsets') return observeSet(deps, w);
  if (w.resource === Resources.persistentVolumeClaims) return observeClaim(deps, w);
  if (w.resource === Resources.podDisruptionBudgets) return observeBudget(deps, w);
}

function observeBudget(deps: ObserverDeps, w: WriteRecord): void {
  const key = `${w.object.metadata.namespace ?? 'default'}/${w.name}`;
  if (w.change === 'DELETED') deps.state.budgets.delete(key);
  else deps.state.budgets.set(key, w.object as PodDisruptionBudget);
}

function observeClaim(deps: ObserverDeps, w: WriteRecord): void {
  const claim = w.object as PersistentVolumeClaim;
  const ns = claim.metadata.namespace ?? 'default';
  const key = `${ns}/${w.name}`;
  const prev = deps.state.claims.get(key);
  const next = w.change === 'DELETED' ? undefined : claim;
  const owner = deps.state.applyClaim(ns, w.name, next);
  // InPlace: an expanding claim makes its replica unavailable
  const set = owner && deps.state.sets.get(owner.key)?.set;
  if (owner && set?.spec.volumeClaimUpdatePolicy === 'InPlace') {
    deps.tracker.update(owner.key, set, deps.state.podsIn(owner.key), w.at, () => deps.state.unavailableOrdinals(owner.key, set, w.at), []);
  }
  const events = claimEvents(prev, next);
  if (events.length === 0) return;
  const t = secondsSince(deps.start, w.at);
  for (const event of events) deps.emit(claimRecord(t, { namespace: ns, name: w.name, set: owner?.set ?? null, ordinal: owner?.ordinal ?? null, event, ...claimSizes(claim) }));
}

function observeSet(deps: ObserverDeps, w: WriteRecord): void {
  const removed = w.change === 'DELETED';
  const entry = deps.state.applySet(w.resource, w.object, removed);
  const ns = w.object.metadata.namespace ?? 'default';
  const key = entry?.key ?? `${ns}/${w.name}`;
  if (w.verb === 'updateStatus' && entry) {
    const generation = entry.set.metadata.generation ?? null;
    deps.emit(statusRecord(secondsSince(deps.start, w.at), ns, w.name, generation, entry.set.status ?? { replicas: 0 }));
  }
  const set = entry?.set;
  deps.tracker.update(key, set, deps.state.podsIn(key), w.at, set && (() => deps.state.unavailableOrdinals(key, set, w.at)), []);
}

function observePod(deps: ObserverDeps, w: WriteRecord): void {
  if (w.actor === deps.controllerActor && w.verb === 'delete') checkDelete(deps, w);
  const change = deps.state.applyPod(w.object, w.change === 'DELETED');
  const pod = w.object as Pod;
  const events = lifecycleEvents(change.prev && podView(change.prev), change.next && podView(change.next));
  const t = secondsSince(deps.start, w.at);
  const setKey = change.nextSet ?? change.prevSet;
  const setName = setKey ? (deps.state.sets.get(setKey)?.set.metadata.name ?? null) : null;
  const ordinal = podOrdinal(pod);
  const who = { namespace: pod.metadata.namespace ?? 'default', name: pod.metadata.name ?? '', set: setName, ordinal: ordinal >= 0 ? ordinal : null, revision: podRevision(pod) || null };
  const minReady = setKey ? (deps.state.sets.get(setKey)?.set.spec.minReadySeconds ?? 0) : 0;
  for (const event of events) deps.emit(podRecord(t, { ...who, event, ...(event === 'Ready' && minReady > 0 ? { availableAt: t + minReady } : {}), ...(event === 'Scheduled' ? placement(deps, pod) : {}) }));
  const waiting = waitingOf(change.next);
  if (waiting !== undefined && waiting.reason !== waitingOf(change.prev)?.reason) deps.emit(waitingRecord(t, { ...who, ...waiting }));
  for (const key of new Set([change.prevSet, change.nextSet])) {
    if (!key) continue;
    const pods = deps.state.podsIn(key);
    if (change.prev === undefined && deps.state.hasSharedOrdinal(key)) for (const f of checkPods(podList(pods))) deps.violation(f, w.at);
    const set = deps.state.sets.get(key)?.set;
    deps.tracker.update(key, set, pods, w.at, set && (() => deps.state.unavailableOrdinals(key, set, w.at)), [change.key]);
  }
}

/** Judges a controller deletion against the pods as they were just before it. */
/** Several nodes: the node a pod was scheduled to, and its zone (ZONE_LABEL) when it has one. */
function placement(deps: ObserverDeps, pod: Pod): { node?: string; zone?: string } {
  const node = deps.nodes?.get(pod.spec?.nodeName ?? '');
  if (node === undefined) return {};
  const zone = node.labels[ZONE_LABEL];
  return { node: node.name, ...(zone === undefined ? {} : { zone }) };
}

function checkDelete(deps: ObserverDeps, w: WriteRecord): void {
  const key = `${w.object.metadata.namespace ?? 'default'}/${w.name}`;
  const victim = deps.state.pods.get(key);
  const setKey = victim ? deps.state.setOfPod(victim) : undefined;
  const set = setKey ? deps.state.sets.get(setKey)?.set : undefined;
  if (!victim || !set || victim.metadata.deletionTimestamp) return;
  const owner = setKey!;
  const unavailable = deps.state.hasSharedOrdinal(owner) ? undefined : () => deps.state.unavailableOrdinals(owner, set, w.at);
  const held = deps.state.claimHeld(owner, set, w.at);
  const before = deps.state.podsOf(owner);
  deps.counters?.count('sim.checkerInput', before.length);
  const found = checkControllerDelete(set, before, victim, w.at, deps.features, unavailable, held);
  // A controller acts on what its informers have shown it: a pod that went unready, or was deleted by a user,
  // after the view its sync planned from (a late or broken watch) is judged as that view had it. A deletion
  // stands as a violation when it is one both in the cluster and in that view.
  const seen = deps.seenPods?.(owner);
  const inView = seen === undefined || found.length === 0 ? found : checkControllerDelete(set, seen, victim, w.at, deps.features, undefined, held);
  for (const f of found) if (inView.some((g) => g.invariant === f.invariant)) deps.violation(f, w.at);
  // the controller's own deletion is part of its view from now on
  const k = seen?.findIndex((p) => p.metadata.name === victim.metadata.name) ?? -1;
  if (seen !== undefined && k >= 0) seen[k] = { ...(seen[k] as Pod), metadata: { ...(seen[k] as Pod).metadata, deletionTimestamp: toTimestamp(w.at) } };
  const topologyKey = set.spec.updateStrategy?.rollingUpdate?.topologyKey;
  if (deps.nodes !== undefined && topologyKey) {
    const nodes = deps.nodes;
    const zoneOf = (p: Pod): string | undefined => nodes.get(p.spec?.nodeName ?? '')?.labels[topologyKey];
    for (const f of checkZoneOrder(set, before, victim, zoneOf, w.at)) deps.violation(f, w.at);
  }
  const ns = victim.metadata.namespace ?? 'default';
  const budgets = [...deps.state.budgets.values()].filter((b) => (b.metadata.namespace ?? 'default') === ns);
  if (budgets.length === 0) return;
  const podsOfNamespace = [...deps.state.pods.values()].filter((p) => (p.metadata.namespace ?? 'default') === ns);
  deps.counters?.count('sim.podsChecked', deps.state.pods.size);
  for (const f of checkBudgetBreach(set, budgets, podsOfNamespace, victim)) deps.violation(f, w.at);
}
