// Rolling updates, OnDelete, rollback and revision history, through the
// planner (planRevisions / planHistoryTruncation are composed into the plan).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Action } from '../../src/controller/model/plan-types.js';
import { newSet, revisionOf, withImage } from './fixtures.js';
import { Harness } from './harness.js';

const images = (h: Harness): (string | undefined)[] =>
  [...h.pods.values()].sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '')).map((p) => p.spec.containers[0]?.image);

function converged(policy: 'OrderedReady' | 'Parallel', replicas: number, opts: Parameters<typeof newSet>[1] = {}): Harness {
  const h = new Harness(newSet(replicas, { policy, ...opts }), { autoReady: true });
  h.converge();
  return h;
}

describe('RollingUpdate to completion (§9.F 50)', () => {
  for (const policy of ['OrderedReady', 'Parallel'] as const) {
    for (const scale of [undefined, 5, 1]) {
      const from = scale === 1 ? 5 : 3;
      it(`${policy}: image update${scale ? ` while scaling ${from} → ${scale}` : ''} ends with every pod new and revisions promoted`, () => {
        const h = converged(policy, from);
        h.update((s) => {
          s.spec.template.spec.containers[0]!.image = 'app:v2';
          if (scale !== undefined) s.spec.replicas = scale;
        });
        h.converge();
        const replicas = scale ?? from;
        assert.equal(h.pods.size, replicas);
        assert.deepEqual(images(h), Array(replicas).fill('app:v2'));
        assert.equal(h.set.status?.currentRevision, h.set.status?.updateRevision);
        assert.equal(h.set.status?.currentReplicas, replicas);
      });
    }
  }

  it('OrderedReady replaces pods in reverse ordinal order', () => {
    const h = converged('OrderedReady', 4);
    h.setImage('app:v2');
    h.converge();
    const deleted = h.applied.flatMap((a) => (a.kind === 'deletePod' ? [a.ordinal] : []));
    assert.deepEqual(deleted, [3, 2, 1, 0]);
  });
});

describe('OnDelete (§9.F 51)', () => {
  it('changes no pod on a template change, recreates deleted pods at the update revision, and converges currentRevision', () => {
    const h = converged('OrderedReady', 3, { strategy: 'OnDelete' });
    h.setImage('app:v2');
    h.converge();
    assert.deepEqual(images(h), ['app:v1', 'app:v1', 'app:v1']);
    assert.ok(h.plans.at(-1)?.blockers.some((b) => b.kind === 'onDeleteStrategy' && b.outdatedPods === 3));
    h.pods.delete('web-1');
    h.update((s) => (s.spec.replicas = 4));
    h.converge();
    assert.deepEqual(images(h), ['app:v1', 'app:v2', 'app:v1', 'app:v2']);
    for (const name of ['web-0', 'web-2']) h.pods.delete(name);
    h.converge();
    assert.equal(h.set.status?.currentRevision, h.set.status?.updateRevision, '#136833: OnDelete converges currentRevision');
  });

  it('scales down by removing the highest ordinals', () => {
    const h = converged('OrderedReady', 4, { strategy: 'OnDelete' });
    h.update((s) => (s.spec.replicas = 2));
    h.converge();
    assert.deepEqual(h.ordinals(), [0, 1]);
  });
});

describe('rollback (§9.F 52, 55)', () => {
  it('rolls back to the original template by re-numbering the old revision, not creating one', () => {
    const h = converged('OrderedReady', 3);
    const v1 = h.set.status?.currentRevision;
    h.setImage('app:v2');
    h.converge();
    const v2 = h.set.status?.currentRevision;
    assert.notEqual(v1, v2);
    h.setImage('app:v1');
    const plan = h.sync();
    const revisionWrites = plan.actions.filter((a) => a.kind === 'createRevision' || a.kind === 'updateRevision');
    assert.deepEqual(revisionWrites.map((a) => a.kind), ['updateRevision']);
    const renumbered = revisionWrites[0] as Extract<Action, { kind: 'updateRevision' }>;
    assert.equal(renumbered.revision.metadata.name, v1);
    assert.equal(renumbered.revision.revision, 3);
    h.converge();
    assert.equal(h.set.status?.updateRevision, v1);
    assert.equal(h.set.status?.currentRevision, v1);
    assert.deepEqual(images(h), ['app:v1', 'app:v1', 'app:v1']);
    assert.equal(h.revisions.size, 2);
  });
});

describe('revisions (§9.F 53)', () => {
  it('creates one revision for a new set, a second for a template change, and none for a repeated sync', () => {
    const h = new Harness(newSet(1), { autoReady: true });
    h.sync();
    assert.equal(h.revisions.size, 1);
    assert.equal(h.set.status?.currentRevision, h.set.status?.updateRevision);
    h.converge();
    h.setImage('app:v2');
    h.sync();
    assert.equal(h.revisions.size, 2);
    assert.notEqual(h.set.status?.currentRevision, h.set.status?.updateRevision);
    h.sync();
    assert.equal(h.revisions.size, 2);
  });
});

describe('revision history limits (§9.F 54)', () => {
  for (const limit of [undefined, 0, -2, 5]) {
    it(`keeps at most limit + 2 revisions over 10 updates (revisionHistoryLimit ${limit ?? 'default 10'})`, () => {
      const h = converged('Parallel', 2);
      if (limit !== undefined) h.update((s) => (s.spec.revisionHistoryLimit = limit));
      for (let v = 2; v <= 11; v++) {
        h.setImage(`app:v${v}`);
        h.converge();
        if (limit !== undefined && limit >= 0) assert.ok(h.revisions.size <= limit + 2, `after v${v}: ${h.revisions.size}`);
      }
      if (limit === -2) assert.equal(h.revisions.size, 11, 'a negative limit keeps everything');
      if (limit === undefined) assert.ok(h.revisions.size <= 12);
    });
  }

  it('honours the limit even when every status write fails', () => {
    const h = converged('Parallel', 2);
    h.update((s) => (s.spec.revisionHistoryLimit = 2));
    for (let v = 2; v <= 8; v++) {
      h.setImage(`app:v${v}`);
      const stored = h.set.status;
      h.sync();
      h.set = { ...h.set, status: stored };
      h.finishTerminating();
      h.readyAll();
      assert.ok(h.revisions.size <= 2 + 2 + 1, `after v${v}: ${h.revisions.size}`);
    }
  });

  it('puts history truncation in the last batch', () => {
    const h = converged('Parallel', 2);
    const stale = revisionOf(withImage(h.set, 'app:v0'), 0);
    h.revisions.set(stale.metadata.name ?? '', stale);
    h.update((s) => (s.spec.revisionHistoryLimit = 0));
    h.setImage('app:v2');
    const plan = h.sync();
    const last = Math.max(...plan.actions.map((a) => a.batch));
    const deletes = plan.actions.filter((a) => a.kind === 'deleteRevision');
    assert.ok(deletes.length > 0);
    for (const d of deletes) assert.equal(d.batch, last);
    assert.ok(plan.actions.filter((a) => a.kind !== 'deleteRevision').every((a) => a.batch < last));
  });
});
