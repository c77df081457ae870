// `why NAME [--feature-gates …] [-o text|json]`: what the controller is waiting for and why, per ordinal,
// from the planner the controller runs (see cli/explain/why-report.ts for the wording).

import { observedPods } from '../../controller/replica/replica-index.js';
import type { Command } from 'commander';
import { runOnSet, withCluster, type CommandDeps } from '../explain/command-runner.js';
import { addSetArguments, setRefText } from '../explain/set-ref.js';
import { useColor } from '../explain/io.js';
import { outputOption, structured, type OutputFormat } from '../explain/output-format.js';
import { featuresFrom, planNow } from '../explain/plan-now.js';
import { explainWhy, renderWhy } from '../explain/why-report.js';
import { readFailedWrite } from '../explain/failed-write.js';
import { addKubeFlags, type KubeFlags } from '../kube-flags.js';

export interface WhyOptions {
  featureGates?: string;
  output?: OutputFormat;
  color?: boolean;
}

export function whyCommand(deps: CommandDeps, name: string, opts: WhyOptions): Promise<number> {
  return runOnSet(deps, name, async ({ set }) => {
    const now = await planNow(deps.client, deps.timers, set, featuresFrom(opts.featureGates));
    const lastFailure = await readFailedWrite(deps.client, set, now.now);
    const report = explainWhy({ set: now.observed.set, pods: observedPods(now.observed), plan: now.plan, now: now.now, features: now.features, lastFailure });
    if (opts.output === 'json' || opts.output === 'yaml') deps.io.stdout(structured({ ...report, blockers: now.plan.blockers }, opts.output));
    else deps.io.stdout(renderWhy(report, { color: useColor(deps.io, opts.color) }));
    return 0;
  });
}

export function register(program: Command): void {
  addKubeFlags(
    addSetArguments(program.command('why').description('explain what the controller is waiting for, per ordinal (from the same planner the controller runs)')),
  )
    .option('--feature-gates <gates>', 'the controller\'s feature gates, e.g. MaxUnavailableStatefulSet=false')
    .addOption(outputOption())
    .option('--no-color', 'no ANSI colours')
    .action(async (first: string, second: string | undefined, opts: WhyOptions & KubeFlags) => {
      process.exitCode = await withCluster(opts, (deps) => whyCommand(deps, setRefText(first, second), opts));
    });
}
