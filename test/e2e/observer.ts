// What a test sees of one namespace, through the runtime's own Informer (list + watch): the live
// StatefulSets and pods, a pod timeline in watch order, every status each set went through, and the
// most ordinals without an available pod at any instant since `trackUnavailable` (the simulator's
// maxUnavailableObserved, on the real API server).
import type { Resource } from '../../src/api/client.js';
import type { Pod, StatefulSet, StatefulSetStatus } from '../../src/api/types.js';
import { isMemberOf, isPodReady, isTerminating, podOrdinal, podRevision } from '../../src/controller/model/pod-state.js';
import type { ClusterClient } from '../../src/api/client.js';
import { Informer } from '../../src/runtime/informer.js';
import { realTimers } from '../../src/runtime/real-clock.js';
import { convergence } from '../../src/sim/converged.js';
import { unavailableOrdinals } from '../../src/controller/checks/invariants.js';
import { waitUntil, type Check } from './wait.js';

export type PodEventType = 'Created' | 'Ready' | 'NotReady' | 'Terminating' | 'Deleted';

export interface PodEvent {
  /** Position in watch order (resourceVersion order within the namespace). */
  seq: number;
  at: number;
  type: PodEventType;
  name: string;
  ordinal: number;
  uid: string;
  revision: string;
  /** The pod as the event delivered it (server-side timestamps for timing assertions). */
  pod: Pod;
}

interface Tracking {
  max: number;
  /** The pods at the instant the maximum was first seen, for failure messages. */
  worst: string;
}

export class NamespaceObserver {
  readonly podEvents: PodEvent[] = [];
  private readonly statusHistory = new Map<string, StatefulSetStatus[]>();
  private readonly tracking = new Map<string, Tracking>();
  private readonly pods: Informer<Pod>;
  private readonly sets: Informer<StatefulSet>;
  private seq = 0;

  constructor(client: ClusterClient, readonly namespace: string, readonly resource: Resource) {
    const common = { client, namespaces: [namespace], timers: realTimers(), random: Math.random, backoff: { baseMs: 100, capMs: 1000, jitter: 1 } };
    this.pods = new Informer<Pod>({ ...common, resource: { group: '', version: 'v1', plural: 'pods', kind: 'Pod', namespaced: true } });
    this.sets = new Informer<StatefulSet>({ ...common, resource });
    this.pods.addHandler({
      onAdd: (p) => this.onPod(undefined, p),
      onUpdate: (o, p) => this.onPod(o, p),
      onDelete: (p) => this.record('Deleted', p),
    });
    this.sets.addHandler({ onAdd: (s) => this.onSet(s), onUpdate: (_o, s) => this.onSet(s) });
  }

  async start(): Promise<void> {
    this.pods.start();
    this.sets.start();
    await waitUntil(`informers of ${this.namespace} to sync`, 30_000, () => this.pods.hasSynced() && this.sets.hasSynced());
  }

  stop(): void {
    this.pods.stop();
    this.sets.stop();
  }

  set(name: string): StatefulSet | undefined {
    return this.sets.get(this.namespace, name);
  }

  /** The set's pods (by name, as upstream's isMemberOf), sorted by ordinal. */
  podsOf(name: string): Pod[] {
    const set = this.set(name) ?? ({ metadata: { name } } as StatefulSet);
    return this.pods.list(this.namespace, (p) => isMemberOf(set, p)).sort((a, b) => podOrdinal(a) - podOrdinal(b));
  }

  pod(name: string): Pod | undefined {
    return this.pods.get(this.namespace, name);
  }

  statuses(name: string): StatefulSetStatus[] {
    return this.statusHistory.get(name) ?? [];
  }

  eventsOf(set: string, type?: PodEventType): PodEvent[] {
    return this.podEvents.filter((e) => e.name.startsWith(`${set}-`) && (type === undefined || e.type === type));
  }

  /** From now on, the most ordinals of `name` without an available pod at any observed instant. */
  trackUnavailable(name: string): void {
    this.tracking.set(name, { max: 0, worst: '' });
    this.sample(name);
  }

  maxUnavailable(name: string): { max: number; worst: string } {
    const t = this.tracking.get(name);
    if (!t) throw new Error(`trackUnavailable(${name}) was not called`);
    this.sample(name);
    return { max: t.max, worst: t.worst };
  }

  /** Waits until `check` holds, re-checked on a short interval against the informer caches. */
  waitFor(what: string, timeoutMs: number, check: Check): Promise<number> {
    return waitUntil(`${what} in ${this.namespace}`, timeoutMs, check, 100);
  }

  /** Converged (docs/scenarios.md) for one set, judged at the current instant. */
  converged(name: string): true | string {
    const set = this.set(name);
    if (!set) return `${name} does not exist`;
    const c = convergence(set, this.podsOf(name), Date.now());
    return c.converged || (c.reason ?? 'not converged');
  }

  describePods(name: string): string {
    return this.podsOf(name).map(describePod).join(', ');
  }

  private onPod(old: Pod | undefined, pod: Pod): void {
    if (!old) this.record('Created', pod);
    if (isPodReady(pod) && !(old && isPodReady(old))) this.record('Ready', pod);
    if (!isPodReady(pod) && old && isPodReady(old)) this.record('NotReady', pod);
    if (isTerminating(pod) && !(old && isTerminating(old))) this.record('Terminating', pod);
  }

  private record(type: PodEventType, pod: Pod): void {
    const name = pod.metadata.name ?? '';
    const e = { seq: ++this.seq, at: Date.now(), type, name, ordinal: podOrdinal(pod), uid: pod.metadata.uid ?? '', revision: podRevision(pod), pod };
    this.podEvents.push(e);
    for (const set of this.tracking.keys()) if (name.startsWith(`${set}-`)) this.sample(set);
  }

  private onSet(set: StatefulSet): void {
    const name = set.metadata.name ?? '';
    const list = this.statusHistory.get(name) ?? [];
    if (set.status && JSON.stringify(list.at(-1)) !== JSON.stringify(set.status)) list.push(set.status);
    this.statusHistory.set(name, list);
    if (this.tracking.has(name)) this.sample(name);
  }

  private sample(name: string): void {
    const t = this.tracking.get(name);
    const set = this.set(name);
    if (!t || !set) return;
    const pods = this.podsOf(name);
    const n = unavailableOrdinals(set, pods, Date.now());
    if (n > t.max) {
      t.max = n;
      t.worst = `${n} unavailable: ${pods.map(describePod).join(', ')}`;
    }
  }
}

export function describePod(p: Pod): string {
  const flags = [p.status?.phase ?? 'NoPhase', isPodReady(p) ? 'Ready' : 'NotReady'];
  if (isTerminating(p)) flags.push('Terminating');
  return `${p.metadata.name}[${podRevision(p).slice(-10)} ${flags.join(' ')}]`;
}
