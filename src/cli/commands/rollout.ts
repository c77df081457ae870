// `rollout status|history|undo|restart|retry|pause|resume|promote|abort NAME` for apps/v1 and
// apps.ordinal.dev/v1 StatefulSets, with kubectl's flags, messages and exit codes. The functions take a
// ClusterClient (tests use the in-memory cluster); `register` only wires them to commander and a real cluster.
//
// `rollout pause|resume` set apps.ordinal.dev/v1's rollingUpdate.paused. apps/v1 has no such field (kubectl
// refuses both verbs for StatefulSets); emulating it with the partition would change what happens to deleted
// pods below it and to scale-ups, and would overwrite a partition the user set, so for an apps/v1 set they
// print the partition patch that holds (or releases) a rollout and exit 1.

import { Option, type Command } from 'commander';
import { parseGoDuration } from '../explain/durations.js';
import { runOnSet, withCluster, type CommandDeps } from '../explain/command-runner.js';
import { useColor } from '../explain/io.js';
import { outputOption, type OutputFormat } from '../explain/output-format.js';
import { addSetArguments, setRefText } from '../explain/set-ref.js';
import { addKubeFlags, type KubeFlags } from '../kube-flags.js';
import { rolloutHistory } from '../rollout/rollout-history.js';
import { rolloutRestart } from '../rollout/restart.js';
import { rolloutRetry } from '../rollout/retry.js';
import { rolloutAbort, rolloutPause, rolloutPromote } from '../rollout/signals.js';
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

/** `rollout pause|resume`: rollingUpdate.paused (apps.ordinal.dev/v1); for apps/v1, the partition patch to use instead and exit 1. */
export function rolloutPauseCommand(deps: CommandDeps, name: string, verb: 'pause' | 'resume', opts: { dryRun?: DryRun } = {}): Promise<number> {
  return runOnSet(deps, name, ({ resource, set }) => rolloutPause(deps.client, { resource, set, dryRun: opts.dryRun ?? 'none' }, verb, deps.io));
}

export function rolloutPromoteCommand(deps: CommandDeps, name: string, opts: { full?: boolean; dryRun?: DryRun } = {}): Promise<number> {
  return runOnSet(deps, name, ({ resource, set }) => rolloutPromote(deps.client, { resource, set, full: opts.full === true, dryRun: opts.dryRun ?? 'none' }, deps.io));
}

export function rolloutAbortCommand(deps: CommandDeps, name: string, opts: { dryRun?: DryRun } = {}): Promise<number> {
  return runOnSet(deps, name, ({ resource, set }) => rolloutAbort(deps.client, { resource, set, dryRun: opts.dryRun ?? 'none' }, deps.io));
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
  sub('status', 'watch the rollout until it converges; exit 1 on ProgressDeadlineExceeded, SafetyHalt, RolloutAborted, AnalysisFailed or timeout; 3 when paused (spec paused), 4 at a step paused until promoted')
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
    sub(verb, `${verb} the rollout (apps.ordinal.dev/v1 rollingUpdate.paused: ${verb === 'pause'}); for apps/v1 prints the partition patch to use instead`)
      .addOption(dryRunOption())
      .action(async (first: string, second: string | undefined, opts: { dryRun?: DryRun } & KubeFlags) => {
        process.exitCode = await withCluster(opts, (deps) => rolloutPauseCommand(deps, setRefText(first, second), verb, opts));
      });
  }
  sub('promote', "pass the current step's pause or analysis of a staged rollout (annotation apps.ordinal.dev/rollout-promote)")
    .option('--full', 'pass every remaining step')
    .addOption(dryRunOption())
    .action(async (first: string, second: string | undefined, opts: { full?: boolean; dryRun?: DryRun } & KubeFlags) => {
      process.exitCode = await withCluster(opts, (deps) => rolloutPromoteCommand(deps, setRefText(first, second), opts));
    });
  sub('abort', 'fail the rollout now (a staged one at its current step); onFailure decides what follows (annotation apps.ordinal.dev/rollout-abort)')
    .addOption(dryRunOption())
    .action(async (first: string, second: string | undefined, opts: { dryRun?: DryRun } & KubeFlags) => {
      process.exitCode = await withCluster(opts, (deps) => rolloutAbortCommand(deps, setRefText(first, second), opts));
    });
  sub('restart', 'replace every pod by the update strategy (template annotation kubectl.kubernetes.io/restartedAt)')
    .addOption(dryRunOption())
    .action(async (first: string, second: string | undefined, opts: { dryRun?: DryRun } & KubeFlags) => {
      process.exitCode = await withCluster(opts, (deps) => rolloutRestartCommand(deps, setRefText(first, second), opts));
    });
  sub('retry', 'try again a rollout that onFailure: Rollback aborted, or a failed or aborted step (annotation apps.ordinal.dev/rollout-retry)')
    .addOption(dryRunOption())
    .action(async (first: string, second: string | undefined, opts: { dryRun?: DryRun } & KubeFlags) => {
      process.exitCode = await withCluster(opts, (deps) => rolloutRetryCommand(deps, setRefText(first, second), opts));
    });
}
