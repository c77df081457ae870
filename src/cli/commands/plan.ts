// `plan NAME [--feature-gates …] [-o text|json]`: the actions the controller's next sync would send, batch
// by batch — a dry run of the same planner; nothing is written.

import { observedPods } from '../../controller/replica/replica-index.js';
import type { Command } from 'commander';
import { runOnSet, withCluster, type CommandDeps } from '../explain/command-runner.js';
import { addSetArguments, setRefText } from '../explain/set-ref.js';
import { useColor } from '../explain/io.js';
import { planData, renderPlan } from '../explain/plan-report.js';
import { outputOption, structured, type OutputFormat } from '../explain/output-format.js';
import { featuresFrom, planNow } from '../explain/plan-now.js';
import { qualifiedName } from '../explain/set-ref.js';
import { explainContext } from '../explain/why-report.js';
import { addKubeFlags, type KubeFlags } from '../kube-flags.js';

export interface PlanOptions {
  featureGates?: string;
  output?: OutputFormat;
  color?: boolean;
}

export function planCommand(deps: CommandDeps, name: string, opts: PlanOptions): Promise<number> {
  return runOnSet(deps, name, async ({ resource, set }) => {
    const now = await planNow(deps.client, deps.timers, set, featuresFrom(opts.featureGates));
    const ctx = explainContext({ set: now.observed.set, pods: observedPods(now.observed), plan: now.plan, now: now.now, features: now.features });
    const view = { title: qualifiedName(resource, set.metadata.name ?? ''), now: now.now, plan: now.plan, ctx };
    deps.io.stdout(opts.output === 'json' || opts.output === 'yaml' ? structured(planData(view), opts.output) : renderPlan(view, { color: useColor(deps.io, opts.color) }));
    return 0;
  });
}

export function register(program: Command): void {
  addKubeFlags(
    addSetArguments(program.command('plan').description("list the controller's next actions for a StatefulSet (dry run of the same planner; changes nothing)")),
  )
    .option('--feature-gates <gates>', 'the controller\'s feature gates, e.g. MaxUnavailableStatefulSet=false')
    .addOption(outputOption())
    .option('--no-color', 'no ANSI colours')
    .action(async (first: string, second: string | undefined, opts: PlanOptions & KubeFlags) => {
      process.exitCode = await withCluster(opts, (deps) => planCommand(deps, setRefText(first, second), opts));
    });
}
