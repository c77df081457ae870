// SlowerThanForecast and `progressDeadlineSeconds: auto`: the p95 band of a rollout from the durations the
// runtime learned of the set's pods (ObservedState.durations).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fromTimestamp, type Condition } from '../../src/api/types.js';
import type { Plan } from '../../src/controller/model/plan-types.js';
import { progressDeadlineSecondsOf } from '../../src/controller/rollout/progress-deadline.js';
import { AUTO_DEADLINE_FLOOR_SECONDS, forecastBand, MIN_MEASURED_PODS } from '../../src/controller/rollout/slow-rollout.js';
import { newSet, SECOND, type SetOptions } from './fixtures.js';
import { Harness } from './harness.js';

const progressing = (h: Harness): Condition | undefined => h.set.status?.conditions?.find((c) => c.type === 'Progressing');
/** The progress mark the deadline counts from. */
const markOf = (h: Harness): number => fromTimestamp(progressing(h)?.lastUpdateTime) ?? NaN;
const slowEvents = (plan: Plan) => plan.events.filter((e) => e.reason === 'SlowerThanForecast');
/** `n` pods that took `seconds` each (a band needs MIN_MEASURED_PODS of its kind). */
const pods = (seconds: number, n = MIN_MEASURED_PODS): number[] => Array<number>(n).fill(seconds);
const LEARNED = { start: pods(10), termination: pods(2) };
const near = (actual: number | undefined, want: number, what: string): void => assert.ok(actual !== undefined && Math.abs(actual - want) < 0.01, `${what}: ${actual} ≈ ${want}`);

/** A converged 3-pod set whose last 10 pods took 10 s to start and 2 s to go; its image changed, web-2 replaced and not Ready yet. */
function rolling(opts: SetOptions = {}, durations: { start: number[]; termination: number[] } = LEARNED): Harness {
  const h = new Harness(newSet(3, { claims: false, ...opts }));
  h.converge();
  h.durations = durations;
  h.setImage('app:v2');
  h.sync(); // deletes web-2
  h.advance(2 * SECOND);
  h.finishTerminating();
  h.sync(); // creates web-2 on the new revision
  assert.equal(h.revisionOf('web-2'), h.set.status?.updateRevision);
  return h;
}

describe('SlowerThanForecast', () => {
  it('wakes when the new pod leaves its band (p95 + (p95 − p50) + 1 s), then reports it once: condition, Warning event, blocker, metric', () => {
    const h = rolling();
    const created = h.now;
    h.advance(11 * SECOND);
    const inBand = h.sync();
    assert.equal(progressing(h)?.reason, 'RollingUpdateInProgress');
    // 10 s measured on whole-second timestamps (samples 9.5, 10 and 10.5 s): a log-normal fit with p50 10 s and
    // p95 10.7 s; + the band's width 0.7 s, + 1 s for the pod's own whole-second creation time: 12.4 s
    near(inBand.wakeAt === undefined ? undefined : (inBand.wakeAt - created) / SECOND, 12.41, 'wakes when it leaves the band');
    h.now = inBand.wakeAt as number;
    const slow = h.sync();
    assert.deepEqual([progressing(h)?.status, progressing(h)?.reason], ['False', 'SlowerThanForecast']);
    assert.match(progressing(h)?.message ?? '', /slower than forecast: pod web-2 not Ready 11\.4 s after its creation; the set's last 10 pods were Ready in 10 s \(p50\), 10\.7 s \(p95\)$/);
    assert.deepEqual(slowEvents(slow).map((e) => e.type), ['Warning']);
    assert.equal(slow.metrics.slowerThanForecast, true);
    const late = slow.blockers.find((b) => b.kind === 'slowerThanForecast');
    assert.deepEqual(late && { ...late, seconds: Math.round(late.seconds * 100) / 100, p50: Math.round(late.p50 * 10) / 10, p95: Math.round(late.p95 * 10) / 10 }, { kind: 'slowerThanForecast', pod: 'web-2', step: 'start', seconds: 12.41, p50: 10, p95: 10.7, pods: 10 });
    h.advance(5 * SECOND);
    const again = h.sync();
    assert.deepEqual(slowEvents(again), [], 'the event marks the start only');
    assert.equal(again.metrics.slowerThanForecast, undefined);
    assert.equal(again.statusChanged, false, 'the message names the band, not the time taken: nothing to write again');
  });

  it('is an extension: an apps/v1 set emits what kube-controller-manager emits, so it is never judged', () => {
    const h = rolling({ apiVersion: 'apps/v1' });
    h.advance(30 * SECOND);
    const plan = h.sync();
    assert.deepEqual(slowEvents(plan), []);
    assert.notEqual(progressing(h)?.reason, 'SlowerThanForecast');
    assert.ok(!plan.blockers.some((b) => b.kind === 'slowerThanForecast'), JSON.stringify(plan.blockers));
  });

  it('stays until the rollout completes (a warning, not a failure: the rollout goes on)', () => {
    const h = rolling();
    h.advance(13 * SECOND);
    h.sync();
    assert.equal(progressing(h)?.reason, 'SlowerThanForecast');
    h.ready('web-2');
    const plan = h.sync();
    assert.equal(progressing(h)?.reason, 'SlowerThanForecast', 'the rollout was slow: it says so until it ends');
    assert.ok(plan.actions.some((a) => a.kind === 'deletePod' && a.name === 'web-1'), 'the rollout goes on');
    h.converge();
    assert.deepEqual([progressing(h)?.status, progressing(h)?.reason], ['False', 'RolloutCompleted']);
  });

  it('a new template starts a new rollout in its band', () => {
    const h = rolling();
    h.advance(13 * SECOND);
    h.sync();
    assert.equal(progressing(h)?.reason, 'SlowerThanForecast');
    h.setImage('app:v3');
    h.sync();
    assert.equal(progressing(h)?.reason, 'RollingUpdateInProgress');
  });

  it('judges a terminating pod by the p95 termination, the band\'s width a ratio', () => {
    const h = new Harness(newSet(3, { claims: false }));
    h.converge();
    h.durations = LEARNED;
    h.setImage('app:v2');
    h.sync(); // deletes web-2
    const deleted = h.now;
    const terminating = h.sync();
    // samples 1.5, 2 and 2.5 s: p50 1.96 s, p95 2.78 s; out of the band at p95 × p95 / p50 (3.94 s) + 1 s
    near(terminating.wakeAt === undefined ? undefined : (terminating.wakeAt - deleted) / SECOND, 4.94, 'wakes when it leaves the band');
    h.now = terminating.wakeAt as number;
    h.sync();
    assert.match(progressing(h)?.message ?? '', /pod web-2 not gone 3\.9 s after its deletion; the set's last 10 pods were gone in 2 s \(p50\), 2\.8 s \(p95\)/);
  });

  it('a band per step kind: a start band does not judge a termination, and a start is not judged by the terminations', () => {
    const h = new Harness(newSet(3, { claims: false }));
    h.converge();
    h.durations = { start: pods(10), termination: pods(2, MIN_MEASURED_PODS - 1) };
    h.setImage('app:v2');
    h.sync(); // deletes web-2
    h.advance(30 * SECOND);
    h.sync();
    assert.equal(progressing(h)?.reason, 'RollingUpdateInProgress', 'a termination with too few measured is not judged');
  });

  it(`needs ${MIN_MEASURED_PODS} pods measured: with fewer, or nothing learned, only the deadline applies`, () => {
    for (const durations of [{ start: pods(10, MIN_MEASURED_PODS - 1), termination: pods(2, MIN_MEASURED_PODS - 1) }, undefined]) {
      const h = rolling({}, durations ?? { start: [], termination: [] });
      h.durations = durations;
      h.advance(300 * SECOND);
      const plan = h.sync();
      assert.equal(progressing(h)?.reason, 'RollingUpdateInProgress');
      assert.equal(plan.wakeAt, markOf(h) + 600 * SECOND, 'the deadline, 600 s after the last progress');
    }
  });

  it('onFailure: Rollback does not abort a rollout that is only slower than forecast', () => {
    const h = rolling({ onFailure: 'Rollback' });
    h.advance(30 * SECOND);
    h.sync();
    h.advance(SECOND);
    const plan = h.sync();
    assert.equal(progressing(h)?.reason, 'SlowerThanForecast');
    assert.equal(h.set.status?.abortedRevision, undefined);
    assert.deepEqual(plan.actions.filter((a) => a.kind === 'deletePod'), []);
  });

  it('the progress deadline still fails a slow rollout', () => {
    const h = rolling({ progressDeadlineSeconds: 60 });
    h.advance(20 * SECOND);
    h.sync();
    assert.equal(progressing(h)?.reason, 'SlowerThanForecast');
    h.now = markOf(h) + 60 * SECOND;
    h.sync();
    assert.equal(progressing(h)?.reason, 'ProgressDeadlineExceeded');
  });

  it('does not judge a scale-up (only rollouts)', () => {
    const h = new Harness(newSet(3, { claims: false }));
    h.converge();
    h.durations = LEARNED;
    h.update((s) => (s.spec.replicas = 4));
    h.sync();
    h.advance(60 * SECOND);
    h.sync();
    assert.equal(progressing(h)?.reason, 'RollingUpdateInProgress');
  });
});

describe('progressDeadlineSeconds: auto', () => {
  const auto = (opts: SetOptions = {}) => {
    const set = newSet(3, { claims: false, ...opts });
    set.spec.progressDeadlineSeconds = 'auto';
    return set;
  };

  it('is two steps at p95 (termination + start + minReadySeconds), at least the floor', () => {
    const spread = (...xs: number[]): number[] => [...xs, ...xs, ...xs, xs[1] as number];
    const slowPods = forecastBand({ start: spread(100, 110, 120), termination: spread(20, 25, 30) });
    // fitted p95s: start 123.5 s, termination 32.2 s
    assert.equal(progressDeadlineSecondsOf(auto(), slowPods), Math.ceil(2 * (32.18 + 123.51)));
    assert.equal(progressDeadlineSecondsOf(auto({ minReadySeconds: 30 }), slowPods), Math.ceil(2 * (32.18 + 123.51 + 30)));
    const quick = forecastBand({ start: spread(1, 2, 2), termination: pods(1) });
    assert.equal(progressDeadlineSecondsOf(auto(), quick), AUTO_DEADLINE_FLOOR_SECONDS);
  });

  it(`takes the grace period for a termination not yet measured, and 600 s while fewer than ${MIN_MEASURED_PODS} starts are`, () => {
    const set = auto();
    set.spec.template.spec.terminationGracePeriodSeconds = 120;
    assert.equal(progressDeadlineSecondsOf(set, forecastBand({ start: pods(100), termination: [] })), Math.ceil(2 * (120 + 100.68)));
    assert.equal(progressDeadlineSecondsOf(set, forecastBand({ start: pods(100, MIN_MEASURED_PODS - 1), termination: pods(5) })), 600);
    assert.equal(progressDeadlineSecondsOf(auto({ minReadySeconds: 700 }), forecastBand(undefined)), 1300);
  });

  it('fits the set: the same slow start fails a set of quick pods and not a set of slow ones', () => {
    for (const [start, failed] of [
      [pods(5), true],
      [pods(60), false],
    ] as const) {
      const h = rolling({}, { start: [...start], termination: pods(2) });
      h.update((s) => (s.spec.progressDeadlineSeconds = 'auto'));
      h.sync();
      h.advance(100 * SECOND);
      const plan = h.sync();
      assert.equal(progressing(h)?.reason === 'ProgressDeadlineExceeded', failed, `starts of ${start[0]} s`);
      const blocker = plan.blockers.find((b) => b.kind === 'progressDeadlineExceeded');
      if (failed) assert.equal(blocker?.kind === 'progressDeadlineExceeded' && blocker.seconds, AUTO_DEADLINE_FLOOR_SECONDS);
    }
  });
});
