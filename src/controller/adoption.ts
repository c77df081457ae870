// Which pods and revisions the set acts on: owned objects that still match,
// orphans to adopt, owned pods to release. The writes themselves are batch-0 actions.

import { requirementMatches, selectorRequirements, type Labels } from '../api/labels.js';
import type { ControllerRevision, KubeObject, Pod, StatefulSet } from '../api/types.js';
import type { Action } from './plan-types.js';
import { isMemberOf, isTerminating } from './pod-state.js';

export interface Claimed {
  /** Pods the sync works with: owned and matching, plus orphans being adopted. */
  pods: Pod[];
  /** Revisions of the set (owned, or orphans matching its selector). */
  revisions: ControllerRevision[];
  actions: Action[];
}

type Ownership = 'ours' | 'orphan' | 'other';

function ownership(obj: KubeObject, set: StatefulSet): Ownership {
  const ref = obj.metadata.ownerReferences?.find((r) => r.controller === true);
  if (ref === undefined) return 'orphan';
  return ref.uid === set.metadata.uid ? 'ours' : 'other';
}

const isDeleting = (set: StatefulSet): boolean => Boolean(set.metadata.deletionTimestamp);

/** The set's selector compiled once per sync; a nil or invalid selector matches nothing (as selectorMatches). */
function selectorOf(set: StatefulSet): (labels: Labels) => boolean {
  try {
    const reqs = selectorRequirements(set.spec.selector);
    if (reqs === null) return () => false;
    return (labels) => reqs.every((r) => requirementMatches(r, labels));
  } catch {
    return () => false;
  }
}

/**
 * Pods: matching = selector ∧ name `<set>-<n>`. Owned and matching → kept; owned but not matching →
 * released (unless the set is being deleted); orphan, matching, not terminating → adopted (unless the set is
 * being deleted); pods controlled by anything else are ignored.
 */
// upstream: pkg/controller/controller_ref_manager.go PodControllerRefManager.ClaimPods
export function claimPods(set: StatefulSet, pods: readonly Pod[]): { pods: Pod[]; actions: Action[] } {
  const out: Pod[] = [];
  const actions: Action[] = [];
  const selects = selectorOf(set);
  for (const pod of pods) {
    const matches = selects(pod.metadata.labels) && isMemberOf(set, pod);
    const owner = ownership(pod, set);
    if (owner === 'ours' && matches) out.push(pod);
    else if (owner === 'ours' && !isDeleting(set)) actions.push({ kind: 'releasePod', batch: 0, pod });
    else if (owner === 'orphan' && matches && !isDeleting(set) && !isTerminating(pod)) {
      actions.push({ kind: 'adoptPod', batch: 0, pod });
      out.push(pod);
    }
  }
  return { pods: out, actions };
}

/** Revisions: owned ones, and orphans matching the selector (adopted unless the set is being deleted). */
// upstream: stateful_set.go adoptOrphanRevisions + history ListControllerRevisions
export function claimRevisions(set: StatefulSet, revisions: readonly ControllerRevision[]): Claimed['revisions'] {
  const selects = selectorOf(set);
  return revisions.filter((r) => {
    const owner = ownership(r, set);
    return owner === 'ours' || (owner === 'orphan' && !isDeleting(set) && selects(r.metadata.labels));
  });
}

export function adoptRevisionActions(set: StatefulSet, claimed: readonly ControllerRevision[]): Action[] {
  return claimed.filter((r) => ownership(r, set) === 'orphan').map((revision): Action => ({ kind: 'adoptRevision', batch: 0, revision }));
}

export function claimObjects(set: StatefulSet, pods: readonly Pod[], revisions: readonly ControllerRevision[]): Claimed {
  const claimedPods = claimPods(set, pods);
  const claimedRevisions = claimRevisions(set, revisions);
  return {
    pods: claimedPods.pods,
    revisions: claimedRevisions,
    actions: [...adoptRevisionActions(set, claimedRevisions), ...claimedPods.actions],
  };
}
