// The stories of the differential suite (differential.test.ts): an apps/v1 StatefulSet `web` and the steps a
// user takes on it, each run once under kube-controller-manager and once under Ordinal. Hand-written ones
// cover §9 of the upstream behaviour tables (policies, partition, maxUnavailable, OnDelete, scaling during
// a rollout, rollback, minReadySeconds, claim retention, ordinals.start, pods deleted by hand, a stuck pod
// on the old revision); generated ones come from a seeded fast-check arbitrary (storyArbitrary).
import fc from 'fast-check';
import type { StatefulSet } from '../../src/api/types.js';
import type { ImageBehavior } from '../../src/cluster/kubelet/index.js';

export type Step =
  | { do: 'image'; image: string }
  | { do: 'scale'; replicas: number }
  | { do: 'partition'; partition: number }
  | { do: 'deletePod'; ordinal: number }
  /** A JSON merge patch of `spec`, e.g. ordinals or the update strategy. */
  | { do: 'patch'; spec: Record<string, unknown> };

export interface SetShape {
  replicas: number;
  policy?: 'OrderedReady' | 'Parallel';
  onDelete?: boolean;
  /** updateStrategy Recreate (alpha in 1.37: the StatefulSetRecreateStrategy gate must be on). */
  recreate?: boolean;
  partition?: number;
  maxUnavailable?: number | string;
  minReadySeconds?: number;
  ordinalsStart?: number;
  /** persistentVolumeClaimRetentionPolicy; a claim template `data` is added when set. */
  retention?: { whenDeleted: 'Retain' | 'Delete'; whenScaled: 'Retain' | 'Delete' };
  image?: string;
}

export interface Story {
  name: string;
  shape: SetShape;
  steps: Step[];
}

export const IMAGE = { v1: 'example.test/app:1', v2: 'example.test/app:2', v3: 'example.test/app:3', broken: 'example.test/app:broken' };

/** The simulated kubelet's images: `broken` never pulls, so its pods stay Pending and never Ready. */
export const IMAGES: Record<string, ImageBehavior> = { [IMAGE.broken]: { behavior: 'ImagePullBackOff' } };

export const SET_NAME = 'web';

export function storySet(shape: SetShape): StatefulSet {
  const rollingUpdate: Record<string, unknown> = {};
  if (shape.partition !== undefined) rollingUpdate.partition = shape.partition;
  if (shape.maxUnavailable !== undefined) rollingUpdate.maxUnavailable = shape.maxUnavailable;
  const spec: StatefulSet['spec'] = {
    replicas: shape.replicas,
    serviceName: SET_NAME,
    podManagementPolicy: shape.policy ?? 'OrderedReady',
    updateStrategy: shape.onDelete
      ? { type: 'OnDelete' }
      : shape.recreate
        ? { type: 'Recreate' }
        : { type: 'RollingUpdate', ...(Object.keys(rollingUpdate).length ? { rollingUpdate } : {}) },
    selector: { matchLabels: { app: SET_NAME } },
    template: {
      metadata: { labels: { app: SET_NAME } },
      spec: { terminationGracePeriodSeconds: 5, containers: [{ name: 'app', image: shape.image ?? IMAGE.v1 }] },
    },
  };
  if (shape.minReadySeconds) spec.minReadySeconds = shape.minReadySeconds;
  if (shape.ordinalsStart !== undefined) spec.ordinals = { start: shape.ordinalsStart };
  if (shape.retention) {
    spec.persistentVolumeClaimRetentionPolicy = shape.retention;
    spec.volumeClaimTemplates = [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }];
  }
  return { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: SET_NAME }, spec };
}

const image = (i: string): Step => ({ do: 'image', image: i });
const scale = (replicas: number): Step => ({ do: 'scale', replicas });
const partition = (p: number): Step => ({ do: 'partition', partition: p });
const deletePod = (ordinal: number): Step => ({ do: 'deletePod', ordinal });

/** Hand-written stories; the comment names the §9 rows (or §3/§4 rules) each one exercises. */
export const HAND_WRITTEN: Story[] = [
  // 9.E 41/45: ordered creation, rolling update in reverse ordinal order (9.F 55), ordered scale-down
  { name: 'ordered-rollout', shape: { replicas: 3 }, steps: [image(IMAGE.v2), scale(1)] },
  // 9.E 46, 9.F 50: Parallel creates and deletes at once, rolls one at a time (maxUnavailable 1)
  { name: 'parallel-rollout', shape: { replicas: 4, policy: 'Parallel' }, steps: [image(IMAGE.v2), scale(0)] },
  // 4.9, 9.B 28: Parallel maxUnavailable 3 of 5 deletes 4,3,2 at once
  { name: 'parallel-max-unavailable-int', shape: { replicas: 5, policy: 'Parallel', maxUnavailable: 3 }, steps: [image(IMAGE.v2)] },
  // 4.2/4.9: "50%" of 5 rounds down to 2
  { name: 'parallel-max-unavailable-percent', shape: { replicas: 5, policy: 'Parallel', maxUnavailable: '50%' }, steps: [image(IMAGE.v2)] },
  // 4.2: "10%" of 4 is 0, raised to 1
  { name: 'max-unavailable-percent-floor', shape: { replicas: 4, policy: 'Parallel', maxUnavailable: '10%' }, steps: [image(IMAGE.v2)] },
  // 4.6/4.9, 9.B 25: OrderedReady deletes 2 at once, recreates them one by one
  { name: 'ordered-max-unavailable', shape: { replicas: 5, maxUnavailable: 2 }, steps: [image(IMAGE.v2)] },
  // 9.B 25 with a partition: only 5,4 then 3 roll; 0..2 stay current
  { name: 'parallel-partition-max-unavailable', shape: { replicas: 6, policy: 'Parallel', partition: 3, maxUnavailable: 2 }, steps: [image(IMAGE.v2)] },
  // 9.C 30: partition ≥ replicas stages a revision; canary; phased rollout; revisions converge
  { name: 'staged-canary-phased', shape: { replicas: 3, partition: 3 }, steps: [image(IMAGE.v2), partition(2), partition(0)] },
  // 9.C 30/31: a pod below the partition deleted by hand comes back on the current revision, above on the update revision
  { name: 'partition-delete-by-hand', shape: { replicas: 4, partition: 2 }, steps: [image(IMAGE.v2), deletePod(0), deletePod(3)] },
  // 9.C 29: scale up under a partition: new pods get the update revision
  { name: 'partition-scale-up', shape: { replicas: 3, partition: 2, policy: 'Parallel' }, steps: [image(IMAGE.v2), scale(5)] },
  // 9.F 51, 4.8: OnDelete touches nothing until pods are deleted; scale-up uses the update revision
  { name: 'on-delete', shape: { replicas: 3, onDelete: true }, steps: [image(IMAGE.v2), deletePod(1), scale(4), scale(2)] },
  // 4.8 (#136833): OnDelete converges currentRevision once every pod is replaced
  { name: 'on-delete-converges', shape: { replicas: 2, onDelete: true, policy: 'Parallel' }, steps: [image(IMAGE.v2), deletePod(0), deletePod(1)] },
  // 9.F 50 / 3.7: scale up while a rollout is under way (the next step starts after the rollout stalls on nothing)
  { name: 'scale-up-then-rollout', shape: { replicas: 2 }, steps: [scale(4), image(IMAGE.v2), scale(5)] },
  // 9.F 50: scale down together with a template change (one spec write)
  { name: 'scale-down-with-rollout', shape: { replicas: 5, policy: 'Parallel', maxUnavailable: 2 }, steps: [{ do: 'patch', spec: { replicas: 3, template: { spec: { containers: [{ name: 'app', image: IMAGE.v2 }] } } } }] },
  // 9.F 52/53, 7.3: rollback reuses and renumbers the old revision
  { name: 'rollback', shape: { replicas: 3 }, steps: [image(IMAGE.v2), image(IMAGE.v1), image(IMAGE.v3), image(IMAGE.v2)] },
  // 9.D 33/34/39: minReadySeconds paces the rollout and the scale-down; availableReplicas lags readyReplicas
  { name: 'min-ready-seconds', shape: { replicas: 3, minReadySeconds: 3 }, steps: [image(IMAGE.v2), scale(1)] },
  // 9.D 40 (#112307): Parallel + maxUnavailable 1 honours minReadySeconds
  { name: 'parallel-min-ready-seconds', shape: { replicas: 3, policy: 'Parallel', minReadySeconds: 3 }, steps: [image(IMAGE.v2)] },
  // 9.G 57/58: whenScaled Delete: condemned claims are owned by their pod and collected
  { name: 'claims-delete-on-scale', shape: { replicas: 3, retention: { whenDeleted: 'Retain', whenScaled: 'Delete' } }, steps: [scale(1), scale(2)] },
  // 9.G 57: Retain/Retain leaves every claim alone; whenDeleted Delete owns live claims by the set
  { name: 'claims-retain', shape: { replicas: 2, policy: 'Parallel', retention: { whenDeleted: 'Delete', whenScaled: 'Retain' } }, steps: [scale(3), scale(1)] },
  // 9.G 59: ordinals.start 2, then moved to 0 and 4 (the old range is condemned)
  { name: 'ordinals-start', shape: { replicas: 3, ordinalsStart: 2 }, steps: [{ do: 'patch', spec: { ordinals: { start: 0 } } }, { do: 'patch', spec: { ordinals: { start: 4 } } }] },
  // 9.G 59 with Parallel: the whole range moves at once
  { name: 'ordinals-start-parallel', shape: { replicas: 2, ordinalsStart: 1, policy: 'Parallel' }, steps: [{ do: 'patch', spec: { ordinals: { start: 3 } } }, scale(3)] },
  // 9.E 41/48: pods deleted by hand are recreated (ordered: one at a time)
  { name: 'delete-by-hand-ordered', shape: { replicas: 3 }, steps: [deletePod(0), deletePod(2)] },
  // 9.E 41: Parallel recreates a deleted pod without waiting on the others
  { name: 'delete-by-hand-parallel', shape: { replicas: 3, policy: 'Parallel' }, steps: [deletePod(1), scale(4), deletePod(3)] },
  // 4.5 (#137409/#137666): Parallel replaces every pod stuck on a broken old revision regardless of budget
  { name: 'stuck-old-revision-parallel', shape: { replicas: 3, policy: 'Parallel', image: IMAGE.broken }, steps: [image(IMAGE.v2)] },
  // 3.4/4.6: OrderedReady stuck at pod 0 on a broken revision never reaches the update; a delete by hand unblocks it
  { name: 'stuck-old-revision-ordered', shape: { replicas: 2, image: IMAGE.broken }, steps: [image(IMAGE.v2), deletePod(0)] },
  // 9.A 16-18 flavour: a broken new revision halts a Parallel rollout at the budget; a fix rolls on
  { name: 'broken-update-then-fix', shape: { replicas: 4, policy: 'Parallel', maxUnavailable: 2 }, steps: [image(IMAGE.broken), image(IMAGE.v3)] },
  // 3.7: a broken revision halts an ordered scale-up; rolling back resumes it
  { name: 'ordered-scale-halts-on-broken', shape: { replicas: 2 }, steps: [image(IMAGE.broken), scale(3), image(IMAGE.v1)] },
  // 9.E: scale to zero and back (revisions and status with no pods)
  { name: 'scale-to-zero-and-back', shape: { replicas: 2, maxUnavailable: '25%' }, steps: [scale(0), image(IMAGE.v2), scale(2)] },
];

/**
 * Recreate stories (KEP-3541, alpha in 1.37), run on a control plane of their own with the
 * StatefulSetRecreateStrategy gate on in kube-apiserver, kube-controller-manager and Ordinal.
 */
export const RECREATE: Story[] = [
  // 3.8: OrderedReady: every old pod is deleted before any new one; new pods come back in order
  { name: 'recreate-ordered', shape: { replicas: 3, recreate: true }, steps: [image(IMAGE.v2), scale(4)] },
  // 3.8: Parallel: all old pods go at once, all new ones start at once
  { name: 'recreate-parallel', shape: { replicas: 3, recreate: true, policy: 'Parallel' }, steps: [image(IMAGE.v2)] },
  // 3.8: a broken new revision is recreated everywhere; the fix replaces the broken pods
  { name: 'recreate-broken-then-fix', shape: { replicas: 3, recreate: true, policy: 'Parallel' }, steps: [image(IMAGE.broken), image(IMAGE.v3)] },
  // 3.8 with minReadySeconds, and a scale together with a template change
  { name: 'recreate-min-ready-scale', shape: { replicas: 2, recreate: true, minReadySeconds: 2 }, steps: [{ do: 'patch', spec: { replicas: 3, template: { spec: { containers: [{ name: 'app', image: IMAGE.v2 }] } } } }] },
  // 3.8: switching the type alone makes no revision; the next template change recreates
  { name: 'recreate-switch-type', shape: { replicas: 2, policy: 'Parallel' }, steps: [{ do: 'patch', spec: { updateStrategy: { type: 'Recreate', rollingUpdate: null } } }, image(IMAGE.v2)] },
  // 3.8: rollback to the previous revision is a Recreate too
  { name: 'recreate-rollback', shape: { replicas: 2, recreate: true }, steps: [image(IMAGE.v2), image(IMAGE.v1)] },
];

/** What the generator draws: a set spec and 1–3 steps whose parameters stay within a story's time budget. */
export function storyArbitrary(): fc.Arbitrary<Omit<Story, 'name'>> {
  const shape = fc.record(
    {
      replicas: fc.integer({ min: 0, max: 6 }),
      policy: fc.constantFrom<'OrderedReady' | 'Parallel'>('OrderedReady', 'Parallel'),
      onDelete: fc.boolean(),
      partition: fc.integer({ min: 0, max: 6 }),
      maxUnavailable: fc.oneof(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 100 }).map((p) => `${p}%`)),
      minReadySeconds: fc.constantFrom(0, 0, 2),
    },
    { requiredKeys: ['replicas', 'policy'] },
  );
  const step = fc.oneof(
    fc.constantFrom(IMAGE.v2, IMAGE.v3, IMAGE.v1).map(image),
    fc.integer({ min: 0, max: 6 }).map(scale),
    fc.integer({ min: 0, max: 6 }).map(partition),
    fc.integer({ min: 0, max: 5 }).map(deletePod),
  );
  return fc.record({ shape, steps: fc.array(step, { minLength: 1, maxLength: 3 }) }).map(({ shape, steps }) => ({
    shape: shape.onDelete ? { ...shape, partition: undefined, maxUnavailable: undefined } : shape,
    steps: shape.onDelete ? steps.filter((s) => s.do !== 'partition') : steps,
  }));
}

/** `count` stories drawn from storyArbitrary with `seed` (the same seed draws the same stories). */
export function generatedStories(seed: number, count: number): Story[] {
  return fc.sample(storyArbitrary(), { seed, numRuns: count }).map((s, i) => ({ name: `generated-${i + 1}`, ...s }));
}

export function describeStep(step: Step): string {
  switch (step.do) {
    case 'image':
      return `image ${step.image}`;
    case 'scale':
      return `scale to ${step.replicas}`;
    case 'partition':
      return `partition ${step.partition}`;
    case 'deletePod':
      return `delete pod ordinal ${step.ordinal} by hand`;
    case 'patch':
      return `patch spec ${JSON.stringify(step.spec)}`;
  }
}
