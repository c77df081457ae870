import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appliedRevision, applyRevision, newRevision, revisionData, revisionRaw, RevisionMemo } from '../../src/api/revision/hash.js';
import { goJsonEncode } from '../../src/api/revision/go-json.js';
import { newSet } from './helpers.js';

describe('revision memoisation', () => {
  it('recomputes the revision data when the template object changes', () => {
    const set = newSet('nginx:1');
    const memo = new RevisionMemo();
    const first = revisionData(set, memo);
    assert.equal(revisionData(set, memo), first);
    const changed = { ...set, spec: { ...set.spec, template: structuredClone(set.spec.template) } };
    changed.spec.template.spec.containers[0]!.image = 'nginx:2';
    assert.notEqual(revisionData(changed, memo), first);
    assert.match(revisionData(changed, memo), /nginx:2/);
  });

  it('encodes a revision data object once and to the same bytes as the Go encoder', () => {
    const rev = newRevision(newSet('nginx:1'), 1, 0);
    assert.equal(revisionRaw(rev), goJsonEncode(rev.data));
    const copy = structuredClone(rev);
    assert.equal(revisionRaw(copy), revisionRaw(rev));
  });

  it('gives the planner a frozen ApplyRevision spec, shared per spec object and revision (status writes keep the spec object)', () => {
    const live = newSet('nginx:2');
    const rev = newRevision(newSet('nginx:1'), 1, 0);
    const memo = new RevisionMemo();
    const restored = appliedRevision(live, rev, memo);
    assert.deepEqual(restored, applyRevision(live, rev));
    const afterStatusWrite = { ...live, status: { ...live.status, replicas: 7 } };
    const again = appliedRevision(afterStatusWrite, rev, memo);
    assert.equal(again.spec, restored.spec, 'the same spec object: memos keyed by the template hit');
    assert.equal(again.status?.replicas, 7, "metadata and status are the set's own");
    assert.equal(Object.isFrozen(restored.spec.template.spec.containers[0]), true);
    assert.throws(() => {
      restored.spec.template.spec.containers[0]!.image = 'changed';
    }, TypeError);
    const other = newSet('nginx:3');
    assert.notEqual(appliedRevision(other, rev, memo), restored);
    assert.equal(appliedRevision(other, newRevision(other, 2, 0), memo).spec.template.spec.containers[0]!.image, 'nginx:3');
  });

  it("keeps nothing between owners: a memo is its owner's, and the planner's results are the same without one", () => {
    const set = newSet('nginx:1');
    const mine = new RevisionMemo();
    const rev = newRevision(set, 1, 0, mine);
    assert.equal(newRevision(set, 1, 0, mine).data, rev.data, 'the parsed data is shared within one memo');
    assert.notEqual(newRevision(set, 1, 0, new RevisionMemo()).data, rev.data, 'and not across memos');
    assert.deepEqual(newRevision(set, 1, 0), rev);
  });
});
