// fast-check properties over random sets, pod states and kubelet schedules: the
// invariant checkers hold for every plan, the planner never throws, and converged sets plan nothing.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { withFeatures, type Features } from '../../src/api/features.js';
import type { Pod, StatefulSet } from '../../src/api/types.js';
import { checkPlan } from '../../src/controller/checks/invariants.js';
import { planStatefulSet } from '../../src/controller/plan/plan-statefulset.js';
import type { Plan } from '../../src/controller/model/plan-types.js';
import { setPath } from '../api/fixtures.js';
import { checkProperty } from '../property-seed.js';
import { features, newSet, observe, podFor, revisionOf, SECOND, T0, withImage, withStatus, type SetOptions } from './fixtures.js';
import { Harness } from './harness.js';

const setOptions: fc.Arbitrary<{ replicas: number; opts: SetOptions }> = fc.record({
  replicas: fc.integer({ min: 0, max: 7 }),
  opts: fc.record({
    policy: fc.constantFrom('OrderedReady' as const, 'Parallel' as const),
    strategy: fc.constantFrom('RollingUpdate' as const, 'OnDelete' as const, 'Recreate' as const, 'EnforcedRollingUpdate' as const),
    partition: fc.integer({ min: 0, max: 8 }),
    maxUnavailable: fc.oneof(fc.integer({ min: 1, max: 5 }), fc.constantFrom('20%', '50%', '100%')),
    minReadySeconds: fc.constantFrom(0, 30),
    start: fc.integer({ min: 0, max: 3 }),
    batchStartPolicy: fc.constantFrom('Ordered' as const, 'Together' as const),
    claims: fc.boolean(),
  }),
});

const gates: fc.Arbitrary<Features> = fc
  .record({ MaxUnavailableStatefulSet: fc.boolean(), StatefulSetRecreateStrategy: fc.boolean(), EnforcedRollingUpdateInStatefulSet: fc.boolean() })
  .map((g) => withFeatures(features, g));

type State = 'ready' | 'readyRecently' | 'notReady' | 'pending' | 'failed' | 'terminating' | 'crash';
const state = fc.constantFrom<State>('ready', 'ready', 'ready', 'readyRecently', 'notReady', 'pending', 'failed', 'terminating', 'crash');
const podSlot = fc.record({ present: fc.boolean(), old: fc.boolean(), state });

function podInState(set: StatefulSet, from: StatefulSet, ordinal: number, s: State): Pod {
  switch (s) {
    case 'ready':
      return podFor(set, ordinal, { from });
    case 'readyRecently':
      return podFor(set, ordinal, { from, readySince: T0 - 10 * SECOND });
    case 'notReady':
      return podFor(set, ordinal, { from, ready: false });
    case 'pending':
      return podFor(set, ordinal, { from, phase: 'Pending', ready: false });
    case 'failed':
      return podFor(set, ordinal, { from, phase: 'Failed', ready: false });
    case 'terminating':
      return podFor(set, ordinal, { from, terminating: true });
    case 'crash':
      return podFor(set, ordinal, { from, ready: false, waiting: 'CrashLoopBackOff' });
  }
}

/** A set mid-update from v1 to v2 with random pods around its ordinal range. */
const world = fc.tuple(setOptions, fc.array(podSlot, { minLength: 12, maxLength: 12 }), gates).map(([{ replicas, opts }, slots, f]) => {
  const v1 = newSet(replicas, opts);
  const rev1 = revisionOf(v1, 1);
  const v2 = withStatus(withImage(v1, 'app:v2'), { currentRevision: rev1.metadata.name ?? '', currentReplicas: replicas, replicas });
  const first = Math.max(0, (opts.start ?? 0) - 1);
  const pods = slots.flatMap((s, i) => (s.present ? [podInState(v2, s.old ? v1 : v2, first + i, s.state)] : []));
  return { observed: observe(v2, pods, { revisions: [rev1, revisionOf(v2, 2)] }), features: f };
});

/** A planner exception is a bug, whatever the input: bad input must be reported by validation instead. */
function assertNoInternalError(plan: Plan): void {
  const internal = plan.blockers.find((b) => b.kind === 'internalError');
  assert.equal(internal, undefined, internal?.kind === 'internalError' ? internal.stack ?? internal.message : '');
}

/** Every dotted path inside a JSON value (array indices as keys), as test/api/fixtures.ts setPath reads them. */
function pathsOf(v: unknown, prefix = ''): string[] {
  if (typeof v !== 'object' || v === null) return [];
  return Object.entries(v).flatMap(([k, child]) => {
    const p = prefix ? `${prefix}.${k}` : k;
    return [p, ...pathsOf(child, p)];
  });
}

const setPaths = [...new Set([...pathsOf(newSet(2)), ...pathsOf(newSet(2, { strategy: 'EnforcedRollingUpdate', start: 2 })), 'status.currentRevision', 'status.collisionCount', 'status.conditions'])];

describe('planner properties', () => {
  it('every plan satisfies the invariant checkers (partition, budget, OrderedReady, Recreate, safety halt)', () => {
    checkProperty(
      fc.property(world, ({ observed, features: f }) => {
        const plan = planStatefulSet(observed, T0, f);
        assert.deepEqual(checkPlan(observed, plan, T0, f), []);
        assert.ok(!plan.blockers.some((b) => b.kind === 'invalidSpec' || b.kind === 'internalError'), JSON.stringify(plan.blockers));
      }),
      { numRuns: 400 },
    );
  });

  it('never fails internally, whatever the input', () => {
    checkProperty(
      fc.property(fc.anything(), fc.anything(), (set, pods) => {
        const plan = planStatefulSet({ set: set as StatefulSet, pods: (Array.isArray(pods) ? pods : []) as Pod[], claims: [], revisions: [] }, T0, features);
        assertNoInternalError(plan);
      }),
      { numRuns: 300 },
    );
  });

  it('never fails internally on random mutations of a valid set', () => {
    const mutation = fc.record({ path: fc.constantFrom('replicas', 'minReadySeconds', 'ordinals', 'updateStrategy', 'selector', 'template', 'volumeClaimTemplates', 'podManagementPolicy'), value: fc.jsonValue() });
    checkProperty(
      fc.property(world, mutation, ({ observed }, m) => {
        const set = structuredClone(observed.set);
        (set.spec as Record<string, unknown>)[m.path] = m.value;
        const plan = planStatefulSet({ ...observed, set }, T0, features);
        assertNoInternalError(plan);
      }),
      { numRuns: 300 },
    );
  });

  it('never fails internally when any field of the set, at any depth, holds any JSON value', () => {
    const mutation = fc.record({ path: fc.constantFrom(...setPaths), value: fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.constant(undefined)) });
    checkProperty(
      fc.property(world, fc.array(mutation, { minLength: 1, maxLength: 4 }), ({ observed }, mutations) => {
        const set = structuredClone(observed.set);
        for (const m of mutations) setPath(set, m.path, m.value);
        assertNoInternalError(planStatefulSet({ ...observed, set }, T0, features));
      }),
      { numRuns: 300 },
    );
  });
});

type Step = { kind: 'sync' } | { kind: 'ready'; i: number } | { kind: 'break'; i: number; how: 'notReady' | 'crash' | 'failed' } | { kind: 'finish' } | { kind: 'advance'; s: number } | { kind: 'image' } | { kind: 'scale'; n: number };
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: fc.constant<Step>({ kind: 'sync' }) },
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 9 }).map((i): Step => ({ kind: 'ready', i })) },
  { weight: 1, arbitrary: fc.record({ i: fc.integer({ min: 0, max: 9 }), how: fc.constantFrom('notReady' as const, 'crash' as const, 'failed' as const) }).map((r): Step => ({ kind: 'break', ...r })) },
  { weight: 2, arbitrary: fc.constant<Step>({ kind: 'finish' }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 60 }).map((s): Step => ({ kind: 'advance', s })) },
  { weight: 1, arbitrary: fc.constant<Step>({ kind: 'image' }) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 6 }).map((n): Step => ({ kind: 'scale', n })) },
);

function play(h: Harness, s: Step, version: { v: number }): void {
  const names = [...h.pods.keys()].sort();
  const name = (i: number): string | undefined => names[i % Math.max(1, names.length)];
  if (s.kind === 'sync') h.sync();
  else if (s.kind === 'ready' && name(s.i) && !h.must(name(s.i)!).metadata.deletionTimestamp) h.ready(name(s.i)!);
  else if (s.kind === 'break' && name(s.i)) {
    if (s.how === 'failed') h.phase(name(s.i)!, 'Failed');
    else h.notReady(name(s.i)!, s.how === 'crash' ? 'CrashLoopBackOff' : undefined);
  } else if (s.kind === 'finish') h.finishTerminating();
  else if (s.kind === 'advance') h.advance(s.s * SECOND);
  else if (s.kind === 'image') h.setImage(`app:v${++version.v}`);
  else if (s.kind === 'scale') h.update((set) => (set.spec.replicas = s.n));
}

describe('multi-sync properties', () => {
  it('keeps every invariant (one pod per ordinal, partition, budget, ordering, Recreate, halt) over random schedules', () => {
    checkProperty(
      fc.property(setOptions, gates, fc.array(step, { minLength: 10, maxLength: 60 }), ({ replicas, opts }, f, steps) => {
        const h = new Harness(newSet(replicas, opts), { features: f });
        const version = { v: 1 };
        for (const s of steps) play(h, s, version); // Harness.sync asserts the invariants after every sync
      }),
      { numRuns: 150 },
    );
  });

  it('plans zero actions and no status write once converged', () => {
    checkProperty(
      fc.property(setOptions, gates, fc.boolean(), ({ replicas, opts }, f, update) => {
        const h = new Harness(newSet(replicas, { ...opts, partition: opts.strategy === 'RollingUpdate' ? opts.partition : 0 }), { autoReady: true, features: f });
        h.converge();
        if (update) {
          h.setImage('app:v2');
          h.converge();
        }
        h.advance(60 * SECOND);
        h.sync();
        const plan = h.sync();
        assert.deepEqual(plan.actions, []);
        assert.equal(plan.statusChanged, false);
        assert.deepEqual(plan.events, []);
      }),
      { numRuns: 100 },
    );
  });
});
