// `rollout retry NAME`: tries again a rollout that onFailure: Rollback aborted. Status is the controller's and
// spec the user's (their GitOps tool's), so the signal is an annotation on the set: a new value of
// apps.ordinal.dev/rollout-retry (the time, as kubectl's restartedAt), which the controller acts on once —
// it clears status.abortedRevision, records the value in status.observedRolloutRetry and rolls to the
// aborted revision again. A merge patch of the metadata: no new generation, no new revision.

import type { ClusterClient, Resource } from '../../api/client.js';
import type { StatefulSet } from '../../api/types.js';
import { retryPatch } from '../../api/rollout-signals.js';
import { isRollingBack } from '../../controller/rollback.js';
import type { Clock } from '../../runtime/clock.js';
import type { CommandIO } from '../explain/io.js';
import { qualifiedName } from '../explain/set-ref.js';
import { dryRunSuffix, type DryRun } from './dry-run.js';

export interface RolloutRetryArgs {
  resource: Resource;
  set: StatefulSet;
  dryRun?: DryRun;
}

export async function rolloutRetry(client: ClusterClient, args: RolloutRetryArgs, io: CommandIO, clock: Clock): Promise<number> {
  const name = qualifiedName(args.resource, args.set.metadata.name ?? '');
  const status = args.set.status;
  if (!isRollingBack(status)) {
    const why = status?.abortedRevision !== undefined ? `its template changed since revision ${status.abortedRevision} was aborted` : 'its status records no aborted rollout (onFailure: Rollback)';
    io.stderr(`error: ${name} has no aborted rollout to retry: ${why}\n`);
    return 1;
  }
  const dryRun = args.dryRun ?? 'none';
  if (dryRun !== 'client') {
    await client.patch<StatefulSet>(args.resource, args.set.metadata.namespace ?? 'default', args.set.metadata.name ?? '', retryPatch(clock.now()), { dryRun: dryRun === 'server' });
  }
  io.stdout(`${name} rollout of revision ${status?.abortedRevision ?? ''} retried${dryRunSuffix(dryRun)}\n`);
  return 0;
}
