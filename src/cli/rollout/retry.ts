// `rollout retry NAME`: tries again a rollout that onFailure: Rollback aborted, a staged rollout's step that
// failed (an analysis under onFailure: Halt, or `rollout abort`), or a rollout `rollout abort` holds under
// Halt: the patch lifts the abort, and the controller runs the step again. Status is the controller's and
// spec the user's (their GitOps tool's), so the signal is an annotation on the set: a new value of
// apps.ordinal.dev/rollout-retry (the time, as kubectl's restartedAt), which the controller acts on once —
// it clears status.abortedRevision, records the value in status.observedRolloutRetry and rolls to the
// aborted revision again. A merge patch of the metadata: no new generation, no new revision.

import type { ClusterClient, Resource } from '../../api/client.js';
import { AbortAnnotation, type StatefulSet } from '../../api/types.js';
import { retryPatch } from '../../api/rollout-signals.js';
import { isRollingBack } from '../../controller/rollout/rollback.js';
import { stepsOf, stepUnderWay } from '../../controller/rollout/rollout-steps.js';
import type { Clock } from '../../runtime/clock.js';
import type { CommandIO } from '../explain/io.js';
import { qualifiedName } from '../explain/set-ref.js';
import { dryRunSuffix, patchSet, type DryRun } from './dry-run.js';

export interface RolloutRetryArgs {
  resource: Resource;
  set: StatefulSet;
  dryRun?: DryRun;
}

export async function rolloutRetry(client: ClusterClient, args: RolloutRetryArgs, io: CommandIO, clock: Clock): Promise<number> {
  const name = qualifiedName(args.resource, args.set.metadata.name ?? '');
  const status = args.set.status;
  const step = failedStep(args.set);
  // an abort under onFailure: Halt of a rollout without steps: the retry lifts it
  const held = status?.updateRevision !== undefined && args.set.metadata.annotations?.[AbortAnnotation] === status.updateRevision;
  if (!isRollingBack(status) && step === undefined && !held) {
    const why =
      status?.abortedRevision !== undefined
        ? `its template changed since revision ${status.abortedRevision} was aborted`
        : stepsOf(args.set).length > 0
          ? 'its status records no failed step (status.currentStepState) and no aborted rollout (onFailure: Rollback)'
          : 'its status records no aborted rollout (onFailure: Rollback)';
    io.stderr(`error: ${name} has no aborted rollout to retry: ${why}\n`);
    return 1;
  }
  const dryRun = args.dryRun ?? 'none';
  await patchSet(client, args.resource, args.set, retryPatch(clock.now()), dryRun);
  const what = isRollingBack(status) ? `revision ${status?.abortedRevision ?? ''}` : `revision ${status?.updateRevision ?? ''}${step === undefined ? '' : ` at step ${step}`}`;
  io.stdout(`${name} rollout of ${what} retried${dryRunSuffix(dryRun)}\n`);
  return 0;
}

/** "i/n" of a step of the update revision that failed (onFailure: Halt, or aborted), if any. */
function failedStep(set: StatefulSet): string | undefined {
  const at = stepUnderWay(set);
  return at === undefined || set.status?.currentStepState !== 'Failed' ? undefined : `${at.index + 1}/${at.total}`;
}
