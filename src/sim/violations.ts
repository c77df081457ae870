// Invariants the simulator checks after every write (style.md G6), on top of the planner's own checkers:
// what the controller deletes and creates must respect the partition, OnDelete, the maxUnavailable budget
// and OrderedReady ordering. Each returns violation messages; the caller stamps them with `t`.

import type { Features } from '../api/features.js';
import { maxUnavailableOf } from '../api/intstr.js';
import type { Instant, Pod, StatefulSet } from '../api/types.js';
import { isUnavailable, podOrdinal } from '../controller/pod-state.js';
import { effectivePartition, rangeOf } from './converged.js';
import { unavailableOrdinals } from './set-tracker.js';

export interface Found {
  invariant: string;
  message: string;
}

const strategyOf = (set: StatefulSet): string => set.spec.updateStrategy?.type ?? 'RollingUpdate';
const isRolling = (set: StatefulSet): boolean => ['RollingUpdate', 'EnforcedRollingUpdate'].includes(strategyOf(set));
const isDone = (pod: Pod): boolean => pod.status?.phase === 'Failed' || pod.status?.phase === 'Succeeded';

function inRange(set: StatefulSet, ordinal: number): boolean {
  const { start, replicas } = rangeOf(set);
  return ordinal >= start && ordinal < start + replicas;
}

/**
 * The controller asked to delete `victim` (its state just before). `after` is the set's pods with the
 * deletion applied.
 */
export function checkControllerDelete(set: StatefulSet, victim: Pod, after: readonly Pod[], now: Instant, features: Features): Found[] {
  const ordinal = podOrdinal(victim);
  if (!inRange(set, ordinal) || isDone(victim)) return [];
  const name = victim.metadata.name ?? '';
  const index = ordinal - rangeOf(set).start;
  const out: Found[] = [];
  if (strategyOf(set) === 'OnDelete') {
    out.push({ invariant: 'onDeleteDeletion', message: `controller deleted ${name} of ${set.metadata.name} although its updateStrategy is OnDelete` });
  }
  if (isRolling(set) && index < effectivePartition(set)) {
    out.push({
      invariant: 'updateDeletionBelowPartition',
      message: `controller deleted ${name} (index ${index}) of ${set.metadata.name} below partition ${effectivePartition(set)}`,
    });
  }
  const wasAvailable = !isUnavailable(victim, set.spec.minReadySeconds ?? 0, now);
  if (features.MaxUnavailableStatefulSet && isRolling(set) && wasAvailable) {
    const unavailable = unavailableOrdinals(set, after, now);
    const budget = maxUnavailableOf(set);
    if (unavailable > budget) {
      out.push({
        invariant: 'maxUnavailableBudget',
        message: `controller deleted available pod ${name} of ${set.metadata.name}, leaving ${unavailable} ordinals unavailable > maxUnavailable ${budget}`,
      });
    }
  }
  return out;
}

/**
 * The controller created `pod`. Under OrderedReady (upstream's monotonic creation) every lower ordinal in
 * the range must have a Running, Ready, available and non-terminating pod. Not checked for
 * `batchStartPolicy: Together` (it starts a batch at once on purpose) or EnforcedRollingUpdate.
 */
export function checkControllerCreate(set: StatefulSet, pod: Pod, pods: readonly Pod[], now: Instant): Found[] {
  if ((set.spec.podManagementPolicy ?? 'OrderedReady') !== 'OrderedReady') return [];
  if (strategyOf(set) === 'EnforcedRollingUpdate') return [];
  if (set.spec.updateStrategy?.rollingUpdate?.batchStartPolicy === 'Together') return [];
  const ordinal = podOrdinal(pod);
  const { start } = rangeOf(set);
  const mrs = set.spec.minReadySeconds ?? 0;
  const healthy = new Set<number>();
  for (const p of pods) {
    const o = podOrdinal(p);
    if (o >= start && o < ordinal && !isUnavailable(p, mrs, now)) healthy.add(o);
  }
  if (healthy.size === ordinal - start) return [];
  const missing = [];
  for (let o = start; o < ordinal && missing.length < 3; o++) if (!healthy.has(o)) missing.push(o);
  return [
    {
      invariant: 'orderedReadyCreation',
      message: `controller created ${pod.metadata.name} of ${set.metadata.name} while ordinal ${missing.join(', ')} had no Running, Ready and available pod`,
    },
  ];
}
