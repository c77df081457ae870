// `rollout undo NAME [--to-revision N]`: writes an earlier revision's pod template back into the set, as
// kubectl's StatefulSetRollbacker does (there is no rollback API: the controller then finds the equal
// revision, re-numbers it and rolls the pods to it like any update, upstream-statefulset.md §7.3).

import type { ClusterClient, Resource } from '../../api/client.js';
import type { ControllerRevision, StatefulSet } from '../../api/types.js';
import { deepEqual } from '../../api/validation/json.js';
import { retryOnConflict } from '../../runtime/conflict-retry.js';
import type { CommandIO } from '../explain/io.js';
import { qualifiedName } from '../explain/set-ref.js';
import { dryRunSuffix, type DryRun } from './dry-run.js';
import { setHistory, templateOf } from './rollout-history.js';

export interface RolloutUndoArgs {
  resource: Resource;
  set: StatefulSet;
  /** 0: the revision before the newest. */
  toRevision: number;
  dryRun?: DryRun;
}

export class RollbackError extends Error {
  override name = 'RollbackError';
}

/** The revision to go back to: `toRevision`, or the second newest when 0. `history` is sorted. */
// upstream: kubectl/pkg/polymorphichelpers rollback.go findHistory
export function findRollbackRevision(history: readonly ControllerRevision[], toRevision: number): ControllerRevision {
  if (toRevision < 0) throw new RollbackError(`unable to find specified revision ${toRevision} in history`);
  if (toRevision === 0) {
    const previous = history[history.length - 2];
    if (previous === undefined) throw new RollbackError('no last revision to roll back to');
    return previous;
  }
  const found = history.find((r) => r.revision === toRevision);
  if (found === undefined) throw new RollbackError(`unable to find specified revision ${toRevision} in history`);
  return found;
}

/** Sets the template from `rev`, re-reading the set on conflict; false when it already matched. */
async function restoreTemplate(client: ClusterClient, resource: Resource, first: StatefulSet, rev: ControllerRevision, dryRun: DryRun): Promise<boolean> {
  return retryOnConflict(async (i) => {
    const ns = first.metadata.namespace ?? 'default';
    const set = i === 0 ? first : await client.get<StatefulSet>(resource, ns, first.metadata.name ?? '');
    const template = templateOf(set, rev);
    if (deepEqual(template, set.spec.template)) return false;
    if (dryRun !== 'client') await client.update<StatefulSet>(resource, { ...set, spec: { ...set.spec, template } }, { dryRun: dryRun === 'server' });
    return true;
  });
}

// upstream: kubectl/pkg/polymorphichelpers rollback.go StatefulSetRollbacker.Rollback
export async function rolloutUndo(client: ClusterClient, args: RolloutUndoArgs, io: CommandIO): Promise<number> {
  const name = qualifiedName(args.resource, args.set.metadata.name ?? '');
  let rev: ControllerRevision;
  try {
    rev = findRollbackRevision(await setHistory(client, args.set), args.toRevision);
  } catch (e) {
    if (!(e instanceof RollbackError)) throw e;
    io.stderr(`error: ${e.message}\n`);
    return 1;
  }
  const dryRun = args.dryRun ?? 'none';
  const changed = await restoreTemplate(client, args.resource, args.set, rev, dryRun);
  io.stdout(changed ? `${name} rolled back${dryRunSuffix(dryRun)}\n` : `${name} skipped rollback (current template already matches revision ${rev.revision})\n`);
  return 0;
}
