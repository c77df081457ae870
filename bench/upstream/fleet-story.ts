// The fleet story of `npm run bench:fleet`: N StatefulSets of 10 replicas (OrderedReady) in one namespace,
// created, then all rolled to a new image, with the differential suite's simulated kubelet. Each phase runs
// from its first write until every set has converged as the story's own watch sees it. The watch keeps each
// set's pods by their `app` label and re-judges only the sets an event touched, so that following 20,000 pods
// costs the story little of the machine the controllers are measured on.
import { Resources } from '../../src/api/client.js';
import type { Pod, StatefulSet } from '../../src/api/types.js';
import { createKubeClient, type KubeClient } from '../../src/cluster/kube/index.js';
import { Informer } from '../../src/runtime/informer.js';
import { realTimers } from '../../src/runtime/real-clock.js';
import { convergence } from '../../src/sim/converged.js';
import { modifyObject } from '../../test/e2e/cluster-session.js';
import { IMAGE, IMAGES, storySet } from '../../test/e2e/differential-stories.js';
import { POD_SECONDS, STORY_USER_AGENT } from '../../test/e2e/differential-trace.js';
import { startKubelet } from '../../test/e2e/namespaced-kubelet.js';
import { pause } from '../../test/e2e/wait.js';

export interface FleetPhase {
  phase: 'create' | 'rollout';
  /** Epoch ms: from the phase's first write until every set converged. */
  from: number;
  to: number;
  /** Pods created in the phase. */
  pods: number;
}

export interface FleetOptions {
  kubeconfig: string;
  namespace: string;
  sets: number;
  replicas: number;
  /** Called every second of a phase (memory samples). */
  tick?: () => void;
  /** Called as a phase starts (before its first write) and once every set has converged. */
  onPhase?: (phase: FleetPhase['phase'], edge: 'start' | 'end') => void;
  progress?: (message: string) => void;
}

const setName = (i: number): string => `web-${String(i).padStart(4, '0')}`;

/** Which sets have converged, kept from the watch: a set is judged again only when one of its objects changed. */
class FleetWatch {
  private readonly pods: Informer<Pod>;
  private readonly sets: Informer<StatefulSet>;
  private readonly byApp = new Map<string, Map<string, Pod>>();
  private readonly dirty = new Set<string>();
  private readonly converged = new Set<string>();
  created = 0;

  constructor(
    client: KubeClient,
    private readonly namespace: string,
  ) {
    const common = { client, namespaces: [namespace], timers: realTimers(), random: Math.random };
    this.pods = new Informer<Pod>({ ...common, resource: Resources.pods });
    this.sets = new Informer<StatefulSet>({ ...common, resource: Resources.statefulSets });
    const put = (p: Pod) => {
      const app = p.metadata.labels?.app ?? '';
      let m = this.byApp.get(app);
      if (!m) this.byApp.set(app, (m = new Map()));
      m.set(p.metadata.name ?? '', p);
      this.dirty.add(app);
    };
    this.pods.addHandler({
      onAdd: (p) => {
        this.created++;
        put(p);
      },
      onUpdate: (_o, p) => put(p),
      onDelete: (p) => {
        const app = p.metadata.labels?.app ?? '';
        this.byApp.get(app)?.delete(p.metadata.name ?? '');
        this.dirty.add(app);
      },
    });
    this.sets.addHandler({ onAdd: (s) => this.dirty.add(s.metadata.name ?? ''), onUpdate: (_o, s) => this.dirty.add(s.metadata.name ?? '') });
  }

  async start(): Promise<void> {
    this.pods.start();
    this.sets.start();
    while (!this.pods.hasSynced() || !this.sets.hasSynced()) await pause(100);
  }

  stop(): void {
    this.pods.stop();
    this.sets.stop();
  }

  /** Forgets every verdict (a new phase: converged means at the generation it writes). */
  reset(): void {
    this.converged.clear();
    for (const app of this.byApp.keys()) this.dirty.add(app);
  }

  /** How many of `names` have converged at (at least) the generations written. */
  count(names: readonly string[], written: ReadonlyMap<string, number>): number {
    const now = Date.now();
    for (const name of this.dirty) {
      const set = this.sets.get(this.namespace, name);
      const want = written.get(name);
      if (!set || want === undefined || (set.status?.observedGeneration ?? 0) < want) continue;
      const ok = convergence(set, [...(this.byApp.get(name)?.values() ?? [])], now).converged;
      if (ok) this.converged.add(name);
      else this.converged.delete(name);
    }
    this.dirty.clear();
    return names.filter((n) => this.converged.has(n)).length;
  }
}

/** Creates the fleet, waits for it, rolls every set to a new image, waits again. */
export async function runFleetStory(opts: FleetOptions): Promise<FleetPhase[]> {
  const client = createKubeClient({ kubeconfig: opts.kubeconfig, qps: 0, timers: realTimers(), random: Math.random, tuning: { userAgent: STORY_USER_AGENT } });
  const watch = new FleetWatch(client, opts.namespace);
  await watch.start();
  const kubelet = await startKubelet(client, opts.namespace, { podStartSeconds: POD_SECONDS, podTerminationSeconds: POD_SECONDS, images: IMAGES });
  const names = Array.from({ length: opts.sets }, (_, i) => setName(i));
  const base = storySet({ replicas: opts.replicas, policy: 'OrderedReady' });
  const phase = async (name: FleetPhase['phase'], write: (set: string) => Promise<StatefulSet>): Promise<FleetPhase> => {
    watch.reset();
    const created = watch.created;
    opts.onPhase?.(name, 'start');
    const from = Date.now();
    const written = new Map<string, number>();
    // written 50 at a time: the story's own burst must not be what the phase measures
    for (let i = 0; i < names.length; i += 50) {
      for (const s of await Promise.all(names.slice(i, i + 50).map(write))) written.set(s.metadata.name ?? '', s.metadata.generation ?? 0);
    }
    for (let n = 0, last = 0; n < names.length; ) {
      await pause(1000);
      opts.tick?.();
      n = watch.count(names, written);
      if (n !== last) opts.progress?.(`${name}: ${n} of ${names.length} sets converged, ${watch.created - created} pods created, ${((Date.now() - from) / 1000).toFixed(0)} s`);
      last = n;
    }
    const to = Date.now();
    opts.onPhase?.(name, 'end');
    return { phase: name, from, to, pods: watch.created - created };
  };
  try {
    return [
      await phase('create', (name) =>
        client.create<StatefulSet>(Resources.statefulSets, {
          ...base,
          metadata: { name, namespace: opts.namespace },
          spec: { ...base.spec, selector: { matchLabels: { app: name } }, template: { ...base.spec.template, metadata: { labels: { app: name } } } },
        }),
      ),
      await phase('rollout', (name) => modifyObject<StatefulSet>(client, Resources.statefulSets, opts.namespace, name, (s) => void (s.spec.template.spec!.containers[0]!.image = IMAGE.v2))),
    ];
  } finally {
    watch.stop();
    await kubelet.stop();
    client.close();
  }
}
