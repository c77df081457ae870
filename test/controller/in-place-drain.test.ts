// inPlaceUpdateStrategy.gracePeriodSeconds on the planner: the gate on created pods and its condition True, the
// drain as the admitted disruption (the condition False, InPlaceUpdateDraining, the replica unavailable), the
// wake-up at the drain's end and the patch then, the patch through a pause, a rollback that re-targets a
// drained pod, and pods created without the gate (recreated, or InPlaceOnly's halt).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { IN_PLACE_READINESS_GATE, type StatefulSet } from '../../src/api/types.js';
import type { Action, Plan } from '../../src/controller/model/plan-types.js';
import { gateState } from '../../src/controller/model/readiness-gate.js';
import { newSet, SECOND } from './fixtures.js';
import { Harness } from './harness.js';

const GRACE = 30;

function drainedSet(policy: 'InPlaceIfPossible' | 'InPlaceOnly' = 'InPlaceIfPossible', grace = GRACE): StatefulSet {
  const set = newSet(2, { claims: false });
  const ru = set.spec.updateStrategy?.rollingUpdate ?? {};
  ru.podUpdatePolicy = policy;
  if (grace > 0) ru.inPlaceUpdateStrategy = { gracePeriodSeconds: grace };
  return set;
}

const kinds = (plan: Plan): string[] => plan.actions.map((a) => (a.kind === 'setPodCondition' ? `setPodCondition ${a.name} ${a.condition.status}` : `${a.kind} ${'name' in a ? a.name : ''}`.trim()));
const drains = (plan: Plan): Extract<Action, { kind: 'setPodCondition' }>[] => plan.actions.flatMap((a) => (a.kind === 'setPodCondition' && a.drain !== undefined ? [a] : []));

describe('drain before an in-place restart (planner)', () => {
  it('creates pods with the gate and writes its condition True; 0 adds neither', () => {
    const h = new Harness(drainedSet(), { autoReady: true, autoDelete: true });
    h.converge();
    for (const pod of h.pods.values()) {
      assert.deepEqual(pod.spec.readinessGates, [{ conditionType: IN_PLACE_READINESS_GATE }]);
      assert.equal(gateState(pod)?.status, 'True');
    }
    const plain = new Harness(drainedSet('InPlaceIfPossible', 0), { autoReady: true, autoDelete: true });
    plain.converge();
    assert.ok([...plain.pods.values()].every((p) => p.spec.readinessGates === undefined));
    assert.ok(plain.applied.every((a) => a.kind !== 'setPodCondition'));
  });

  it('drains the pod first (condition False, event, unavailable), wakes at the drain\'s end and patches it then', () => {
    const h = new Harness(drainedSet(), { autoReady: true, autoDelete: true });
    h.converge();
    h.setImage('app:v2');
    const first = h.sync();
    assert.deepEqual(kinds(first).filter((k) => !k.startsWith('createRevision')), ['setPodCondition web-1 False']);
    const [drain] = drains(first);
    assert.equal(drain?.outcome?.succeeded?.reason, 'InPlaceUpdateDraining');
    assert.equal(drain?.condition.reason, 'StartInPlaceUpdate');
    const second = h.sync();
    assert.equal(second.status.availableReplicas, 1, 'the drained replica is unavailable');
    assert.deepEqual(second.actions.filter((a) => a.kind === 'patchPod'), [], 'no patch during the drain');
    const since = gateState(h.must('web-1'));
    assert.ok(since?.status === 'False');
    assert.equal(second.wakeAt, since.since + GRACE * SECOND, 'wakes up at the drain\'s end');
    assert.ok(second.blockers.some((b) => b.kind === 'inPlaceDraining' && b.pod === 'web-1' && b.graceSeconds === GRACE));
    h.now = since.since + GRACE * SECOND - 1;
    assert.deepEqual(h.sync().actions.filter((a) => a.kind === 'patchPod'), [], 'not a millisecond early');
    h.now = since.since + GRACE * SECOND;
    assert.deepEqual(h.sync().actions.filter((a) => a.kind === 'patchPod').map((a) => a.kind === 'patchPod' && a.name), ['web-1']);
  });

  it('a drained pod goes on to its restart through a pause; a rollback sets its gate True again instead', () => {
    const h = new Harness(drainedSet(), { autoReady: true, autoDelete: true });
    h.converge();
    h.setImage('app:v2');
    h.sync();
    h.update((s) => ((s.spec.updateStrategy?.rollingUpdate ?? {}).paused = true));
    h.advance(GRACE * SECOND + SECOND);
    assert.deepEqual(h.sync().actions.filter((a) => a.kind === 'patchPod').map((a) => a.kind === 'patchPod' && a.name), ['web-1'], 'patched while paused');

    const r = new Harness(drainedSet(), { autoReady: true, autoDelete: true });
    r.converge();
    r.setImage('app:v2');
    r.sync();
    r.setImage('app:v1');
    r.advance(GRACE * SECOND + SECOND);
    const back = r.sync();
    assert.deepEqual(back.actions.filter((a) => a.kind === 'patchPod'), []);
    assert.ok(kinds(back).includes('setPodCondition web-1 True'), 're-targeted to its own revision: ready again');
  });

  it('a pod created before the drain was set: InPlaceIfPossible recreates it (InPlaceFallback), InPlaceOnly halts at it', () => {
    for (const policy of ['InPlaceIfPossible', 'InPlaceOnly'] as const) {
      const h = new Harness(drainedSet(policy, 0), { autoReady: true, autoDelete: true });
      h.converge();
      h.update((s) => ((s.spec.updateStrategy?.rollingUpdate ?? {}).inPlaceUpdateStrategy = { gracePeriodSeconds: GRACE }));
      h.setImage('app:v2');
      const plan = h.sync();
      if (policy === 'InPlaceIfPossible') {
        assert.ok(plan.actions.some((a) => a.kind === 'deletePod' && a.name === 'web-1'), 'recreated');
        assert.ok(plan.events.some((e) => e.reason === 'InPlaceFallback' && e.message.includes('no readiness gate')), JSON.stringify(plan.events));
      } else {
        assert.ok(plan.actions.every((a) => a.kind !== 'deletePod' && a.kind !== 'patchPod'), 'nothing deleted or patched');
        assert.ok(plan.blockers.some((b) => b.kind === 'inPlaceUpdateImpossible' && b.fields.includes('spec.readinessGates')), JSON.stringify(plan.blockers));
      }
    }
  });
});
