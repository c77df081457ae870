// What a user does to the set web between stretches of virtual time, for the scenario properties
// (steps-scenario.ts, combined-scenario.ts): pause, resume and promote (the merge patches of
// src/api/rollout-signals.ts, as the plugin sends them), scale, pod deletions, controller restarts; and the
// planner tap that records what each of web's syncs saw and updated.

import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import { pausePatch, promotePatch } from '../../src/api/rollout-signals.js';
import type { Instant, StatefulSet } from '../../src/api/types.js';
import type { Plan } from '../../src/controller/model/plan-types.js';
import type { Planner } from '../../src/runtime/planner-port.js';
import { newPlanner } from '../../src/runtime/statefulset-controller-factory.js';
import type { Simulation } from '../../src/sim/simulation.js';

export type Signal =
  | { kind: 'advance'; seconds: number }
  | { kind: 'pause' }
  | { kind: 'resume' }
  | { kind: 'promote'; full: boolean }
  | { kind: 'scale'; replicas: number }
  | { kind: 'deletePod'; ordinal: number }
  | { kind: 'restart' };

/** One sync of web: when, whether it saw the user's pause, and what it updated. */
export interface Sync {
  at: Instant;
  paused: boolean;
  updates: string[];
}

/** The planner, recording each of web's syncs (`block`: the strategy block its `paused` lives in). */
export function tappedPlanner(block: 'rollingUpdate' | 'enforcedRollingUpdate', updates: (plan: Plan) => string[], syncs: Sync[]): Planner {
  const base = newPlanner();
  return {
    ...base,
    plan: (observed, now, features) => {
      const plan = base.plan(observed, now, features);
      if (observed.set.metadata.name === 'web') syncs.push({ at: now, paused: observed.set.spec.updateStrategy?.[block]?.paused === true, updates: updates(plan) });
      return plan;
    },
  };
}

/** A pause or resume the user sent, and when. */
export interface PauseSignal {
  at: Instant;
  paused: boolean;
}

/**
 * A pause holds from the next sync: every sync of web after a pause and before the next resume updated
 * nothing. `mustSee`: each of those syncs also saw the pause (no watch delays and no controller restarts in
 * between); without it only the syncs that saw it are held to it.
 */
export function assertPausesHold(pauses: readonly PauseSignal[], syncs: readonly Sync[], mustSee: boolean, what: string): void {
  pauses.forEach((p, i) => {
    const until = pauses[i + 1]?.at ?? Number.POSITIVE_INFINITY;
    if (!p.paused) return;
    for (const s of syncs.filter((x) => x.at > p.at && x.at < until && (mustSee || x.paused))) {
      if (mustSee) assert.ok(s.paused, `${what}: a sync at ${s.at} after the pause at ${p.at} did not see it`);
      assert.deepEqual(s.updates, [], `${what}: a sync at ${s.at} after the pause at ${p.at}`);
    }
  });
}

/** Plays `signals` on the running simulation; the pauses and resumes, with when they were sent. */
export async function playSignals(sim: Simulation, signals: readonly Signal[], startPaused: boolean): Promise<PauseSignal[]> {
  const user = sim.world.user;
  const set = Resources.ordinalStatefulSets;
  const read = () => user.get<StatefulSet>(set, 'default', 'web');
  const pauses = [{ at: sim.now(), paused: startPaused }];
  for (const s of signals) {
    // what the last signal set off at this instant runs first (a pod deleted in the very instant of a sync is
    // the same race)
    await sim.runFor(sim.now());
    switch (s.kind) {
      case 'advance':
        await sim.runFor(sim.now() + s.seconds * 1000);
        break;
      case 'pause':
      case 'resume':
        await user.patch(set, 'default', 'web', pausePatch(await read(), s.kind === 'pause'));
        pauses.push({ at: sim.now(), paused: s.kind === 'pause' });
        break;
      case 'promote': {
        const patch = promotePatch((await read()).status, s.full);
        if (patch !== undefined) await user.patch(set, 'default', 'web', patch);
        break;
      }
      case 'scale':
        await user.patch(set, 'default', 'web', { spec: { replicas: s.replicas } });
        break;
      case 'deletePod':
        await user.delete(Resources.pods, 'default', `web-${s.ordinal}`).catch(() => undefined);
        break;
      case 'restart':
        await sim.world.stopController();
        await sim.world.startController();
        break;
    }
  }
  return pauses;
}
