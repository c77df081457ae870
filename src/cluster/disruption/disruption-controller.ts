// The simulated disruption controller: what kube-controller-manager's `disruption` controller does to
// PodDisruptionBudgets. It mirrors budgets, pods and StatefulSets (both APIs: their scale is
// spec.replicas), and writes each budget's status (disruption-status.ts) whenever a budget, a pod it selects
// or a set in its namespace changes, and when a disrupted pod's entry expires. It speaks only the
// ClusterClient port, like the simulated kubelet; all time is the injected Timers'.

import { apiVersionOf, Resources, type ClusterClient, type Resource, type WatchEvent } from '../../api/client.js';
import type { Instant, KubeObject, OwnerReference, Pod, PodDisruptionBudget, StatefulSet } from '../../api/types.js';
import { deepEqual } from '../../api/validation/json.js';
import { budgetSelects } from '../../controller/budget-pods.js';
import type { TimerId, Timers } from '../../runtime/clock.js';
import { Reflector } from '../../runtime/reflector.js';
import { syncBudget } from './disruption-status.js';

export interface DisruptionControllerOptions {
  client: ClusterClient;
  timers: Timers;
  random: () => number;
  onError?: (error: unknown) => void;
}

const RETRY_MS = 1000;
const key = (o: KubeObject): string => `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;

export class DisruptionController {
  private readonly budgets = new Map<string, PodDisruptionBudget>();
  private readonly pods = new Map<string, Pod>();
  /** StatefulSets by API version, then UID (what a controller reference names). */
  private readonly sets = new Map<string, Map<string, StatefulSet>>([
    [apiVersionOf(Resources.statefulSets), new Map()],
    [apiVersionOf(Resources.ordinalStatefulSets), new Map()],
  ]);
  private readonly reflectors: Reflector<KubeObject>[];
  private readonly wakes = new Map<string, { at: Instant; id: TimerId }>();
  /** Budgets being synced (one status write at a time each), and those changed meanwhile. */
  private readonly busy = new Set<string>();
  private readonly dirty = new Set<string>();
  private running = false;

  constructor(private readonly opts: DisruptionControllerOptions) {
    const inNamespace = (o: KubeObject) => this.budgetsIn(o.metadata.namespace).forEach((b) => this.enqueue(key(b)));
    this.reflectors = [
      this.mirror<PodDisruptionBudget>(Resources.podDisruptionBudgets, this.budgets, key, (b) => this.enqueue(key(b))),
      this.mirror<Pod>(Resources.pods, this.pods, key, (p) => this.budgetsIn(p.metadata.namespace).filter((b) => budgetSelects(b)(p.metadata.labels)).forEach((b) => this.enqueue(key(b)))),
      ...[Resources.statefulSets, Resources.ordinalStatefulSets].map((r) => this.mirror<StatefulSet>(r, this.sets.get(apiVersionOf(r)) as Map<string, StatefulSet>, (o) => o.metadata.uid ?? '', inNamespace)),
    ];
  }

  start(): void {
    this.running = true;
    for (const r of this.reflectors) r.start();
  }

  stop(): void {
    this.running = false;
    for (const r of this.reflectors) r.stop();
    for (const w of this.wakes.values()) this.opts.timers.cancel(w.id);
    this.wakes.clear();
  }

  private budgetsIn(namespace: string | undefined): PodDisruptionBudget[] {
    return [...this.budgets.values()].filter((b) => b.metadata.namespace === namespace);
  }

  /** Keeps `into` equal to the resource's objects (all namespaces), by `id`. */
  private mirror<T extends KubeObject>(resource: Resource, into: Map<string, T>, id: (o: T) => string, changed: (o: T) => void): Reflector<KubeObject> {
    const sink = {
      replace: (items: T[]) => {
        into.clear();
        for (const o of items) into.set(id(o), o);
        for (const b of this.budgets.values()) this.enqueue(key(b));
      },
      event: (e: WatchEvent<T>) => {
        if (e.type === 'DELETED') into.delete(id(e.object));
        else into.set(id(e.object), e.object);
        changed(e.object);
      },
    };
    const { client, timers, random } = this.opts;
    return new Reflector<T>({ client, resource, namespace: undefined, timers, random, sink }) as unknown as Reflector<KubeObject>;
  }

  private scaleOf = (ref: OwnerReference): number | undefined => {
    const set = ref.kind === 'StatefulSet' ? this.sets.get(ref.apiVersion)?.get(ref.uid) : undefined;
    return set === undefined ? undefined : (set.spec.replicas ?? 1);
  };

  private enqueue(k: string): void {
    if (!this.running) return;
    if (this.busy.has(k)) {
      this.dirty.add(k);
      return;
    }
    this.busy.add(k);
    void this.sync(k).finally(() => {
      this.busy.delete(k);
      if (this.dirty.delete(k)) this.enqueue(k);
    });
  }

  private wakeAt(k: string, at: Instant): void {
    const known = this.wakes.get(k);
    if (known && known.at <= at) return;
    if (known) this.opts.timers.cancel(known.id);
    const id = this.opts.timers.at(at, () => {
      this.wakes.delete(k);
      this.enqueue(k);
    }, 'disruption');
    this.wakes.set(k, { at, id });
  }

  // upstream: pkg/controller/disruption/disruption.go sync
  private async sync(k: string): Promise<void> {
    const budget = this.budgets.get(k);
    if (budget === undefined) return;
    const selects = budgetSelects(budget);
    const pods = [...this.pods.values()].filter((p) => p.metadata.namespace === budget.metadata.namespace && selects(p.metadata.labels));
    const now = this.opts.timers.now();
    const { status, recheckAt } = syncBudget({ budget, pods, scaleOf: this.scaleOf, now });
    if (recheckAt !== undefined) this.wakeAt(k, recheckAt);
    if (deepEqual(status, budget.status ?? {})) return;
    try {
      const written = await this.opts.client.updateStatus(Resources.podDisruptionBudgets, { ...budget, status });
      if (this.budgets.get(k) === budget) this.budgets.set(k, written);
    } catch (error) {
      // a conflict (the eviction handler or a user wrote meanwhile): the watch brings the new object; retry anyway
      this.opts.onError?.(error);
      this.wakeAt(k, now + RETRY_MS);
    }
  }
}
