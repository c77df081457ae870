// The simulator's own view of the cluster, kept from the in-memory API server's write stream (every
// successful write, in resourceVersion order). Objects are stored as the server stored them and never
// mutated. Pods are indexed by StatefulSet so per-set checks cost O(pods of that set).

import { Resources, type Resource } from '../api/client.js';
import type { Instant, KubeObject, PersistentVolumeClaim, Pod, PodDisruptionBudget, StatefulSet } from '../api/types.js';
import { claimOrdinal, claimTemplates } from '../controller/model/claim-identity.js';
import { parentNameAndOrdinal } from '../controller/model/pod-state.js';
import { ClaimHolds } from './claim-holds.js';
import { OrdinalAvailability } from './ordinal-availability.js';

export interface SetEntry {
  key: string;
  resource: Resource;
  set: StatefulSet;
}

export interface PodChange {
  key: string;
  prev: Pod | undefined;
  next: Pod | undefined;
  /** Set key (see setKey) the pod belongs to, before and after the write. */
  prevSet: string | undefined;
  nextSet: string | undefined;
}

const isSetResource = (r: Resource): boolean => r.kind === 'StatefulSet' && r.plural === 'statefulsets';

/** `namespace/name`, with the API group for Ordinal's own sets so both apiVersions can share a name. */
export function setKey(resource: Resource, namespace: string, name: string): string {
  return resource.group === Resources.ordinalStatefulSets.group ? `${namespace}/${name}@ordinal` : `${namespace}/${name}`;
}

/** The name a user sees: `name` in the default namespace, else `namespace/name`. */
export function displayName(namespace: string, name: string): string {
  return namespace === 'default' ? name : `${namespace}/${name}`;
}

const NO_PODS: ReadonlyMap<string, Pod> = new Map();
const ORDINAL_NAME = /^(.*)-([0-9]+)$/;

export class SimState {
  readonly sets = new Map<string, SetEntry>();
  readonly pods = new Map<string, Pod>();
  /** Claims by `namespace/name`, as last written. */
  readonly claims = new Map<string, PersistentVolumeClaim>();
  /** PodDisruptionBudgets by namespace/name, as last written (the breach check reads their status). */
  readonly budgets = new Map<string, PodDisruptionBudget>();
  /** How many times each pod name (`namespace/name`) was removed from the API. */
  readonly removals = new Map<string, number>();
  private readonly podSet = new Map<string, string | undefined>();
  /** Per set: its pods by key, in the order they joined it. */
  private readonly bySet = new Map<string, Map<string, Pod>>();
  private readonly availability = new Map<string, OrdinalAvailability>();
  /** Per set: its InPlace claims that may keep a replica unavailable. */
  private readonly claimHolds = new Map<string, ClaimHolds>();
  /** Per set: pods per `namespace/parent/ordinal` (noDuplicateOrdinal's key), and how many keys have two or more. */
  private readonly ordinals = new Map<string, { pods: Map<string, number>; shared: number }>();

  /** The set (name and key) and ordinal whose claim template names the claim `name` in `namespace`, if any. */
  claimOwner(namespace: string, name: string): { set: string; key: string; ordinal: number } | undefined {
    for (const { key, set } of this.sets.values()) {
      if ((set.metadata.namespace ?? 'default') !== namespace) continue;
      for (const template of claimTemplates(set)) {
        const ordinal = claimOrdinal(set, template, name);
        if (ordinal !== undefined) return { set: set.metadata.name ?? '', key, ordinal };
      }
    }
    return undefined;
  }

  /** A claim was written (`claim` undefined: deleted); returns its owner, as claimOwner. */
  applyClaim(namespace: string, name: string, claim: PersistentVolumeClaim | undefined): ReturnType<SimState['claimOwner']> {
    const key = `${namespace}/${name}`;
    if (claim === undefined) this.claims.delete(key);
    else this.claims.set(key, claim);
    const owner = this.claimOwner(namespace, name);
    if (owner !== undefined) this.claimHoldsOf(owner.key).apply(name, claim);
    return owner;
  }

  private claimHoldsOf(key: string): ClaimHolds {
    let holds = this.claimHolds.get(key);
    if (holds === undefined) {
      holds = new ClaimHolds(() => this.claimsOfSet(key));
      this.claimHolds.set(key, holds);
    }
    return holds;
  }

  /** Every claim a set's templates name. */
  private *claimsOfSet(key: string): Generator<PersistentVolumeClaim> {
    const set = this.sets.get(key)?.set;
    if (set === undefined) return;
    const ns = set.metadata.namespace ?? 'default';
    for (const claim of this.claims.values()) {
      if ((claim.metadata.namespace ?? 'default') === ns && this.claimOwner(ns, claim.metadata.name ?? '')?.key === key) yield claim;
    }
  }

  applySet(resource: Resource, obj: KubeObject, removed: boolean): SetEntry | undefined {
    if (!isSetResource(resource)) return undefined;
    const ns = obj.metadata.namespace ?? 'default';
    const key = setKey(resource, ns, obj.metadata.name ?? '');
    if (removed) {
      this.sets.delete(key);
      return undefined;
    }
    const entry: SetEntry = { key, resource, set: obj as StatefulSet };
    this.sets.set(key, entry);
    return entry;
  }

  applyPod(obj: KubeObject, removed: boolean): PodChange {
    const pod = obj as Pod;
    const key = `${pod.metadata.namespace ?? 'default'}/${pod.metadata.name ?? ''}`;
    const prev = this.pods.get(key);
    const prevSet = this.podSet.get(key);
    const nextSet = removed ? undefined : this.setOfPod(pod);
    if (removed) {
      this.pods.delete(key);
      this.removals.set(key, (this.removals.get(key) ?? 0) + 1);
    } else this.pods.set(key, pod);
    if (prevSet !== nextSet || removed) {
      if (prevSet) {
        this.bySet.get(prevSet)?.delete(key);
        this.availability.get(prevSet)?.apply(key, undefined);
        this.countOrdinal(prevSet, pod, -1);
      }
      if (nextSet) this.countOrdinal(nextSet, pod, 1);
    }
    if (nextSet) {
      this.index(nextSet).set(key, pod);
      this.availability.get(nextSet)?.apply(key, pod);
    }
    if (removed) this.podSet.delete(key);
    else this.podSet.set(key, nextSet);
    return { key, prev, next: removed ? undefined : pod, prevSet, nextSet };
  }

  private countOrdinal(set: string, pod: Pod, delta: 1 | -1): void {
    const { parent, ordinal } = parentNameAndOrdinal(pod.metadata.name);
    if (ordinal < 0) return;
    let entry = this.ordinals.get(set);
    if (entry === undefined) {
      entry = { pods: new Map(), shared: 0 };
      this.ordinals.set(set, entry);
    }
    const k = `${pod.metadata.namespace ?? ''}/${parent}/${ordinal}`;
    const before = entry.pods.get(k) ?? 0;
    const after = before + delta;
    if (after > 0) entry.pods.set(k, after);
    else entry.pods.delete(k);
    entry.shared += Number(after >= 2) - Number(before >= 2);
  }

  /** Whether two pods of the set share an ordinal (only then does noDuplicateOrdinal need to look). */
  hasSharedOrdinal(set: string): boolean {
    return (this.ordinals.get(set)?.shared ?? 0) > 0;
  }

  /** unavailableOrdinals(set, podsOf(key), now, the set's claims), kept incrementally. */
  unavailableOrdinals(key: string, set: StatefulSet, now: Instant): number {
    let a = this.availability.get(key);
    if (a === undefined) {
      a = new OrdinalAvailability();
      this.availability.set(key, a);
    }
    const members = (): Iterable<[string, Pod]> => this.bySet.get(key) ?? [];
    return a.unavailableOrdinals(set, members, now, this.claimHeld(key, set, now));
  }

  /** The ordinals whose claims keep the replica unavailable at `now` (InPlace; claimHeldOrdinals). */
  claimHeld(key: string, set: StatefulSet, now: Instant): ReadonlySet<number> {
    return this.claimHoldsOf(key).held(set, now);
  }

  private index(set: string): Map<string, Pod> {
    let pods = this.bySet.get(set);
    if (!pods) {
      pods = new Map();
      this.bySet.set(set, pods);
    }
    return pods;
  }

  /** Pods of a set, in the order they joined it (deterministic: writes arrive in resourceVersion order). */
  podsOf(key: string): Pod[] {
    return [...this.podsIn(key).values()];
  }

  /** The same, as the live map (by pod key) that the state keeps: no copy. */
  podsIn(key: string): ReadonlyMap<string, Pod> {
    return this.bySet.get(key) ?? NO_PODS;
  }

  /** The set a pod belongs to: its controller ownerRef, else a set named like the pod's prefix. */
  setOfPod(pod: Pod): string | undefined {
    const ns = pod.metadata.namespace ?? 'default';
    const owner = pod.metadata.ownerReferences?.find((r) => r.controller && r.kind === 'StatefulSet');
    if (owner) {
      const res = owner.apiVersion === 'apps/v1' ? Resources.statefulSets : Resources.ordinalStatefulSets;
      return setKey(res, ns, owner.name);
    }
    const m = ORDINAL_NAME.exec(pod.metadata.name ?? '');
    if (!m || m[1] === undefined) return undefined;
    return this.findSet(ns, m[1])?.key;
  }

  /** A set by namespace and name; Ordinal's apiVersion first when both exist. */
  findSet(namespace: string, name: string): SetEntry | undefined {
    return this.sets.get(setKey(Resources.ordinalStatefulSets, namespace, name)) ?? this.sets.get(setKey(Resources.statefulSets, namespace, name));
  }

  /** Sets in key order (stable across runs). */
  allSets(): SetEntry[] {
    return [...this.sets.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }
}
