// Progressing / Available conditions and progressDeadlineSeconds.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fromTimestamp, type Condition } from '../../src/api/types.js';
import { planStatefulSet } from '../../src/controller/plan/plan-statefulset.js';
import { features, newSet, observe, readyPods, SECOND, T0, withStatus, type SetOptions } from './fixtures.js';
import { Harness } from './harness.js';

const cond = (h: Harness, type: string): Condition | undefined => h.set.status?.conditions?.find((c) => c.type === type);

describe('Progressing and Available', () => {
  it('starts a new set with Progressing True (reason names the strategy) and Available False', () => {
    const h = new Harness(newSet(3));
    h.sync();
    assert.equal(cond(h, 'Progressing')?.status, 'True');
    assert.equal(cond(h, 'Progressing')?.reason, 'RollingUpdateInProgress');
    assert.equal(cond(h, 'Progressing')?.lastUpdateTime, cond(h, 'Progressing')?.lastTransitionTime);
    assert.equal(cond(h, 'Available')?.status, 'False');
    assert.equal(cond(h, 'Available')?.reason, 'MinimumReplicasUnavailable');
  });

  for (const [strategy, reason] of [
    ['OnDelete', 'OnDeleteInProgress'],
    ['Recreate', 'RecreateInProgress'],
    ['EnforcedRollingUpdate', 'EnforcedRollingUpdateInProgress'],
  ] as const) {
    it(`uses ${reason} for ${strategy}`, () => {
      const h = new Harness(newSet(2, { strategy }));
      h.sync();
      assert.equal(cond(h, 'Progressing')?.reason, reason);
    });
  }

  it('OnDelete: a new revision with old pods left is in progress, without a deadline, until they are deleted', () => {
    const h = new Harness(newSet(2, { strategy: 'OnDelete', policy: 'Parallel' }), { autoReady: true });
    h.converge();
    assert.equal(cond(h, 'Progressing')?.reason, 'RolloutCompleted');
    h.setImage('app:2');
    const plan = h.sync();
    assert.deepEqual(plan.actions.filter((a) => a.kind === 'deletePod'), [], 'OnDelete deletes nothing');
    assert.deepEqual([cond(h, 'Progressing')?.status, cond(h, 'Progressing')?.reason], ['True', 'OnDeleteInProgress']);
    assert.match(cond(h, 'Progressing')?.message ?? '', /0 of 2 pods updated/);
    h.advance(3600 * SECOND);
    assert.equal(h.sync().wakeAt, undefined, 'no progress deadline to wake for');
    assert.equal(cond(h, 'Progressing')?.reason, 'OnDeleteInProgress');
    for (const pod of ['web-0', 'web-1']) {
      h.deletePod(pod);
      h.finishTerminating();
      h.converge();
    }
    assert.deepEqual([cond(h, 'Progressing')?.status, cond(h, 'Progressing')?.reason], ['False', 'RolloutCompleted']);
  });

  it('completes with Progressing False RolloutCompleted and Available True', () => {
    const h = new Harness(newSet(3), { autoReady: true });
    h.converge();
    assert.equal(cond(h, 'Progressing')?.status, 'False');
    assert.equal(cond(h, 'Progressing')?.reason, 'RolloutCompleted');
    assert.equal(cond(h, 'Available')?.status, 'True');
  });

  it('changes lastTransitionTime only when the status flips', () => {
    const h = new Harness(newSet(3), { autoReady: true });
    h.sync();
    const started = cond(h, 'Progressing')?.lastTransitionTime;
    h.advance(5 * SECOND);
    h.readyAll();
    h.sync();
    assert.equal(cond(h, 'Progressing')?.lastTransitionTime, started);
    assert.notEqual(cond(h, 'Progressing')?.lastUpdateTime, started, 'progress moved the mark');
    h.converge();
    assert.notEqual(cond(h, 'Progressing')?.lastTransitionTime, started);
  });

  it('keeps RolloutCompleted when a pod fails after the rollout (pod churn is not a rollout)', () => {
    const h = new Harness(newSet(3), { autoReady: true });
    h.converge();
    h.notReady('web-2', 'CrashLoopBackOff');
    h.sync();
    assert.equal(cond(h, 'Progressing')?.reason, 'RolloutCompleted');
    assert.equal(cond(h, 'Available')?.status, 'True', '2 of 3 available with maxUnavailable 1');
    h.notReady('web-1', 'CrashLoopBackOff');
    h.sync();
    assert.equal(cond(h, 'Available')?.status, 'False');
  });

  it('judges Available against spec.replicas − maxUnavailable', () => {
    const set = newSet(10, { maxUnavailable: 3, policy: 'Parallel' });
    const pods = readyPods(set, 10).map((p, i) => (i < 3 ? { ...p, status: { phase: 'Running' as const, conditions: [{ type: 'Ready', status: 'False' as const }] } } : p));
    const plan = planStatefulSet(observe(set, pods), T0, features);
    assert.equal(plan.status.conditions?.find((c) => c.type === 'Available')?.status, 'True');
  });
});

describe('progressDeadlineSeconds', () => {
  function stuckRollout(opts: SetOptions = {}): Harness {
    const h = new Harness(newSet(3, { policy: 'Parallel', progressDeadlineSeconds: 60, ...opts }), { autoReady: true });
    h.converge();
    (h.opts as { autoReady?: boolean }).autoReady = false;
    h.setImage('app:typo');
    h.sync();
    h.finishTerminating();
    h.sync();
    h.notReady('web-2', 'ImagePullBackOff');
    return h;
  }

  it('wakes at the deadline and then reports ProgressDeadlineExceeded once, deleting nothing for it', () => {
    const h = stuckRollout();
    const mark = fromTimestamp(cond(h, 'Progressing')?.lastUpdateTime) as number;
    const plan = h.sync();
    assert.equal(plan.wakeAt, mark + 60 * SECOND);
    h.now = mark + 60 * SECOND;
    const exceeded = h.sync();
    assert.deepEqual(exceeded.events.map((e) => e.reason), ['ProgressDeadlineExceeded']);
    assert.deepEqual(exceeded.actions.filter((a) => a.kind === 'deletePod'), []);
    assert.ok(exceeded.blockers.some((b) => b.kind === 'progressDeadlineExceeded' && b.since === mark));
    assert.equal(cond(h, 'Progressing')?.status, 'False');
    assert.equal(cond(h, 'Progressing')?.reason, 'ProgressDeadlineExceeded');
    h.advance(30 * SECOND);
    assert.deepEqual(h.sync().events, [], 'no repeat');
  });

  it('goes back to Progressing True when progress resumes', () => {
    const h = stuckRollout();
    h.sync();
    h.advance(61 * SECOND);
    h.sync();
    assert.equal(cond(h, 'Progressing')?.reason, 'ProgressDeadlineExceeded');
    h.setImage('app:v2');
    h.sync();
    assert.equal(cond(h, 'Progressing')?.status, 'True');
  });

  it('defaults to 600 seconds for apps/v1 sets, measured from the pods\' latest progress (apps/v1 conditions have no lastUpdateTime)', () => {
    const h = stuckRollout({ apiVersion: 'apps/v1', progressDeadlineSeconds: undefined });
    assert.equal(cond(h, 'Progressing')?.lastUpdateTime, undefined, 'kube-apiserver would drop it');
    const mark = Math.max(...h.observed().pods.map((p) => fromTimestamp(p.metadata.creationTimestamp) as number));
    assert.equal(h.sync().wakeAt, mark + 600 * SECOND);
  });

  it('apps/v1: the deadline runs from the latest progress, not from when the rollout started', () => {
    const h = new Harness(newSet(3, { policy: 'Parallel', apiVersion: 'apps/v1', progressDeadlineSeconds: undefined }), { autoReady: true });
    h.converge();
    (h.opts as { autoReady?: boolean }).autoReady = false;
    h.setImage('app:typo');
    h.sync(); // deletes web-2: Progressing turns True now
    const started = h.now;
    h.advance(300 * SECOND); // web-2 takes five minutes to terminate
    h.finishTerminating();
    h.sync(); // creates web-2: progress
    h.notReady('web-2', 'ImagePullBackOff');
    h.sync(); // the counters record web-2 as updated: progress
    assert.equal(h.sync().wakeAt, started + 900 * SECOND, 'ten minutes after web-2 was created, not after the rollout began');
  });
});

describe('steady state', () => {
  it('plans zero actions and no status write for a converged set, with or without conditions', () => {
    const h = new Harness(newSet(3, { policy: 'Parallel' }), { autoReady: true });
    h.converge();
    const plan = h.sync();
    assert.deepEqual(plan.actions, []);
    assert.equal(plan.statusChanged, false);
    assert.deepEqual(plan.events, []);
    const withoutConditions = withStatus(h.set, { conditions: undefined });
    const again = planStatefulSet({ ...h.observed(), set: withoutConditions }, h.now, features);
    assert.deepEqual(again.actions, []);
    assert.equal(again.statusChanged, false, 'a set converged by kube-controller-manager gets no write just for conditions');
  });
});

describe('sets converged by another controller (no conditions yet)', () => {
  it('does not start Progressing because a pod fails, only Available reflects it', () => {
    const h = new Harness(newSet(3), { autoReady: true });
    h.converge();
    h.set = withStatus(h.set, { conditions: undefined });
    h.notReady('web-2', 'CrashLoopBackOff');
    h.notReady('web-1', 'CrashLoopBackOff');
    h.sync();
    assert.equal(cond(h, 'Progressing'), undefined);
    assert.equal(cond(h, 'Available')?.status, 'False');
  });

  it('starts Progressing with the next rollout', () => {
    const h = new Harness(newSet(3), { autoReady: true });
    h.converge();
    h.set = withStatus(h.set, { conditions: undefined });
    h.setImage('app:v2');
    h.sync();
    assert.equal(cond(h, 'Progressing')?.reason, 'RollingUpdateInProgress');
  });
});
