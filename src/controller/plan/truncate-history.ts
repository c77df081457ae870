// Revision history truncation (upstream truncateHistory): which ControllerRevisions to delete so that at
// most revisionHistoryLimit non-live ones remain.

import { sortRevisions } from '../../api/revision/order.js';
import type { ControllerRevision, StatefulSet } from '../../api/types.js';
import type { Action } from '../model/plan-types.js';
import { isOwnedRevision } from '../rollout/revisions.js';

/** apps/v1 default; the set passed in is normally defaulted already. */
const DEFAULT_REVISION_HISTORY_LIMIT = 10;

/**
 * `deleteRevision` actions (batch 0; the caller places them in its last batch), oldest first, for the
 * set's non-live revisions beyond `spec.revisionHistoryLimit`. Live = `current`, `update` and every
 * revision a claimed pod's `controller-revision-hash` names (`podRevisions`). A negative limit keeps everything; 0 keeps only live
 * revisions. Revisions controlled by another owner are never deleted. Pass the revisions as listed
 * before this sync's writes, as upstream does.
 */
// upstream: stateful_set_control.go truncateHistory
export function planHistoryTruncation(
  set: StatefulSet,
  revisions: ControllerRevision[],
  podRevisions: ReadonlySet<string>,
  current: ControllerRevision | undefined,
  update: ControllerRevision | undefined,
): Action[] {
  const live = new Set<string>(podRevisions);
  if (current?.metadata.name !== undefined) live.add(current.metadata.name);
  if (update?.metadata.name !== undefined) live.add(update.metadata.name);
  const history = sortRevisions(revisions.filter((r) => isOwnedRevision(set, r))).filter(
    (r) => !live.has(r.metadata.name ?? ''),
  );
  const limit = set.spec.revisionHistoryLimit ?? DEFAULT_REVISION_HISTORY_LIMIT;
  if (limit < 0 || history.length <= limit) return [];
  return history
    .slice(0, history.length - limit)
    .map((r): Action => ({ kind: 'deleteRevision', batch: 0, name: r.metadata.name ?? '' }));
}
