import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { defaultStatefulSet } from '../../src/api/defaults.js';
import { defaultFeatures, withFeatures } from '../../src/api/features.js';
import { hashControllerRevision, newRevision, revisionData, revisionName } from '../../src/api/revision/hash.js';
import type { ControllerRevision, StatefulSet } from '../../src/api/types.js';
import { planRevisions } from '../../src/controller/rollout/revisions.js';
import { applyRevisionActions, names, newSet, readFixture } from './helpers.js';

const features = defaultFeatures();
const semanticOff = withFeatures(features, { StatefulSetSemanticRevisionComparison: false });

function stored(set: StatefulSet, revision: number, second: number): ControllerRevision {
  const rev = newRevision(set, revision, set.status?.collisionCount ?? 0);
  rev.metadata.creationTimestamp = `2026-01-01T00:00:${String(second).padStart(2, '0')}Z`;
  rev.metadata.resourceVersion = String(100 + revision);
  return rev;
}

function ownedBy(rev: ControllerRevision, uid: string | undefined): ControllerRevision {
  const copy = structuredClone(rev);
  copy.metadata.ownerReferences = uid === undefined ? [] : [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'x', uid, controller: true }];
  return copy;
}

describe('planRevisions: getSetRevisions rows (§9.F 53)', () => {
  it('with no history creates revision 1, which is both current and update', () => {
    const set = newSet('nginx:1');
    const plan = planRevisions(set, [], features);
    assert.equal(plan.actions.length, 1);
    assert.equal(plan.actions[0]?.kind, 'createRevision');
    assert.equal(plan.actions[0]?.batch, 0);
    assert.equal(plan.updateRevision.revision, 1);
    assert.equal(plan.updateRevision.metadata.name, revisionName('web', hashControllerRevision(revisionData(set), 0)));
    assert.equal(plan.currentRevision, plan.updateRevision);
    assert.equal(plan.collisionCount, 0);
  });

  it('after a template change creates revision 2 as update and keeps revision 1 as current', () => {
    const rev1 = stored(newSet('nginx:1'), 1, 1);
    const set = newSet('nginx:2', { currentRevision: rev1.metadata.name });
    const plan = planRevisions(set, [rev1], features);
    assert.deepEqual(plan.actions.map((a) => a.kind), ['createRevision']);
    assert.equal(plan.updateRevision.revision, 2);
    assert.equal(plan.currentRevision, rev1);
  });

  it('for the same set again reuses the newest revision and writes nothing', () => {
    const store = new Map<string, ControllerRevision>();
    const rev1 = stored(newSet('nginx:1'), 1, 1);
    store.set(rev1.metadata.name ?? '', rev1);
    const set = newSet('nginx:2', { currentRevision: rev1.metadata.name });
    applyRevisionActions(store, planRevisions(set, [...store.values()], features).actions, '2026-01-01T00:00:02Z');
    const again = planRevisions(set, [...store.values()], features);
    assert.deepEqual(again.actions, []);
    assert.equal(store.size, 2);
    assert.equal(again.updateRevision.revision, 2);
    assert.equal(again.currentRevision.metadata.name, rev1.metadata.name);
  });
});

describe('planRevisions: rollback (§9.F 52)', () => {
  const r1 = stored(newSet('nginx:1'), 1, 1);
  const r2 = stored(newSet('nginx:2'), 2, 2);
  const r3 = stored(newSet('nginx:3'), 3, 3);

  it('re-numbers an older equal revision to the next number instead of creating one', () => {
    const set = newSet('nginx:2', { currentRevision: r3.metadata.name });
    const plan = planRevisions(set, [r3, r1, r2], features);
    assert.equal(plan.actions.length, 1);
    const action = plan.actions[0];
    assert.equal(action?.kind, 'updateRevision');
    assert.equal(action?.kind === 'updateRevision' && action.revision.revision, 4);
    assert.equal(plan.updateRevision.metadata.name, r2.metadata.name);
    assert.equal(plan.updateRevision.revision, 4);
    assert.equal(plan.updateRevision.metadata.resourceVersion, r2.metadata.resourceVersion);
    assert.equal(r2.revision, 2, 'the listed revision is not mutated');
    assert.equal(plan.currentRevision, r3);
  });

  it('keeps the history at three revisions after the rollback is applied', () => {
    const store = new Map([r1, r2, r3].map((r) => [r.metadata.name ?? '', r]));
    const set = newSet('nginx:2', { currentRevision: r3.metadata.name });
    applyRevisionActions(store, planRevisions(set, [...store.values()], features).actions, '2026-01-01T00:00:09Z');
    assert.equal(store.size, 3);
    assert.equal(store.get(r2.metadata.name ?? '')?.revision, 4);
    assert.deepEqual(planRevisions(set, [...store.values()], features).actions, []);
  });

  it('reuses the newest revision when an older one holds the same data too', () => {
    const dup = { ...structuredClone(r3), revision: 1, metadata: { ...r3.metadata, name: 'web-duplicate' } };
    const plan = planRevisions(newSet('nginx:3'), [dup, r2, r3], features);
    assert.deepEqual(plan.actions, []);
    assert.equal(plan.updateRevision, r3);
  });
});

describe('planRevisions: name collisions', () => {
  const set = newSet('nginx:1');
  const candidate = newRevision(set, 1, 0);
  const foreign = (data: unknown, name = candidate.metadata.name): ControllerRevision => ({
    ...ownedBy(newRevision(newSet('other'), 5, 0), 'other-uid'),
    metadata: { name, namespace: 'default', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'x', uid: 'other-uid', controller: true }] },
    data,
  });

  it('raises collisionCount and re-hashes when the name is taken by other data', () => {
    const plan = planRevisions(set, [foreign({ other: true })], features);
    const raw = revisionData(set);
    assert.equal(plan.collisionCount, 1);
    assert.equal(plan.updateRevision.metadata.name, revisionName('web', hashControllerRevision(raw, 1)));
    assert.equal(plan.updateRevision.metadata.labels?.['controller.kubernetes.io/hash'], hashControllerRevision(raw, 0));
    assert.deepEqual(plan.actions.map((a) => a.kind), ['createRevision']);
  });

  it('keeps raising collisionCount while the re-hashed names are taken too', () => {
    const second = revisionName('web', hashControllerRevision(revisionData(set), 1));
    const plan = planRevisions(set, [foreign({ a: 1 }), foreign({ b: 2 }, second)], features);
    assert.equal(plan.collisionCount, 2);
    assert.equal(plan.updateRevision.metadata.name, revisionName('web', hashControllerRevision(revisionData(set), 2)));
  });

  it('starts from the stored status.collisionCount', () => {
    const plan = planRevisions(newSet('nginx:1', { collisionCount: 3 }), [], features);
    assert.equal(plan.collisionCount, 3);
    assert.equal(plan.updateRevision.metadata.name, revisionName('web', hashControllerRevision(revisionData(set), 3)));
  });

  it('reuses a revision that already has the name and identical data, writing nothing', () => {
    const existing = foreign(candidate.data);
    const plan = planRevisions(set, [existing], features);
    assert.deepEqual(plan.actions, []);
    assert.equal(plan.updateRevision, existing);
    assert.equal(plan.collisionCount, 0);
  });
});

describe('planRevisions: which revisions count as the set\'s history', () => {
  it('does not reuse or roll back to an equal revision controlled by another owner', () => {
    const theirs = ownedBy({ ...stored(newSet('nginx:1', { name: 'db' }), 1, 1) }, 'other-uid');
    const plan = planRevisions(newSet('nginx:1'), [theirs], features);
    assert.deepEqual(plan.actions.map((a) => a.kind), ['createRevision']);
    assert.equal(plan.updateRevision.revision, 1);
  });

  it('reuses an orphan revision with equal data (orphans are adoption candidates)', () => {
    const orphan = ownedBy(stored(newSet('nginx:1'), 1, 1), undefined);
    const plan = planRevisions(newSet('nginx:1'), [orphan], features);
    assert.deepEqual(plan.actions, []);
    assert.equal(plan.updateRevision, orphan);
  });

  it('falls back to the update revision when status.currentRevision names no listed revision', () => {
    const rev1 = stored(newSet('nginx:1'), 1, 1);
    const plan = planRevisions(newSet('nginx:1', { currentRevision: 'web-gone' }), [rev1], features);
    assert.equal(plan.currentRevision, rev1);
    assert.equal(plan.updateRevision, rev1);
  });
});

describe('planRevisions: StatefulSetSemanticRevisionComparison (#134773, #135017)', () => {
  const set133 = readFixture<StatefulSet>('compatibility_set_1.33.0.json');
  const set134 = readFixture<StatefulSet>('compatibility_set_1.34.0.json');
  const rev133 = readFixture<ControllerRevision>('compatibility_revision_1.33.0.json');
  const rev134 = readFixture<ControllerRevision>('compatibility_revision_1.34.0.json');

  it('reuses a pre-1.34 revision ("creationTimestamp":null) for the same template served without it', () => {
    const plan = planRevisions(set134, [rev133], features);
    assert.deepEqual(plan.actions, []);
    assert.equal(plan.updateRevision, rev133);
    assert.equal(plan.currentRevision, rev133);
  });

  it('with the gate off creates a new revision for the same template (the spurious rollout of #134773)', () => {
    const plan = planRevisions(set134, [rev133], semanticOff);
    assert.deepEqual(plan.actions.map((a) => a.kind), ['createRevision']);
    assert.equal(plan.updateRevision.metadata.name, 'test-776999688b');
    assert.equal(plan.updateRevision.revision, 2);
  });

  it('matches upstream TestStatefulSetCompatibility: the latest revision is current and update', () => {
    for (const [set, revs] of [
      [set133, [rev133]],
      [set134, [rev134]],
      [set134, [rev133, rev134]],
    ] as const) {
      const plan = planRevisions(set, [...revs], features);
      const latest = revs[revs.length - 1];
      assert.deepEqual(plan.actions, []);
      assert.equal(plan.updateRevision, latest);
      assert.equal(plan.currentRevision, latest);
    }
  });

  it('still creates a revision for a real template change next to a pre-1.34 revision', () => {
    const changed = structuredClone(set134);
    changed.spec.template.spec.containers[0]!.image = 'test:2';
    changed.status = { replicas: 1, currentRevision: rev133.metadata.name };
    const plan = planRevisions(changed, [rev133], features);
    assert.deepEqual(plan.actions.map((a) => a.kind), ['createRevision']);
    assert.deepEqual(names([plan.currentRevision]), [rev133.metadata.name]);
  });

  it('reuses a revision written before a pod default existed, since the restored set is defaulted again', () => {
    const live = defaultStatefulSet(newSet('nginx:1'), features);
    const older = structuredClone(live);
    delete older.spec.template.spec.containers[0]!.terminationMessagePolicy;
    const oldRev = stored(older, 1, 1);
    assert.deepEqual(planRevisions(live, [oldRev], features).actions, []);
    assert.equal(planRevisions(live, [oldRev], features).updateRevision, oldRev);
    assert.deepEqual(planRevisions(live, [oldRev], semanticOff).actions.map((a) => a.kind), ['createRevision']);
  });
});
