// PodDisruptionBudgets (rollingUpdate.respectPodDisruptionBudgets): an update deletion goes only when the API
// server's eviction handler would let the pod go under every PodDisruptionBudget selecting it, so a rollout
// never takes a budget below its desiredHealthy. Each budget's status is the disruption controller's, which
// trails the pods: `currentHealthy` is counted again from the pods as they are now (a pod this controller just
// deleted is no longer healthy here, whether or not the disruption controller has seen it yet), and a budget
// whose status is older than its spec allows nothing, as the eviction handler answers.

import type { Instant, Pod, StatefulSet } from '../api/types.js';
import { MAX_LISTED_PODS } from './blockers.js';
import { budgetSelects, isBudgetHealthy, type Matcher } from './budget-pods.js';
import type { Blocker, ObservedDisruptionBudget } from './plan-types.js';
import { isPodReady, isTerminating, podPhase } from './pod-state.js';
import type { SyncContext } from './sync-context.js';

/** Whether the set's update deletions wait on PodDisruptionBudgets (rollingUpdate.respectPodDisruptionBudgets). */
export const respectsBudgets = (set: StatefulSet): boolean => set.spec.updateStrategy?.rollingUpdate?.respectPodDisruptionBudgets === true;

/** A RollingUpdate that respects budgets: its update deletions are admitted by the ledger and sent as evictions. */
export const evictsUpdates = (ctx: SyncContext): boolean => ctx.strategy.kind === 'RollingUpdate' && respectsBudgets(ctx.set);

/** A pod the eviction handler lets go without looking at budgets: finished, Pending or already terminating. */
// upstream: pkg/registry/core/pod/storage/eviction.go canIgnorePDB
const ignoresBudgets = (pod: Pod): boolean => ['Succeeded', 'Failed', 'Pending'].includes(podPhase(pod)) || isTerminating(pod);

interface Budget {
  name: string;
  selects: Matcher;
  /** The status is older than the spec (or missing): nothing is allowed until the disruption controller catches up. */
  stale: boolean;
  allowed: number;
  healthy: number;
  desired: number;
  expected: number;
  alwaysAllowUnhealthy: boolean;
  /** Pods it refused this sync (bounded), how many, and whether one of them was not Ready. */
  blocked: string[];
  blockedCount: number;
  blockedUnready: boolean;
}

function budgetOf({ budget, pods, inFlight }: ObservedDisruptionBudget, now: Instant): Budget {
  const status = budget.status;
  const stale = status === undefined || (status.observedGeneration ?? 0) < (budget.metadata.generation ?? 0);
  // deleted or evicted by this process, not yet shown by the pods nor the status: not healthy, and spent
  const spent = new Set(inFlight ?? []);
  const healthy = Math.min(status?.currentHealthy ?? 0, pods.filter((p) => isBudgetHealthy(p, status?.disruptedPods, now) && !spent.has(p.metadata.name ?? '')).length);
  const desired = status?.desiredHealthy ?? 0;
  return {
    name: budget.metadata.name ?? '',
    selects: budgetSelects(budget),
    stale,
    allowed: stale ? 0 : Math.max(0, Math.min((status.disruptionsAllowed ?? 0) - spent.size, healthy - desired)),
    healthy,
    desired,
    expected: status?.expectedPods ?? 0,
    alwaysAllowUnhealthy: budget.spec?.unhealthyPodEvictionPolicy === 'AlwaysAllow',
    blocked: [],
    blockedCount: 0,
    blockedUnready: false,
  };
}

/**
 * The budgets of one sync, spent as update deletions are chosen. `admit` answers for each candidate in turn as
 * the eviction handler would for an eviction of it, after the deletions admitted before it.
 */
export class DisruptionLedger {
  private constructor(private readonly budgets: Budget[]) {}

  /** The ledger of a RollingUpdate that respects budgets; undefined when the set does not ask for it. */
  static of(ctx: SyncContext): DisruptionLedger | undefined {
    if (!evictsUpdates(ctx)) return undefined;
    return new DisruptionLedger((ctx.disruptionBudgets ?? []).map((b) => budgetOf(b, ctx.now)));
  }

  /** Whether deleting `pod` keeps every budget selecting it; when it does, the deletion is counted against them. */
  // upstream: pkg/registry/core/pod/storage/eviction.go EvictionREST.Create, checkAndDecrement
  admit(pod: Pod): boolean {
    if (ignoresBudgets(pod)) return true;
    const selecting = this.budgets.filter((b) => b.selects(pod.metadata.labels));
    const ready = isPodReady(pod);
    // an unready pod takes nothing from currentHealthy: it may go while the budget is met (IfHealthyBudget)
    const free = (b: Budget): boolean => !ready && (b.alwaysAllowUnhealthy || (b.healthy >= b.desired && b.desired > 0));
    const refusing = selecting.filter((b) => !free(b) && b.allowed <= 0);
    for (const b of refusing) {
      if (b.blocked.length < MAX_LISTED_PODS) b.blocked.push(pod.metadata.name ?? '');
      b.blockedCount++;
      b.blockedUnready ||= !ready;
    }
    if (refusing.length > 0) return false;
    for (const b of selecting) {
      if (free(b)) continue;
      b.allowed--;
      if (ready) b.healthy--;
    }
    return true;
  }

  /** One blocker per budget that refused a deletion this sync. */
  blockers(): Blocker[] {
    return this.budgets
      .filter((b) => b.blockedCount > 0)
      .map((b) => ({
        kind: 'podDisruptionBudget',
        budget: b.name,
        pods: b.blocked,
        count: b.blockedCount,
        disruptionsAllowed: b.allowed,
        currentHealthy: b.healthy,
        desiredHealthy: b.desired,
        expectedPods: b.expected,
        stale: b.stale,
        unready: b.blockedUnready,
      }));
  }
}
