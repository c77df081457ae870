// The InPlace claims of one set that may keep their replica unavailable (claimHeldOrdinals), kept from the
// claim writes: a claim joins when it is written, and leaves once its replica is no longer held, so the
// simulator's per-write availability reads the few claims that are expanding or just expanded, not every
// claim of the set. Time only moves forward in a run; a change of minReadySeconds starts again from every
// claim of the set.

import type { Instant, PersistentVolumeClaim, StatefulSet } from '../api/types.js';
import { claimsByOrdinal, claimHeldOrdinals } from '../controller/checks/invariants.js';
import { minReadySecondsOf } from '../controller/model/spec.js';

const NONE: ReadonlySet<number> = new Set();

export class ClaimHolds {
  private readonly candidates = new Map<string, PersistentVolumeClaim>();
  private minReadySeconds: number | undefined;
  private now: Instant = Number.NEGATIVE_INFINITY;

  /** `all`: every claim of the set, read when the candidates start again. */
  constructor(private readonly all: () => Iterable<PersistentVolumeClaim>) {}

  /** A claim of the set was written (`claim` undefined: deleted). */
  apply(name: string, claim: PersistentVolumeClaim | undefined): void {
    if (claim === undefined) this.candidates.delete(name);
    else this.candidates.set(name, claim);
  }

  /** The ordinals whose claims keep the replica unavailable at `now`. */
  held(set: StatefulSet, now: Instant): ReadonlySet<number> {
    if (set.spec.volumeClaimUpdatePolicy !== 'InPlace') return NONE;
    const mrs = minReadySecondsOf(set);
    if (mrs !== this.minReadySeconds || now < this.now) {
      this.minReadySeconds = mrs;
      this.candidates.clear();
      for (const claim of this.all()) this.candidates.set(claim.metadata.name ?? '', claim);
    }
    this.now = now;
    if (this.candidates.size === 0) return NONE;
    const held = claimHeldOrdinals(set, this.candidates.values(), now);
    for (const [ordinal, claims] of claimsByOrdinal(set, this.candidates.values())) {
      if (!held.has(ordinal)) for (const claim of claims) this.candidates.delete(claim.metadata.name ?? '');
    }
    return held;
  }
}
