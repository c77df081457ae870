// Background garbage collection by owner reference, run on the injected Timers a short while after
// something that could orphan an object, like kube-controller-manager's garbage collector: an object
// whose owners are all gone is deleted; one that lost only some owners has the dangling references removed.
// Like upstream's dependency graph, it keeps every object's dependents by owner UID, so a pass looks only at
// the objects that may have lost an owner (the dependents of what was removed, and objects written with an
// owner that does not exist), not at every stored object.

import type { Resource } from '../../api/client.js';
import type { KubeObject } from '../../api/types.js';
import type { TimerId, Timers } from '../../runtime/clock.js';
import type { WorkCounters } from '../../runtime/work-counters.js';
import type { WriteChange } from './memory-types.js';
import { qualifiedResource } from './messages.js';
import type { ObjectStore } from './object-store.js';

export const GC_ACTOR = 'garbage-collector';

export interface CollectorEffects {
  /** Deletes the object (background propagation) as the garbage collector. */
  deleteObject(res: Resource, obj: KubeObject): void;
  /** Rewrites the object's ownerReferences as the garbage collector. */
  setOwners(res: Resource, obj: KubeObject, owners: NonNullable<KubeObject['metadata']['ownerReferences']>): void;
}

interface Ref {
  res: Resource;
  namespace: string | undefined;
  name: string;
  /** Resource, then namespace/name: the order a pass visits objects in (as the store lists them). */
  order: [string, string];
}

const refOf = (res: Resource, obj: KubeObject): Ref => {
  const { namespace, name = '' } = obj.metadata;
  return { res, namespace, name, order: [qualifiedResource(res), `${namespace ?? ''}/${name}`] };
};
const refKey = (r: Ref): string => `${r.order[0]}\u0000${r.order[1]}`;
const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const byOrder = (a: Ref, b: Ref): number => compareText(a.order[0], b.order[0]) || compareText(a.order[1], b.order[1]);

export class GarbageCollector {
  private scheduled: TimerId | undefined;
  /** Owner UID → the stored objects that name it. */
  private readonly dependents = new Map<string, Map<string, Ref>>();
  /** Stored object → the owner UIDs it names (what `dependents` holds for it). */
  private readonly ownersOf = new Map<string, string[]>();
  /** Objects that may have an owner that does not exist: what the next pass looks at. */
  private readonly suspects = new Map<string, Ref>();

  constructor(
    private readonly timers: Timers,
    private readonly delayMs: number,
    private readonly store: ObjectStore,
    private readonly counters: WorkCounters | undefined,
    private readonly effects: CollectorEffects,
  ) {}

  /** Follows a commit: keeps the dependents index, and asks for a pass after a removal or a dangling owner. */
  observe(res: Resource, change: WriteChange, obj: KubeObject): void {
    const ref = refOf(res, obj);
    const key = refKey(ref);
    this.unindex(key);
    if (change === 'DELETED') {
      this.suspects.delete(key);
      for (const [k, dependent] of this.dependents.get(obj.metadata.uid ?? '') ?? []) this.suspects.set(k, dependent);
      this.schedule();
      return;
    }
    const owners = (obj.metadata.ownerReferences ?? []).map((r) => r.uid);
    if (owners.length === 0) return;
    this.ownersOf.set(key, owners);
    for (const uid of owners) {
      let refs = this.dependents.get(uid);
      if (refs === undefined) {
        refs = new Map();
        this.dependents.set(uid, refs);
      }
      refs.set(key, ref);
    }
    if (this.hasDanglingOwner(obj)) {
      this.suspects.set(key, ref);
      this.schedule();
    }
  }

  /** Asks for one pass after the delay; requests while one is pending share it. */
  schedule(): void {
    if (this.scheduled !== undefined) return;
    this.scheduled = this.timers.at(this.timers.now() + this.delayMs, () => this.pass(), 'garbage collector');
  }

  /** True when some owner reference of `obj` points at a UID that no stored object has. */
  hasDanglingOwner(obj: KubeObject): boolean {
    return (obj.metadata.ownerReferences ?? []).some((r) => !this.store.hasUid(r.uid));
  }

  private unindex(key: string): void {
    for (const uid of this.ownersOf.get(key) ?? []) {
      const refs = this.dependents.get(uid);
      refs?.delete(key);
      if (refs?.size === 0) this.dependents.delete(uid);
    }
    this.ownersOf.delete(key);
  }

  /**
   * Decides on the state at the start of the pass, then acts: a dependent orphaned by this pass's own
   * deletions waits for the next pass, so a chain of owners goes one level per pass. A suspect that still
   * has a dangling owner after its task (one being deleted, or a write that failed) is looked at again.
   */
  // upstream: pkg/controller/garbagecollector/garbagecollector.go attemptToDeleteItem
  private pass(): void {
    this.scheduled = undefined;
    const work: (() => void)[] = [];
    for (const ref of [...this.suspects.values()].sort(byOrder)) {
      this.counters?.count('api.gcExamined');
      const obj = this.store.get(ref.res, ref.namespace, ref.name);
      if (obj === undefined || !this.hasDanglingOwner(obj)) {
        this.suspects.delete(refKey(ref));
        continue;
      }
      const task = this.decide(ref.res, obj);
      if (task) work.push(task);
    }
    for (const task of work) task();
  }

  private decide(res: Resource, obj: KubeObject): (() => void) | undefined {
    const owners = obj.metadata.ownerReferences ?? [];
    if (owners.length === 0 || obj.metadata.deletionTimestamp !== undefined) return undefined;
    const solid = owners.filter((r) => this.store.hasUid(r.uid));
    if (solid.length === owners.length) return undefined;
    if (solid.length === 0) return () => this.effects.deleteObject(res, obj);
    return () => this.effects.setOwners(res, obj, solid);
  }
}
