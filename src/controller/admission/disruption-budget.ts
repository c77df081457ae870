// PodDisruptionBudgets (rollingUpdate.respectPodDisruptionBudgets): a disruption for an update goes only when
// the API server's eviction handler would let the pod go under every PodDisruptionBudget selecting it, and
// the rollout's own availability agrees — the stricter of the two:
// - the eviction handler's view: the budget's disruptionsAllowed, its status being current (observedGeneration),
//   and currentHealthy counted again from the pods as they are now (Ready, not terminating, not just evicted);
// - the rollout's view: the set's own pods count as healthy only while they are available (replica.ts: Ready
//   for minReadySeconds, not moving in place, claims settled), pods of other workloads while they are Ready;
//   no disruption may take that count below desiredHealthy.
// Pods this controller process deleted or evicted that its informers do not show yet (`inFlight`, from the
// process-wide ledger: runtime/disruption-ledger.ts) count as disrupted already, so two sets behind one budget
// never spend the same disruption. The write itself goes through pods/eviction, so kube-apiserver has the last
// word against other controllers and drains.

import type { Instant, Pod } from '../../api/types.js';
import { MAX_LISTED_PODS } from '../model/blockers.js';
import { budgetSelects, isBudgetHealthy, type Matcher } from '../model/budget-pods.js';
import type { Blocker, ObservedDisruptionBudget } from '../model/plan-types.js';
import { isPodReady, isTerminating, podPhase } from '../model/pod-state.js';

/** A pod the eviction handler lets go without looking at budgets: finished, Pending or already terminating. */
// upstream: pkg/registry/core/pod/storage/eviction.go canIgnorePDB
const ignoresBudgets = (pod: Pod): boolean => ['Succeeded', 'Failed', 'Pending'].includes(podPhase(pod)) || isTerminating(pod);

interface Budget {
  name: string;
  selects: Matcher;
  /** The status is older than the spec (or missing): nothing is allowed until the disruption controller catches up. */
  stale: boolean;
  /** The eviction handler's disruptionsAllowed, after the disruptions counted so far. */
  allowed: number;
  /** currentHealthy as the eviction handler counts it now. */
  healthy: number;
  /** Healthy as the rollout counts it (the set's own pods: available), minus desiredHealthy: what may still go. */
  margin: number;
  desired: number;
  expected: number;
  alwaysAllowUnhealthy: boolean;
  /** Pods it refused this sync (bounded), how many, and whether one of them was not Ready. */
  blocked: string[];
  blockedCount: number;
  blockedUnready: boolean;
}

/** Whether a pod of the budget is healthy in the rollout's view (the set's own: available; others: Ready). */
export type StrictHealth = (pod: Pod) => boolean;

function budgetOf({ budget, pods, inFlight = [] }: ObservedDisruptionBudget, now: Instant, strict: StrictHealth): Budget {
  const status = budget.status;
  const stale = status === undefined || (status.observedGeneration ?? 0) < (budget.metadata.generation ?? 0);
  const disrupted = new Set(inFlight);
  const live = pods.filter((p) => !disrupted.has(p.metadata.name ?? ''));
  const apiHealthy = live.filter((p) => isBudgetHealthy(p, status?.disruptedPods, now));
  const healthy = Math.min(status?.currentHealthy ?? 0, apiHealthy.length);
  const desired = status?.desiredHealthy ?? 0;
  // an eviction this process made but the budget's status does not record yet has spent one of its disruptions
  const unrecorded = inFlight.filter((name) => status?.disruptedPods?.[name] === undefined).length;
  return {
    name: budget.metadata.name ?? '',
    selects: budgetSelects(budget),
    stale,
    allowed: stale ? 0 : Math.max(0, Math.min((status.disruptionsAllowed ?? 0) - unrecorded, healthy - desired)),
    healthy,
    margin: apiHealthy.filter(strict).length - desired,
    desired,
    expected: status?.expectedPods ?? 0,
    alwaysAllowUnhealthy: budget.spec?.unhealthyPodEvictionPolicy === 'AlwaysAllow',
    blocked: [],
    blockedCount: 0,
    blockedUnready: false,
  };
}

/**
 * The budgets of one sync, spent as disruptions are admitted. `admit` answers for each candidate in turn as
 * the eviction handler would for an eviction of it, and as the rollout's availability allows, after the
 * disruptions admitted before it.
 */
export class DisruptionLedger {
  /** Pods that more than one budget selects: the eviction handler refuses them whatever the budgets allow. */
  private readonly overlapping: { pod: string; budgets: string[] }[] = [];

  private constructor(
    private readonly budgets: Budget[],
    private readonly strict: StrictHealth,
  ) {}

  /** The ledger of the budgets observed for a set (their pods, the set's own judged by `strict`). */
  static of(observed: readonly ObservedDisruptionBudget[], now: Instant, strict: StrictHealth): DisruptionLedger {
    return new DisruptionLedger(
      observed.map((b) => budgetOf(b, now, strict)),
      strict,
    );
  }

  /** Whether disrupting `pod` keeps every budget selecting it; when it does, the disruption is counted against them. */
  // upstream: pkg/registry/core/pod/storage/eviction.go EvictionREST.Create, checkAndDecrement
  admit(pod: Pod): boolean {
    if (ignoresBudgets(pod)) return true;
    const selecting = this.budgets.filter((b) => b.selects(pod.metadata.labels));
    // upstream: eviction.go "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support."
    if (selecting.length > 1) {
      if (this.overlapping.length < MAX_LISTED_PODS) this.overlapping.push({ pod: pod.metadata.name ?? '', budgets: selecting.map((b) => b.name) });
      return false;
    }
    const ready = isPodReady(pod);
    const counted = this.strict(pod);
    // an unready pod takes nothing from currentHealthy: it may go while the budget is met (IfHealthyBudget)
    const free = (b: Budget): boolean => !ready && (b.alwaysAllowUnhealthy || (b.healthy >= b.desired && b.desired > 0));
    const refusing = selecting.filter((b) => !free(b) && (b.allowed <= 0 || (counted && b.margin <= 0)));
    for (const b of refusing) {
      if (b.blocked.length < MAX_LISTED_PODS) b.blocked.push(pod.metadata.name ?? '');
      b.blockedCount++;
      b.blockedUnready ||= !ready;
    }
    if (refusing.length > 0) return false;
    for (const b of selecting) {
      if (counted) b.margin--;
      if (free(b)) continue;
      b.allowed--;
      if (ready) b.healthy--;
    }
    return true;
  }

  /** One blocker per budget that refused a disruption this sync, and one per pod that several budgets select. */
  blockers(): Blocker[] {
    const overlaps = this.overlapping.map((o): Blocker => ({ kind: 'overlappingDisruptionBudgets', pod: o.pod, budgets: o.budgets }));
    return [...overlaps, ...this.refusals()];
  }

  private refusals(): Blocker[] {
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
