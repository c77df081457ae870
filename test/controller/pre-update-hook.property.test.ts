// Property (spec.lifecycle.preUpdate): over random sets (size, OrderedReady/Parallel, maxUnavailable, recreate or
// in place), hooks (http or labels, timeout, failurePolicy), and random schedules of hook answers, agents setting
// labels, controller restarts (the prober's results forgotten), failed API writes, time passing and a second
// update overtaking the first: no pod is deleted or patched in place for an update before its hook passed or was
// ignored by policy for that revision (the planner invariant, checked on every plan by the harness: checks/
// hook-invariant.ts); the hook is called (its Calling record written) at most once per pod and revision, and it
// passes at most once; no GET is asked for a hook that already passed. In place, with a drain
// (inPlaceUpdateStrategy.gracePeriodSeconds): no gated pod is patched before
// its readiness gate has been False for gracePeriodSeconds (checks/drain-invariant.ts, on every plan), and the
// drain comes after the hook (in-place-drain.property.test.ts covers drains without hooks, many more of them).
// Seeds from the commit (property-seed.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LIFECYCLE_STATE_LABEL, PodAnnotations, type PreUpdateHook } from '../../src/api/types.js';
import type { Action, Plan } from '../../src/controller/model/plan-types.js';
import { hookLetsGo, parseHookRecord } from '../../src/controller/replica/hook-state.js';
import { newSet, SECOND } from './fixtures.js';
import { Harness } from './harness.js';
import { checkProperty } from '../property-seed.js';

const URL_ = 'http://op.example/switchover';

type Step = { kind: 'sync'; failing: number } | { kind: 'answer'; ok: boolean } | { kind: 'restart' } | { kind: 'advance'; seconds: number } | { kind: 'agent' } | { kind: 'kubelet' } | { kind: 'update' };

const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('sync' as const), failing: fc.integer({ min: 0, max: 4 }) }), weight: 6 },
  { arbitrary: fc.record({ kind: fc.constant('answer' as const), ok: fc.boolean() }), weight: 3 },
  { arbitrary: fc.constant({ kind: 'restart' as const }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('advance' as const), seconds: fc.integer({ min: 1, max: 60 }) }), weight: 2 },
  { arbitrary: fc.constant({ kind: 'agent' as const }), weight: 2 },
  { arbitrary: fc.constant({ kind: 'kubelet' as const }), weight: 3 },
  { arbitrary: fc.constant({ kind: 'update' as const }), weight: 1 },
);

const cases = fc.record({
  replicas: fc.integer({ min: 1, max: 4 }),
  parallel: fc.boolean(),
  maxUnavailable: fc.integer({ min: 1, max: 3 }),
  inPlace: fc.boolean(),
  drainSeconds: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 30 })),
  labels: fc.boolean(),
  timeoutSeconds: fc.integer({ min: 10, max: 120 }),
  ignore: fc.boolean(),
  steps: fc.array(step, { minLength: 5, maxLength: 40 }),
});
type Case = typeof cases extends fc.Arbitrary<infer T> ? T : never;

function harnessOf(c: Case): Harness {
  const set = newSet(c.replicas, { maxUnavailable: c.maxUnavailable, claims: false, policy: c.parallel ? 'Parallel' : 'OrderedReady' });
  const hook: PreUpdateHook = { ...(c.labels ? { labelsHandler: { 'db.example/ready': 'yes' } } : { http: { url: URL_ } }), timeoutSeconds: c.timeoutSeconds, failurePolicy: c.ignore ? 'Ignore' : 'Fail' };
  set.spec.lifecycle = { preUpdate: hook };
  const rollingUpdate = set.spec.updateStrategy?.rollingUpdate ?? {};
  if (c.inPlace) rollingUpdate.podUpdatePolicy = 'InPlaceIfPossible';
  if (c.inPlace && c.drainSeconds > 0) rollingUpdate.inPlaceUpdateStrategy = { gracePeriodSeconds: c.drainSeconds };
  const h = new Harness(set, { autoReady: true, autoDelete: true });
  h.converge();
  h.setImage('app:v2');
  return h;
}

const recordOf = (h: Harness, name: string) => parseHookRecord(h.pods.get(name)?.metadata.annotations?.[PodAnnotations.preUpdateHook]);

/** What the runs exercised, over all of them: a property that never got there would prove nothing. */
const seen = { called: 0, passed: 0, failed: 0, ignored: 0, disrupted: 0 };

/** Runs the schedule; returns what broke (empty: nothing). The harness asserts the plan invariants on every sync. */
function run(c: Case): string[] {
  const h = harnessOf(c);
  const problems: string[] = [];
  const calls = new Map<string, number>();
  const passes = new Map<string, number>();
  let last: Plan | undefined;
  let version = 2;
  const count = (a: Action): void => {
    if ((a.kind === 'deletePod' && a.cause === 'update') || a.kind === 'patchPod') seen.disrupted++;
    if (a.kind === 'setPodCondition' && a.drain !== undefined) {
      const record = recordOf(h, a.name);
      if (!hookLetsGo(record, a.drain.revision)) problems.push(`${a.name} drained for ${a.drain.revision} before its hook passed`);
    }
    if (a.kind !== 'annotatePod') return;
    seen[a.hook.phase === 'Calling' ? 'called' : a.hook.phase === 'Passed' ? 'passed' : a.hook.phase === 'Failed' ? 'failed' : 'ignored']++;
    const r = parseHookRecord(a.annotations[PodAnnotations.preUpdateHook] ?? undefined);
    const key = `${a.name}@${r?.revision ?? '?'}`;
    if (a.hook.phase === 'Calling') calls.set(key, (calls.get(key) ?? 0) + 1);
    if (a.hook.phase === 'Passed') passes.set(key, (passes.get(key) ?? 0) + 1);
  };
  for (const s of c.steps) {
    switch (s.kind) {
      case 'sync': {
        const before = h.applied.length;
        let n = 0;
        last = h.sync(() => s.failing > 0 && ++n % s.failing === 0);
        for (const probe of last.probes ?? []) {
          if (probe.pod !== undefined && hookLetsGo(recordOf(h, probe.pod), probe.revision)) problems.push(`a GET of ${probe.pod}'s hook after it passed`);
        }
        h.applied.slice(before).forEach(count);
        break;
      }
      case 'answer':
        for (const probe of last?.probes ?? []) if (probe.pod !== undefined) h.analysisResults.push({ key: probe.key, at: h.now, ok: s.ok, message: s.ok ? 'HTTP 200' : 'HTTP 503, expected 200' });
        break;
      case 'restart':
        h.analysisResults = [];
        break;
      case 'advance':
        h.advance(s.seconds * SECOND);
        break;
      case 'agent':
        for (const pod of h.pods.values()) if (pod.metadata.labels?.[LIFECYCLE_STATE_LABEL] !== undefined) pod.metadata.labels = { ...pod.metadata.labels, 'db.example/ready': 'yes' };
        break;
      case 'kubelet':
        for (const [name, pod] of h.pods) if (pod.metadata.annotations?.[PodAnnotations.inPlaceUpdateRevision] !== undefined) h.runsSpecImages(name, true);
        h.readyAll();
        break;
      case 'update':
        h.setImage(`app:v${++version}`);
        break;
    }
  }
  for (const [key, n] of calls) if (n > 1) problems.push(`${key}: called ${n} times`);
  for (const [key, n] of passes) if (n > 1) problems.push(`${key}: passed ${n} times`);
  return problems;
}

describe('preUpdate hook (property)', () => {
  it('no pod goes for an update before its hook passed; one call and one pass per pod and revision, across restarts and failed writes', () => {
    let hooksCalled = 0;
    checkProperty(
      fc.property(cases, (c) => {
        const problems = run(c);
        assert.deepEqual(problems, [], JSON.stringify(c));
        hooksCalled++;
      }),
      { numRuns: 1000 },
    );
    assert.equal(hooksCalled, 1000);
    for (const [what, n] of Object.entries(seen)) assert.ok(n > 20, `the runs exercised ${what} ${n} times: ${JSON.stringify(seen)}`);
  });
});
