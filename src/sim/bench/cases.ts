// The benchmark's workloads: a rollout of 1 set × 1,000 replicas and of 1,000 sets × 10 replicas, and the
// same at other sizes so that growth can be measured (1 × 2,000 / 5,000 / 10,000; 100 and 300 × 10), as ordinary
// scenarios built in code. `scale` shrinks them for quick runs and tests.

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
  /** Sets are spread round-robin over this many namespaces (the common layout). */
  namespaces: number;
}

/** 10,000: what toLocaleString('en-US') gives, without loading ICU's locale data when every command starts. */
const thousands = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

const oneSet = (replicas: number, name: string): BenchCase => ({
  name,
  description: `1 set × ${thousands(replicas)} replicas, Parallel, maxUnavailable 10%`,
  sets: 1,
  replicas,
  podManagementPolicy: 'Parallel',
  maxUnavailable: '10%',
  namespaces: 1,
});

/** Sets of 10 replicas, 10 per namespace, so the namespaces' size stays the same as the sets grow. */
const manySets = (sets: number, name: string): BenchCase => ({
  name,
  description: `${thousands(sets)} sets × 10 replicas in ${sets / 10} namespaces, OrderedReady, maxUnavailable 2`,
  sets,
  replicas: 10,
  podManagementPolicy: 'OrderedReady',
  maxUnavailable: 2,
  namespaces: sets / 10,
});

/** The two workloads first; then the sizes the growth goals compare them with (src/sim/bench/goals.ts). */
export const BENCH_CASES: readonly BenchCase[] = [
  oneSet(1000, 'one-set'),
  manySets(1000, 'many-sets'),
  oneSet(2000, 'one-set-2k'),
  oneSet(5000, 'one-set-5k'),
  oneSet(10000, 'one-set-10k'),
  manySets(100, 'many-sets-100'),
  manySets(300, 'many-sets-300'),
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
    // far above the simulator's default object limit: the 1,000-set case alone writes ~30,000 Events
    cluster: { podStartSeconds: 2, podTerminationSeconds: 1, images: {}, maxObjects: 1_000_000 },
    controller: { featureGates: {}, target: 'native' },
    objects: sets.map((s) => ({ resource: Resources.statefulSets, object: statefulSet(c, s.name, s.namespace) })),
    steps: [wait(36000), ...sets.map(setImage), wait(36000)],
  };
}
