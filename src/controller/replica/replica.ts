// The replica record: everything a sync asks about one replica, worked out once per changed pod (or claim) by
// the replica index — its pod's facts (pod-facts.ts), its claims' readiness (claim-state.ts), its in-place move
// (podUpdatePolicy), and one availability. `availability` is the only answer to "is this replica available
// now?": status.availableReplicas, the update budget, the step gates, zones, priorities, `why`, the metrics and
// the invariant checkers all read it, so they cannot disagree.
//
// One meaning, for every set:
// - available: the pod is Running and Ready for minReadySeconds; (volumeClaimUpdatePolicy
//   InPlace) no claim of the replica is expanding, and an expansion that ended has been recorded and settled
//   for minReadySeconds; (podUpdatePolicy InPlaceIfPossible/InPlaceOnly) the pod is not moving in place — from
//   the patch until its kubelet reports the new images and resources and it is relabelled, the replica counts
//   as disrupted, as a deleted pod does while it terminates (a pod whose resize was refused is no exception:
//   the budget spent on it stays spent until the move ends, one way or the other); (inPlaceUpdateStrategy) its
//   readiness gate's condition is not False — from the drain before an in-place restart until the restart is
//   done and the condition True again, the replica counts as disrupted, whatever its Ready condition says yet;
// - ready (status.readyReplicas): Running and Ready, and no claim expanding (KEP-4650); a pod moving in place
//   counts as ready while its kubelet says so, as upstream counts Ready pods;
// - a terminating pod that is still Ready counts in status as ready and available (upstream's
//   computeReplicaStatus), and as unavailable for everything that spends or guards availability — the update
//   budget, the gates, zones, priorities (upstream's isUnavailable): `countsUnavailable` is that rule.
// An apps/v1 set has neither extension, so this is upstream's isRunningAndAvailable and nothing else. The
// gates upstream applies to one pod (OrderedReady creation, a condemned pod's deletion) read the pod's own
// readiness, as kube-controller-manager does.

import type { Instant, PersistentVolumeClaim, StatefulSet } from '../../api/types.js';
import { minReadySecondsOf, podUpdatePolicyOf } from '../model/spec.js';
import { drains } from '../model/readiness-gate.js';
import { availableAt, type PodFacts } from './pod-facts.js';
import { claimsAvailableFrom, claimsReadiness, type ClaimsReadiness } from './claim-state.js';

/** What a set's replicas are judged by (part of the index's shape). */
export interface ReplicaRules {
  minReadySeconds: number;
  /** volumeClaimUpdatePolicy InPlace: claims follow their replica's revision, and their expansions count. */
  claimsInPlace: boolean;
  /** podUpdatePolicy InPlaceIfPossible / InPlaceOnly: pods move in place, and a move counts. */
  podsInPlace: boolean;
}

/** How `set`'s replicas are judged. */
export const replicaRules = (set: StatefulSet): ReplicaRules => ({
  minReadySeconds: minReadySecondsOf(set),
  claimsInPlace: set.spec.volumeClaimUpdatePolicy === 'InPlace',
  podsInPlace: podUpdatePolicyOf(set) !== 'Recreate',
});

export interface Replica extends PodFacts {
  /** podUpdatePolicy: the revision its pod is being moved to in place (undefined: none, or the set moves no pod in place). */
  readonly movingTo: string | undefined;
  /** volumeClaimUpdatePolicy InPlace: what its claims say (undefined: the set's claims do not follow its revisions). */
  readonly claims: ClaimsReadiness | undefined;
  /** Counted in status.readyReplicas. */
  readonly countsReady: boolean;
  /** From when its pod alone is available (upstream's isRunningAndAvailable, termination aside). */
  readonly podAvailableFrom: Instant;
  /** From when it is available (termination aside): +∞ while it stays as it is (not Ready, expanding, moving); −∞ when available since ever. */
  readonly availableFrom: Instant;
}

/** Why a replica is not available. */
export type UnavailableReason = 'notRunningAndReady' | 'minReadySeconds' | 'claimResizing' | 'claimSettling' | 'movingInPlace' | 'draining';

export type Availability = { available: true; since: Instant } | { available: false; why: UnavailableReason; at?: Instant };

const NEVER = Number.POSITIVE_INFINITY;

/** The record of `facts` under `rules`, with the replica's claims (InPlace). */
export function toReplica(facts: PodFacts, rules: ReplicaRules, claims: readonly PersistentVolumeClaim[]): Replica {
  const movingTo = rules.podsInPlace ? facts.movingTo : undefined;
  const readiness = rules.claimsInPlace ? claimsReadiness(claims, rules.minReadySeconds) : undefined;
  const mrs = rules.minReadySeconds;
  // upstream's isPodAvailable: without minReadySeconds a Ready pod is available whatever its times say
  const podFrom = !facts.runningReady ? NEVER : mrs <= 0 ? Number.NEGATIVE_INFINITY : (availableAt(facts, mrs) ?? NEVER);
  const claimsFrom = readiness === undefined ? Number.NEGATIVE_INFINITY : claimsAvailableFrom(readiness, mrs);
  const availableFrom = movingTo !== undefined || isDraining(facts) ? NEVER : Math.max(podFrom, claimsFrom);
  return { ...facts, movingTo, claims: readiness, countsReady: facts.runningReady && readiness?.resizing === undefined, podAvailableFrom: podFrom, availableFrom };
}

/** Its readiness gate's condition is False: the drain before an in-place restart, or the restart not done yet. */
export const isDraining = (f: PodFacts): boolean => drains(f.gate);

/** Whether the replica is available at `now`, since when, or why not (and when it will be, if that is known). */
export function availability(r: Replica, now: Instant): Availability {
  if (r.availableFrom <= now) return { available: true, since: r.availableFrom };
  if (!r.runningReady) return { available: false, why: 'notRunningAndReady' };
  if (r.movingTo !== undefined) return { available: false, why: 'movingInPlace' };
  if (isDraining(r)) return { available: false, why: 'draining' };
  if (r.claims?.resizing !== undefined) return { available: false, why: 'claimResizing' };
  const at = Number.isFinite(r.availableFrom) ? { at: r.availableFrom } : {};
  return { available: false, why: r.podAvailableFrom <= now ? 'claimSettling' : 'minReadySeconds', ...at };
}

/** The replica is available at `now` (availability's yes or no). */
export const isAvailable = (r: Replica, now: Instant): boolean => r.availableFrom <= now;

/** What the update budget and every gate count as unavailable: not available, or terminating (upstream's isUnavailable). */
export const countsUnavailable = (r: Replica, now: Instant): boolean => r.terminating || !isAvailable(r, now);
