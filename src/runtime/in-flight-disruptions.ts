// The disruptions this controller process has made that its informers do not show yet, shared by every set's
// sync: without it, two sets behind one PodDisruptionBudget (a set per rack, primary and replicas) each
// spend, from caches that have not seen the other's deletion, a disruption the other has already spent. A pod
// the plan deletes or evicts under a watched budget is recorded the moment its sync has planned it (before
// any other sync can plan), dropped when the sync ends without the deletion, and otherwise kept until the pod
// informer shows the pod terminating or gone, the budget's status lists it in disruptedPods (the eviction
// handler counted it), or the disruption controller's DeletionTimeout has passed. The planner counts each
// entry as a disruption spent (ObservedDisruptionBudget.inFlight). Across processes, the eviction handler
// is the last word: it serializes evictions on the budget's status.

import type { Instant, Pod, PodDisruptionBudget } from '../api/types.js';
import { budgetSelects, DELETION_TIMEOUT_MS } from '../controller/budget-pods.js';
import type { Action } from '../controller/plan-types.js';
import type { Clock } from './clock.js';
import type { Informer } from './informer.js';

interface Entry {
  namespace: string;
  name: string;
  uid: string;
  /** Names of the budgets of the pod's namespace that selected it when it was recorded. */
  budgets: readonly string[];
  at: Instant;
}

/** The entries one sync recorded, to drop those whose action did not happen. */
export interface Reservation {
  settle(executed: ReadonlySet<Action>): void;
}

/** What the ledger reads: the controller's pod and budget caches, and its clock. */
export interface LedgerDeps {
  pods: Pick<Informer<Pod>, 'get'>;
  budgets: Pick<Informer<PodDisruptionBudget>, 'list'>;
  clock: Clock;
}

const NOTHING: Reservation = { settle: () => undefined };
const key = (namespace: string, name: string): string => `${namespace}/${name}`;

export class InFlightDisruptions {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly deps: LedgerDeps) {}

  /** Records the plan's pod deletions (and evictions) that a watched budget selects; call right after planning. */
  reserve(namespace: string, actions: readonly Action[]): Reservation {
    this.prune();
    const recorded = new Map<Action, { key: string; uid: string }>();
    for (const action of actions) {
      if (action.kind !== 'deletePod') continue;
      const pod = this.deps.pods.get(namespace, action.name);
      if (pod === undefined || pod.metadata.uid !== action.uid) continue;
      const budgets = this.deps.budgets.list(namespace).filter((b) => budgetSelects(b)(pod.metadata.labels)).map((b) => b.metadata.name ?? '');
      if (budgets.length === 0) continue;
      const k = key(namespace, action.name);
      this.entries.set(k, { namespace, name: action.name, uid: action.uid, budgets, at: this.deps.clock.now() });
      recorded.set(action, { key: k, uid: action.uid });
    }
    if (recorded.size === 0) return NOTHING;
    return {
      settle: (executed) => {
        for (const [action, { key: k, uid }] of recorded) if (!executed.has(action) && this.entries.get(k)?.uid === uid) this.entries.delete(k);
      },
    };
  }

  /** Pods recorded under `budget` that neither the pod informer nor the budget's status shows disrupted yet, by name. */
  inFlight(budget: PodDisruptionBudget): string[] {
    const namespace = budget.metadata.namespace ?? '';
    const name = budget.metadata.name ?? '';
    const counted = budget.status?.disruptedPods ?? {};
    this.prune();
    const out: string[] = [];
    for (const entry of this.entries.values()) {
      if (entry.namespace === namespace && entry.budgets.includes(name) && counted[entry.name] === undefined) out.push(entry.name);
    }
    return out.sort();
  }

  /** Drops the entries the caches show now (or that have expired): nothing is kept for good. */
  private prune(): void {
    for (const [k, entry] of this.entries) if (this.settled(entry)) this.entries.delete(k);
  }

  /** The informer shows the deletion (terminating, gone, or another pod of the name), or it is older than the disruption controller waits for one. */
  private settled(entry: Entry): boolean {
    const pod = this.deps.pods.get(entry.namespace, entry.name);
    if (pod === undefined || pod.metadata.uid !== entry.uid || pod.metadata.deletionTimestamp !== undefined) return true;
    return this.deps.clock.now() - entry.at > DELETION_TIMEOUT_MS;
  }
}
