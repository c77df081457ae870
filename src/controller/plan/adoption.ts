// Which pods and revisions the set acts on: owned objects that still match,
// orphans to adopt, owned pods to release. The writes themselves are batch-0 actions.

import type { Labels } from '../../api/labels.js';
import { ownershipOf } from '../../api/controller-ref.js';
import type { ControllerRevision, Pod, StatefulSet } from '../../api/types.js';
import type { Action } from '../model/plan-types.js';
import type { ObservedState } from '../replica/observed-state.js';
import { ReplicaIndex } from '../replica/replica-index.js';
import { isMemberOf, isTerminating } from '../model/pod-state.js';

export interface Claimed {
  /** The set's pods: its own that still match, and orphans being adopted. */
  replicas: ReplicaIndex;
  /** Revisions of the set (owned, or orphans matching its selector). */
  revisions: ControllerRevision[];
  actions: Action[];
}

const isDeleting = (set: StatefulSet): boolean => Boolean(set.metadata.deletionTimestamp);

const byName = (a: Pod, b: Pod): number => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : (a.metadata.name ?? '') > (b.metadata.name ?? '') ? 1 : 0);

/**
 * Pods: matching = selector ∧ name `<set>-<n>`. Owned and matching → kept; owned but not matching →
 * released (unless the set is being deleted); orphan, matching, not terminating → adopted (unless the set is
 * being deleted); pods controlled by anything else are ignored. The owned pods come as the set's index
 * (kept by the controller, or built here from the observed list).
 */
// upstream: pkg/controller/controller_ref_manager.go PodControllerRefManager.ClaimPods
export function claimPods(set: StatefulSet, observed: ObservedState): { replicas: ReplicaIndex; actions: Action[] } {
  const given = observed.replicas;
  const owned = given?.forSet(set) ?? ReplicaIndex.of(set, observed.pods.filter((p) => ownershipOf(p, set) === 'ours'), observed.claims);
  if (isDeleting(set)) return { replicas: owned, actions: [] };
  const adopted = observed.pods.filter((p) => ownershipOf(p, set) === 'orphan' && owned.selects(p.metadata.labels) && isMemberOf(set, p) && !isTerminating(p));
  const released = owned.releasable().map((f) => f.pod);
  const actions = [...adopted.map((pod): Action => ({ kind: 'adoptPod', batch: 0, pod })), ...released.map((pod): Action => ({ kind: 'releasePod', batch: 0, pod }))];
  // in the pods' name order, as upstream walks them
  actions.sort((a, b) => byName((a as { pod: Pod }).pod, (b as { pod: Pod }).pod));
  // adopted orphans are the set's pods from this sync on (rare: the index is built again with them)
  const replicas = adopted.length === 0 ? owned : ReplicaIndex.of(set, [...owned.allPods(), ...adopted], [...owned.claimsByName.values()]);
  return { replicas, actions };
}

/** Revisions: owned ones, and orphans matching the selector (adopted unless the set is being deleted). */
// upstream: stateful_set.go adoptOrphanRevisions + history ListControllerRevisions
export function claimRevisions(set: StatefulSet, revisions: readonly ControllerRevision[], selects: (labels: Labels | undefined) => boolean): Claimed['revisions'] {
  return revisions.filter((r) => {
    const owner = ownershipOf(r, set);
    return owner === 'ours' || (owner === 'orphan' && !isDeleting(set) && selects(r.metadata.labels));
  });
}

export function adoptRevisionActions(set: StatefulSet, claimed: readonly ControllerRevision[]): Action[] {
  return claimed.filter((r) => ownershipOf(r, set) === 'orphan').map((revision): Action => ({ kind: 'adoptRevision', batch: 0, revision }));
}

export function claimObjects(set: StatefulSet, observed: ObservedState): Claimed {
  const claimedPods = claimPods(set, observed);
  const claimedRevisions = claimRevisions(set, observed.revisions, (labels) => claimedPods.replicas.selects(labels));
  return {
    replicas: claimedPods.replicas,
    revisions: claimedRevisions,
    actions: [...adoptRevisionActions(set, claimedRevisions), ...claimedPods.actions],
  };
}
