// The benchmark's workloads (issue 4 item 8): a rollout of 1 set × 1,000 replicas and of 1,000 sets × 10
// replicas, as ordinary scenarios built in code. `scale` shrinks both for quick runs and tests.

import { Resources } from '../../api/client.js';
import type { KubeObject } from '../../api/types.js';
import type { Scenario, Step } from '../scenario-types.js';

export interface BenchCase {
  name: string;
  description: string;
  sets: number;
  replicas: number;
  podManagementPolicy: 'OrderedReady' | 'Parallel';
  maxUnavailable: number | string;
}

export const BENCH_CASES: readonly BenchCase[] = [
  { name: 'one-set', description: '1 set × 1,000 replicas, Parallel, maxUnavailable 10%', sets: 1, replicas: 1000, podManagementPolicy: 'Parallel', maxUnavailable: '10%' },
  { name: 'many-sets', description: '1,000 sets × 10 replicas, OrderedReady, maxUnavailable 2', sets: 1000, replicas: 10, podManagementPolicy: 'OrderedReady', maxUnavailable: 2 },
];

/** The case with `sets` and `replicas` divided by `scale` (at least 1 each). */
export function scaled(c: BenchCase, scale: number): BenchCase {
  if (scale <= 1) return c;
  return { ...c, sets: Math.max(1, Math.floor(c.sets / scale)), replicas: Math.max(1, Math.floor(c.replicas / scale)) };
}

function setName(c: BenchCase, i: number): string {
  return c.sets === 1 ? 'bench' : `bench-${String(i).padStart(4, '0')}`;
}

function statefulSet(c: BenchCase, name: string): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas: c.replicas,
      podManagementPolicy: c.podManagementPolicy,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: 'bench/app:1' }] } },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: c.maxUnavailable } },
    },
  };
}

/** Step 0 waits for the sets to exist; steps 1..sets change the image; the last step waits for the rollout. */
export function benchScenario(c: BenchCase): Scenario {
  const names = Array.from({ length: c.sets }, (_, i) => setName(c, i));
  const wait = (timeoutSeconds: number): Step => ({ raw: { waitFor: 'Converged', timeoutSeconds }, kind: 'waitFor', target: { kind: 'allConverged' }, timeoutSeconds });
  const setImage = (name: string): Step => ({
    raw: { setImage: { name, container: 'app', image: 'bench/app:2' } },
    kind: 'setImage',
    set: { namespace: 'default', name },
    apiVersion: 'apps/v1',
    container: 'app',
    image: 'bench/app:2',
  });
  return {
    kind: 'Scenario',
    name: `bench-${c.name}`,
    seed: 1,
    endSeconds: 86400,
    cluster: { podStartSeconds: 2, podTerminationSeconds: 1, images: {} },
    controller: { featureGates: {}, target: 'native' },
    objects: names.map((n) => ({ resource: Resources.statefulSets, object: statefulSet(c, n) })),
    steps: [wait(36000), ...names.map(setImage), wait(36000)],
  };
}
