// One end-to-end test = one namespace on the real kube-apiserver, a simulated kubelet confined to it, the
// Ordinal controller as child processes reconciling only that namespace, and an observer of what
// happens there. `e2eTest` wires it up, prints the controller's last log lines when the test fails, and
// always tears everything down (processes, kubelet, namespace).
import { it } from 'node:test';
import { Resources, type Resource } from '../../src/api/client.js';
import { APPS_V1, ORDINAL_V1, type KubeEvent, type KubeObject, type StatefulSet } from '../../src/api/types.js';
import type { KubeletConfig } from '../../src/cluster/kubelet/index.js';
import type { KubeClient } from '../../src/cluster/kube/index.js';
import { requireControlPlane, type ControlPlane } from './control-plane.js';
import { createNamespace, deleteNamespace, ensureCrd, modifyObject, openSession } from './cluster-session.js';
import { startController, type ControllerOptions, type ControllerProcess } from './controller-process.js';
import { acquire } from './exclusive.js';
import { startKubelet, type NamespacedKubelet } from './namespaced-kubelet.js';
import { NamespaceObserver } from './observer.js';

export type Target = 'crd' | 'native';

export interface EnvOptions {
  /** Which StatefulSets the test's objects are and the controller manages (default crd). */
  target?: Target;
  kubelet?: KubeletConfig;
  /** Start one controller before the body runs (default true). */
  controller?: boolean;
  /** A cluster-wide lock (exclusive.ts) held for the whole test. */
  exclusive?: string;
}

export class TestEnv {
  readonly res: Resource;
  readonly apiVersion: string;
  readonly controllers: ControllerProcess[] = [];
  kubelet: NamespacedKubelet | undefined;
  /** The generation of each set's last spec write, so waits never judge a stale cache. */
  private readonly written = new Map<string, number>();
  private releases: (() => void | Promise<void>)[] = [];
  /** Reports a measurement in the test output (node:test diagnostics). */
  note: (message: string) => void = () => {};

  private constructor(
    readonly cp: ControlPlane,
    readonly client: KubeClient,
    readonly ns: string,
    readonly target: Target,
    readonly observer: NamespaceObserver,
  ) {
    this.res = target === 'native' ? Resources.statefulSets : Resources.ordinalStatefulSets;
    this.apiVersion = target === 'native' ? APPS_V1 : ORDINAL_V1;
  }

  static async open(cp: ControlPlane, title: string, opts: EnvOptions): Promise<TestEnv> {
    const { client } = openSession(cp);
    const target = opts.target ?? 'crd';
    if (target === 'crd') await ensureCrd(client);
    const ns = await createNamespace(client, `e2e-${slug(title)}`);
    const res = target === 'native' ? Resources.statefulSets : Resources.ordinalStatefulSets;
    const env = new TestEnv(cp, client, ns, target, new NamespaceObserver(client, ns, res));
    env.onClose(() => deleteNamespace(client, ns));
    env.onClose(() => env.observer.stop());
    await env.observer.start();
    if (opts.kubelet) await env.startKubelet(opts.kubelet);
    if (opts.controller !== false) env.startController();
    return env;
  }

  /** Registers teardown work; it runs last-registered first. */
  onClose(fn: () => void | Promise<void>): void {
    this.releases.push(fn);
  }

  async startKubelet(config: KubeletConfig): Promise<NamespacedKubelet> {
    const k = await startKubelet(this.client, this.ns, config);
    this.kubelet = k;
    this.onClose(() => k.stop());
    return k;
  }

  /** A controller reconciling this namespace only, with this env's target. */
  startController(extra: Partial<ControllerOptions> = {}): ControllerProcess {
    const c = startController({ kubeconfig: this.cp.kubeconfigPath, namespaces: [this.ns], target: this.target, ...extra });
    this.controllers.push(c);
    this.onClose(async () => void (await c.stop()));
    return c;
  }

  /** `set`, in this namespace under this env's apiVersion. */
  async create(set: StatefulSet): Promise<StatefulSet> {
    const obj = { ...set, apiVersion: this.apiVersion, kind: 'StatefulSet', metadata: { ...set.metadata, namespace: this.ns } };
    return this.wrote(await this.client.create(this.res, obj));
  }

  /** Creates the set, waits for it to converge, and from then on counts its unavailable ordinals. */
  async createConverged(set: StatefulSet, timeoutMs = 60_000): Promise<void> {
    await this.create(set);
    await this.waitConverged(set.metadata.name ?? '', timeoutMs);
    this.observer.trackUnavailable(set.metadata.name ?? '');
  }

  private wrote(set: StatefulSet): StatefulSet {
    this.written.set(set.metadata.name ?? '', set.metadata.generation ?? 0);
    return set;
  }

  /** The set at (at least) the generation last written here, as the observer's cache has it; else a reason. */
  private current(name: string): StatefulSet | string {
    const set = this.observer.set(name);
    const want = this.written.get(name) ?? 0;
    if (!set) return `${name} is not in the cache yet`;
    const have = set.metadata.generation ?? 0;
    return have >= want ? set : `the cache has generation ${have} of ${name}, ${want} was written`;
  }

  /** Waits for Converged (docs/scenarios.md), judged on the spec last written here. */
  waitConverged(name: string, timeoutMs: number): Promise<number> {
    return this.observer.waitFor(`${name} to converge`, timeoutMs, () => {
      const set = this.current(name);
      return typeof set === 'string' ? set : this.observer.converged(name);
    });
  }

  /** Waits until `check` holds for the set at the generation last written here. */
  waitForSet(name: string, what: string, timeoutMs: number, check: (set: StatefulSet) => boolean | string): Promise<number> {
    return this.observer.waitFor(what, timeoutMs, () => {
      const set = this.current(name);
      return typeof set === 'string' ? set : check(set);
    });
  }

  async createObject(res: Resource, obj: KubeObject): Promise<KubeObject> {
    return this.client.create(res, { ...obj, metadata: { ...obj.metadata, namespace: this.ns } });
  }

  /** Read-modify-write of the live set, retried on conflicts (the controller writes status meanwhile). */
  async modify(name: string, change: (set: StatefulSet) => void): Promise<StatefulSet> {
    return this.wrote(await modifyObject(this.client, this.res, this.ns, name, change));
  }

  setImage(name: string, container: string, image: string): Promise<StatefulSet> {
    return this.modify(name, (s) => {
      const c = s.spec.template.spec?.containers.find((x) => x.name === container);
      if (!c) throw new Error(`${name} has no container ${container}`);
      c.image = image;
    });
  }

  async patch(name: string, merge: unknown): Promise<StatefulSet> {
    return this.wrote(await this.client.patch<StatefulSet>(this.res, this.ns, name, merge));
  }

  /** Kubernetes Events about `name` (any kind), optionally of one reason. */
  async events(name: string, reason?: string): Promise<KubeEvent[]> {
    const list = await this.client.list<KubeEvent>(Resources.events, this.ns);
    return list.items.filter((e) => e.involvedObject?.name === name && (reason === undefined || e.reason === reason));
  }

  /** What helps when a test fails: the namespace's pods and each controller's last log lines. */
  diagnostics(): string {
    const out = [`namespace ${this.ns}`];
    for (const set of new Set(this.observer.podEvents.map((e) => e.name.replace(/-\d+$/, '')))) {
      out.push(`pods of ${set}: ${this.observer.describePods(set)}`, `status of ${set}: ${JSON.stringify(this.observer.set(set)?.status)}`);
    }
    for (const c of this.controllers) out.push(`--- controller ${c.label} (pid ${c.pid}) last log lines:`, c.tail(30));
    if (this.kubelet?.errors.length) out.push(`kubelet errors: ${this.kubelet.errors.slice(-5).map(String).join('; ')}`);
    return out.join('\n');
  }

  async close(): Promise<void> {
    for (const fn of this.releases.reverse()) {
      try {
        await fn();
      } catch {
        // teardown is best effort; the test's own result is what matters
      }
    }
    this.releases = [];
  }
}

function slug(title: string): string {
  return title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 20).replace(/-$/, '');
}

export interface E2eTestOptions extends EnvOptions {
  /** Test timeout in ms (node:test fails the test past it). */
  timeout: number;
}

/** An `it` with a fresh TestEnv; skipped without a control plane unless CI is set (control-plane.ts). */
export function e2eTest(title: string, opts: E2eTestOptions, body: (env: TestEnv) => Promise<void>): void {
  it(title, { timeout: opts.timeout }, async (t) => {
    const cp = requireControlPlane(t);
    if (!cp) return;
    const release = opts.exclusive ? await acquire(cp, opts.exclusive, Math.max(60_000, opts.timeout / 2)) : undefined;
    let env: TestEnv | undefined;
    try {
      env = await TestEnv.open(cp, title, opts);
      env.note = (m) => t.diagnostic(m);
      await body(env);
    } catch (e) {
      if (env) t.diagnostic(env.diagnostics());
      throw e;
    } finally {
      await env?.close();
      release?.();
    }
  });
}

/** A 2-replica set of `app:1` in the test's namespace and API version: the smallest story a command can act on. */
export function twoReplicaSet(env: TestEnv, name: string): StatefulSet {
  return {
    apiVersion: env.apiVersion,
    kind: 'StatefulSet',
    metadata: { name, namespace: env.ns },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: 'app:1' }] } },
    },
  };
}
