// Builds the `ordinal` / `kubectl-ordinal` command tree. Each command lives in cli/commands/<name>.ts and
// exports `register(program)`.

import type { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { register as registerManifests } from './commands/manifests.js';
import { register as registerController } from './commands/controller.js';
import { register as registerKubelet } from './commands/kubelet.js';
import { register as registerSimulate } from './commands/simulate.js';
import { register as registerDemo } from './commands/demo.js';
import { register as registerBench } from './commands/bench.js';
import { register as registerRollout } from './commands/rollout.js';
import { register as registerSet } from './commands/set.js';
import { register as registerWhy } from './commands/why.js';
import { register as registerPlan } from './commands/plan.js';
import { register as registerForecast } from './commands/forecast.js';
import { register as registerValidate } from './commands/validate.js';
import { register as registerVersion } from './commands/version.js';
import { register as registerDashboard } from './commands/dashboard.js';
import { KubectlCommand } from './kubectl-command.js';

/** Set by scripts/bundle.mjs (esbuild `define`): the single-file bundle has no package.json next to it. */
declare const ORDINAL_VERSION: string | undefined;

function packageVersion(): string {
  if (typeof ORDINAL_VERSION === 'string') return ORDINAL_VERSION;
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

export function buildProgram(name = 'ordinal'): Command {
  const program = new KubectlCommand(name)
    .description(
      'Ordinal: a StatefulSet controller with maxUnavailable, Recreate, EnforcedRollingUpdate and minReadySeconds, ' +
        'and a simulated cluster with virtual time.',
    )
    .version(packageVersion(), '-v, --version');
  registerManifests(program);
  registerController(program);
  registerKubelet(program);
  registerSimulate(program);
  registerDemo(program);
  registerBench(program);
  registerRollout(program);
  registerSet(program);
  registerWhy(program);
  registerPlan(program);
  registerForecast(program);
  registerValidate(program);
  registerDashboard(program);
  registerVersion(program, packageVersion());
  pointToHelpAfterErrors(program, name);
  return program;
}

/**
 * A usage error prints one line and where to find help, as kubectl does ("See 'kubectl get --help' for
 * usage."), rather than the whole help text.
 */
function pointToHelpAfterErrors(cmd: Command, path: string): void {
  cmd.showHelpAfterError(`See '${path} --help' for usage.`);
  for (const sub of cmd.commands) pointToHelpAfterErrors(sub, `${path} ${sub.name()}`);
}
