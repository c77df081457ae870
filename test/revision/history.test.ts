import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { defaultFeatures } from '../../src/api/features.js';
import { newRevision } from '../../src/api/revision/hash.js';
import type { ControllerRevision, Pod } from '../../src/api/types.js';
import { planHistoryTruncation } from '../../src/controller/plan/truncate-history.js';
import { planRevisions } from '../../src/controller/rollout/revisions.js';
import { applyRevisionActions, newSet, podWithRevision } from './helpers.js';

const features = defaultFeatures();
const at = (i: number): string => `2026-01-01T00:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}Z`;

/** Revisions 1..n of images v1..vn, oldest first. */
function history(n: number): ControllerRevision[] {
  return Array.from({ length: n }, (_, i) => {
    const rev = newRevision(newSet(`img:v${i + 1}`), i + 1, 0);
    rev.metadata.creationTimestamp = at(i);
    return rev;
  });
}

const deleted = (actions: ReturnType<typeof planHistoryTruncation>): string[] =>
  actions.map((a) => (a.kind === 'deleteRevision' ? a.name : `unexpected ${a.kind}`));
const nameOf = (r: ControllerRevision | undefined): string => r?.metadata.name ?? '';

/** The revisions the pods run (what the replica index's liveRevisions gives the planner). */
const revisionsOf = (pods: readonly Pod[]): Set<string> => new Set(pods.map((p) => p.metadata.labels?.['controller-revision-hash'] ?? ''));

describe('planHistoryTruncation', () => {
  const revs = history(6);
  const [r1, r2, r3, r4, r5, r6] = revs;

  it('deletes the oldest non-live revisions beyond the limit, oldest first, in batch 0', () => {
    const set = newSet('img:v6', { revisionHistoryLimit: 2 });
    const actions = planHistoryTruncation(set, [...revs].reverse(), new Set(), r5, r6);
    assert.deepEqual(deleted(actions), [nameOf(r1), nameOf(r2)]);
    assert.ok(actions.every((a) => a.batch === 0));
  });

  it('keeps current, update and every revision a pod runs as live', () => {
    const set = newSet('img:v6', { revisionHistoryLimit: 0 });
    const pods: Pod[] = [podWithRevision('web-0', nameOf(r2)), podWithRevision('web-1', nameOf(r3))];
    assert.deepEqual(deleted(planHistoryTruncation(set, revs, revisionsOf(pods), r5, r6)), [nameOf(r1), nameOf(r4)]);
  });

  it('deletes nothing while the non-live revisions are within the limit', () => {
    assert.deepEqual(planHistoryTruncation(newSet('img:v6', { revisionHistoryLimit: 4 }), revs, new Set(), r5, r6), []);
  });

  it('keeps everything with a negative limit', () => {
    assert.deepEqual(planHistoryTruncation(newSet('img:v6', { revisionHistoryLimit: -2 }), revs, new Set(), r6, r6), []);
  });

  it('uses the default limit of 10 when the set has none', () => {
    const set = newSet('img:v12');
    delete set.spec.revisionHistoryLimit;
    const twelve = history(12);
    assert.deepEqual(deleted(planHistoryTruncation(set, twelve, new Set(), twelve[11], twelve[11])), [nameOf(twelve[0])]);
  });

  it('never deletes a revision controlled by another owner', () => {
    const foreign = structuredClone(r1!);
    foreign.metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: 'db-uid', controller: true }];
    const set = newSet('img:v6', { revisionHistoryLimit: 0 });
    assert.deepEqual(deleted(planHistoryTruncation(set, [foreign, r2!, r6!], new Set(), r6, r6)), [nameOf(r2)]);
  });

  it('works without a current or update revision', () => {
    const set = newSet('img:v6', { revisionHistoryLimit: 1 });
    assert.equal(planHistoryTruncation(set, revs, new Set(), undefined, undefined).length, 5);
  });
});

/**
 * Upstream TestStatefulSetControlLimitsHistory: ten successive image updates, each rolled out completely;
 * after every sync the history holds at most limit + 2 revisions (current and update are live).
 */
function runImageUpdates(limit: number | undefined, updates: number): number[] {
  const store = new Map<string, ControllerRevision>();
  const sizes: number[] = [];
  let current: string | undefined;
  let pods: Pod[] = [];
  for (let i = 0; i <= updates; i++) {
    const set = newSet(`img:v${i}`, { currentRevision: current });
    if (limit === undefined) delete set.spec.revisionHistoryLimit;
    else set.spec.revisionHistoryLimit = limit;
    const listed = [...store.values()];
    const plan = planRevisions(set, listed, features);
    applyRevisionActions(store, plan.actions, at(i));
    applyRevisionActions(store, planHistoryTruncation(set, listed, revisionsOf(pods), plan.currentRevision, plan.updateRevision), at(i));
    sizes.push(store.size);
    // the rollout completes: every pod runs the update revision, which becomes current
    current = plan.updateRevision.metadata.name;
    pods = [0, 1, 2].map((o) => podWithRevision(`web-${o}`, current ?? ''));
  }
  return sizes;
}

describe('LimitsHistory: successive image updates keep at most limit + 2 revisions', () => {
  for (const limit of [undefined, 0, 5]) {
    it(`limit ${limit ?? 'default (10)'}`, () => {
      const sizes = runImageUpdates(limit, 15);
      const bound = (limit ?? 10) + 2;
      assert.ok(sizes.every((n) => n <= bound), `sizes ${sizes.join(',')} exceed ${bound}`);
      assert.equal(Math.max(...sizes), Math.min(bound, 16), 'the history grows up to the bound');
    });
  }

  it('limit -2 keeps every revision', () => {
    assert.deepEqual(runImageUpdates(-2, 10), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });
});
