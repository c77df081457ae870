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
  /**
   * Sets are spread round-robin over this many namespaces. The controller lists a set's pods from the
   * namespace's cache on every sync (as upstream's lister does), so one namespace with 1,000 sets costs
   * O(sets²); spreading them is the common layout and keeps the run short.
   */
  namespaces: number;
}

export const BENCH_CASES: readonly BenchCase[] = [
  { name: 'one-set', description: '1 set × 1,000 replicas, Parallel, maxUnavailable 10%', sets: 1, replicas: 1000, podManagementPolicy: 'Parallel', maxUnavailable: '10%', namespaces: 1 },
  {
    name: 'many-sets',
    description: '1,000 sets × 10 replicas in 100 namespaces, OrderedReady, maxUnavailable 2',
    sets: 1000,
    replicas: 10,
    podManagementPolicy: 'OrderedReady',
    maxUnavailable: 2,
    namespaces: 100,
  },
];

/** The case with its pod count divided by `scale`: fewer sets when there are many, else fewer replicas. */
export function scaled(c: BenchCase, scale: number): BenchCase {
  if (scale <= 1) return c;
  if (c.sets > 1) return { ...c, sets: Math.max(1, Math.floor(c.sets / scale)) };
  return { ...c, replicas: Math.max(1, Math.floor(c.replicas / scale)) };
}

function setName(c: BenchCase, i: number): string {
  return c.sets === 1 ? 'bench' : `bench-${String(i).padStart(4, '0')}`;
}

const namespaceOf = (c: BenchCase, i: number): string => (c.namespaces <= 1 ? 'default' : `bench-${i % c.namespaces}`);

function statefulSet(c: BenchCase, name: string, namespace: string): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name, namespace },
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
  const sets = Array.from({ length: c.sets }, (_, i) => ({ name: setName(c, i), namespace: namespaceOf(c, i) }));
  const wait = (timeoutSeconds: number): Step => ({ raw: { waitFor: 'Converged', timeoutSeconds }, kind: 'waitFor', target: { kind: 'allConverged' }, timeoutSeconds });
  const setImage = ({ name, namespace }: { name: string; namespace: string }): Step => ({
    raw: { setImage: { name, namespace, container: 'app', image: 'bench/app:2' } },
    kind: 'setImage',
    set: { namespace, name },
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
    objects: sets.map((s) => ({ resource: Resources.statefulSets, object: statefulSet(c, s.name, s.namespace) })),
    steps: [wait(36000), ...sets.map(setImage), wait(36000)],
  };
}
