// The root of the `ordinal` / `kubectl-ordinal` command tree, without its commands: name, description, the
// version flag, and the usage-error hint every command gets. program.ts (every command, loaded up front) and
// lazy-program.ts (only the command a command line names) both build on it.

import type { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { KubectlCommand } from './kubectl-command.js';

/** Set by scripts/bundle.mjs (esbuild `define`): the single-file bundle has no package.json next to it. */
declare const ORDINAL_VERSION: string | undefined;

export function packageVersion(): string {
  if (typeof ORDINAL_VERSION === 'string') return ORDINAL_VERSION;
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/** What a command module exports: it adds its command to the program. */
export type Registrar = (program: Command, version: string) => void;

export function rootProgram(name: string): Command {
  return new KubectlCommand(name)
    .description(
      'Ordinal: a StatefulSet controller with maxUnavailable, Recreate, EnforcedRollingUpdate and minReadySeconds, ' +
        'and a simulated cluster with virtual time.',
    )
    .version(packageVersion(), '-v, --version');
}

/**
 * A usage error prints one line and where to find help, as kubectl does ("See 'kubectl get --help' for
 * usage."), rather than the whole help text.
 */
export function pointToHelpAfterErrors(cmd: Command, path: string): void {
  cmd.showHelpAfterError(`See '${path} --help' for usage.`);
  for (const sub of cmd.commands) pointToHelpAfterErrors(sub, `${path} ${sub.name()}`);
}
