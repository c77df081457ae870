// `ordinal simulate FILE --why-at T`: `why` and `plan` for every StatefulSet of the simulated cluster at
// virtual second T, from the same observed state and planner as the `why` and `plan` commands.

import { observedPods } from '../../controller/replica/replica-index.js';
import { Resources } from '../../api/client.js';
import type { Resource } from '../../api/client.js';
import type { StatefulSet } from '../../api/types.js';
import type { SimulationOptions } from '../../sim/simulation.js';
import { runScenarioWithProbe, type ProbeContext, type ProbedRun } from '../../sim/probe.js';
import type { Scenario } from '../../sim/scenario-types.js';
import { readFailedWrite } from './failed-write.js';
import { planNow } from './plan-now.js';
import { renderPlan } from './plan-report.js';
import { qualifiedName } from './set-ref.js';
import { explainContext, explainWhy, renderWhy } from './why-report.js';

/** `why`, then `plan`, of one set. */
async function explainSet(ctx: ProbeContext, resource: Resource, set: StatefulSet): Promise<string> {
  const now = await planNow(ctx.client, ctx.timers, set, ctx.features);
  const lastFailure = await readFailedWrite(ctx.client, set, now.now);
  const input = { set: now.observed.set, pods: observedPods(now.observed), plan: now.plan, now: now.now, features: ctx.features, lastFailure };
  const view = { title: qualifiedName(resource, set.metadata.name ?? ''), now: now.now, plan: now.plan, ctx: explainContext(input) };
  return `${renderWhy(explainWhy(input), { color: false })}\n${renderPlan(view, { color: false })}`.trimEnd();
}

/** The `why` and `plan` text of every set (both APIs, all namespaces) at the probe's instant. */
export async function whyText(ctx: ProbeContext): Promise<string> {
  const sets: { resource: Resource; set: StatefulSet }[] = [];
  for (const resource of [Resources.statefulSets, Resources.ordinalStatefulSets]) {
    sets.push(...(await ctx.client.list<StatefulSet>(resource, undefined)).items.map((set) => ({ resource, set })));
  }
  const parts = [`--- why at t=${ctx.t}s ---`];
  for (const { resource, set } of sets) parts.push(await explainSet(ctx, resource, set));
  if (sets.length === 0) parts.push('(no StatefulSet exists at this time)');
  return `${parts.join('\n\n')}\n--- end of why ---\n`;
}

/** Runs the scenario and hands the `why` text at `atSeconds` to `emit` (or a note when the run ended first). */
export async function runScenarioWhyAt(scenario: Scenario, opts: SimulationOptions, atSeconds: number, emit: (text: string) => void): Promise<ProbedRun> {
  const result = await runScenarioWithProbe(scenario, opts, atSeconds, async (ctx) => emit(await whyText(ctx)));
  if (!result.probed) emit(`--why-at ${atSeconds}: the scenario ended at t=${result.summary.endedAt}s, before that time\n`);
  return result;
}
