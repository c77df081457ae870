// Planned actions as text: one line each for `plan`, and a short per-pod note for `why`'s table.

import { Labels } from '../../api/types.js';
import type { Action, DeleteCause } from '../../controller/model/plan-types.js';

export const DELETE_CAUSES: Record<DeleteCause, string> = {
  failed: 'phase Failed or Succeeded: replaced',
  condemned: 'scale-down: ordinal out of range',
  update: 'rolling update',
  recreate: 'Recreate',
  forced: 'EnforcedRollingUpdate: stuck pod replaced',
  rollback: 'rollout aborted: back to the last fully available revision',
};

const nameOf = (obj: { metadata: { name?: string } }): string => obj.metadata.name ?? '';

/** `delete Pod web-4 (rolling update)`: the verb, the object and why. */
export function describeAction(a: Action): string {
  switch (a.kind) {
    case 'createRevision':
      return `create ControllerRevision ${nameOf(a.revision)} (revision ${a.revision.revision})`;
    case 'updateRevision':
      return `renumber ControllerRevision ${nameOf(a.revision)} to revision ${a.revision.revision} (rollback to an earlier template)`;
    case 'deleteRevision':
      return `delete ControllerRevision ${a.name} (beyond revisionHistoryLimit)`;
    case 'adoptRevision':
      return `adopt ControllerRevision ${nameOf(a.revision)}`;
    case 'adoptPod':
      return `adopt Pod ${nameOf(a.pod)} (orphan matching the selector)`;
    case 'releasePod':
      return `release Pod ${nameOf(a.pod)} (no longer matches the selector)`;
    case 'createClaim':
      return `create PersistentVolumeClaim ${nameOf(a.claim)} for Pod ${a.podName}`;
    case 'updateClaim':
      return `update PersistentVolumeClaim ${nameOf(a.claim)} owner references (persistentVolumeClaimRetentionPolicy)`;
    case 'patchClaim':
      return `patch PersistentVolumeClaim ${a.name} of Pod ${a.podName} to its template (volumeClaimUpdatePolicy InPlace)`;
    case 'createPod':
      return `create Pod ${nameOf(a.pod)} at revision ${a.pod.metadata.labels?.[Labels.revisionHash] ?? '?'}`;
    case 'relabelPod':
      return a.clearsInPlaceUpdate
        ? `relabel Pod ${a.name} to revision ${a.revision} (its kubelet reports the images it was updated to in place)`
        : `relabel Pod ${a.name} to revision ${a.revision} (its template is unchanged; only its claims changed)`;
    case 'annotatePod':
      return `annotate Pod ${a.name} with its preUpdate hook's state`;
    case 'setPodCondition':
      return a.drain !== undefined
        ? `set Pod ${a.name} condition ${a.condition.type}=False: it drains for ${a.drain.graceSeconds}s before its in-place restart to revision ${a.drain.revision}`
        : `set Pod ${a.name} condition ${a.condition.type}=${a.condition.status} (its readiness gate: ready for traffic)`;
    case 'patchPod':
      return `patch Pod ${a.name} in place to revision ${a.revision}'s images and metadata (podUpdatePolicy)`;
    case 'updatePod':
      return `update Pod ${nameOf(a.pod)} (restore identity and storage)`;
    case 'deletePod':
      return `delete Pod ${a.name} (${DELETE_CAUSES[a.cause]})`;
  }
}

/** The pod an action is about, with a short note for the per-ordinal table; undefined for set-level actions. */
export function actionNote(a: Action): { pod: string; note: string } | undefined {
  switch (a.kind) {
    case 'createPod':
      return { pod: nameOf(a.pod), note: 'next: create' };
    case 'deletePod':
      return { pod: a.name, note: `next: delete (${DELETE_CAUSES[a.cause]})` };
    case 'updatePod':
      return { pod: nameOf(a.pod), note: 'next: repair identity/storage' };
    case 'createClaim':
      return { pod: a.podName, note: `next: create claim ${nameOf(a.claim)}` };
    case 'updateClaim':
      return { pod: a.podName, note: `next: fix claim ${nameOf(a.claim)} owner` };
    case 'patchClaim':
      return { pod: a.podName, note: `next: patch claim ${a.name} to the template` };
    case 'relabelPod':
      return { pod: a.name, note: 'next: relabel to the update revision' };
    case 'patchPod':
      return { pod: a.name, note: 'next: update in place' };
    case 'annotatePod':
      return { pod: a.name, note: 'next: record its preUpdate hook' };
    case 'setPodCondition':
      return { pod: a.name, note: a.drain !== undefined ? `next: drain for ${a.drain.graceSeconds}s` : 'next: readiness gate True' };
    case 'adoptPod':
      return { pod: nameOf(a.pod), note: 'next: adopt' };
    case 'releasePod':
      return { pod: nameOf(a.pod), note: 'next: release' };
    case 'createRevision':
    case 'updateRevision':
    case 'adoptRevision':
    case 'deleteRevision':
      return undefined;
  }
}
