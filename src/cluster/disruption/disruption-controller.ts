// The simulated disruption controller: what kube-controller-manager's `disruption` controller does to
// PodDisruptionBudgets. It mirrors budgets, pods and StatefulSets (both APIs: their scale is
// spec.replicas), and writes each budget's status (disruption-status.ts) whenever a budget, a pod it selects
// or a set in its namespace changes, and when a disrupted pod's entry expires. It speaks only the
// ClusterClient port, like the simulated kubelet; all time is the injected Timers'.

import { apiVersionOf, Resources, type ClusterClient } from '../../api/client.js';
import type { KubeObject, OwnerReference, Pod, PodDisruptionBudget, StatefulSet } from '../../api/types.js';
import { deepEqual } from '../../api/validation/json.js';
import { budgetSelects } from '../../controller/model/budget-pods.js';
import type { Timers } from '../../runtime/clock.js';
import { WatchingActor } from '../watching-actor.js';
import { syncBudget } from './disruption-status.js';

export interface DisruptionControllerOptions {
  client: ClusterClient;
  timers: Timers;
  random: () => number;
  onError?: (error: unknown) => void;
}

const RETRY_MS = 1000;
const key = (o: KubeObject): string => `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;

/**
 * Objects by key, as a Map, that also keeps each namespace's (in the order they were set): a budget's sync and
 * a pod's event read their namespace's only, not every object of the cluster.
 */
class ByNamespace<T extends KubeObject> extends Map<string, T> {
  private readonly spaces = new Map<string, Map<string, T>>();

  override set(k: string, o: T): this {
    const ns = o.metadata.namespace ?? '';
    const before = super.get(k);
    if (before !== undefined && (before.metadata.namespace ?? '') !== ns) this.spaces.get(before.metadata.namespace ?? '')?.delete(k);
    let space = this.spaces.get(ns);
    if (space === undefined) this.spaces.set(ns, (space = new Map()));
    space.set(k, o);
    return super.set(k, o);
  }

  override delete(k: string): boolean {
    const before = super.get(k);
    if (before !== undefined) this.spaces.get(before.metadata.namespace ?? '')?.delete(k);
    return super.delete(k);
  }

  override clear(): void {
    this.spaces.clear();
    super.clear();
  }

  /** The namespace's objects, in the order they were set (as the whole Map has them). */
  in(namespace: string | undefined): IterableIterator<T> {
    return (this.spaces.get(namespace ?? '') ?? new Map<string, T>()).values();
  }
}

export class DisruptionController extends WatchingActor {
  private readonly budgets = new ByNamespace<PodDisruptionBudget>();
  private readonly pods = new ByNamespace<Pod>();
  /** StatefulSets by API version, then UID (what a controller reference names). */
  private readonly sets = new Map<string, Map<string, StatefulSet>>([
    [apiVersionOf(Resources.statefulSets), new Map()],
    [apiVersionOf(Resources.ordinalStatefulSets), new Map()],
  ]);

  /** Budgets are synced one status write at a time each, again when changed meanwhile or when a disruptedPods entry expires. */
  constructor(private readonly opts: DisruptionControllerOptions) {
    super(opts, 'disruption', undefined);
    const inNamespace = (o: KubeObject) => this.budgetsIn(o.metadata.namespace).forEach((b) => this.enqueue(key(b)));
    this.watch<PodDisruptionBudget>(Resources.podDisruptionBudgets, this.budgets, key, (b) => this.enqueue(key(b)));
    this.watch<Pod>(Resources.pods, this.pods, key, (p) => this.budgetsIn(p.metadata.namespace).filter((b) => budgetSelects(b)(p.metadata.labels)).forEach((b) => this.enqueue(key(b))));
    for (const r of [Resources.statefulSets, Resources.ordinalStatefulSets]) this.watch<StatefulSet>(r, this.sets.get(apiVersionOf(r)) as Map<string, StatefulSet>, (o) => o.metadata.uid ?? '', inNamespace);
  }

  protected run(k: string): Promise<void> {
    return this.sync(k);
  }

  protected resyncAll(): void {
    for (const b of this.budgets.values()) this.enqueue(key(b));
  }

  private budgetsIn(namespace: string | undefined): PodDisruptionBudget[] {
    return [...this.budgets.in(namespace)].filter((b) => b.metadata.namespace === namespace);
  }

  private scaleOf = (ref: OwnerReference): number | undefined => {
    const set = ref.kind === 'StatefulSet' ? this.sets.get(ref.apiVersion)?.get(ref.uid) : undefined;
    return set === undefined ? undefined : (set.spec.replicas ?? 1);
  };

  private enqueue(k: string): void {
    if (this.running) this.work.enqueue(k);
  }

  // upstream: pkg/controller/disruption/disruption.go sync
  private async sync(k: string): Promise<void> {
    const budget = this.budgets.get(k);
    if (budget === undefined) return;
    const selects = budgetSelects(budget);
    const pods = [...this.pods.in(budget.metadata.namespace)].filter((p) => p.metadata.namespace === budget.metadata.namespace && selects(p.metadata.labels));
    const now = this.opts.timers.now();
    const { status, recheckAt } = syncBudget({ budget, pods, scaleOf: this.scaleOf, now });
    if (recheckAt !== undefined) this.work.wakeAt(k, recheckAt);
    if (deepEqual(status, budget.status ?? {})) return;
    try {
      const written = await this.opts.client.updateStatus(Resources.podDisruptionBudgets, { ...budget, status });
      if (this.budgets.get(k) === budget) this.budgets.set(k, written);
    } catch (error) {
      // a conflict (the eviction handler or a user wrote meanwhile): the watch brings the new object; retry anyway
      this.opts.onError?.(error);
      this.work.wakeAt(k, now + RETRY_MS);
    }
  }
}
