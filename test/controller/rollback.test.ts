// onFailure: Rollback in the planner: a failed rollout (SafetyHalt, ProgressDeadlineExceeded) is aborted
// without writing spec, every pod goes back to the last fully available revision within maxUnavailable
// (broken pods first, without waiting on them), the abort is recorded in status, and it ends with a new
// template or a retry. Multi-sync runs on the Harness, which checks the plan invariants after every sync.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RetryAnnotation, type StatefulSet } from '../../src/api/types.js';
import type { Plan } from '../../src/controller/model/plan-types.js';
import { features, newSet, SECOND, type SetOptions } from './fixtures.js';
import { Harness, runSyncs } from './harness.js';

const deleted = (p: Plan): string[] => p.actions.flatMap((a) => (a.kind === 'deletePod' ? [a.name] : []));
const reasons = (p: Plan): string[] => p.events.map((e) => e.reason);
const progressing = (h: Harness) => h.set.status?.conditions?.find((c) => c.type === 'Progressing');

function converged(opts: SetOptions, replicas = 5): Harness {
  const h = new Harness(newSet(replicas, { claims: false, ...opts }), { autoReady: true });
  h.converge();
  (h.opts as { autoReady?: boolean }).autoReady = false;
  return h;
}

const run = runSyncs;

/** EnforcedRollingUpdate to a broken image: web-4 is the first pod on it and sits in ImagePullBackOff. */
function brokenEnforced(opts: SetOptions = {}): { h: Harness; good: string } {
  const h = converged({ strategy: 'EnforcedRollingUpdate', onFailure: 'Rollback', ...opts });
  const good = h.set.status?.currentRevision ?? '';
  h.setImage('app:typo');
  run(h, 2, () => 'ImagePullBackOff');
  return { h, good };
}

describe('onFailure: Rollback', () => {
  it('records the last fully available revision when a rollout completes', () => {
    const h = converged({ onFailure: 'Rollback' });
    assert.equal(h.set.status?.lastAvailableRevision, h.set.status?.currentRevision);
    h.setImage('app:v2');
    run(h, 20);
    assert.equal(h.set.status?.lastAvailableRevision, h.set.status?.updateRevision);
    assert.notEqual(h.set.status?.lastAvailableRevision, undefined);
  });

  it('keeps no record under Halt (the default), so apps.ordinal.dev/v1 status is as before', () => {
    const h = converged({});
    assert.equal(h.set.status?.lastAvailableRevision, undefined);
    assert.equal(h.set.status?.abortedRevision, undefined);
  });

  it('aborts on SafetyHalt: records the aborted revision, RolloutAborted, a Warning event and the metric, and replaces the broken pod', () => {
    const { h, good } = brokenEnforced();
    const spec = structuredClone(h.set.spec);
    const aborted = h.sync();
    const bad = h.set.status?.updateRevision ?? '';
    assert.notEqual(bad, good);
    assert.equal(h.set.status?.abortedRevision, bad);
    assert.equal(h.set.status?.currentRevision, good);
    assert.equal(progressing(h)?.status, 'False');
    assert.equal(progressing(h)?.reason, 'RolloutAborted');
    assert.match(progressing(h)?.message ?? '', /pod web-4 failed to become available \(ImagePullBackOff\).*back to revision/);
    assert.deepEqual(reasons(aborted), ['RolloutAborted']);
    assert.equal(aborted.events[0]?.type, 'Warning');
    assert.equal(aborted.metrics.rolloutAborted, true);
    assert.deepEqual(deleted(aborted), ['web-4']);
    assert.ok(aborted.actions.every((a) => a.kind !== 'deletePod' || a.cause === 'rollback'));
    assert.ok(aborted.blockers.some((b) => b.kind === 'rolloutAborted' && b.revision === bad && b.target === good));
    assert.deepEqual(h.set.spec, spec, 'the controller never writes spec');
    const later = run(h, 6);
    assert.equal(h.revisionOf('web-4'), good);
    assert.ok(later.every((p) => p.metrics.rolloutAborted === undefined), 'the metric counts the abort once');
    assert.deepEqual(later.flatMap(reasons), ['RolledBack']);
    assert.equal(h.set.status?.updatedReplicas, 0);
    assert.equal(h.set.status?.currentReplicas, 5);
    assert.equal(h.set.status?.availableReplicas, 5);
    assert.equal(h.set.status?.updateRevision, bad, 'status.updateRevision keeps naming the spec');
    assert.equal(progressing(h)?.reason, 'RolloutAborted');
    assert.deepEqual(h.set.spec, spec);
  });

  it('halts as before under Halt', () => {
    const { h } = brokenEnforced({ onFailure: 'Halt' });
    const halted = h.sync();
    assert.deepEqual(reasons(halted), ['SafetyHalt']);
    assert.equal(h.set.status?.abortedRevision, undefined);
    assert.deepEqual(deleted(halted), []);
  });

  it('aborts a RollingUpdate after ProgressDeadlineExceeded, replaces the broken pod first and keeps replicas − maxUnavailable available', () => {
    const h = converged({ onFailure: 'Rollback', progressDeadlineSeconds: 60 });
    const good = h.set.status?.currentRevision ?? '';
    h.setImage('app:v2');
    // web-4 and web-3 come up on the new revision; web-2 crashes
    run(h, 12, (name) => (name === 'web-2' ? 'CrashLoopBackOff' : undefined));
    assert.equal(h.revisionOf('web-2'), h.set.status?.updateRevision);
    h.advance(60 * SECOND);
    const exceeded = h.sync();
    assert.deepEqual(reasons(exceeded), ['ProgressDeadlineExceeded']);
    const aborted = h.sync();
    assert.deepEqual(reasons(aborted), ['RolloutAborted']);
    assert.match(progressing(h)?.message ?? '', /no progress for progressDeadlineSeconds \(60 s\)/);
    assert.deepEqual(deleted(aborted), ['web-2'], 'the broken pod goes first, the available ones wait for it');
    const plans = [aborted, ...run(h, 30)];
    const order = plans.flatMap(deleted);
    assert.deepEqual(order, ['web-2', 'web-4', 'web-3'], 'highest ordinal first after the broken one');
    for (const p of plans) assert.ok((p.status.availableReplicas ?? 0) >= 4, `available ${p.status.availableReplicas}`);
    assert.deepEqual([...h.pods.keys()].sort().map((n) => h.revisionOf(n)), Array(5).fill(good));
  });

  it('replaces every broken pod at once under Parallel, without budget, and the available ones within it', () => {
    const h = converged({ onFailure: 'Rollback', policy: 'Parallel', maxUnavailable: 2, progressDeadlineSeconds: 60 }, 6);
    h.setImage('app:v2');
    run(h, 3, () => 'CrashLoopBackOff');
    h.advance(60 * SECOND);
    h.sync();
    const aborted = h.sync();
    assert.deepEqual(deleted(aborted).sort(), ['web-4', 'web-5']);
  });

  it('goes back to the last fully available revision, not a current revision promoted before minReadySeconds', () => {
    const h = converged({ onFailure: 'Rollback', minReadySeconds: 30, progressDeadlineSeconds: 120 }, 2);
    const good = h.set.status?.lastAvailableRevision;
    h.setImage('app:v2');
    // both pods move; once web-0 is Ready currentRevision is promoted, 30 s before it is available
    const revisionOfWeb0 = () => (h.pods.has('web-0') ? h.revisionOf('web-0') : good);
    for (let i = 0; i < 60 && revisionOfWeb0() === good; i++) run(h, 1);
    run(h, 3);
    const bad = h.set.status?.updateRevision;
    assert.equal(h.set.status?.currentRevision, bad, 'promoted on Ready');
    assert.equal(h.set.status?.lastAvailableRevision, good);
    for (const name of h.pods.keys()) h.notReady(name, 'CrashLoopBackOff');
    h.advance(200 * SECOND);
    h.sync();
    h.sync();
    assert.equal(h.set.status?.abortedRevision, h.set.status?.updateRevision);
    assert.equal(h.set.status?.currentRevision, good);
  });

  it('cannot roll back a set whose only revision failed: it halts and says why', () => {
    const h = new Harness(newSet(2, { claims: false, strategy: 'EnforcedRollingUpdate', onFailure: 'Rollback', image: 'app:typo' }));
    run(h, 3, () => 'ImagePullBackOff');
    const plan = h.sync();
    assert.ok(plan.blockers.some((b) => b.kind === 'noRollbackTarget'), JSON.stringify(plan.blockers));
    assert.equal(h.set.status?.abortedRevision, undefined);
    assert.deepEqual(deleted(plan), []);
  });

  it('ends the abort when the template changes: a new rollout starts from the revision it went back to', () => {
    const { h, good } = brokenEnforced();
    run(h, 5);
    h.setImage('app:v3');
    const next = h.sync();
    assert.equal(h.set.status?.abortedRevision, undefined);
    assert.equal(h.set.status?.currentRevision, good);
    assert.notEqual(h.set.status?.updateRevision, good);
    assert.deepEqual(reasons(next), ['EnforcedRollingUpdateStarted']);
    run(h, 20);
    assert.equal(h.set.status?.currentRevision, h.set.status?.updateRevision);
    assert.equal(progressing(h)?.reason, 'RolloutCompleted');
  });

  it('retries the aborted revision once per new value of the retry annotation', () => {
    const { h } = brokenEnforced();
    const annotate = (value: string) => (h.set = { ...h.set, metadata: { ...h.set.metadata, annotations: { [RetryAnnotation]: value } } } as StatefulSet);
    run(h, 5, () => 'ImagePullBackOff');
    const bad = h.set.status?.abortedRevision;
    annotate('2026-03-01T13:00:00Z');
    const retried = h.sync();
    assert.equal(h.set.status?.abortedRevision, undefined);
    assert.equal(h.set.status?.observedRolloutRetry, '2026-03-01T13:00:00Z');
    assert.deepEqual(deleted(retried), ['web-4'], 'the rollout to the aborted revision starts again');
    // it fails again: aborted again, and the same annotation value does not retry a second time
    run(h, 8, () => 'ImagePullBackOff');
    assert.equal(h.set.status?.abortedRevision, bad);
    run(h, 3);
    assert.equal(h.set.status?.abortedRevision, bad);
    annotate('2026-03-01T14:00:00Z');
    h.sync();
    assert.equal(h.set.status?.abortedRevision, undefined);
  });

  it('does not take a retry annotation written before the abort for a retry', () => {
    const h = converged({ strategy: 'EnforcedRollingUpdate', onFailure: 'Rollback' });
    h.set = { ...h.set, metadata: { ...h.set.metadata, annotations: { [RetryAnnotation]: 'early' } } };
    h.setImage('app:typo');
    run(h, 8, () => 'ImagePullBackOff');
    assert.equal(h.set.status?.observedRolloutRetry, 'early');
    assert.notEqual(h.set.status?.abortedRevision, undefined);
  });

  it('keeps the revision it goes back to from history truncation', () => {
    const h = converged({ onFailure: 'Rollback', progressDeadlineSeconds: 60 });
    h.update((s) => (s.spec.revisionHistoryLimit = 0));
    const good = h.set.status?.lastAvailableRevision ?? '';
    h.setImage('app:v2');
    run(h, 4, () => 'CrashLoopBackOff');
    assert.ok(h.revisions.has(good));
  });

  it('leaves apps/v1 sets alone: no record in their status', () => {
    const h = new Harness(newSet(3, { claims: false, apiVersion: 'apps/v1', strategy: 'RollingUpdate' }), { autoReady: true, features });
    h.converge();
    assert.equal(h.set.status?.lastAvailableRevision, undefined);
  });
});
