// `runScenario`: the simulator's entry point for the CLI, the examples test, the demo and the benchmark.

import { Simulation, type SimulationOptions } from './simulation.js';
import type { Scenario } from './scenario-types.js';
import type { SummaryRecord, TimelineRecord } from './timeline.js';
import type { ApiCallCounter } from './recording-client.js';

export interface RunResult {
  records: TimelineRecord[];
  summary: SummaryRecord;
  /** 0: every expect held and every step did what it said; 1: otherwise. */
  exitCode: 0 | 1;
  /** API calls the controller made (all verbs, across restarts). */
  apiCalls: ApiCallCounter;
}

export async function runScenario(scenario: Scenario, opts: SimulationOptions = {}): Promise<RunResult> {
  const sim = new Simulation(scenario, opts);
  await sim.start();
  await sim.runSteps();
  const summary = await sim.finish();
  return { records: sim.records, summary, exitCode: sim.failed ? 1 : 0, apiCalls: sim.world.apiCalls };
}
