// The API faults the scenario property tests draw (API errors, conflicts, watch delays), the `faults:` line
// of their scenario, and one run of a scenario to its end.
import fc from 'fast-check';
import { parseScenario } from '../../src/sim/scenario.js';
import { Simulation } from '../../src/sim/simulation.js';

/** Arbitraries of the fault rates, to spread into a case's fc.record. */
export const apiFaults = {
  apiErrors: fc.constantFrom(0, 0.1, 0.25),
  conflicts: fc.constantFrom(0, 0.2),
  watchDelay: fc.constantFrom(0, 0.5, 2),
};

export interface ApiFaults {
  apiErrors: number;
  conflicts: number;
  watchDelay: number;
}

/** The scenario's `faults:` line, or an empty line without faults. */
export function faultsLine(c: ApiFaults): string {
  const faults = [
    c.apiErrors > 0 ? `apiErrors: {rate: ${c.apiErrors}}` : '',
    c.conflicts > 0 ? `conflicts: {rate: ${c.conflicts}}` : '',
    c.watchDelay > 0 ? `watch: {delaySeconds: ${c.watchDelay}}` : '',
  ].filter(Boolean);
  return faults.length > 0 ? `faults: {${faults.join(', ')}}` : '';
}

/** Runs the scenario to its end. */
export async function simulate(yaml: string): Promise<Simulation> {
  const sim = new Simulation(parseScenario(yaml));
  await sim.start();
  await sim.runSteps();
  await sim.finish();
  return sim;
}
