// volumeClaimUpdatePolicy InPlace (KEP-4650): what a replica's claims say about its readiness, from the claims
// alone — the one reading of them that the replica record (replica.ts), the status, the invariant checkers and
// the simulator share. A claim that is expanding makes its replica neither ready nor available; once the
// expansion ends the replica is available minReadySeconds after the end the controller recorded on the claim.

import { ClaimAnnotations, fromTimestamp, Labels, type Instant, type PersistentVolumeClaim } from '../../api/types.js';
import { isResizing } from './claim-template-status.js';

/** The revision a claim was last brought to (its `controller-revision-hash` label; '' when absent). */
export const claimRevision = (c: PersistentVolumeClaim): string => c.metadata.labels?.[Labels.revisionHash] ?? '';
export const isClaimDeleting = (c: PersistentVolumeClaim): boolean => Boolean(c.metadata.deletionTimestamp);

/** A claim of a replica that is resizing: whether it waits only for the pod to restart (offline expansion), or failed. */
export interface ResizingClaim {
  claim: string;
  offline: boolean;
  /** When the storage side finished and the file system started waiting for a mount (offline). */
  offlineSince?: Instant;
  /** The failure the resize reports (ControllerResizeError / NodeResizeError, or an infeasible resize). */
  failed?: string;
}

const RESIZE_ERRORS = ['ControllerResizeError', 'NodeResizeError'];
const INFEASIBLE = ['ControllerResizeInfeasible', 'NodeResizeInfeasible'];

/** What the claim's resize reports as a failure, if anything. */
export function resizeFailure(claim: PersistentVolumeClaim): string | undefined {
  const error = (claim.status?.conditions ?? []).find((c) => RESIZE_ERRORS.includes(c.type) && c.status === 'True');
  if (error !== undefined) return error.message || error.type;
  const allocated = (claim.status?.['allocatedResourceStatuses'] as Record<string, string> | undefined)?.['storage'];
  return allocated !== undefined && INFEASIBLE.includes(allocated) ? allocated : undefined;
}

/** What a replica's claims say of its readiness and availability (InPlace), from the claims alone. */
export interface ClaimsReadiness {
  /** The first claim that is expanding: the replica is neither ready nor available (KEP-4650). */
  resizing?: ResizingClaim;
  /** The latest recorded end of an expansion of its claims: the replica is available minReadySeconds later. */
  readySince?: Instant;
  /** Claims whose expansion ended but is not recorded yet (the plan records it): not available until then. */
  unrecorded: PersistentVolumeClaim[];
}

function resizingOf(claim: PersistentVolumeClaim): ResizingClaim {
  const failed = resizeFailure(claim);
  const pending = (claim.status?.conditions ?? []).find((c) => c.type === 'FileSystemResizePending' && c.status === 'True');
  const offlineSince = fromTimestamp(pending?.lastTransitionTime);
  return {
    claim: claim.metadata.name ?? '',
    offline: pending !== undefined,
    ...(offlineSince === undefined ? {} : { offlineSince }),
    ...(failed === undefined ? {} : { failed }),
  };
}

/** Readiness from a replica's claims. Without minReadySeconds an expansion's end needs no record. */
export function claimsReadiness(claims: Iterable<PersistentVolumeClaim>, minReadySeconds: number): ClaimsReadiness {
  const out: ClaimsReadiness = { unrecorded: [] };
  for (const claim of claims) {
    if (isResizing(claim)) {
      out.resizing ??= resizingOf(claim);
      continue;
    }
    const marks = claim.metadata.annotations;
    const resizedAt = fromTimestamp(marks?.[ClaimAnnotations.resizedAt]);
    if (resizedAt !== undefined) out.readySince = Math.max(out.readySince ?? resizedAt, resizedAt);
    else if (marks?.[ClaimAnnotations.resizeRequestedAt] !== undefined && minReadySeconds > 0) out.unrecorded.push(claim);
  }
  return out;
}

/** From when the claims let their replica count as available: never (Infinity) while one expands or its end is unrecorded. */
export function claimsAvailableFrom(c: ClaimsReadiness, minReadySeconds: number): Instant {
  if (c.resizing !== undefined || c.unrecorded.length > 0) return Number.POSITIVE_INFINITY;
  return c.readySince === undefined ? Number.NEGATIVE_INFINITY : c.readySince + minReadySeconds * 1000;
}

/** What a replica's claims say about it (InPlace), worked out once per pod and sync. */
export interface ReplicaClaims extends ClaimsReadiness {
  /** Its claims are not at the pod's revision and can be, or must grow and cannot: the replica does not count as on that revision yet. */
  lagging: boolean;
}
