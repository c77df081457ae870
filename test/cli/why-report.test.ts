// `why` on planner output: the four example situations built as observed state, planned by the
// real planner, and explained. The sentences therefore say what the controller will do.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { explainWhy, renderWhy, type WhyInput } from '../../src/cli/explain/why-report.js';
import type { Pod, StatefulSet } from '../../src/api/types.js';
import { planStatefulSet } from '../../src/controller/plan/plan-statefulset.js';
import { features, newSet, observe, podFor, readyPods, revisionName, revisionOf, SECOND, T0, withImage, withStatus, type SetOptions } from '../controller/fixtures.js';

/** v1 stored as current; `rollTo` gives a v2 template (a rollout in progress). */
function input(opts: SetOptions & { replicas?: number; rollTo?: string }, pods: (v1: StatefulSet, v2: StatefulSet) => Pod[]): WhyInput {
  const v1 = newSet(opts.replicas ?? 5, opts);
  const v2 = opts.rollTo ? withImage(v1, opts.rollTo) : v1;
  const list = pods(v1, v2);
  const set = withStatus(v2, {
    observedGeneration: v2.metadata.generation ?? 1,
    replicas: list.length,
    currentRevision: revisionName(v1),
    updateRevision: revisionName(v2),
  });
  const revisions = v2 === v1 ? [revisionOf(v1)] : [revisionOf(v1, 1), revisionOf(v2, 2)];
  const plan = planStatefulSet(observe(set, list, { revisions }), T0, features);
  return { set, pods: list, plan, now: T0, features };
}

const noteOf = (report: ReturnType<typeof explainWhy>, pod: string): string => report.rows.find((r) => r.pod === pod)?.notes.join('; ') ?? '';

describe('why (explainWhy over the real planner)', () => {
  it('counts down minReadySeconds for a Ready pod that is not yet available', () => {
    const report = explainWhy(
      input({ minReadySeconds: 30, claims: false }, (v1) => [...readyPods(v1, 3), podFor(v1, 3, { readySince: T0 - 18 * SECOND })]),
    );
    assert.match(report.paragraph, /web-3 is Ready but not yet available: 12 s of minReadySeconds 30 left\./);
    assert.equal(noteOf(report, 'web-3'), 'available in 12 s');
    assert.match(report.paragraph, /looks again in 12 s/);
    assert.equal(report.rows.find((r) => r.pod === 'web-4')?.state, 'Missing');
  });

  it('names the unavailable pods that exhaust maxUnavailable, including one below the partition', () => {
    const report = explainWhy(
      input({ policy: 'Parallel', partition: 3, maxUnavailable: 2, claims: false, rollTo: 'app:v2' }, (v1, v2) => [
        podFor(v1, 0),
        podFor(v1, 1, { ready: false }),
        podFor(v1, 2),
        podFor(v1, 3),
        podFor(v2, 4, { phase: 'Pending', ready: false, from: v2 }),
      ]),
    );
    assert.match(report.paragraph, /Rolling update blocked: 2 of maxUnavailable 2 ordinals unavailable \(web-1 NotReady below the partition, web-4 Pending\)\./);
    assert.match(noteOf(report, 'web-1'), /uses the maxUnavailable budget/);
    assert.match(noteOf(report, 'web-1'), /held by the partition/);
    assert.equal(noteOf(report, 'web-3'), 'old revision: waits for the maxUnavailable budget');
  });

  it('says which pod an OrderedReady scale-up waits for', () => {
    const report = explainWhy(input({ claims: false }, (v1) => [...readyPods(v1, 2), podFor(v1, 2, { phase: 'Pending', ready: false })]));
    assert.match(report.paragraph, /OrderedReady scale-up waits for web-2 to be Running and Ready \(it is Pending\)\./);
    assert.equal(noteOf(report, 'web-2'), 'waiting for Running and Ready');
  });

  it('calls a stuck old pod under RollingUpdate stuck and names the ways out', () => {
    const report = explainWhy(
      input({ claims: false, rollTo: 'app:v2' }, (v1) => [...readyPods(v1, 4), podFor(v1, 4, { phase: 'Pending', ready: false, waiting: 'ImagePullBackOff' })]),
    );
    assert.match(
      report.paragraph,
      /Stuck: web-4 is in ImagePullBackOff on the old revision; RollingUpdate will not replace it — use EnforcedRollingUpdate or Recreate, or delete the pod\./,
    );
  });

  it('under EnforcedRollingUpdate, says the stuck pod is replaced next', () => {
    const report = explainWhy(
      input({ strategy: 'EnforcedRollingUpdate', claims: false, rollTo: 'app:v2' }, (v1) => [
        ...readyPods(v1, 4),
        podFor(v1, 4, { phase: 'Pending', ready: false, waiting: 'ImagePullBackOff' }),
      ]),
    );
    assert.match(report.paragraph, /Next the controller will delete Pod web-4 \(EnforcedRollingUpdate: stuck pod replaced\)/);
    assert.equal(noteOf(report, 'web-4'), 'next: delete (EnforcedRollingUpdate: stuck pod replaced)');
  });

  it('says the controller refuses an invalid spec, with the field path', () => {
    const report = explainWhy(input({ replicas: 3, claims: false }, (v1) => {
      v1.spec.minReadySeconds = -5;
      return readyPods(v1, 3);
    }));
    assert.match(report.paragraph, /^The controller does not act on this StatefulSet\. The spec is invalid, so the controller creates and deletes nothing until it is fixed: spec\.minReadySeconds: must be greater than or equal to 0\./);
  });

  it('says a converged set has nothing to do', () => {
    const report = explainWhy(input({ replicas: 3, claims: false }, (v1) => readyPods(v1, 3)));
    assert.match(report.paragraph, /^3 of 3 pods are on revision web-\w+ and available\. Nothing is blocked and the controller has nothing to do\.$/);
    assert.ok(report.rows.every((r) => r.notes.length === 0 && r.mark === 'new' && r.state === 'Ready'));
  });

  it('renders a title with the strategy, the paragraph and a table with one row per ordinal', () => {
    const text = renderWhy(explainWhy(input({ minReadySeconds: 30, maxUnavailable: 2, claims: false }, (v1) => readyPods(v1, 4))), { color: false });
    const lines = text.trimEnd().split('\n');
    assert.equal(lines[0], 'StatefulSet default/web (apps.ordinal.dev/v1): RollingUpdate, OrderedReady, maxUnavailable 2, partition 0, minReadySeconds 30');
    assert.match(lines[3] ?? '', /^ORDINAL\s+POD\s+REVISION\s+STATE\s+FOR\s+WAITING FOR \/ NEXT$/);
    assert.equal(lines.length, 4 + 5);
    assert.match(lines[8] ?? '', /^4\s+web-4\s+-\s+Missing\s+-\s+next: create$/);
    assert.ok(!text.includes(String.fromCharCode(27)), 'no ANSI escapes');
  });

  it('bounds the table for huge replica counts but keeps the rows with notes', () => {
    const report = explainWhy(input({ replicas: 2147483647, claims: false }, (v1) => readyPods(v1, 3)));
    assert.ok(report.rows.length <= 60);
    assert.ok(report.hiddenRows > 2_000_000_000);
    assert.equal(noteOf(report, 'web-3'), 'next: create');
  });
});
