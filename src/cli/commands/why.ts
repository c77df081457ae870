// `why NAME [--feature-gates …] [-o text|json]`: what the controller is waiting for and why, per ordinal,
// from the planner the controller runs (see cli/explain/why-report.ts for the wording).

import { Option, type Command } from 'commander';
import { runOnSet, withCluster, type CommandDeps } from '../explain/command-runner.js';
import { useColor } from '../explain/io.js';
import { featuresFrom, planNow } from '../explain/plan-now.js';
import { explainWhy, renderWhy } from '../explain/why-report.js';
import { addKubeFlags, type KubeFlags } from '../kube-flags.js';

export interface WhyOptions {
  featureGates?: string;
  output?: 'text' | 'json';
  color?: boolean;
}

export function whyCommand(deps: CommandDeps, name: string, opts: WhyOptions): Promise<number> {
  return runOnSet(deps, name, async ({ set }) => {
    const now = await planNow(deps.client, deps.timers, set, featuresFrom(opts.featureGates));
    const report = explainWhy({ set: now.observed.set, pods: now.observed.pods, plan: now.plan, now: now.now, features: now.features });
    if (opts.output === 'json') deps.io.stdout(`${JSON.stringify({ ...report, blockers: now.plan.blockers }, null, 2)}\n`);
    else deps.io.stdout(renderWhy(report, { color: useColor(deps.io, opts.color) }));
    return 0;
  });
}

export function register(program: Command): void {
  addKubeFlags(
    program
      .command('why')
      .description('explain what the controller is waiting for, per ordinal (from the same planner the controller runs)')
      .argument('<name>', 'NAME, statefulset.apps/NAME or statefulset.apps.ordinal.dev/NAME'),
  )
    .option('--feature-gates <gates>', 'the controller\'s feature gates, e.g. MaxUnavailableStatefulSet=false')
    .addOption(new Option('-o, --output <format>', 'output format').choices(['text', 'json']).default('text'))
    .option('--no-color', 'no ANSI colours')
    .action(async (name: string, opts: WhyOptions & KubeFlags) => {
      process.exitCode = await withCluster(opts, (deps) => whyCommand(deps, name, opts));
    });
}
