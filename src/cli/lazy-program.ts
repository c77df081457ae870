// The command tree as the CLI's entry builds it: only the command the command line names is loaded (each
// command module brings in what it runs, the simulator or the cluster client), so `ordinal --version` and
// `ordinal why …` do not pay for every other command. A command line that names none (help, no arguments, an
// unknown command) gets them all, so the help lists every command and commander can suggest one.

import type { Command } from 'commander';
import { packageVersion, pointToHelpAfterErrors, rootProgram, type Registrar } from './program-root.js';

type Loader = () => Promise<{ register: Registrar }>;

/** By command name, in the order of program.ts's REGISTRARS (test/cli/startup.test.ts compares the two). */
export const COMMAND_LOADERS: ReadonlyArray<[string, Loader]> = [
  ['manifests', () => import('./commands/manifests.js')],
  ['controller', () => import('./commands/controller.js')],
  ['kubelet', () => import('./commands/kubelet.js')],
  ['simulate', () => import('./commands/simulate.js')],
  ['demo', () => import('./commands/demo.js')],
  ['bench', () => import('./commands/bench.js')],
  ['rollout', () => import('./commands/rollout.js')],
  ['set', () => import('./commands/set.js')],
  ['why', () => import('./commands/why.js')],
  ['plan', () => import('./commands/plan.js')],
  ['forecast', () => import('./commands/forecast.js')],
  ['validate', () => import('./commands/validate.js')],
  ['dashboard', () => import('./commands/dashboard.js')],
  ['version', () => import('./commands/version.js')],
];

const VERSION_FLAGS = new Set(['-v', '--version']);
const HELP_FLAGS = new Set(['-h', '--help']);

/**
 * The commands `args` (the arguments after the program's name) needs: the one it names (`help NAME` names
 * NAME), none for a bare `--version`, else all. The root program takes no option with a value, so the
 * first argument that is not a flag is the command.
 */
export function commandsNeeded(args: readonly string[]): string[] | 'all' {
  const known = new Set(COMMAND_LOADERS.map(([name]) => name));
  const positional = args.filter((a) => !a.startsWith('-'));
  const [first, second] = positional;
  if (first === undefined) return args.some((a) => VERSION_FLAGS.has(a)) && !args.some((a) => HELP_FLAGS.has(a)) ? [] : 'all';
  if (first === 'help') return second !== undefined && known.has(second) ? [second] : 'all';
  return known.has(first) ? [first] : 'all';
}

/** The program for `argv` (process.argv: node, script, arguments). */
export async function loadProgram(name: string, argv: readonly string[]): Promise<Command> {
  const program = rootProgram(name);
  const version = packageVersion();
  const needed = commandsNeeded(argv.slice(2));
  const chosen = COMMAND_LOADERS.filter(([command]) => needed === 'all' || needed.includes(command));
  const modules = await Promise.all(chosen.map(([, load]) => load()));
  for (const m of modules) m.register(program, version);
  pointToHelpAfterErrors(program, name);
  return program;
}
