// The ClusterClient contract (src/cluster/contract.ts) against a real kube-apiserver through the kube
// adapter (src/cluster/kube). Each case gets a fresh namespace. Garbage collection needs
// kube-controller-manager's garbagecollector, started here when its binary exists.
import { after, before, it } from 'node:test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Resources } from '../../src/api/client.js';
import { CONTRACT_CASE_NAMES, runClusterContract } from '../../src/cluster/contract.js';
import { createKubeClient, type KubeClient } from '../../src/cluster/kube/index.js';
import { realTimers } from '../../src/runtime/real-clock.js';
import { controlPlaneFromEnv, requireControlPlane, startControllerManager, type ControllerManager } from './control-plane.js';

const cp = controlPlaneFromEnv();

if ('kubeconfigPath' in cp) {
  const hasKcm = (() => {
    try {
      return existsSync(join(cp.binDir, 'kube-controller-manager')) && !process.env.ORDINAL_E2E_NO_KCM;
    } catch {
      return false;
    }
  })();
  let kcm: ControllerManager | undefined;
  const clients: KubeClient[] = [];
  let seq = 0;
  const run = `${process.pid.toString(36)}${Date.now().toString(36).slice(-4)}`;
  before(async () => {
    // An instance of our own (kcm.sh --instance), so other test files' instances are left alone.
    if (hasKcm) kcm = await startControllerManager(['garbagecollector', 'namespace'], { controlPlane: cp });
  });
  after(async () => {
    await kcm?.stop();
    for (const c of clients) c.close();
  });
  const gcCase = CONTRACT_CASE_NAMES.find((n) => n.includes('garbage-collected'));
  runClusterContract({
    name: 'kube adapter on kube-apiserver 1.37',
    async newCluster() {
      const client = createKubeClient({ kubeconfig: cp.kubeconfigPath, qps: 0, timers: realTimers(), random: Math.random });
      clients.push(client);
      const namespace = `kube-contract-${run}-${++seq}`;
      await client.create(Resources.namespaces, { metadata: { name: namespace } });
      return {
        client,
        namespace,
        // Real time, on a ref'd timer: the contract's default sleeps on unref'd real timers, and with no
        // request in flight the process would end mid-case.
        advance: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
        async close() {
          await client.delete(Resources.namespaces, undefined, namespace).catch(() => undefined);
        },
      };
    },
    skip: hasKcm || !gcCase ? [] : [{ reason: 'kube-controller-manager is not built, so nothing garbage-collects', tests: [gcCase] }],
  });
} else {
  it('ClusterClient contract: kube adapter on kube-apiserver 1.37', (t) => {
    requireControlPlane(t);
  });
}
