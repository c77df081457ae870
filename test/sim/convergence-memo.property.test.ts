// The simulator's kept convergence (convergence-memo.ts) answers as the full check (converged.ts) does after
// every write: random histories of pod writes (revision, readiness, terminating, removal, a second pod on one
// ordinal, one outside the range), status writes (revisions, counters, generation) and time passing under
// minReadySeconds, each checked told only which pod changed.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Pod, StatefulSet } from '../../src/api/types.js';
import { convergence } from '../../src/sim/converged.js';
import { ConvergenceMemo } from '../../src/sim/convergence-memo.js';
import { WorkCounters } from '../../src/runtime/work-counters.js';
import { checkProperty } from '../property-seed.js';
import { T0, convergedStatus, pod, set } from './fixtures.js';

type Step =
  | { kind: 'pod'; ordinal: number; revision: string; ready: boolean; readyAgo: number; terminating: boolean; twin: boolean }
  | { kind: 'remove'; ordinal: number; twin: boolean }
  | { kind: 'status'; update: string; current: string; updated: number; observed: number; partition: number; fromPods: boolean }
  | { kind: 'time'; ms: number };

const revision = fc.constantFrom('web-1', 'web-2');
const mostly = (v: boolean) => fc.constantFrom(v, v, v, !v);
/** Mostly in the range of 3 replicas. */
const ordinal = fc.constantFrom(0, 1, 2, 0, 1, 2, 3);
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('pod' as const), ordinal, revision, ready: mostly(true), readyAgo: fc.integer({ min: 0, max: 20_000 }), terminating: mostly(false), twin: mostly(false) }),
  fc.record({ kind: fc.constant('remove' as const), ordinal, twin: fc.boolean() }),
  fc.record({ kind: fc.constant('status' as const), update: revision, current: revision, updated: fc.integer({ min: 0, max: 4 }), observed: fc.constantFrom(1, 1, 1, 2), partition: fc.constantFrom(0, 0, 1, 2), fromPods: mostly(true) }),
  fc.record({ kind: fc.constant('time' as const), ms: fc.integer({ min: 0, max: 8_000 }) }),
);

/** A second pod on the same ordinal is named like another parent's (web-x-N), outside the range when N > 2. */
const keyOf = (ordinal: number, twin: boolean) => `default/${twin ? 'web-x' : 'web'}-${ordinal}`;

function podAt(s: Extract<Step, { kind: 'pod' }>, now: number): Pod {
  const p = pod(s.ordinal, { revision: s.revision, ready: s.ready, readySince: now - s.readyAgo, terminating: s.terminating });
  if (s.twin) p.metadata.name = `web-x-${s.ordinal}`;
  return p;
}

/** Runs the history; returns how many of its states were converged. */
function run(steps: Step[], minReadySeconds: number): number {
  let converged = 0;
  const pods = new Map<string, Pod>([0, 1, 2].map((o) => [keyOf(o, false), pod(o)]));
  let now = T0;
  let current: StatefulSet = set({ replicas: 3, minReadySeconds, status: convergedStatus(3) });
  const memo = new ConvergenceMemo(new WorkCounters());
  for (const [i, s] of steps.entries()) {
    let changed: string[] = [];
    if (s.kind === 'pod') {
      changed = [keyOf(s.ordinal, s.twin)];
      pods.set(changed[0]!, podAt(s, now));
    } else if (s.kind === 'remove') {
      changed = [keyOf(s.ordinal, s.twin)];
      pods.delete(changed[0]!);
    } else if (s.kind === 'status') {
      // mostly the counters a controller would write for these pods, so that many states converge
      const on = (r: string) => [...pods.values()].filter((p) => p.metadata.labels?.['controller-revision-hash'] === r).length;
      const counters = s.fromPods ? { updatedReplicas: on(s.update), currentReplicas: on(s.current) } : { updatedReplicas: s.updated };
      const status = { ...convergedStatus(3, s.update), currentRevision: s.current, ...counters, observedGeneration: s.observed };
      current = set({ replicas: 3, minReadySeconds, status, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: s.partition } } });
    } else now += s.ms;
    const want = convergence(current, pods, now);
    assert.equal(memo.converged(current, pods, now, changed), want.converged, `step ${i} (${JSON.stringify(s)}): ${want.reason ?? 'converged'}`);
    assert.equal(memo.reason(current, pods, now), want.reason);
    converged += Number(want.converged);
  }
  return converged;
}

describe('the kept convergence', () => {
  it('agrees with the full check after every write, told only the pod written', () => {
    let converged = 0;
    checkProperty(
      fc.property(fc.array(step, { minLength: 1, maxLength: 60 }), fc.constantFrom(0, 10), (steps, minReady) => {
        converged += run(steps, minReady);
      }),
      { numRuns: 300 },
    );
    assert.ok(converged > 100, `the histories reach converged states (${converged})`);
  });

  it('reads the pod written, not the others, when nothing about the set changed', () => {
    const counters = new WorkCounters();
    const memo = new ConvergenceMemo(counters);
    const pods = new Map<string, Pod>([0, 1, 2].map((o) => [`default/web-${o}`, pod(o)]));
    const s = set({ status: convergedStatus(3) });
    assert.equal(memo.converged(s, pods, T0, undefined), true);
    const before = counters.snapshot()['sim.podsChecked'];
    pods.set('default/web-1', pod(1, { ready: false }));
    assert.equal(memo.converged(s, pods, T0, ['default/web-1']), false);
    assert.equal(counters.snapshot()['sim.podsChecked'] - before, 1);
  });
});
