// `plan NAME [--feature-gates …] [-o text|json]`: the actions the controller's next sync would send, batch
// by batch — a dry run of the same planner; nothing is written.

import { Option, type Command } from 'commander';
import { runOnSet, withCluster, type CommandDeps } from '../explain/command-runner.js';
import { useColor } from '../explain/io.js';
import { planJson, renderPlan } from '../explain/plan-report.js';
import { featuresFrom, planNow } from '../explain/plan-now.js';
import { qualifiedName } from '../explain/set-ref.js';
import { explainContext } from '../explain/why-report.js';
import { addKubeFlags, type KubeFlags } from '../kube-flags.js';

export interface PlanOptions {
  featureGates?: string;
  output?: 'text' | 'json';
  color?: boolean;
}

export function planCommand(deps: CommandDeps, name: string, opts: PlanOptions): Promise<number> {
  return runOnSet(deps, name, async ({ resource, set }) => {
    const now = await planNow(deps.client, deps.timers, set, featuresFrom(opts.featureGates));
    const ctx = explainContext({ set: now.observed.set, pods: now.observed.pods, plan: now.plan, now: now.now, features: now.features });
    const view = { title: qualifiedName(resource, set.metadata.name ?? ''), now: now.now, plan: now.plan, ctx };
    deps.io.stdout(opts.output === 'json' ? planJson(view) : renderPlan(view, { color: useColor(deps.io, opts.color) }));
    return 0;
  });
}

export function register(program: Command): void {
  addKubeFlags(
    program
      .command('plan')
      .description("list the controller's next actions for a StatefulSet (dry run of the same planner; changes nothing)")
      .argument('<name>', 'NAME, statefulset.apps/NAME or statefulset.apps.ordinal.dev/NAME'),
  )
    .option('--feature-gates <gates>', 'the controller\'s feature gates, e.g. MaxUnavailableStatefulSet=false')
    .addOption(new Option('-o, --output <format>', 'output format').choices(['text', 'json']).default('text'))
    .option('--no-color', 'no ANSI colours')
    .action(async (name: string, opts: PlanOptions & KubeFlags) => {
      process.exitCode = await withCluster(opts, (deps) => planCommand(deps, name, opts));
    });
}
