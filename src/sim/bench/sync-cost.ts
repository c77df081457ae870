// The planner's cost per sync, apart from any cluster: a set of N replicas held in a replica index as the
// controller keeps it, planned again and again — converged (nothing to do), and in the middle of a rollout
// (half the pods on the old revision, one replaced). CPU time per planStatefulSet call, measured in one run
// over many calls, so the figure is the planner's own and sizes compare within one process.

import { cpuUsage } from 'node:process';
import { defaultStatefulSet } from '../../api/defaults.js';
import { defaultFeatures } from '../../api/features.js';
import { newRevision } from '../../api/revision/hash.js';
import { toTimestamp, type ControllerRevision, type Pod, type StatefulSet } from '../../api/types.js';
import { newVersionedStatefulSetPod } from '../../controller/model/identity.js';
import { planStatefulSet } from '../../controller/plan/plan-statefulset.js';
import type { ObservedState } from '../../controller/replica/observed-state.js';
import { PlannerCache } from '../../controller/rollout/planner-cache.js';
import { ReplicaIndex } from '../../controller/replica/replica-index.js';

const T0 = Date.UTC(2026, 0, 1);

function setOf(replicas: number, image: string, maxUnavailable: number | string): StatefulSet {
  const set: StatefulSet = {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'web', namespace: 'default', uid: 'uid-web', generation: 1 },
    spec: {
      replicas,
      podManagementPolicy: 'Parallel',
      selector: { matchLabels: { app: 'web' } },
      serviceName: 'web',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image }] } },
    },
  };
  return defaultStatefulSet(set, defaultFeatures());
}

function readyPod(set: StatefulSet, revision: ControllerRevision, ordinal: number): Pod {
  const name = revision.metadata.name ?? '';
  const pod = newVersionedStatefulSetPod(set, set, name, name, ordinal);
  pod.metadata.uid = `uid-${ordinal}`;
  pod.metadata.creationTimestamp = toTimestamp(T0 - 3_600_000);
  pod.status = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: toTimestamp(T0 - 3_600_000) }] };
  return pod;
}

export interface SyncCost {
  replicas: number;
  /** CPU µs per planStatefulSet call on a converged set. */
  noopMicros: number;
  /** CPU µs per call in the middle of a rollout (half the pods replaced, one being replaced, the budget used). */
  rolloutMicros: number;
}

interface Worlds {
  replicas: number;
  converged: ObservedState;
  rolling: ObservedState;
}

/** The converged world and the mid-rollout one, each planned once for its status. */
function worldsOf(replicas: number): Worlds {
  const features = defaultFeatures();
  const v1 = setOf(replicas, 'app:1', 1);
  const rev1 = newRevision(v1, 1, 0);
  const converged = settled({ set: v1, pods: [], claims: [], revisions: [rev1] }, Array.from({ length: replicas }, (_, i) => readyPod(v1, rev1, i)), features);
  const v2 = { ...setOf(replicas, 'app:2', 1), metadata: { ...v1.metadata, generation: 2 }, status: converged.set.status };
  const rev2 = newRevision(v2, 2, 0);
  const half = Math.floor(replicas / 2);
  // the top half is on the new revision, the bottom half on the old one; one old pod is gone (being replaced)
  const pods = Array.from({ length: replicas }, (_, i) => (i >= half ? readyPod(v2, rev2, i) : readyPod(v1, rev1, i))).filter((_, i) => i !== half - 1);
  return { replicas, converged, rolling: settled({ set: v2, pods: [], claims: [], revisions: [rev1, rev2] }, pods, features) };
}

/** The observed state with its index, and the set's status as a sync would have written it. */
function settled(base: ObservedState, pods: Pod[], features: ReturnType<typeof defaultFeatures>): ObservedState {
  const index = ReplicaIndex.of(base.set, pods);
  const first = planStatefulSet({ ...base, replicas: index }, T0, features);
  const set = { ...base.set, status: first.status };
  return { ...base, set, replicas: index.forSet(set) };
}

function timed(observed: ObservedState, features: ReturnType<typeof defaultFeatures>, calls: number): number {
  const before = cpuUsage();
  const cache = new PlannerCache();
  for (let i = 0; i < calls; i++) planStatefulSet(observed, T0, features, cache);
  const used = cpuUsage(before);
  return (used.user + used.system) / calls;
}

/**
 * The planner's cost per sync at each size, in this process: rounds of calls interleaved over the sizes
 * (so the machine's load and the JIT weigh on each alike), the median round of each.
 */
export function measureSyncCosts(sizes: readonly number[] = [100, 1000, 10000], rounds = 7, calls = 500): SyncCost[] {
  const features = defaultFeatures();
  const worlds = sizes.map(worldsOf);
  const samples = worlds.map(() => ({ noop: [] as number[], rolling: [] as number[] }));
  for (let r = 0; r < rounds; r++) {
    worlds.forEach((w, k) => {
      (samples[k] as { noop: number[] }).noop.push(timed(w.converged, features, calls));
      (samples[k] as { rolling: number[] }).rolling.push(timed(w.rolling, features, calls));
    });
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  return worlds.map((w, k) => ({ replicas: w.replicas, noopMicros: median(samples[k]?.noop ?? []), rolloutMicros: median(samples[k]?.rolling ?? []) }));
}

export function formatSyncCosts(costs: readonly SyncCost[]): string {
  const rows = costs.map((c) => `  ${String(c.replicas).padStart(6)} replicas: ${c.noopMicros.toFixed(0).padStart(5)} µs converged (nothing to do), ${c.rolloutMicros.toFixed(0).padStart(5)} µs mid-rollout (waiting for the budget)`);
  return ['planner CPU per sync (one set, its replica index as the controller keeps it):', ...rows].join('\n');
}
