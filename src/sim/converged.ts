// "Converged" for a StatefulSet: observedGeneration caught up, every ordinal in the range has
// a pod on status.updateRevision (below a partition the current revision will do) that is available and
// not terminating, no pod outside the range, and the status counters agree. During an aborted rollout
// (onFailure: Rollback) the pods go back to status.currentRevision instead, every one of them: converged is
// the way back done. Work is O(pods), never O(spec.replicas), so replicas: 2147483647 is cheap to check.

import { partitionOf } from '../api/intstr.js';
import type { Instant, Pod, StatefulSet } from '../api/types.js';
import { isRunningAndAvailable, isTerminating, podOrdinal, podRevision } from '../controller/model/pod-state.js';
import { isRollingBack, movingTo } from '../controller/rollout/rollback.js';
import type { WorkCounters } from '../runtime/work-counters.js';

export interface Convergence {
  converged: boolean;
  /** Why not, for waitFor timeouts and `why`-style messages. */
  reason?: string;
}

const NOT = (reason: string): Convergence => ({ converged: false, reason });

export function rangeOf(set: StatefulSet): { start: number; replicas: number } {
  return { start: set.spec.ordinals?.start ?? 0, replicas: set.spec.replicas ?? 1 };
}

/** The partition that lets pods stay on the current revision (0 for strategies without one). */
export function effectivePartition(set: StatefulSet): number {
  const type = set.spec.updateStrategy?.type ?? 'RollingUpdate';
  return type === 'RollingUpdate' || type === 'EnforcedRollingUpdate' ? partitionOf(set) : 0;
}

/** A set's pods: a list, or a map by pod key (the simulator's own index, read without a copy). */
export type PodsOfSet = readonly Pod[] | ReadonlyMap<string, Pod>;
const isList = (pods: PodsOfSet): pods is readonly Pod[] => Array.isArray(pods);
export const podList = (pods: PodsOfSet): readonly Pod[] => (isList(pods) ? pods : [...pods.values()]);

/** `counters` counts the pods it reads (sim.podsChecked). */
export function convergence(set: StatefulSet, podsOfSet: PodsOfSet, now: Instant, counters?: WorkCounters): Convergence {
  const pods = isList(podsOfSet) ? podsOfSet : podsOfSet.values();
  const count = isList(podsOfSet) ? podsOfSet.length : podsOfSet.size;
  const status = set.status;
  const name = set.metadata.name ?? '';
  if (!status || status.observedGeneration !== set.metadata.generation) {
    return NOT(`${name}: status.observedGeneration ${status?.observedGeneration ?? '-'} != generation ${set.metadata.generation ?? '-'}`);
  }
  if (!status.updateRevision) return NOT(`${name}: no status.updateRevision yet`);
  const { start, replicas } = rangeOf(set);
  if (count < replicas) return NOT(`${name}: ${count} of ${replicas} pods exist`);
  const counts = { update: 0, current: 0 };
  const seen = new Set<number>();
  for (const pod of pods) {
    counters?.count('sim.podsChecked');
    const problem = podProblem(set, pod, now, start, replicas, counts);
    if (problem) return NOT(`${name}: ${problem}`);
    seen.add(podOrdinal(pod));
  }
  if (seen.size !== replicas) return NOT(`${name}: ${seen.size} of ${replicas} ordinals have a pod`);
  return countersAgree(set, replicas, counts);
}

/** Why `pod` keeps `set` from converging (counting it in `counts` when nothing does), or undefined. */
export function podProblem(
  set: StatefulSet,
  pod: Pod,
  now: Instant,
  start: number,
  replicas: number,
  counts: { update: number; current: number },
): string | undefined {
  const name = pod.metadata.name ?? '';
  const ordinal = podOrdinal(pod);
  if (ordinal < start || ordinal >= start + replicas) return `pod ${name} is outside the ordinal range`;
  if (isTerminating(pod)) return `pod ${name} is terminating`;
  const status = set.status!;
  const revision = podRevision(pod);
  const onUpdate = revision === status.updateRevision;
  const onCurrent = revision === status.currentRevision;
  const target = movingTo(status);
  const partition = isRollingBack(status) ? 0 : effectivePartition(set);
  if (revision !== target && !(onCurrent && ordinal - start < partition)) {
    return `pod ${name} is on revision ${revision || '-'}, not ${target}`;
  }
  if (!isRunningAndAvailable(pod, set.spec.minReadySeconds ?? 0, now)) return `pod ${name} is not available`;
  if (onUpdate) counts.update++;
  if (onCurrent) counts.current++;
  return undefined;
}

export function countersAgree(set: StatefulSet, replicas: number, counts: { update: number; current: number }): Convergence {
  const s = set.status!;
  const want: [string, number | undefined, number][] = [
    ['replicas', s.replicas, replicas],
    ['readyReplicas', s.readyReplicas, replicas],
    ['availableReplicas', s.availableReplicas, replicas],
    ['updatedReplicas', s.updatedReplicas, counts.update],
    ['currentReplicas', s.currentReplicas, counts.current],
  ];
  for (const [field, got, expected] of want) {
    if ((got ?? 0) !== expected) return NOT(`${set.metadata.name ?? ''}: status.${field} is ${got ?? 0}, pods say ${expected}`);
  }
  return { converged: true };
}

/** Whether the set reports `Progressing=False` with `reason` (ProgressDeadlineExceeded, RolloutAborted). */
export function progressingFalse(set: StatefulSet, reason: string): boolean {
  return (set.status?.conditions ?? []).some((c) => c.type === 'Progressing' && c.status === 'False' && c.reason === reason);
}
