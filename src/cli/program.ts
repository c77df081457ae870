// Builds the whole `ordinal` / `kubectl-ordinal` command tree at once (tests, docs checks and the single-file
// bundle). Each command lives in cli/commands/<name>.ts and exports `register(program)`; the CLI's own entry
// loads only the command a command line names (lazy-program.ts, whose list follows this one's order).

import type { Command } from 'commander';
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
import { packageVersion, pointToHelpAfterErrors, rootProgram, type Registrar } from './program-root.js';

/** Every command, in the order the help lists them. */
export const REGISTRARS: readonly Registrar[] = [
  registerManifests,
  registerController,
  registerKubelet,
  registerSimulate,
  registerDemo,
  registerBench,
  registerRollout,
  registerSet,
  registerWhy,
  registerPlan,
  registerForecast,
  registerValidate,
  registerDashboard,
  registerVersion,
];

export function buildProgram(name = 'ordinal'): Command {
  const program = rootProgram(name);
  const version = packageVersion();
  for (const register of REGISTRARS) register(program, version);
  pointToHelpAfterErrors(program, name);
  return program;
}
