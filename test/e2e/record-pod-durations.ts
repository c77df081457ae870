// Records what a live rollout's pods take on kube-apiserver, for SlowerThanForecast's figures
// (test/data/live-pod-durations.json, read by test/sim/slower-than-forecast.test.ts): a 10-replica set,
// OrderedReady, run by `ordinal controller` with the simulated kubelet (ordinal kubelet: 3 s to start, 2 s
// to stop), rolled out three times; each pod's start (creation → Ready, from its timestamps) and
// termination (deletion requested → the watch saw it gone), measured as the controller's runtime measures
// them (controller/learned-durations.ts). Not a test: run it by hand against your control plane,
//   ORDINAL_E2E_KUBECONFIG=… node --import tsx test/e2e/record-pod-durations.ts > test/data/live-pod-durations.json

import { Resources } from '../../src/api/client.js';
import type { Pod } from '../../src/api/types.js';
import { deletionRequestedAt, startSecondsOf } from '../../src/controller/model/learned-durations.js';
import { closeSession } from './cluster-session.js';
import { controlPlaneFromEnv } from './control-plane.js';
import { TestEnv, twoReplicaSet } from './harness.js';

const found = controlPlaneFromEnv();
if (!('kubeconfigPath' in found)) {
  process.stderr.write(`no control plane: ${found.missing}\n`);
  process.exit(1);
}
const env = await TestEnv.open(found, 'record pod durations', { kubelet: { podStartSeconds: 3, podTerminationSeconds: 2 } });
const start = new Map<string, number>();
const termination: number[] = [];
try {
  const base = twoReplicaSet(env, 'live');
  await env.createConverged({ ...base, spec: { ...base.spec, replicas: 10 } }, 120_000);
  const list = await env.client.list<Pod>(Resources.pods, env.ns);
  const handle = env.client.watch<Pod>(Resources.pods, env.ns, list.resourceVersion, {
    onEvent: ({ type, object: pod }) => {
      const seconds = startSecondsOf(pod);
      if (seconds !== undefined && !start.has(pod.metadata.uid ?? '')) start.set(pod.metadata.uid ?? '', seconds);
      const requested = deletionRequestedAt(pod);
      if (type === 'DELETED' && requested !== undefined) termination.push(Math.max(0, Date.now() - requested) / 1000);
    },
    onClose: () => {},
  });
  for (const image of ['app:2', 'app:3', 'app:4']) {
    await env.setImage('live', 'app', image);
    await env.waitForSet('live', `the rollout to ${image}`, 180_000, (s) => (s.metadata.generation === s.status?.observedGeneration && s.status?.updatedReplicas === 10 && s.status.availableReplicas === 10 && s.status.currentRevision === s.status.updateRevision) || `${s.status?.updatedReplicas} updated`);
  }
  handle.stop();
  process.stdout.write(`${JSON.stringify({ recorded: 'a 10-replica OrderedReady set rolled out 3 times on kube-apiserver 1.37.2, ordinal kubelet 3 s start, 2 s stop', start: [...start.values()], termination }, null, 1)}\n`);
} finally {
  await env.close();
  closeSession();
}
