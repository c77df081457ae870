// The stories at scale of `npm run bench:upstream`: one set of 500 replicas (Parallel, maxUnavailable 10 %) and
// 100 sets of 10 (OrderedReady), each created and then rolled to a new image, with the differential suite's
// simulated kubelet. Each phase (create, rollout) is timed from its first write until every set has converged,
// as the story's own watch sees it, and the controller's CPU over it is read from /proc.
import { Resources } from '../../src/api/client.js';
import type { StatefulSet } from '../../src/api/types.js';
import { createKubeClient } from '../../src/cluster/kube/index.js';
import { realTimers } from '../../src/runtime/real-clock.js';
import { modifyObject } from '../../test/e2e/cluster-session.js';
import { IMAGE, IMAGES, storySet, type SetShape } from '../../test/e2e/differential-stories.js';
import { POD_SECONDS, STORY_USER_AGENT } from '../../test/e2e/differential-trace.js';
import { startKubelet } from '../../test/e2e/namespaced-kubelet.js';
import { NamespaceObserver } from '../../test/e2e/observer.js';
import { waitUntil } from '../../test/e2e/wait.js';

export interface ScaleStory {
  name: string;
  sets: number;
  shape: SetShape;
}

export const SCALE_STORIES: ScaleStory[] = [
  { name: 'parallel-500', sets: 1, shape: { replicas: 500, policy: 'Parallel', maxUnavailable: '10%' } },
  { name: 'sets-100x10', sets: 100, shape: { replicas: 10, policy: 'OrderedReady' } },
];

export interface PhaseRun {
  phase: 'create' | 'rollout';
  /** From the phase's first write until every set converged, epoch ms (audit records are picked by it). */
  from: number;
  to: number;
  /** The controller process's CPU over the phase. */
  cpuMs: number;
  /** Pods the phase created. */
  pods: number;
}

/** Longest one phase may take: a pod's start and stop per replica, one after another, and the API's pace. */
const phaseTimeoutMs = (story: ScaleStory): number => Math.max(300_000, story.sets * story.shape.replicas * 4 * POD_SECONDS * 1000);

const setName = (story: ScaleStory, i: number): string => (story.sets === 1 ? 'web' : `web-${String(i).padStart(3, '0')}`);

/** Creates the story's sets in `ns`, waits for them, rolls them all to a new image, waits again. */
export async function runScaleStory(kubeconfig: string, ns: string, story: ScaleStory, cpuMs: () => number): Promise<PhaseRun[]> {
  const client = createKubeClient({ kubeconfig, qps: 0, timers: realTimers(), random: Math.random, tuning: { userAgent: STORY_USER_AGENT } });
  const observer = new NamespaceObserver(client, ns, Resources.statefulSets);
  await observer.start();
  const kubelet = await startKubelet(client, ns, { podStartSeconds: POD_SECONDS, podTerminationSeconds: POD_SECONDS, images: IMAGES });
  const names = Array.from({ length: story.sets }, (_, i) => setName(story, i));
  const phase = async (name: PhaseRun['phase'], write: (set: string) => Promise<StatefulSet>): Promise<PhaseRun> => {
    const created = observer.podEvents.filter((e) => e.type === 'Created').length;
    const [from, cpu] = [Date.now(), cpuMs()];
    const written = new Map((await Promise.all(names.map(write))).map((s) => [s.metadata.name ?? '', s.metadata.generation ?? 0]));
    // Converged at the generation just written: until the controller has seen it, the old status says converged.
    const done = (n: string): true | string =>
      (observer.set(n)?.status?.observedGeneration ?? 0) < (written.get(n) ?? 0) ? `${n}: the change is not observed yet` : observer.converged(n);
    await waitUntil(`${story.name} (${name}) to converge in ${ns}`, phaseTimeoutMs(story), () => names.map(done).find((c) => c !== true) ?? true, 250);
    return { phase: name, from, to: Date.now(), cpuMs: cpuMs() - cpu, pods: observer.podEvents.filter((e) => e.type === 'Created').length - created };
  };
  try {
    const set = storySet(story.shape);
    return [
      await phase('create', (name) => client.create<StatefulSet>(Resources.statefulSets, { ...set, metadata: { name, namespace: ns }, spec: { ...set.spec, selector: { matchLabels: { app: name } }, template: { ...set.spec.template, metadata: { labels: { app: name } } } } })),
      await phase('rollout', (name) => modifyObject<StatefulSet>(client, Resources.statefulSets, ns, name, (s) => void (s.spec.template.spec!.containers[0]!.image = IMAGE.v2))),
    ];
  } finally {
    observer.stop();
    await kubelet.stop();
    client.close();
  }
}
