// `rollout restart NAME`: stamps the pod template with kubectl's `kubectl.kubernetes.io/restartedAt`
// annotation (a merge patch), so the controller sees a new revision and replaces every pod by the set's
// update strategy. Time comes from the injected clock.

import type { ClusterClient, Resource } from '../../api/client.js';
import { RESTARTED_AT_ANNOTATION, toTimestamp, type StatefulSet } from '../../api/types.js';
import type { Clock } from '../../runtime/clock.js';
import type { CommandIO } from '../explain/io.js';
import { qualifiedName } from '../explain/set-ref.js';
import { dryRunSuffix, patchSet, type DryRun } from './dry-run.js';


export interface RolloutRestartArgs {
  resource: Resource;
  set: StatefulSet;
  dryRun?: DryRun;
}

/** The merge patch kubectl sends. */
// upstream: kubectl/pkg/polymorphichelpers objectrestarter.go defaultObjectRestarter
export function restartPatch(now: number): unknown {
  return { spec: { template: { metadata: { annotations: { [RESTARTED_AT_ANNOTATION]: toTimestamp(now) } } } } };
}

export async function rolloutRestart(client: ClusterClient, args: RolloutRestartArgs, io: CommandIO, clock: Clock): Promise<number> {
  const name = qualifiedName(args.resource, args.set.metadata.name ?? '');
  if (args.set.spec.updateStrategy?.type === 'OnDelete') {
    io.stderr(`error: cannot restart ${name}: with the OnDelete strategy the controller never replaces pods (delete them instead)\n`);
    return 1;
  }
  const dryRun = args.dryRun ?? 'none';
  await patchSet(client, args.resource, args.set, restartPatch(clock.now()), dryRun);
  io.stdout(`${name} restarted${dryRunSuffix(dryRun)}\n`);
  return 0;
}
