// inPlaceUpdateStrategy.gracePeriodSeconds, the last rule of the admission (admission.ts), after the preUpdate
// hook: an in-place restart of a pod that carries the readiness gate (model/readiness-gate.ts) is admitted as
// its drain first. The drain is the disruption:
// - the gate's condition not False yet: the admitted actions are the condition written False (reason
//   StartInPlaceUpdate, lastTransitionTime now), with the event InPlaceUpdateDraining; from then on the replica
//   counts as unavailable (replica.ts), and the pod is NotReady once the kubelet sees it;
// - False since `since`, before since + gracePeriodSeconds: refused ('draining'), the pod's blocker says how far
//   it is, and the sync wakes at the end;
// - False for gracePeriodSeconds: the in-place patch.
// Pods without the gate never reach this rule with a drain to make (pod-in-place.ts recreates them, or halts).

import type { Instant } from '../../api/types.js';
import { drainEvent } from '../model/event-texts.js';
import type { Action, Blocker } from '../model/plan-types.js';
import { drainDoneAt, gateCondition, gateState, wholeSecondAfter } from '../model/readiness-gate.js';
import type { Proposal } from '../proposals/proposal.js';
import type { SyncContext } from '../rollout/sync-context.js';

/** The drains' part of a sync: the pods that drain, and when the first drain ends. */
export interface DrainWork {
  blockers: Blocker[];
  wakeAt?: Instant;
}

/** What the drain rule says of an in-place restart: go (the patch), drain (the False write), or wait. */
export type DrainVerdict = { kind: 'go' } | { kind: 'drain'; actions: Action[] } | { kind: 'wait' };

export class InPlaceDrains {
  private readonly work: DrainWork = { blockers: [] };

  constructor(
    private readonly ctx: SyncContext,
    private readonly graceSeconds: number,
  ) {}

  /** The drain rule for an in-place restart of `p` (its disruption `via: 'inPlace'`) to `revision`. */
  judge(p: Proposal, revision: string): DrainVerdict {
    const gate = gateState(p.pod);
    if (gate === undefined) return { kind: 'go' };
    const name = p.pod.metadata.name ?? '';
    const now = this.ctx.now;
    if (gate.status === 'False') {
      const end = drainDoneAt(gate.since, this.graceSeconds);
      if (now >= end) return { kind: 'go' };
      this.wait(name, p.ordinal, revision, gate.since, end);
      return { kind: 'wait' };
    }
    const condition = gateCondition(false, now);
    const since = wholeSecondAfter(now);
    this.wait(name, p.ordinal, revision, since, drainDoneAt(since, this.graceSeconds));
    const action: Action = {
      kind: 'setPodCondition',
      batch: 0,
      name,
      uid: p.pod.metadata.uid ?? '',
      ordinal: p.ordinal,
      condition,
      drain: { revision, graceSeconds: this.graceSeconds },
      outcome: { succeeded: drainEvent(this.ctx.set, name, revision, this.graceSeconds) },
    };
    return { kind: 'drain', actions: [action] };
  }

  /** The pods draining this sync and the first drain's end. */
  result(): DrainWork {
    return this.work;
  }

  private wait(pod: string, ordinal: number, revision: string, since: Instant, end: Instant): void {
    this.work.blockers.push({ kind: 'inPlaceDraining', pod, ordinal, revision, since, graceSeconds: this.graceSeconds });
    if (this.work.wakeAt === undefined || end < this.work.wakeAt) this.work.wakeAt = end;
  }
}
