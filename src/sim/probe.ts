// A look into a running simulation at one virtual instant, for `ordinal simulate --why-at T`: the probe runs
// as a timer at T (after everything scheduled earlier for T), and the clock does not move until its
// promise chain has settled, so it sees the cluster exactly as the controller could at T. Reads only: the
// timeline is the same with or without a probe.

import type { ClusterClient } from '../api/client.js';
import type { Features } from '../api/features.js';
import type { Timers } from '../runtime/clock.js';
import type { RunResult } from './runner.js';
import type { Scenario } from './scenario-types.js';
import { Simulation, type SimulationOptions } from './simulation.js';
import { SIM_EPOCH } from './world.js';

export interface ProbeContext {
  /** The API server as an administrator sees it (reads only, please). */
  client: ClusterClient;
  timers: Timers;
  features: Features;
  /** Virtual seconds since the start. */
  t: number;
}

export type Probe = (ctx: ProbeContext) => Promise<void>;

export interface ProbedRun extends RunResult {
  /** False when the scenario ended before `atSeconds`. */
  probed: boolean;
}

/** runScenario, plus `probe` at virtual second `atSeconds`. */
export async function runScenarioWithProbe(scenario: Scenario, opts: SimulationOptions, atSeconds: number, probe: Probe): Promise<ProbedRun> {
  const sim = new Simulation(scenario, opts);
  await sim.start();
  let running: Promise<void> | undefined;
  const clock = sim.world.clock;
  clock.at(SIM_EPOCH + Math.round(atSeconds * 1000), () => {
    running = probe({ client: sim.world.cluster, timers: clock, features: sim.features, t: sim.t() });
  }, 'why-at probe');
  await sim.runSteps();
  await running;
  const summary = await sim.finish();
  return { records: sim.records, summary, exitCode: sim.failed ? 1 : 0, apiCalls: sim.world.apiCalls, probed: running !== undefined };
}
