// The dashboard's buttons run the plugin's own commands (`kubectl ordinal rollout pause|resume|promote|abort|
// retry|undo|restart`, cli/commands/rollout.ts), so a button sends exactly the patch the plugin sends, after
// the same checks, and answers with the same lines and exit code: the set is read again (runOnSet), the
// command refuses what the controller would ignore, and an answer of the server (Forbidden, Conflict, …) is
// its `Error from server (…)` line. A dry run (`--dry-run=server`) shows the server's answer before the user
// confirms.

import type { ClusterClient } from '../../api/client.js';
import type { Timers } from '../../runtime/clock.js';
import {
  rolloutAbortCommand,
  rolloutPauseCommand,
  rolloutPromoteCommand,
  rolloutRestartCommand,
  rolloutRetryCommand,
  rolloutUndoCommand,
} from '../commands/rollout.js';
import type { CommandDeps } from '../explain/command-runner.js';
import { bufferIO } from '../explain/io.js';

export const VERBS = ['pause', 'resume', 'promote', 'abort', 'retry', 'undo', 'restart'] as const;
export type Verb = (typeof VERBS)[number];

export interface ActionRequest {
  namespace: string;
  /** The set as kubectl names it: `statefulset.apps/web`, `statefulset.apps.ordinal.dev/web`. */
  set: string;
  verb: Verb;
  /** Ask the server to admit the write without storing it (`--dry-run=server`). */
  dryRun: boolean;
  /** promote: every remaining step (`--full`). */
  full?: boolean;
  /** undo: this revision (`--to-revision`; default the previous one). */
  toRevision?: number;
}

export interface ActionAnswer {
  /** The command line a user would type for the same action. */
  command: string;
  exitCode: number;
  stdout: string;
  stderr: string;
}

const RUN: Record<Verb, (deps: CommandDeps, set: string, r: ActionRequest, dryRun: 'none' | 'server') => Promise<number>> = {
  pause: (deps, set, _r, dryRun) => rolloutPauseCommand(deps, set, 'pause', { dryRun }),
  resume: (deps, set, _r, dryRun) => rolloutPauseCommand(deps, set, 'resume', { dryRun }),
  promote: (deps, set, r, dryRun) => rolloutPromoteCommand(deps, set, { full: r.full === true, dryRun }),
  abort: (deps, set, _r, dryRun) => rolloutAbortCommand(deps, set, { dryRun }),
  retry: (deps, set, _r, dryRun) => rolloutRetryCommand(deps, set, { dryRun }),
  undo: (deps, set, r, dryRun) => rolloutUndoCommand(deps, set, { ...(r.toRevision !== undefined ? { toRevision: r.toRevision } : {}), dryRun }),
  restart: (deps, set, _r, dryRun) => rolloutRestartCommand(deps, set, { dryRun }),
};

/** `kubectl ordinal rollout promote statefulset.apps.ordinal.dev/web -n default --full` */
export function commandLine(r: ActionRequest): string {
  const flags = [
    ...(r.verb === 'promote' && r.full ? ['--full'] : []),
    ...(r.verb === 'undo' && r.toRevision !== undefined ? [`--to-revision ${r.toRevision}`] : []),
    ...(r.dryRun ? ['--dry-run=server'] : []),
  ];
  return ['kubectl ordinal rollout', r.verb, r.set, '-n', r.namespace, ...flags].join(' ');
}

/** Runs the plugin's command for `r` on the user's client; its output is the answer. */
export async function runAction(client: ClusterClient, timers: Timers, r: ActionRequest): Promise<ActionAnswer> {
  const io = bufferIO();
  const exitCode = await RUN[r.verb]({ client, namespace: r.namespace, io, timers }, r.set, r, r.dryRun ? 'server' : 'none');
  return { command: commandLine(r), exitCode, stdout: io.out, stderr: io.err };
}
