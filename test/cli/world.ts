// A simulated cluster for command tests: the in-memory API server, the simulated kubelet and the real
// controller on a virtual clock (the simulator's world), with a command's client and IO.

import { bufferIO } from '../../src/cli/explain/io.js';
import type { CommandDeps } from '../../src/cli/explain/command-runner.js';
import { parseScenario } from '../../src/sim/scenario.js';
import { Simulation } from '../../src/sim/simulation.js';

export interface TestWorld {
  sim: Simulation;
  io: ReturnType<typeof bufferIO>;
  deps: CommandDeps;
}

export const SECOND = 1000;

/** A StatefulSet manifest (as scenario object YAML, indented for `objects:`). */
export function setYaml(opts: { name?: string; apiVersion?: string; replicas?: number; image?: string; spec?: string } = {}): string {
  const name = opts.name ?? 'web';
  return `  - apiVersion: ${opts.apiVersion ?? 'apps/v1'}
    kind: StatefulSet
    metadata: {name: ${name}}
    spec:
      replicas: ${opts.replicas ?? 3}
      selector: {matchLabels: {app: ${name}}}
      template:
        metadata: {labels: {app: ${name}}}
        spec: {containers: [{name: app, image: "${opts.image ?? 'app:1'}"}]}
${opts.spec ?? ''}`;
}

/** Starts the world with `objects` created at t=0 (no steps run). */
export async function startWorld(objects: string, cluster = 'cluster: {podStartSeconds: 2}\n'): Promise<TestWorld> {
  const sim = new Simulation(parseScenario(`kind: Scenario\nendSeconds: 86400\n${cluster}objects:\n${objects}`));
  await sim.start();
  const io = bufferIO();
  return { sim, io, deps: { client: sim.world.user, namespace: 'default', io, timers: sim.world.clock } };
}

/** Lets virtual time run until every set has converged (or `seconds` pass). */
export async function converge(w: TestWorld, seconds = 300): Promise<boolean> {
  await w.sim.runFor(w.sim.now() + seconds * SECOND, () => !w.sim.tracker.allConverged());
  return w.sim.tracker.allConverged();
}

export async function advance(w: TestWorld, seconds: number): Promise<void> {
  await w.sim.runFor(w.sim.now() + seconds * SECOND);
}

/** Runs virtual time while `p` is pending (at most `seconds`), then returns its result. */
export async function drive<T>(w: TestWorld, p: Promise<T>, seconds = 900): Promise<T> {
  let settled = false;
  void p.finally(() => (settled = true)).catch(() => {});
  await w.sim.runFor(w.sim.now() + seconds * SECOND, () => !settled);
  if (!settled) throw new Error(`command still running after ${seconds} virtual seconds`);
  return p;
}

/**
 * Like drive, in small steps of virtual time with a real turn between them: for a command that waits for
 * work off the virtual clock (the forecast behind rollout status's ETA runs simulations of its own).
 */
export async function driveWithTurns<T>(w: TestWorld, p: Promise<T>, steps = 40_000): Promise<T> {
  let settled = false;
  void p.finally(() => (settled = true)).catch(() => {});
  for (let i = 0; i < steps && !settled; i++) {
    await advance(w, 0.002);
    await new Promise((r) => setImmediate(r));
  }
  if (!settled) throw new Error(`command still running after ${steps} steps`);
  return p;
}

/** Clears the captured output. */
export function take(w: TestWorld): { out: string; err: string } {
  const r = { out: w.io.out, err: w.io.err };
  w.io.out = '';
  w.io.err = '';
  return r;
}
