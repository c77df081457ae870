// The one place that admits a pod going down. Every phase that wants a disruption — an update deletion, an
// in-place patch, claims grown, an in-place fallback, a claim restart, a Recreate deletion, a failed pod's
// replacement, a scale-down — proposes it (proposals/proposal.ts); `admit` applies the rules of its cause
// (disruption-rules.ts) in one fixed order — holds → update order → budget → PodDisruptionBudgets → the preUpdate
// hook (pre-update-hook.ts) → the drain before an in-place restart (in-place-drain.ts) — and builds the action. No other code builds a deletePod or a patchPod. (OpenKruise's rollingUpdateStatefulsetPods and
// its single deletePod are the anchor.) The update order is the walk's (update-walk.ts): it offers candidates in
// that order, and the admission sees each once.

import type { Pod } from '../../api/types.js';
import type { Action, Blocker } from '../model/plan-types.js';
import { isPodReady, podOrdinal, podRevision } from '../model/pod-state.js';
import { isAvailable } from '../replica/replica.js';
import { podFacts } from '../replica/pod-facts.js';
import type { Admit, Proposal, Verdict } from '../proposals/proposal.js';
import type { SyncContext } from '../rollout/sync-context.js';
import { updateHeld } from '../rollout/rollout.js';
import { DisruptionLedger } from './disruption-budget.js';
import { preUpdateHookOf } from '../model/lifecycle.js';
import { PreUpdateHooks, type HookWork } from './pre-update-hook.js';
import { DISRUPTION_RULES } from './disruption-rules.js';
import { InPlaceDrains, type DrainWork } from './in-place-drain.js';
import { drainSecondsOf } from '../model/spec.js';
import { updateBudget, type UpdateBudget } from './update-budget.js';


/** The rollout's view of a pod for PodDisruptionBudgets: the set's own replicas while available, others while Ready. */
function strictHealth(ctx: SyncContext): (pod: Pod) => boolean {
  const index = ctx.slots.index;
  return (pod) => {
    const r = index.member(podOrdinal(pod));
    return r?.pod === pod ? isAvailable(r, ctx.now) : isPodReady(pod);
  };
}

export class Admission implements Admit {
  private budgetState: UpdateBudget | undefined;
  private readonly ledger: DisruptionLedger | undefined;
  private readonly hooks: PreUpdateHooks | undefined;
  private readonly drains: InPlaceDrains | undefined;

  /** `budget`: the update budget of the walk (EnforcedRollingUpdate's leaves out old pods it replaces anyway). */
  constructor(
    private readonly ctx: SyncContext,
    budget?: UpdateBudget,
  ) {
    this.budgetState = budget;
    const knobs = ctx.rollout.knobs;
    this.ledger = knobs.respectDisruptionBudgets ? DisruptionLedger.of(ctx.disruptionBudgets ?? [], ctx.now, strictHealth(ctx)) : undefined;
    const hook = preUpdateHookOf(ctx.set);
    this.hooks = hook && new PreUpdateHooks(hook, ctx.set.metadata.name ?? '', ctx.updateRevision, ctx.now, ctx.analysisResults ?? []);
    const grace = drainSecondsOf(ctx.set);
    this.drains = grace > 0 ? new InPlaceDrains(ctx, grace) : undefined;
  }

  /** maxUnavailable, the replicas unavailable before this sync, and what this sync may still take (`slot` charges). */
  get budget(): UpdateBudget {
    this.budgetState ??= updateBudget(this.ctx);
    return this.budgetState;
  }

  /** The admission with another update budget (EnforcedRollingUpdate's walk: old pods it replaces anyway do not count). */
  withBudget(budget: UpdateBudget): this {
    this.budgetState = budget;
    return this;
  }

  /** Every rule of the proposal's cause, in order; its actions when admitted, else the rule that refused it. */
  admit(p: Proposal): Verdict {
    const rules = DISRUPTION_RULES[p.cause];
    const holds = this.ctx.rollout.holds;
    if (rules.held && updateHeld(holds)) return { admitted: false, refusal: 'held' };
    if (rules.halted && holds.safetyHalt !== undefined) return { admitted: false, refusal: 'halted' };
    if (!this.hasBudget(p)) return { admitted: false, refusal: 'budget' };
    if (rules.budgets && this.ledger !== undefined && !this.ledger.admit(p.pod)) return { admitted: false, refusal: 'disruptionBudget' };
    if (p.charge === 'slot') this.budget.remaining--;
    // a pod whose hook runs keeps the slot and the PodDisruptionBudget's disruption it was given: the walk
    // offers the next pod only as if this one were going
    if (!this.hookLetsGo(p)) return { admitted: false, refusal: 'preUpdateHook' };
    // the drain is the in-place restart's disruption: it takes the slot, and the patch follows it
    const drain = p.disruption.via === 'inPlace' && this.drains !== undefined ? this.drains.judge(p, p.disruption.revision) : undefined;
    if (drain?.kind === 'wait') return { admitted: false, refusal: 'draining' };
    if (drain?.kind === 'drain') return { admitted: true, actions: drain.actions };
    return { admitted: true, actions: this.actionsOf(p) };
  }

  /** The pods that drain before their in-place restart this sync, and when the first drain ends. */
  drainWork(): DrainWork | undefined {
    return this.drains?.result();
  }

  /** What the preUpdate hooks need this sync: records to write, GETs due, the pods they hold. */
  hookWork(): HookWork | undefined {
    return this.hooks?.result();
  }

  private hookLetsGo(p: Proposal): boolean {
    if (this.hooks === undefined || !DISRUPTION_RULES[p.cause].hooked || p.disruption.via === 'claims') return true;
    const replica = this.ctx.slots.index.member(p.ordinal);
    return this.hooks.letsGo(replica?.pod === p.pod ? replica : podFacts(p.pod));
  }

  /** The PodDisruptionBudgets that refused a disruption this sync. */
  disruptionBudgetBlockers(): Blocker[] {
    return this.ledger?.blockers() ?? [];
  }

  private hasBudget(p: Proposal): boolean {
    switch (p.charge) {
      case 'slot':
        return this.budget.remaining > 0;
      case 'spent':
        // the replica holds a slot already: it may go again only while the budget is not overdrawn
        return this.budget.unavailable <= this.budget.maxUnavailable;
      case 'free':
      case 'none':
        return true;
    }
  }

  /** The one builder of the disruptive actions. */
  private actionsOf(p: Proposal): Action[] {
    const pod = p.pod;
    const name = pod.metadata.name ?? '';
    const uid = pod.metadata.uid ?? '';
    const d = p.disruption;
    switch (d.via) {
      case 'inPlace':
        return [{ kind: 'patchPod', batch: 0, name, uid, ordinal: p.ordinal, revision: d.revision, patch: d.patch, ...(d.resize !== undefined ? { resize: d.resize } : {}) }];
      case 'claims':
        return d.patches;
      case 'delete': {
        const rules = DISRUPTION_RULES[p.cause];
        const evicted = rules.budgets && this.ledger !== undefined;
        return [
          {
            kind: 'deletePod',
            batch: 0,
            name,
            uid,
            ordinal: p.ordinal,
            cause: rules.deleteCause,
            ...(rules.decrementsCurrent ? { decrementsCurrentReplicas: podRevision(pod) === this.ctx.currentRevision } : {}),
            ...(p.stuckSeconds !== undefined ? { stuckSeconds: p.stuckSeconds } : {}),
            ...(evicted ? { eviction: true as const } : {}),
          },
        ];
      }
    }
  }
}
