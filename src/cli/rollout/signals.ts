// `rollout pause|resume|promote|abort NAME`: the user's signals to a rollout, sent as the merge patches of
// api/rollout-signals.ts (the simulator's scenario steps send the same). Pause is spec
// (`rollingUpdate.paused`, which only apps.ordinal.dev/v1 carries); promote and abort are annotations naming
// the update revision, so each command first checks in the status that there is something to act on: a
// signal the controller would ignore is an error, not a success.

import type { ClusterClient, Resource } from '../../api/client.js';
import { abortPatch, pausePatch, promotePatch, rollingBlockName } from '../../api/rollout-signals.js';
import { AbortAnnotation, ORDINAL_V1, type StatefulSet } from '../../api/types.js';
import { isRollingBack } from '../../controller/rollout/rollback.js';
import { isUserPaused, stepsOf, stepUnderWay } from '../../controller/rollout/rollout-steps.js';
import { replicasOf } from '../../controller/model/spec.js';
import type { CommandIO } from '../explain/io.js';
import { qualifiedName } from '../explain/set-ref.js';
import { dryRunSuffix, patchSet, type DryRun } from './dry-run.js';

export interface RolloutSignalArgs {
  resource: Resource;
  set: StatefulSet;
  dryRun?: DryRun;
}

/** A refusal: one line on stderr, exit 1. */
function refuse(io: CommandIO, message: string): number {
  io.stderr(`error: ${message}\n`);
  return 1;
}

/** Why a set cannot be paused by spec, with the partition patch that holds (or releases) its rollout instead. */
function noPausedField(args: RolloutSignalArgs, name: string, verb: 'pause' | 'resume'): string {
  const type = args.set.spec.updateStrategy?.type ?? 'RollingUpdate';
  if (type === 'OnDelete') return `${name} cannot be ${verb}d: with OnDelete the controller replaces a pod only when you delete it`;
  if (type === 'Recreate') return `${name} cannot be ${verb}d: a Recreate rollout has no rolling block to pause`;
  const patch = `kubectl patch ${name} --type merge -p '{"spec":{"updateStrategy":{"${rollingBlockName(args.set)}":{"partition":${verb === 'pause' ? replicasOf(args.set) : 0}}}}}'`;
  return `${name} cannot be ${verb}d: apps/v1 StatefulSets have no spec paused; use an ${ORDINAL_V1} StatefulSet (rollingUpdate.paused), or ${verb === 'pause' ? 'hold the rollout with its partition' : 'release a rollout held by its partition'}: ${patch}`;
}

/** `rollout pause|resume`: sets `paused` in the rolling block; a set already so is left alone (kubectl's "already paused"). */
export async function rolloutPause(client: ClusterClient, args: RolloutSignalArgs, verb: 'pause' | 'resume', io: CommandIO): Promise<number> {
  const name = qualifiedName(args.resource, args.set.metadata.name ?? '');
  const type = args.set.spec.updateStrategy?.type ?? 'RollingUpdate';
  if (args.set.apiVersion !== ORDINAL_V1 || (type !== 'RollingUpdate' && type !== 'EnforcedRollingUpdate')) return refuse(io, noPausedField(args, name, verb));
  const paused = verb === 'pause';
  const done = paused ? 'paused' : 'resumed';
  if (isUserPaused(args.set) === paused) {
    io.stdout(`${name} already ${done}\n`);
    return 0;
  }
  const dryRun = args.dryRun ?? 'none';
  await patchSet(client, args.resource, args.set, pausePatch(args.set, paused), dryRun);
  io.stdout(`${name} ${done}${dryRunSuffix(dryRun)}\n`);
  return 0;
}

/** The step the status shows under way for the update revision, or why there is none (a refusal's reason). */
function stepToSignal(set: StatefulSet, verb: string): { index: number; total: number } | string {
  const total = stepsOf(set).length;
  const block = `spec.updateStrategy.${rollingBlockName(set)}.steps`;
  if (total === 0) return `it has no steps to ${verb} (${block})`;
  const at = stepUnderWay(set);
  const s = set.status;
  if (at === undefined) {
    return `no staged rollout is in progress (status.currentStepIndex ${s?.currentStepIndex ?? 'unset'} of ${total} steps${s?.updateRevision ? ` for revision ${s.updateRevision}` : ''})`;
  }
  const name = set.metadata.name ?? '';
  if (s?.currentStepState === 'Failed') return `the rollout failed at step ${at.index + 1}/${total}; \`kubectl ordinal rollout retry ${name}\` runs the step again`;
  return at;
}

/** `rollout promote [--full]`: passes the current step's gate (or every remaining step). */
export async function rolloutPromote(client: ClusterClient, args: RolloutSignalArgs & { full: boolean }, io: CommandIO): Promise<number> {
  const name = qualifiedName(args.resource, args.set.metadata.name ?? '');
  const at = stepToSignal(args.set, 'promote');
  if (typeof at === 'string') return refuse(io, `${name} has no step to promote: ${at}`);
  const patch = promotePatch(args.set.status, args.full);
  if (patch === undefined) return refuse(io, `${name} has no step to promote: its status names no update revision`);
  const dryRun = args.dryRun ?? 'none';
  await patchSet(client, args.resource, args.set, patch, dryRun);
  const what = args.full ? `past every remaining step (from step ${at.index + 1}/${at.total})` : `past step ${at.index + 1}/${at.total}`;
  io.stdout(`${name} promoted ${what}${dryRunSuffix(dryRun)}\n`);
  return 0;
}

/**
 * `rollout abort`: fails the rollout now — a staged one at its current step, any other apps.ordinal.dev/v1
 * rollout as a whole; onFailure decides what follows.
 */
export async function rolloutAbort(client: ClusterClient, args: RolloutSignalArgs, io: CommandIO): Promise<number> {
  const name = qualifiedName(args.resource, args.set.metadata.name ?? '');
  const underWay = abortable(args.set);
  if (typeof underWay === 'string') return refuse(io, `${name} has no rollout to abort: ${underWay}`);
  const patch = abortPatch(args.set.status);
  if (patch === undefined) return refuse(io, `${name} has no rollout to abort: its status names no update revision`);
  const dryRun = args.dryRun ?? 'none';
  await patchSet(client, args.resource, args.set, patch, dryRun);
  const rollback = args.set.spec.updateStrategy?.[rollingBlockName(args.set)]?.onFailure === 'Rollback';
  const then = rollback ? 'onFailure: Rollback brings the pods back to the last fully available revision' : `it stays there until \`kubectl ordinal rollout retry ${args.set.metadata.name ?? ''}\``;
  const where = underWay === undefined ? '' : ` at step ${underWay.index + 1}/${underWay.total}`;
  io.stdout(`${name} rollout of revision ${args.set.status?.updateRevision ?? ''} aborted${where}${dryRunSuffix(dryRun)}: ${then}\n`);
  return 0;
}

/** The step an abort stops (undefined: a rollout without steps), or why there is nothing to abort. */
function abortable(set: StatefulSet): { index: number; total: number } | undefined | string {
  if (set.apiVersion !== ORDINAL_V1) return `only an ${ORDINAL_V1} StatefulSet can be aborted (the annotation ${AbortAnnotation})`;
  if (stepsOf(set).length > 0) return stepToSignal(set, 'abort');
  const s = set.status;
  if (s?.updateRevision === undefined || s.updateRevision === s.currentRevision) return `no rollout is in progress (status.updateRevision is status.currentRevision${s?.currentRevision ? `, ${s.currentRevision}` : ''})`;
  if (isRollingBack(s) || set.metadata.annotations?.[AbortAnnotation] === s.updateRevision) return `the rollout of revision ${s.updateRevision} is aborted already`;
  return undefined;
}
