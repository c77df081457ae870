// `rollout status|history|undo|restart|retry NAME` for apps/v1 and apps.ordinal.dev/v1 StatefulSets, with
// kubectl's flags, messages and exit codes. The functions take a ClusterClient (tests use the in-memory
// cluster); `register` only wires them to commander and a real cluster.
//
// `rollout pause|resume` only explain: a StatefulSet has no `spec.paused` (neither apps/v1 nor the CRD, and
// kubectl refuses both verbs for StatefulSets); emulating it with the partition would change what happens to
// deleted pods below it and to scale-ups, and would overwrite a partition the user set, so they print the
// partition patch that holds (or releases) a rollout and exit 1.

import { Option, type Command } from 'commander';
import { parseGoDuration } from '../explain/durations.js';
import { runOnSet, withCluster, type CommandDeps } from '../explain/command-runner.js';
import { useColor } from '../explain/io.js';
import { outputOption, type OutputFormat } from '../explain/output-format.js';
import { addSetArguments, qualifiedName, setRefText } from '../explain/set-ref.js';
import { replicasOf } from '../../controller/spec.js';
import { addKubeFlags, type KubeFlags } from '../kube-flags.js';
import { rolloutHistory } from '../rollout/rollout-history.js';
import { rolloutRestart } from '../rollout/restart.js';
import { rolloutRetry } from '../rollout/retry.js';
import { rolloutStatus } from '../rollout/rollout-status.js';
import { rolloutUndo } from '../rollout/undo.js';
import { dryRunOption, type DryRun } from '../rollout/dry-run.js';

export interface StatusOptions {
  watch?: boolean;
  /** Go duration; '0' waits forever. */
  timeout?: string;
  color?: boolean;
  output?: OutputFormat;
}

export async function rolloutStatusCommand(deps: CommandDeps, name: string, opts: StatusOptions): Promise<number> {
  let timeoutMs: number;
  try {
    timeoutMs = parseGoDuration(opts.timeout ?? '0');
  } catch (e) {
    deps.io.stderr(`error: invalid --timeout: ${(e as Error).message}\n`);
    return 1;
  }
  const output = opts.output === 'text' ? undefined : opts.output;
  const live = output === undefined && useColor(deps.io, opts.color);
  return runOnSet(deps, name, ({ resource, set }) =>
    rolloutStatus(deps.client, { resource, set, watch: opts.watch !== false, timeoutMs, live, ...(output ? { output } : {}) }, deps.io, deps.timers),
  );
}

export function rolloutHistoryCommand(deps: CommandDeps, name: string, opts: { revision?: number; output?: OutputFormat }): Promise<number> {
  const output = opts.output === 'text' ? undefined : opts.output;
  return runOnSet(deps, name, ({ resource, set }) => rolloutHistory(deps.client, { resource, set, revision: opts.revision ?? 0, ...(output ? { output } : {}) }, deps.io));
}

export function rolloutUndoCommand(deps: CommandDeps, name: string, opts: { toRevision?: number; dryRun?: DryRun }): Promise<number> {
  return runOnSet(deps, name, ({ resource, set }) => rolloutUndo(deps.client, { resource, set, toRevision: opts.toRevision ?? 0, dryRun: opts.dryRun ?? 'none' }, deps.io));
}

/** `rollout pause|resume`: what to do instead, with the patch for this set; always exit 1. */
export function rolloutPauseCommand(deps: CommandDeps, name: string, verb: 'pause' | 'resume'): Promise<number> {
  return runOnSet(deps, name, async ({ resource, set }) => {
    const ref = qualifiedName(resource, set.metadata.name ?? '');
    const type = set.spec.updateStrategy?.type ?? 'RollingUpdate';
    const block = type === 'EnforcedRollingUpdate' ? 'enforcedRollingUpdate' : 'rollingUpdate';
    const patch = `kubectl patch ${ref} --type merge -p '{"spec":{"updateStrategy":{"${block}":{"partition":${verb === 'pause' ? replicasOf(set) : 0}}}}}'`;
    const instead =
      type === 'OnDelete'
        ? 'with OnDelete the controller replaces a pod only when you delete it'
        : type === 'Recreate'
          ? 'a Recreate rollout has no partition to hold it by'
          : verb === 'pause'
            ? `to hold a rollout, set the partition to the number of replicas: ${patch}`
            : `to go on with a rollout held by its partition, lower it (to 0 for every pod): ${patch}`;
    deps.io.stderr(`error: ${ref} cannot be ${verb}d: StatefulSets have no spec.paused; ${instead}\n`);
    return 1;
  });
}

export function rolloutRestartCommand(deps: CommandDeps, name: string, opts: { dryRun?: DryRun } = {}): Promise<number> {
  return runOnSet(deps, name, ({ resource, set }) => rolloutRestart(deps.client, { resource, set, dryRun: opts.dryRun ?? 'none' }, deps.io, deps.timers));
}

export function rolloutRetryCommand(deps: CommandDeps, name: string, opts: { dryRun?: DryRun } = {}): Promise<number> {
  return runOnSet(deps, name, ({ resource, set }) => rolloutRetry(deps.client, { resource, set, dryRun: opts.dryRun ?? 'none' }, deps.io, deps.timers));
}

const revisionNumber = (v: string): number => {
  const n = Number(v);
  if (!Number.isInteger(n)) throw new Error(`not a revision number: ${v}`);
  return n;
};

export function register(program: Command): void {
  const rollout = program.command('rollout').description('manage the rollout of a StatefulSet (apps/v1 or apps.ordinal.dev/v1)');
  const sub = (name: string, description: string) => addKubeFlags(addSetArguments(rollout.command(name).description(description)));
  sub('status', 'watch the rollout until it converges; exit 1 on ProgressDeadlineExceeded, SafetyHalt, RolloutAborted or timeout')
    .option('-w, --watch', 'watch until done', true)
    .option('--no-watch', 'print the status once; exit 0 only if converged')
    .addOption(new Option('--timeout <duration>', 'give up after this long (e.g. 30s, 5m; 0 waits forever)').default('0'))
    .option('--no-color', 'plain lines instead of the live view, even on a terminal')
    .addOption(outputOption())
    .action(async (first: string, second: string | undefined, opts: StatusOptions & KubeFlags) => {
      process.exitCode = await withCluster(opts, (deps) => rolloutStatusCommand(deps, setRefText(first, second), opts));
    });
  sub('history', 'list the revisions with what each changed in the pod template')
    .option('--revision <n>', 'show that revision in detail', revisionNumber)
    .addOption(outputOption())
    .action(async (first: string, second: string | undefined, opts: { revision?: number; output?: OutputFormat } & KubeFlags) => {
      process.exitCode = await withCluster(opts, (deps) => rolloutHistoryCommand(deps, setRefText(first, second), opts));
    });
  sub('undo', 'roll back to the previous revision (or --to-revision N)')
    .option('--to-revision <n>', 'the revision to roll back to (default: the previous one)', revisionNumber)
    .addOption(dryRunOption())
    .action(async (first: string, second: string | undefined, opts: { toRevision?: number; dryRun?: DryRun } & KubeFlags) => {
      process.exitCode = await withCluster(opts, (deps) => rolloutUndoCommand(deps, setRefText(first, second), opts));
    });
  for (const verb of ['pause', 'resume'] as const) {
    sub(verb, `StatefulSets cannot be ${verb}d: prints the partition patch to use instead`).action(
      async (first: string, second: string | undefined, opts: KubeFlags) => {
        process.exitCode = await withCluster(opts, (deps) => rolloutPauseCommand(deps, setRefText(first, second), verb));
      },
    );
  }
  sub('restart', 'replace every pod by the update strategy (template annotation kubectl.kubernetes.io/restartedAt)')
    .addOption(dryRunOption())
    .action(async (first: string, second: string | undefined, opts: { dryRun?: DryRun } & KubeFlags) => {
      process.exitCode = await withCluster(opts, (deps) => rolloutRestartCommand(deps, setRefText(first, second), opts));
    });
  sub('retry', 'try again a rollout that onFailure: Rollback aborted (annotation apps.ordinal.dev/rollout-retry)')
    .addOption(dryRunOption())
    .action(async (first: string, second: string | undefined, opts: { dryRun?: DryRun } & KubeFlags) => {
      process.exitCode = await withCluster(opts, (deps) => rolloutRetryCommand(deps, setRefText(first, second), opts));
    });
}
