// The simulated kubelet (src/cluster/kubelet) on the real API server, confined to one test's namespace.
// There is no real kubelet: this one registers a fake Node, binds the namespace's pods to it and writes
// their status on real timers. It lists and watches the test's namespace only, so concurrently running
// test files do not take each other's pods.
import { Resources } from '../../src/api/client.js';
import { createKubelet, type Kubelet, type KubeletConfig } from '../../src/cluster/kubelet/index.js';
import type { KubeClient } from '../../src/cluster/kube/index.js';
import { realTimers } from '../../src/runtime/real-clock.js';

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
    client,
    timers: realTimers(),
    nodeName,
    config,
    namespace,
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
