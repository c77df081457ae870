// Constructors for the Blocker values the passes return, so messages stay uniform.

import type { Pod } from '../../api/types.js';
import type { Blocker } from './plan-types.js';
import { describePodState, podAvailableAt, podOrdinal, podPhase, stuckReason } from './pod-state.js';

const nameOf = (pod: Pod): string => pod.metadata.name ?? '';

/** How many pod names a blocker lists (the count is always exact). */
export const MAX_LISTED_PODS = 10;

export const terminating = (pod: Pod): Blocker => ({ kind: 'podTerminating', pod: nameOf(pod), ordinal: podOrdinal(pod) });

export const notRunningAndReady = (pod: Pod): Blocker => ({
  kind: 'podNotRunningAndReady',
  pod: nameOf(pod),
  ordinal: podOrdinal(pod),
  phase: podPhase(pod) || 'Unknown',
});

/** availableAt is Number.MAX_SAFE_INTEGER when the pod can never become available as it is (no Ready time). */
export const notAvailable = (pod: Pod, minReadySeconds: number): Blocker => ({
  kind: 'podNotAvailable',
  pod: nameOf(pod),
  ordinal: podOrdinal(pod),
  availableAt: podAvailableAt(pod, minReadySeconds) ?? Number.MAX_SAFE_INTEGER,
});

export const creating = (pod: Pod): Blocker => ({ kind: 'podCreating', pod: nameOf(pod), ordinal: podOrdinal(pod) });

export const stuckOld = (pod: Pod): Blocker => ({
  kind: 'stuckOldRevision',
  pod: nameOf(pod),
  ordinal: podOrdinal(pod),
  state: stuckReason(pod) ?? describePodState(pod),
});

export const listed = (names: readonly string[]): string[] => names.slice(0, MAX_LISTED_PODS);
