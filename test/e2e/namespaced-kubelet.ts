// The simulated kubelet (src/cluster/kubelet) on the real API server, confined to one test's namespace.
// There is no real kubelet: this one registers a fake Node, binds the namespace's pods to it and writes
// their status on real timers. Its pod list/watch spans all namespaces, so the client handed to it
// narrows pod list/watch to the test's namespace; otherwise concurrently running test files would take
// each other's pods.
import { Resources, type ClusterClient } from '../../src/api/client.js';
import { createKubelet, type Kubelet, type KubeletConfig } from '../../src/cluster/kubelet/index.js';
import type { KubeClient } from '../../src/cluster/kube/index.js';
import { realTimers } from '../../src/runtime/real-clock.js';

/** Pods are listed and watched in `namespace` only; everything else passes through. */
export function podsOnlyIn(client: ClusterClient, namespace: string): ClusterClient {
  const scope = (ns: string | undefined, isPods: boolean) => (isPods && ns === undefined ? namespace : ns);
  return {
    get: (res, ns, name) => client.get(res, ns, name),
    list: (res, ns, opts) => client.list(res, scope(ns, res === Resources.pods), opts),
    create: (res, obj) => client.create(res, obj),
    update: (res, obj) => client.update(res, obj),
    updateStatus: (res, obj) => client.updateStatus(res, obj),
    patch: (res, ns, name, merge) => client.patch(res, ns, name, merge),
    apply: (res, obj, opts) => client.apply(res, obj, opts),
    delete: (res, ns, name, opts) => client.delete(res, ns, name, opts),
    watch: (res, ns, rv, handlers) => client.watch(res, scope(ns, res === Resources.pods), rv, handlers),
  };
}

export interface NamespacedKubelet {
  kubelet: Kubelet;
  nodeName: string;
  /** Unexpected API errors the kubelet reported (it retries them). */
  errors: unknown[];
  /** Stops the kubelet and deletes its Node. */
  stop(): Promise<void>;
}

export async function startKubelet(client: KubeClient, namespace: string, config: KubeletConfig): Promise<NamespacedKubelet> {
  const nodeName = `node-${namespace}`.slice(0, 63);
  const errors: unknown[] = [];
  const kubelet = createKubelet({
    client: podsOnlyIn(client, namespace),
    timers: realTimers(),
    nodeName,
    config,
    onError: (e) => errors.push(e),
  });
  await kubelet.start();
  return {
    kubelet,
    nodeName,
    errors,
    async stop() {
      kubelet.stop();
      await client.delete(Resources.nodes, undefined, nodeName).catch(() => undefined);
    },
  };
}
