// Which ControllerRevision the set is rolling to (update) and from (current), and the revision writes that
// needs — upstream getStatefulSetRevisions as a pure decision: the executor runs the actions.

import { defaultStatefulSet } from '../../api/defaults.js';
import type { Features } from '../../api/features.js';
import {
  applyRevision,
  carriesClaimTemplates,
  equalRevision,
  hashControllerRevision,
  newRevision,
  revisionName,
  revisionRaw,
  RevisionMemo,
} from '../../api/revision/hash.js';
import { nextRevision, sortRevisions } from '../../api/revision/order.js';
import { ownershipOf } from '../../api/controller-ref.js';
import type { ControllerRevision, StatefulSet } from '../../api/types.js';
import type { Action } from '../model/plan-types.js';

export interface RevisionPlan {
  currentRevision: ControllerRevision;
  updateRevision: ControllerRevision;
  /** status.collisionCount to write: the stored value, raised by every name collision met. */
  collisionCount: number;
  /** At most one `createRevision` or `updateRevision` (rollback re-numbering), batch 0. */
  actions: Action[];
}

interface Choice {
  revision: ControllerRevision;
  collisionCount: number;
  actions: Action[];
}

/** The revisions upstream's ListControllerRevisions keeps: controlled by the set, or by no controller. */
export function isOwnedRevision(set: StatefulSet, rev: ControllerRevision): boolean {
  return ownershipOf(rev, set) !== 'other';
}

/**
 * The newest revision is equal to the candidate → reuse it; an older one is → roll back by re-numbering it
 * to the candidate's number. `owned` must be sorted.
 */
function reuseOrRollback(owned: ControllerRevision[], candidate: ControllerRevision, collisionCount: number, memo: RevisionMemo): Choice | undefined {
  const equal = owned.filter((r) => equalRevision(r, candidate, memo));
  const lastEqual = equal[equal.length - 1];
  const newest = owned[owned.length - 1];
  if (lastEqual === undefined || newest === undefined) return undefined;
  if (equalRevision(newest, lastEqual, memo)) return { revision: newest, collisionCount, actions: [] };
  const renumbered: ControllerRevision = { ...structuredClone(lastEqual), revision: candidate.revision };
  return { revision: renumbered, collisionCount, actions: [{ kind: 'updateRevision', batch: 0, revision: renumbered }] };
}

/**
 * Whether restoring the newest revision onto the set (then defaulting it) reproduces the candidate, so
 * that a revision written by an older server (`"creationTimestamp":null`, #134773, or a template from
 * before a new pod default) does not trigger a rollout. The reconstruction is hashed without a
 * collisionCount, as upstream does. (Upstream caches the answer per set generation; this is pure and cheap.)
 */
// upstream: stateful_set_control.go setMatchesLatestExistingRevision
function matchesNewest(set: StatefulSet, candidate: ControllerRevision, newest: ControllerRevision, features: Features, memo: RevisionMemo): boolean {
  if (!features.StatefulSetSemanticRevisionComparison) return false;
  // a revision without claim templates restores none, so it "matches" any claim templates: a set switched to
  // volumeClaimUpdatePolicy InPlace would keep its old revision and never compare its claims with the template
  if (carriesClaimTemplates(candidate) !== carriesClaimTemplates(newest)) return false;
  try {
    const restored = defaultStatefulSet(applyRevision(set, newest), features);
    return equalRevision(candidate, newRevision(restored, -1, undefined, memo), memo);
  } catch {
    return false; // upstream: an ApplyRevision or encoding error means "no match"
  }
}

const INT32_MAX = 2 ** 31 - 1;
const nextCount = (n: number): number => (n === INT32_MAX ? -(2 ** 31) : n + 1); // Go's int32 wraps

/**
 * Names the candidate like upstream's create loop: a name taken by a revision with other data raises
 * collisionCount and re-hashes (only the name changes; the hash label keeps the first hash, as upstream);
 * a name taken by identical data is reused. `all` includes revisions owned by others.
 */
// upstream: pkg/controller/history controller_history.go realHistory.CreateControllerRevision
function createOrReuse(set: StatefulSet, all: readonly ControllerRevision[], candidate: ControllerRevision, collisionCount: number, memo: RevisionMemo): Choice {
  const raw = revisionRaw(candidate, memo);
  const byName = new Map(all.map((r) => [r.metadata.name, r]));
  let count = collisionCount;
  for (let tries = 0; tries <= all.length + 16; tries++, count = nextCount(count)) {
    const name = revisionName(set.metadata.name ?? '', hashControllerRevision(raw, count, memo));
    const existing = byName.get(name);
    if (existing !== undefined && revisionRaw(existing, memo) === raw) return { revision: existing, collisionCount: count, actions: [] };
    if (existing === undefined) {
      const revision: ControllerRevision = { ...candidate, metadata: { ...candidate.metadata, name } };
      return { revision, collisionCount: count, actions: [{ kind: 'createRevision', batch: 0, revision }] };
    }
  }
  throw new Error(`statefulset ${set.metadata.name ?? ''}: no free ControllerRevision name after ${count} collisions`);
}

/**
 * Current and update revisions of `set` (already defaulted) given the revisions listed in its namespace
 * (its own, orphans matching its selector, and possibly others' — those only matter for name collisions).
 * Upstream order: the newest equal revision is reused; an older equal one is rolled back to; with
 * StatefulSetSemanticRevisionComparison the newest is reused when restoring it reproduces the set; else
 * a new revision is created. Current = the revision named by status.currentRevision, else the update one.
 * Throws only if no free name exists (a pathological history).
 */
// upstream: stateful_set_control.go getStatefulSetRevisions
export function planRevisions(set: StatefulSet, revisions: ControllerRevision[], features: Features, memo = new RevisionMemo()): RevisionPlan {
  const owned = sortRevisions(revisions.filter((r) => isOwnedRevision(set, r)));
  const stored = set.status?.collisionCount ?? 0;
  const candidate = newRevision(set, nextRevision(owned), stored, memo);
  const newest = owned[owned.length - 1];
  const chosen =
    reuseOrRollback(owned, candidate, stored, memo) ??
    (newest !== undefined && matchesNewest(set, candidate, newest, features, memo)
      ? { revision: newest, collisionCount: stored, actions: [] }
      : createOrReuse(set, revisions, candidate, stored, memo));
  const currentName = set.status?.currentRevision;
  const current = (currentName && owned.find((r) => r.metadata.name === currentName)) || chosen.revision;
  return {
    currentRevision: current,
    updateRevision: chosen.revision,
    collisionCount: chosen.collisionCount,
    actions: chosen.actions,
  };
}
