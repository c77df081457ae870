// The order of a set's history: upstream sorts by `.revision`, then creation time, then name, and every
// decision (newest revision, next number, which to truncate first) reads that order.

import { fromTimestamp, type ControllerRevision } from '../types.js';
import { compareUtf8 } from './go-json.js';

/** A missing creationTimestamp is Go's zero time, earlier than any stored one. */
const creationTime = (rev: ControllerRevision): number => fromTimestamp(rev.metadata.creationTimestamp) ?? -Infinity;

// upstream: pkg/controller/history controller_history.go byRevision.Less
export function compareRevisions(a: ControllerRevision, b: ControllerRevision): number {
  if (a.revision !== b.revision) return a.revision < b.revision ? -1 : 1;
  const ta = creationTime(a);
  const tb = creationTime(b);
  if (ta !== tb) return ta < tb ? -1 : 1;
  return compareUtf8(a.metadata.name ?? '', b.metadata.name ?? '');
}

/** A sorted copy, oldest first (a stable sort, as upstream's sort.Stable). */
// upstream: pkg/controller/history controller_history.go SortControllerRevisions
export function sortRevisions(revisions: readonly ControllerRevision[]): ControllerRevision[] {
  return [...revisions].sort(compareRevisions);
}

/** One more than the newest revision's number, 1 for an empty history. `sorted` must be sorted. */
// upstream: stateful_set_utils.go nextRevision
export function nextRevision(sorted: readonly ControllerRevision[]): number {
  const last = sorted[sorted.length - 1];
  return last === undefined ? 1 : last.revision + 1;
}
