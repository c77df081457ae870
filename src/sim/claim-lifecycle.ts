// What a claim write means for a rollout (KEP-4650 InPlace), as timeline `claim` events: created, bound,
// an expansion that starts, waits for a pod restart, fails or completes, deleted. Pure: the previous and
// the next state of one claim in, the events out.

import { claimCapacity, claimRequest, hasClaimCondition, type PersistentVolumeClaim } from '../api/types.js';
import { compareQuantities } from '../api/validation/quantity.js';
import { isResizing } from '../controller/replica/claim-template-status.js';
import { resizeFailure } from '../controller/replica/claim-state.js';

export type ClaimEvent = 'Created' | 'Bound' | 'Resizing' | 'FileSystemResizePending' | 'ResizeFailed' | 'Resized' | 'Deleted';

// Keyed by the union so the compiler rejects a list that misses one (the scenario docs test reads it).
const CLAIM_EVENT_SET: Record<ClaimEvent, true> = { Created: true, Bound: true, Resizing: true, FileSystemResizePending: true, ResizeFailed: true, Resized: true, Deleted: true };
export const CLAIM_EVENTS = Object.keys(CLAIM_EVENT_SET) as ClaimEvent[];

const bound = (c: PersistentVolumeClaim | undefined): boolean => c?.status?.phase === 'Bound';

/** The events from `prev` to `next` (undefined: the claim does not exist), in the order they happened. */
export function claimEvents(prev: PersistentVolumeClaim | undefined, next: PersistentVolumeClaim | undefined): ClaimEvent[] {
  if (next === undefined) return prev === undefined ? [] : ['Deleted'];
  const out: ClaimEvent[] = prev === undefined ? ['Created'] : [];
  if (bound(next) && !bound(prev)) out.push('Bound');
  const was = prev !== undefined && bound(prev);
  if (bound(next) && isResizing(next) && !(was && isResizing(prev))) out.push('Resizing');
  if (hasClaimCondition(next, 'FileSystemResizePending') && !(prev && hasClaimCondition(prev, 'FileSystemResizePending'))) out.push('FileSystemResizePending');
  if (resizeFailure(next) !== undefined && (prev === undefined || resizeFailure(prev) === undefined)) out.push('ResizeFailed');
  const before = prev && claimCapacity(prev);
  const after = claimCapacity(next);
  if (before !== undefined && after !== undefined && compareQuantities(after, before) === 1) out.push('Resized');
  return out;
}

/** The claim's request and capacity, for the record. */
export const claimSizes = (c: PersistentVolumeClaim): { request: string | null; capacity: string | null } => ({
  request: claimRequest(c) ?? null,
  capacity: claimCapacity(c) ?? null,
});
