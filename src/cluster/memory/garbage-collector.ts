// Background garbage collection by owner reference, run on the injected Timers a short while after
// something that could orphan an object, like kube-controller-manager's garbage collector: an object
// whose owners are all gone is deleted; one that lost only some owners has the dangling references removed.

import type { Resource } from '../../api/client.js';
import type { KubeObject } from '../../api/types.js';
import type { TimerId, Timers } from '../../runtime/clock.js';
import type { ObjectStore } from './object-store.js';

export const GC_ACTOR = 'garbage-collector';

export interface CollectorEffects {
  /** Deletes the object (background propagation) as the garbage collector. */
  deleteObject(res: Resource, obj: KubeObject): void;
  /** Rewrites the object's ownerReferences as the garbage collector. */
  setOwners(res: Resource, obj: KubeObject, owners: NonNullable<KubeObject['metadata']['ownerReferences']>): void;
}

export class GarbageCollector {
  private scheduled: TimerId | undefined;

  constructor(
    private readonly timers: Timers,
    private readonly delayMs: number,
    private readonly store: ObjectStore,
    private readonly effects: CollectorEffects,
  ) {}

  /** Asks for one pass after the delay; requests while one is pending share it. */
  schedule(): void {
    if (this.scheduled !== undefined) return;
    this.scheduled = this.timers.at(this.timers.now() + this.delayMs, () => this.pass(), 'garbage collector');
  }

  /** True when some owner reference of `obj` points at a UID that no stored object has. */
  hasDanglingOwner(obj: KubeObject): boolean {
    return (obj.metadata.ownerReferences ?? []).some((r) => !this.store.hasUid(r.uid));
  }

  /**
   * Decides on the state at the start of the pass, then acts: a dependent orphaned by this pass's own
   * deletions waits for the next pass, so a chain of owners goes one level per pass.
   */
  // upstream: pkg/controller/garbagecollector/garbagecollector.go attemptToDeleteItem
  private pass(): void {
    this.scheduled = undefined;
    const work: (() => void)[] = [];
    for (const res of this.store.knownResources()) {
      for (const obj of this.store.list(res)) {
        const task = this.decide(res, obj);
        if (task) work.push(task);
      }
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
