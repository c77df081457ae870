// Property (rollingUpdate.inPlaceUpdateStrategy.gracePeriodSeconds): over random sets (size, OrderedReady or
// Parallel, maxUnavailable, InPlaceIfPossible or InPlaceOnly, the grace), some pods created before the drain
// was set (no readiness gate), and random schedules of failed API writes, time passing, the kubelet restarting
// patched pods, the user pausing and resuming, and a second update overtaking the first: gracePeriodSeconds
// passes NotReady before every in-place restart — no pod with the gate is patched before its condition has been
// False for the grace (checks/drain-invariant.ts, with every other plan check, on every plan by the harness) —
// and once the schedule ends and the rollout is let finish, every pod is on the update revision with its gate's
// condition True. The planner is a pure function of the pods: a controller restart forgets nothing the drain
// needs (its start is the condition's lastTransitionTime), which the replanning from scratch on every sync
// shows. Seeds from the commit (property-seed.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { IN_PLACE_READINESS_GATE, Labels, PodAnnotations } from '../../src/api/types.js';
import type { Action } from '../../src/controller/model/plan-types.js';
import { gateState } from '../../src/controller/model/readiness-gate.js';
import { newSet, SECOND } from './fixtures.js';
import { Harness } from './harness.js';
import { checkProperty } from '../property-seed.js';

type Step = { kind: 'sync'; failing: number } | { kind: 'advance'; seconds: number } | { kind: 'kubelet' } | { kind: 'update' } | { kind: 'pause' };

const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('sync' as const), failing: fc.integer({ min: 0, max: 4 }) }), weight: 6 },
  { arbitrary: fc.record({ kind: fc.constant('advance' as const), seconds: fc.integer({ min: 1, max: 20 }) }), weight: 3 },
  { arbitrary: fc.constant({ kind: 'kubelet' as const }), weight: 3 },
  { arbitrary: fc.constant({ kind: 'update' as const }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'pause' as const }), weight: 1 },
);

const cases = fc.record({
  replicas: fc.integer({ min: 1, max: 4 }),
  parallel: fc.boolean(),
  maxUnavailable: fc.integer({ min: 1, max: 3 }),
  only: fc.boolean(),
  graceSeconds: fc.integer({ min: 1, max: 30 }),
  /** Pods created before the drain was set: they have no gate. */
  gateless: fc.boolean(),
  steps: fc.array(step, { minLength: 5, maxLength: 40 }),
});
type Case = typeof cases extends fc.Arbitrary<infer T> ? T : never;

function harnessOf(c: Case): Harness {
  const set = newSet(c.replicas, { maxUnavailable: c.maxUnavailable, claims: false, policy: c.parallel ? 'Parallel' : 'OrderedReady' });
  const ru = set.spec.updateStrategy?.rollingUpdate ?? {};
  ru.podUpdatePolicy = c.only ? 'InPlaceOnly' : 'InPlaceIfPossible';
  if (!c.gateless) ru.inPlaceUpdateStrategy = { gracePeriodSeconds: c.graceSeconds };
  const h = new Harness(set, { autoReady: true, autoDelete: true });
  h.converge();
  if (c.gateless) h.update((s) => ((s.spec.updateStrategy?.rollingUpdate ?? {}).inPlaceUpdateStrategy = { gracePeriodSeconds: c.graceSeconds }));
  h.setImage('app:v2');
  return h;
}

/** The kubelet: patched pods run their new images, every pod Ready (as far as its gates allow). */
function kubelet(h: Harness): void {
  for (const [name, pod] of h.pods) if (pod.metadata.annotations?.[PodAnnotations.inPlaceUpdateRevision] !== undefined) h.runsSpecImages(name, true);
  h.readyAll();
}

/** What the runs exercised, over all of them: a property that never got there would prove nothing. */
const seen = { drains: 0, patchesAfterDrain: 0, gateTrue: 0, gatelessRecreated: 0, gatelessHeld: 0, pausedPatches: 0 };

function count(h: Harness, actions: readonly Action[], paused: boolean): void {
  for (const a of actions) {
    if (a.kind === 'setPodCondition') seen[a.drain !== undefined ? 'drains' : 'gateTrue']++;
    if (a.kind === 'patchPod') {
      seen.patchesAfterDrain++;
      if (paused) seen.pausedPatches++;
    }
    if (a.kind === 'deletePod' && a.cause === 'update') seen.gatelessRecreated++;
  }
  if (h.plans.at(-1)?.blockers.some((b) => b.kind === 'inPlaceUpdateImpossible' && b.fields.includes('spec.readinessGates'))) seen.gatelessHeld++;
}

/** Runs the schedule, then lets the rollout finish; returns what broke. The harness checks every plan. */
function run(c: Case): string[] {
  const h = harnessOf(c);
  let version = 2;
  for (const s of c.steps) {
    switch (s.kind) {
      case 'sync': {
        const before = h.applied.length;
        let n = 0;
        h.sync(() => s.failing > 0 && ++n % s.failing === 0);
        count(h, h.applied.slice(before), h.set.spec.updateStrategy?.rollingUpdate?.paused === true);
        break;
      }
      case 'advance':
        h.advance(s.seconds * SECOND);
        break;
      case 'kubelet':
        kubelet(h);
        break;
      case 'update':
        h.setImage(`app:v${++version}`);
        break;
      case 'pause':
        h.update((set) => {
          const ru = set.spec.updateStrategy?.rollingUpdate;
          if (ru !== undefined) ru.paused = ru.paused !== true;
        });
        break;
    }
  }
  return settle(c, h);
}

/** Resumed, with no more faults, the rollout finishes: every pod updated, its gate's condition True. */
function settle(c: Case, h: Harness): string[] {
  h.update((set) => ((set.spec.updateStrategy?.rollingUpdate ?? {}).paused = false));
  // a gateless pod under InPlaceOnly halts the rollout until someone deletes it: the user does
  const held = (): string[] => h.plans.at(-1)?.blockers.flatMap((b) => (b.kind === 'inPlaceUpdateImpossible' ? [b.pod] : [])) ?? [];
  const done = (): boolean => {
    const revision = h.set.status?.updateRevision;
    return [...h.pods.values()].every((p) => p.metadata.labels?.[Labels.revisionHash] === revision && gateState(p)?.status === 'True' && p.metadata.deletionTimestamp === undefined);
  };
  for (let i = 0; i < 300 && !(h.pods.size === c.replicas && done()); i++) {
    const before = h.applied.length;
    const plan = h.sync();
    count(h, h.applied.slice(before), false);
    for (const pod of held()) h.deletePod(pod);
    kubelet(h);
    // to the instant the plan asks to be woken at (a drain's end), or a second on
    h.advance(Math.max(SECOND, (plan.wakeAt ?? 0) - h.now));
  }
  const revision = h.set.status?.updateRevision;
  const problems: string[] = [];
  for (const [name, pod] of h.pods) {
    if (pod.metadata.labels?.[Labels.revisionHash] !== revision) problems.push(`${name} is not on the update revision ${revision ?? '?'}`);
    const gate = gateState(pod);
    if (gate === undefined) problems.push(`${name} has no readiness gate ${IN_PLACE_READINESS_GATE} after the rollout`);
    else if (gate.status !== 'True') problems.push(`${name}'s readiness gate is ${gate.status} after the rollout`);
  }
  return problems;
}

describe('drain before an in-place restart (property)', () => {
  it('gracePeriodSeconds passes NotReady before every in-place restart; the gate True after the rollout, across failed writes, pauses and overtaking updates', () => {
    let runs = 0;
    checkProperty(
      fc.property(cases, (c) => {
        assert.deepEqual(run(c), [], JSON.stringify(c));
        runs++;
      }),
      { numRuns: 1000 },
    );
    assert.equal(runs, 1000);
    for (const [what, n] of Object.entries(seen)) assert.ok(n > 20, `the runs exercised ${what} ${n} times: ${JSON.stringify(seen)}`);
  });
});
