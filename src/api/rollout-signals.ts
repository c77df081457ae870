// The user's signals to a rollout, as merge patches: the plugin (`kubectl ordinal rollout pause|resume|
// promote|abort|retry`) and the simulator's scenario steps send the same ones. Pause is spec (the user's
// intent, kept by a GitOps tool); promote, abort and retry are annotations on the set (metadata: no new
// generation, no new revision), since status is the controller's. Promote and abort name the update
// revision (and promote the step), so a value left over from an earlier rollout does nothing.

import { AbortAnnotation, PromoteAnnotation, RetryAnnotation, toTimestamp, type Instant, type StatefulSet, type StatefulSetStatus } from './types.js';

/** The rolling block that carries `paused` and `steps` for the set's strategy type. */
export const rollingBlockName = (set: StatefulSet): 'rollingUpdate' | 'enforcedRollingUpdate' =>
  set.spec.updateStrategy?.type === 'EnforcedRollingUpdate' ? 'enforcedRollingUpdate' : 'rollingUpdate';

export function pausePatch(set: StatefulSet, paused: boolean): unknown {
  return { spec: { updateStrategy: { [rollingBlockName(set)]: { paused } } } };
}

/** Passes the current step's gate (`full`: every remaining step); undefined when the status names no step to promote. */
export function promotePatch(status: StatefulSetStatus | undefined, full: boolean): unknown {
  const revision = status?.stepRevision ?? status?.updateRevision;
  const index = status?.currentStepIndex;
  if (revision === undefined || (!full && index === undefined)) return undefined;
  return { metadata: { annotations: { [PromoteAnnotation]: `${revision}/${full ? 'full' : String(index)}` } } };
}

/** Fails the rollout to the status's update revision now (onFailure decides what follows). */
export function abortPatch(status: StatefulSetStatus | undefined): unknown {
  const revision = status?.updateRevision;
  return revision === undefined ? undefined : { metadata: { annotations: { [AbortAnnotation]: revision } } };
}

/** Tries a failed or aborted rollout again: a new retry value (the time, as kubectl's restartedAt), and the abort lifted. */
export function retryPatch(now: Instant): unknown {
  return { metadata: { annotations: { [RetryAnnotation]: toTimestamp(now), [AbortAnnotation]: null } } };
}
