// What the dashboard sees of the cluster: the runtime's own informers (list + watch, as `rollout status`, `why`
// and the controller use them) on the user's client, for the namespace given (or all of them): both kinds of
// StatefulSet, their pods, Events, claims and ControllerRevisions, and — only once a set needs them for `why`
// and `plan`, as observeOnce reads them — PodDisruptionBudgets, Nodes and StorageClasses. Every change is
// passed on to `onChange` listeners; a list that fails is kept as a problem to show, not thrown.

import { Resources, type ClusterClient, type Resource } from '../../api/client.js';
import type { ControllerRevision, KubeEvent, KubeObject, Node, PersistentVolumeClaim, Pod, PodDisruptionBudget, StatefulSet, StorageClass } from '../../api/types.js';
import { respectsBudgets } from '../../controller/disruption-budget.js';
import type { Timers } from '../../runtime/clock.js';
import { Informer } from '../../runtime/informer.js';
import { noopLogger } from '../../runtime/logging-port.js';
import { movesByZone } from '../../runtime/node-zones.js';
import type { Caches } from '../../runtime/observe.js';
import { controllerRefOf } from '../../runtime/set-targets.js';
import { errorMessage } from '../explain/command-runner.js';
import { qualifiedName } from '../explain/set-ref.js';

export interface ClusterViewOptions {
  client: ClusterClient;
  timers: Timers;
  /** Watched namespaces; empty: all of them (`--all-namespaces`). */
  namespaces: string[];
  /** Uniform in [0, 1), for the reflectors' reconnect jitter. */
  random: () => number;
}

export interface ViewedSet {
  resource: Resource;
  set: StatefulSet;
  /** `default/statefulset.apps/web`: the namespace and the name kubectl gives the set. */
  key: string;
}

export const SET_RESOURCES = [Resources.statefulSets, Resources.ordinalStatefulSets] as const;

export const setKey = (resource: Resource, set: StatefulSet): string => `${set.metadata.namespace ?? 'default'}/${qualifiedName(resource, set.metadata.name ?? '')}`;

/** `web-3` is a pod of `web`: the name a StatefulSet gives its pods. */
export const isPodNameOf = (setName: string, podName: string): boolean => podName.startsWith(`${setName}-`) && /^\d+$/.test(podName.slice(setName.length + 1));

type Optional = 'podDisruptionBudgets' | 'nodes' | 'storageClasses';

export class ClusterView {
  readonly sets: ReadonlyMap<Resource, Informer<StatefulSet>>;
  readonly pods: Informer<Pod>;
  readonly events: Informer<KubeEvent>;
  private readonly claims: Informer<PersistentVolumeClaim>;
  private readonly revisions: Informer<ControllerRevision>;
  private readonly optional = new Map<Optional, Informer<KubeObject>>();
  private readonly listErrors = new Map<Informer<KubeObject>, string>();
  /** Called at an informer's next failed list (waitForSync's waiters). */
  private readonly failWaiters = new Map<Informer<KubeObject>, (() => void)[]>();
  private readonly listeners = new Set<() => void>();
  private started = false;

  constructor(private readonly opts: ClusterViewOptions) {
    this.sets = new Map(SET_RESOURCES.map((r) => [r, this.informer<StatefulSet>(r, true)]));
    this.pods = this.informer<Pod>(Resources.pods, true);
    this.events = this.informer<KubeEvent>(Resources.events, true);
    this.claims = this.informer<PersistentVolumeClaim>(Resources.persistentVolumeClaims, true);
    this.revisions = this.informer<ControllerRevision>(Resources.controllerRevisions, true);
  }

  get client(): ClusterClient {
    return this.opts.client;
  }

  /** The watched namespaces; empty: all. */
  get namespaces(): readonly string[] {
    return this.opts.namespaces;
  }

  /** Calls `fn` after every change any informer delivers; returns what removes it. */
  onChange(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  start(): void {
    this.started = true;
    for (const i of this.all()) i.start();
  }

  stop(): void {
    this.started = false;
    for (const i of this.all()) i.stop();
  }

  /** Resolves once the sets and pods informers have each listed or failed to (a kind the server does not serve). */
  async waitForSync(): Promise<void> {
    const listedOrFailed = (i: Informer<KubeObject>) =>
      i.hasSynced() || this.listErrors.has(i)
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            this.failWaiters.set(i, [...(this.failWaiters.get(i) ?? []), resolve]);
            void i.waitForSync().then(() => resolve());
          });
    await Promise.all(([...this.sets.values(), this.pods] as Informer<KubeObject>[]).map(listedOrFailed));
  }

  /** Every set watched, sorted by namespace, name, then kind. */
  list(): ViewedSet[] {
    const all = SET_RESOURCES.flatMap((resource) => (this.sets.get(resource)?.list() ?? []).map((set) => ({ resource, set, key: setKey(resource, set) })));
    return all.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /** The pods the set controls (controller reference with its UID). */
  podsOf(set: StatefulSet): Pod[] {
    return this.pods.list(set.metadata.namespace ?? 'default', (p) => controllerRefOf(p)?.uid === set.metadata.uid);
  }

  /** Events about the set and the pods it names. */
  eventsOf(set: StatefulSet): KubeEvent[] {
    const name = set.metadata.name ?? '';
    return this.events.list(set.metadata.namespace ?? 'default', (e) => {
      const o = e.involvedObject;
      return (o.kind === 'StatefulSet' && o.name === name) || (o.kind === 'Pod' && isPodNameOf(name, o.name ?? ''));
    });
  }

  /** What `observe` reads for `set`, or why it cannot be read yet (an informer not synced, a list refused). */
  caches(set: StatefulSet): Caches | string {
    const needed: Partial<Record<Optional, Informer<KubeObject>>> = {};
    if (respectsBudgets(set)) needed.podDisruptionBudgets = this.optionalInformer('podDisruptionBudgets');
    if (movesByZone(set)) needed.nodes = this.optionalInformer('nodes');
    if (set.spec.volumeClaimUpdatePolicy === 'InPlace') needed.storageClasses = this.optionalInformer('storageClasses');
    for (const i of [this.pods, this.claims, this.revisions, ...Object.values(needed)]) {
      if (!i.hasSynced()) return this.listErrors.get(i as Informer<KubeObject>) ?? `waiting for the list of ${i.resource.plural}`;
    }
    return {
      pods: this.pods,
      claims: this.claims,
      revisions: this.revisions,
      ...(needed.podDisruptionBudgets ? { podDisruptionBudgets: needed.podDisruptionBudgets as Informer<PodDisruptionBudget> } : {}),
      ...(needed.nodes ? { nodes: needed.nodes as Informer<Node> } : {}),
      ...(needed.storageClasses ? { storageClasses: needed.storageClasses as Informer<StorageClass> } : {}),
    };
  }

  /** The lists that failed and have not succeeded since, one line each. */
  problems(): string[] {
    return this.all().flatMap((i) => {
      const error = this.listErrors.get(i);
      return error === undefined || i.hasSynced() ? [] : [error];
    });
  }

  private all(): Informer<KubeObject>[] {
    return [...this.sets.values(), this.pods, this.events, this.claims, this.revisions, ...this.optional.values()] as Informer<KubeObject>[];
  }

  private optionalInformer(which: Optional): Informer<KubeObject> {
    let informer = this.optional.get(which);
    if (informer === undefined) {
      const resource = { podDisruptionBudgets: Resources.podDisruptionBudgets, nodes: Resources.nodes, storageClasses: Resources.storageClasses }[which];
      informer = this.informer<KubeObject>(resource, resource.namespaced);
      this.optional.set(which, informer);
      if (this.started) informer.start();
    }
    return informer;
  }

  private informer<T extends KubeObject>(resource: Resource, namespaced: boolean): Informer<T> {
    const informer: Informer<T> = new Informer<T>({
      client: this.opts.client,
      resource,
      timers: this.opts.timers,
      random: this.opts.random,
      logger: noopLogger,
      ...(namespaced ? { namespaces: this.opts.namespaces } : {}),
      onListError: (err) => {
        const key = informer as Informer<KubeObject>;
        // kubectl's wording of the error, without its `error: ` in front of a sentence that has its own
        const message = errorMessage(err).replace(/^error: /, '');
        this.listErrors.set(key, `cannot list ${resource.plural}${resource.group ? `.${resource.group}` : ''}: ${message}`);
        for (const resolve of this.failWaiters.get(key)?.splice(0) ?? []) resolve();
        this.changed();
      },
    });
    const changed = () => this.changed();
    informer.addHandler({ onAdd: changed, onUpdate: changed, onDelete: changed });
    return informer;
  }

  private changed(): void {
    for (const fn of [...this.listeners]) fn();
  }
}
