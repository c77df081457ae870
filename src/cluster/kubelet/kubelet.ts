// The simulated kubelet: binds unbound pods to its node, reports their status as their images'
// behaviours dictate over time, and finishes graceful deletions. It speaks only the `ClusterClient`
// port, so it drives the in-memory API server and a real kube-apiserver alike. All time is the
// injected Timers'; `start()` does the first work.

import { Resources, type ClusterClient, type Resource, type WatchEvent } from '../../api/client.js';
import { isAlreadyExists, isConflict, isNotFound } from '../../api/errors.js';
import { fromTimestamp, type Instant, type KubeObject, type Pod, type PodStatus } from '../../api/types.js';
import type { TimerId, Timers } from '../../runtime/clock.js';
import { deepEqual } from '../../api/validation/json.js';
import { podPlans, terminationDelayMs, type ContainerPlan, type KubeletConfig } from './config.js';
import { containerStateAt, nextChangeAt } from './container-model.js';
import { lifecycleTransitions, type PodLifecycleListener } from './lifecycle.js';
import { PodSource } from './pod-source.js';
import { renderPodStatus } from './pod-status.js';
import { nextStopEnd, restartedPlan, type RestartContext, type Stops } from './restart.js';
import { writePodStatus } from './pod-status-writer.js';
import { podResize, type AcceptedResize, type ResizeView } from './resize.js';
import { isTerminal, NodeRequests } from './node-requests.js';
import { placePod, type SimNode } from './placement.js';
import type { Random } from '../../runtime/random.js';
import type { WorkCounters } from '../../runtime/work-counters.js';

/** POST /api/v1/namespaces/{ns}/bindings: how a scheduler sets spec.nodeName (pod updates may not). */
export const BINDINGS: Resource = { group: '', version: 'v1', plural: 'bindings', kind: 'Binding', namespaced: true };

export interface KubeletOptions {
  client: ClusterClient;
  timers: Timers;
  /** The node it registers and binds pods to, unless `nodes` is given. */
  nodeName: string;
  /**
   * Several nodes (created by someone else, e.g. a scenario's Node objects) it runs instead: each unbound pod
   * is bound to one of them as placement.ts spreads it, with `random` breaking ties.
   */
  nodes?: { list: readonly SimNode[]; random: Random };
  config: KubeletConfig;
  /** Only this namespace's pods (default: all), e.g. beside other kubelets on one API server. */
  namespace?: string;
  onLifecycle?: PodLifecycleListener;
  /** Unexpected API errors; the kubelet retries after a second either way. */
  onError?: (error: unknown) => void;
  /** Counts its syncs, renders and held-request sums (the cost guard). */
  counters?: WorkCounters;
}

export interface Kubelet {
  /** Registers the node and lists pods; resolves once the first list has been handled. */
  start(): Promise<void>;
  /** Stops watching and cancels every timer; in-flight requests finish without further effect. */
  stop(): void;
  onLifecycle(listener: PodLifecycleListener): () => void;
}

interface Tracked {
  pod: Pod;
  /** Its place in the order the kubelet took its pods (the order a freed node retries Deferred resizes in). */
  seq: number;
  /** When the kubelet took the pod: container start times count from here. */
  t0?: Instant;
  /** Containers stopping to restart on a new image (restart.ts). */
  stops?: Stops;
  /** The resize this kubelet accepted and is actuating (resize.ts). */
  resize: { value?: AcceptedResize };
  wake?: { at: Instant; id: TimerId };
  termination?: TimerId;
  binding?: boolean;
  /** The node a binding in flight names (so pods bound together spread too). */
  bindingTo?: string;
  writing?: boolean;
  dirty?: boolean;
}

const RETRY_MS = 1000;

const newer = (a: Pod, b: Pod): boolean => Number(a.metadata.resourceVersion ?? 0) >= Number(b.metadata.resourceVersion ?? 0);

/**
 * The pod's container plans, restarted in place where their image changed (restartedPlan), except that a
 * container its status reports running since an instant this kubelet's plan would not have started it keeps
 * that start: a kubelet taking over a running pod (one restored from a snapshot or observed on a cluster)
 * does not restart its containers. A status this kubelet wrote always matches its plan, so its own pods are
 * unaffected.
 */
function takenOverPlans(r: RestartContext): ContainerPlan[] {
  const { config, pod, t0 } = r;
  const statuses = pod.status?.containerStatuses ?? [];
  return podPlans(config, pod).map((fresh) => {
    const plan = restartedPlan(fresh, statuses.find((s) => s.name === fresh.name), r);
    if (plan.behavior !== 'Normal' && plan.behavior !== 'NotReadyAfter') return plan;
    const started = fromTimestamp(statuses.find((s) => s.name === plan.name && s.image === plan.image)?.state?.running?.startedAt);
    // The status holds whole seconds (toTimestamp): the plan's own start, written, reads back truncated.
    if (started === undefined || started === Math.floor((t0 + plan.startMs) / 1000) * 1000) return plan;
    return { ...plan, startMs: Math.max(0, started - t0) };
  });
}

export function createKubelet(opts: KubeletOptions): Kubelet {
  return new SimulatedKubelet(opts);
}

class SimulatedKubelet implements Kubelet {
  private readonly pods = new Map<string, Tracked>();
  private seq = 0;
  /** Each node's held requests, kept only when there is an allocatable to admit resizes against. */
  private readonly held: NodeRequests | undefined;
  /** The pods whose status reports a pending resize: retried when another pod frees its requests. */
  private readonly pendingResize = new Set<Tracked>();
  private readonly listeners: PodLifecycleListener[] = [];
  /** The nodes whose pods it runs. */
  private readonly nodeNames: ReadonlySet<string>;
  /** Several nodes: where each pod name last ran (a StatefulSet pod comes back there, as its volume would pin it). */
  private readonly lastNode = new Map<string, string>();
  private source: PodSource | undefined;
  private registerRetry: TimerId | undefined;
  private running = false;

  constructor(private readonly opts: KubeletOptions) {
    if (opts.onLifecycle) this.listeners.push(opts.onLifecycle);
    this.nodeNames = new Set(opts.nodes === undefined ? [opts.nodeName] : opts.nodes.list.map((n) => n.name));
    this.held = opts.config.allocatable === undefined ? undefined : new NodeRequests(opts.counters);
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    await this.registerNode();
    this.source = new PodSource(
      this.opts.client,
      this.opts.timers,
      {
        onList: (pods) => this.onList(pods),
        onEvent: (e) => this.onEvent(e),
        onError: (e) => this.report(e),
      },
      this.opts.namespace,
    );
    await this.source.start();
  }

  stop(): void {
    this.running = false;
    this.source?.stop();
    if (this.registerRetry !== undefined) this.opts.timers.cancel(this.registerRetry);
    for (const uid of [...this.pods.keys()]) this.forget(uid);
  }

  onLifecycle(listener: PodLifecycleListener): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  /**
   * Creates its Node object if missing, and reports the configured allocatable in the status of each node it
   * runs (what kube-apiserver admits resizes against); a failure is reported and retried, it never stops the
   * kubelet.
   */
  private async registerNode(): Promise<void> {
    const { client, nodeName, config } = this.opts;
    try {
      // scenario Nodes are the simulator's to create (with their labels); the single node is the kubelet's own
      if (this.opts.nodes === undefined) {
        await client.create(Resources.nodes, { apiVersion: 'v1', kind: 'Node', metadata: { name: nodeName } }).catch((e: unknown) => {
          if (!isAlreadyExists(e)) throw e;
        });
      }
      const allocatable = config.allocatable;
      if (allocatable === undefined) return;
      for (const name of this.nodeNames) {
        const node = await client.get<KubeObject>(Resources.nodes, undefined, name);
        const status = { ...(node['status'] as object | undefined), capacity: allocatable, allocatable };
        if (!deepEqual(node['status'], status)) await client.updateStatus(Resources.nodes, { ...node, status });
      }
    } catch (e) {
      if (!this.running) return;
      this.report(e);
      const { timers } = this.opts;
      this.registerRetry = timers.at(timers.now() + RETRY_MS, () => void this.registerNode(), `kubelet ${this.opts.nodeName} register`);
    }
  }

  private onList(pods: Pod[]): void {
    const seen = new Set(pods.map((p) => p.metadata.uid));
    for (const uid of [...this.pods.keys()]) if (!seen.has(uid)) this.forget(uid);
    for (const pod of pods) this.handle(pod);
  }

  private onEvent(event: WatchEvent<Pod>): void {
    const uid = event.object.metadata.uid;
    if (event.type === 'DELETED') {
      if (uid) this.forget(uid);
    } else if (event.type !== 'BOOKMARK') this.handle(event.object);
  }

  private handle(pod: Pod): void {
    const uid = pod.metadata.uid;
    if (!uid || !this.running) return;
    if (pod.spec?.nodeName && !this.nodeNames.has(pod.spec.nodeName)) return this.forget(uid);
    if (pod.spec?.nodeName && this.opts.nodes !== undefined) this.lastNode.set(`${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`, pod.spec.nodeName);
    let t = this.pods.get(uid);
    if (t === undefined) {
      t = { pod, seq: this.seq++, resize: {} };
      this.pods.set(uid, t);
      this.track(t, pod);
    } else if (newer(pod, t.pod)) this.track(t, pod);
    if (t.pod.metadata.deletionTimestamp !== undefined) this.terminate(t);
    else if (!t.pod.spec?.nodeName) this.bind(t);
    else if (!isTerminal(t.pod)) this.sync(t);
  }

  /** The node for an unbound pod: its only node, or the spread's choice among several. */
  private nodeFor(pod: Pod): string {
    const nodes = this.opts.nodes;
    if (nodes === undefined) return this.opts.nodeName;
    const last = this.lastNode.get(`${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`);
    if (last !== undefined) return last;
    const placed = [...this.pods.values()].flatMap((t) => {
      const node = t.pod.spec?.nodeName ?? t.bindingTo;
      return node === undefined ? [] : [{ pod: t.pod, node }];
    });
    return placePod(pod, nodes.list, placed, nodes.random);
  }

  private bind(t: Tracked): void {
    if (t.binding) return;
    t.binding = true;
    const { name, namespace, uid } = t.pod.metadata;
    t.bindingTo = this.nodeFor(t.pod);
    const binding = {
      apiVersion: 'v1',
      kind: 'Binding',
      metadata: { name, namespace, uid },
      target: { apiVersion: 'v1', kind: 'Node', name: t.bindingTo },
    };
    this.opts.client
      .create(BINDINGS, binding)
      .catch((e: unknown) => {
        // a binding that went through counts until the pod's own nodeName replaces it
        delete t.bindingTo;
        if (isConflict(e) || isNotFound(e)) return;
        this.report(e);
        this.retry(t, () => this.handle(t.pod));
      })
      .finally(() => (t.binding = false));
  }

  /** Brings the stored status up to date with the containers' states now, and wakes up for the next change. */
  private sync(t: Tracked): void {
    if (t.writing) {
      t.dirty = true;
      return;
    }
    this.opts.counters?.count('kubelet.syncs');
    const now = this.opts.timers.now();
    const t0 = (t.t0 ??= fromTimestamp(t.pod.status?.startTime) ?? now);
    const r = this.restartContext(t, t.pod, t0, now);
    const plans = takenOverPlans(r);
    const resized = this.resize(t, t.pod, now);
    const wakes = [...plans.map((p) => nextChangeAt(p, t0, now)), nextStopEnd(r), resized.doneAt].filter((w): w is Instant => w !== undefined);
    this.wakeAt(t, wakes.length > 0 ? Math.min(...wakes) : undefined);
    // the plans and the resize of this instant, rendered once: the write sends this status first
    const status = this.render(t, t.pod, t0, { plans, resized });
    if (!deepEqual(t.pod.status, status)) this.write(t, t0, status);
  }

  private restartContext(t: Tracked, pod: Pod, t0: Instant, now: Instant): RestartContext {
    return { config: this.opts.config, pod, t0, now, stops: (t.stops ??= new Map()) };
  }

  /** The status of `pod` now; `known`: its plans and resize, worked out already at this instant. */
  private render(t: Tracked, pod: Pod, t0: Instant, known?: { plans: ContainerPlan[]; resized: ResizeView }): PodStatus {
    this.opts.counters?.count('kubelet.renders');
    const now = this.opts.timers.now();
    const plans = known?.plans ?? takenOverPlans(this.restartContext(t, pod, t0, now));
    const views = plans.map((plan) => ({ plan, state: containerStateAt(plan, t0, now) }));
    return renderPodStatus(pod, views, t0, now, known?.resized ?? this.resize(t, pod, now));
  }

  /** `pod` is the tracked pod's latest version: its held requests and pending resize follow it. */
  private track(t: Tracked, pod: Pod): void {
    t.pod = pod;
    this.held?.set(pod.metadata.uid ?? '', pod);
    if (pod.spec?.nodeName && pod.status?.conditions?.some((c) => c.type === 'PodResizePending')) this.pendingResize.add(t);
    else this.pendingResize.delete(t);
  }

  /** The pod's resize against the node's allocatable and the requests its node's other pods hold. */
  private resize(t: Tracked, pod: Pod, now: Instant): ResizeView {
    // without an allocatable nothing is admitted against the others' requests: there is no sum to keep
    const others = this.held?.others(pod.spec?.nodeName ?? '', t.pod.metadata.uid ?? '') ?? { cpuMilli: 0, memoryBytes: 0 };
    return podResize({ pod, allocatable: this.opts.config.allocatable, others, now, accepted: t.resize });
  }

  private write(t: Tracked, t0: Instant, status: PodStatus): void {
    t.writing = true;
    writePodStatus(this.opts.client, t.pod, (current) => this.render(t, current, t0), status)
      .then((written) => {
        if (!written || !this.running) return;
        if (newer(written.after, t.pod)) this.track(t, written.after);
        this.emit(written.before, written.after);
      })
      .catch((e: unknown) => {
        this.report(e);
        this.retry(t, () => this.sync(t));
      })
      .finally(() => {
        t.writing = false;
        if (t.dirty && this.running && this.pods.get(t.pod.metadata.uid ?? '') === t) {
          t.dirty = false;
          this.sync(t);
        }
      });
  }

  private wakeAt(t: Tracked, at: Instant | undefined): void {
    if (t.wake?.at === at) return;
    if (t.wake) this.opts.timers.cancel(t.wake.id);
    t.wake = undefined;
    if (at === undefined) return;
    const id = this.opts.timers.at(at, () => {
      t.wake = undefined;
      this.sync(t);
    }, `kubelet ${this.opts.nodeName} ${t.pod.metadata.name}`);
    t.wake = { at, id };
  }

  // upstream: pkg/kubelet/status/status_manager.go syncPod (the final delete with grace 0 and a UID precondition)
  private terminate(t: Tracked): void {
    this.wakeAt(t, undefined);
    if (t.termination !== undefined || !this.nodeNames.has(t.pod.spec?.nodeName ?? '')) return;
    const { timers } = this.opts;
    t.termination = timers.at(timers.now() + terminationDelayMs(this.opts.config, t.pod), () => this.finishDeletion(t), `kubelet delete ${t.pod.metadata.name}`);
  }

  private finishDeletion(t: Tracked): void {
    const { name = '', namespace, uid } = t.pod.metadata;
    this.opts.client.delete(Resources.pods, namespace, name, { gracePeriodSeconds: 0, uid }).catch((e: unknown) => {
      if (isNotFound(e) || isConflict(e)) return;
      this.report(e);
      t.termination = undefined;
      this.retry(t, () => this.terminate(t));
    });
  }

  private retry(t: Tracked, task: () => void): void {
    const { timers } = this.opts;
    const id = timers.at(timers.now() + RETRY_MS, () => {
      if (t.wake?.id === id) t.wake = undefined;
      if (this.running && this.pods.get(t.pod.metadata.uid ?? '') === t) task();
    }, `kubelet retry ${t.pod.metadata.name}`);
    if (t.wake) timers.cancel(t.wake.id);
    t.wake = { at: timers.now() + RETRY_MS, id };
  }

  private emit(before: Pod, after: Pod): void {
    const { namespace = '', name = '', uid = '' } = after.metadata;
    const at = this.opts.timers.now();
    for (const tr of lifecycleTransitions(before.status, after.status)) {
      const event = { ...tr, namespace, name, uid, at, pod: after };
      for (const l of [...this.listeners]) l(event);
    }
  }

  private forget(uid: string): void {
    const t = this.pods.get(uid);
    if (t === undefined) return;
    if (t.wake) this.opts.timers.cancel(t.wake.id);
    if (t.termination !== undefined) this.opts.timers.cancel(t.termination);
    this.pods.delete(uid);
    this.held?.remove(uid);
    this.pendingResize.delete(t);
    // its requests are free now: a Deferred resize may fit (upstream retries pending resizes when a pod goes)
    if (this.running) for (const other of [...this.pendingResize].sort((a, b) => a.seq - b.seq)) this.sync(other);
  }

  private report(error: unknown): void {
    this.opts.onError?.(error);
  }
}
