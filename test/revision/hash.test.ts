import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  applyRevision,
  equalRevision,
  hashControllerRevision,
  newRevision,
  revisionData,
  revisionName,
  revisionRaw,
  safeEncodeString,
} from '../../src/api/revision/hash.js';
import type { ControllerRevision, StatefulSet } from '../../src/api/types.js';
import { newSet, readFixture } from './helpers.js';

function withHashLabel(rev: ControllerRevision, label: string): ControllerRevision {
  const copy = structuredClone(rev);
  copy.metadata.labels = { ...copy.metadata.labels, 'controller.kubernetes.io/hash': label };
  return copy;
}

describe('safeEncodeString and hashControllerRevision', () => {
  it('maps the decimal digits 0–9 to 4 5 6 7 8 9 b c d f', () => {
    assert.equal(safeEncodeString('0123456789'), '456789bcdf');
  });

  it('changes the hash when a collisionCount is added, and with each collisionCount', () => {
    const raw = revisionData(newSet('nginx:1'));
    const hashes = new Set([undefined, 0, 1, 2].map((cc) => hashControllerRevision(raw, cc)));
    assert.equal(hashes.size, 4);
  });
});

describe('revisionName', () => {
  it('keeps names up to 223 characters and cuts longer ones to 223 before the hash', () => {
    assert.equal(revisionName('web', 'abc'), 'web-abc');
    assert.equal(revisionName('x'.repeat(223), 'h'), `${'x'.repeat(223)}-h`);
    assert.equal(revisionName('x'.repeat(300), 'h'), `${'x'.repeat(223)}-h`);
  });
});

describe('newRevision', () => {
  it('builds an apps/v1 ControllerRevision with hash label, copied annotations and a controller reference', () => {
    const set = newSet('nginx:1');
    set.metadata.annotations = { team: 'db' };
    const rev = newRevision(set, 4, 0);
    const hash = hashControllerRevision(revisionData(set), 0);
    assert.equal(rev.apiVersion, 'apps/v1');
    assert.equal(rev.kind, 'ControllerRevision');
    assert.equal(rev.metadata.name, `web-${hash}`);
    assert.equal(rev.metadata.namespace, 'default');
    assert.deepEqual(rev.metadata.labels, { app: 'web', 'controller.kubernetes.io/hash': hash });
    assert.deepEqual(rev.metadata.annotations, { team: 'db' });
    assert.notEqual(rev.metadata.annotations, set.metadata.annotations);
    assert.deepEqual(rev.metadata.ownerReferences, [
      { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 'set-uid', controller: true, blockOwnerDeletion: true },
    ]);
    assert.equal(rev.revision, 4);
  });

  it('stores the data as the parsed JSON object of revisionData, with $patch: replace on the template', () => {
    const set = newSet('nginx:1');
    const rev = newRevision(set, 1, 0);
    assert.deepEqual(rev.data, JSON.parse(revisionData(set)));
    assert.equal((rev.data as { spec: { template: Record<string, unknown> } }).spec.template.$patch, 'replace');
  });

  it('takes the owner apiVersion and kind from the set object (Ordinal\'s own API group)', () => {
    const set = { ...newSet('nginx:1'), apiVersion: 'apps.ordinal.dev/v1' };
    const ref = newRevision(set, 1, 0).metadata.ownerReferences?.[0];
    assert.equal(ref?.apiVersion, 'apps.ordinal.dev/v1');
    assert.equal(ref?.kind, 'StatefulSet');
  });

  it('hashes without a collisionCount when none is given', () => {
    const set = newSet('nginx:1');
    assert.equal(newRevision(set, 1).metadata.name, `web-${hashControllerRevision(revisionData(set))}`);
  });

  it('throws when the set has no template object', () => {
    const set = { ...newSet('nginx:1'), spec: {} } as unknown as StatefulSet;
    assert.throws(() => newRevision(set, 1, 0), TypeError);
  });
});

describe('equalRevision', () => {
  const a = newRevision(newSet('nginx:1'), 1, 0);
  const b = newRevision(newSet('nginx:2'), 2, 0);

  it('compares the data bytes: same data under another name and number is equal, other data is not', () => {
    const renamed = { ...structuredClone(a), revision: 9, metadata: { ...a.metadata, name: 'other' } };
    assert.equal(equalRevision(a, renamed), true);
    assert.equal(equalRevision(a, b), false);
  });

  it('treats a string data as the stored JSON text', () => {
    assert.equal(equalRevision(a, { ...a, data: revisionRaw(a) }), true);
    assert.equal(equalRevision(a, { ...a, data: JSON.stringify(a.data, null, 1) }), false);
  });

  it('calls revisions unequal when both hash labels parse as different integers, even with the same data', () => {
    assert.equal(equalRevision(withHashLabel(a, '12345'), withHashLabel(a, '54321')), false);
    assert.equal(equalRevision(withHashLabel(a, '12345'), withHashLabel(a, '+12345')), true);
  });

  it('ignores hash labels that do not parse as int32 and compares data instead', () => {
    assert.equal(equalRevision(withHashLabel(a, '12345'), withHashLabel(a, '7c4b8f9d5')), true);
    assert.equal(equalRevision(withHashLabel(a, '12345'), withHashLabel(a, '4294967295')), true);
  });

  it('parses signed labels as strconv.ParseInt does', () => {
    assert.equal(equalRevision(withHashLabel(a, '-1'), withHashLabel(a, '2147483647')), false);
    assert.equal(equalRevision(withHashLabel(a, '-7'), withHashLabel(a, '-7')), true);
  });
});

describe('applyRevision', () => {
  it('replaces spec.template wholesale and keeps the rest of the set', () => {
    const old = newSet('nginx:1');
    old.spec.template.spec.nodeName = 'n1';
    const rev = newRevision(old, 1, 0);
    const live = newSet('nginx:2');
    live.spec.replicas = 7;
    live.spec.template.metadata = { labels: { app: 'web', extra: 'yes' } };
    const restored = applyRevision(live, rev);
    assert.deepEqual(restored.spec.template, old.spec.template);
    assert.equal(restored.spec.replicas, 7);
    assert.deepEqual(restored.metadata, live.metadata);
    assert.equal(revisionData(restored), revisionData(old));
  });

  it('drops the $patch directive and does not mutate the set or the revision', () => {
    const live = newSet('nginx:2');
    const rev = newRevision(newSet('nginx:1'), 1, 0);
    const [liveBefore, revBefore] = [structuredClone(live), structuredClone(rev)];
    const restored = applyRevision(live, rev);
    assert.equal('$patch' in restored.spec.template, false);
    assert.deepEqual(live, liveBefore);
    assert.deepEqual(rev, revBefore);
    restored.spec.template.spec.containers[0]!.image = 'changed';
    assert.deepEqual(rev, revBefore);
  });

  it('drops "creationTimestamp": null from a revision written before 1.34, as the typed decode does', () => {
    const set = readFixture<StatefulSet>('compatibility_set_1.34.0.json');
    const rev133 = readFixture<ControllerRevision>('compatibility_revision_1.33.0.json');
    const restored = applyRevision(set, rev133);
    assert.deepEqual(restored.spec.template.metadata, { annotations: { test: 'value' }, labels: { app: 'foo' } });
  });

  it('accepts revision data stored as JSON text', () => {
    const rev = newRevision(newSet('nginx:1'), 1, 0);
    const restored = applyRevision(newSet('nginx:2'), { ...rev, data: revisionRaw(rev) });
    assert.equal(restored.spec.template.spec.containers[0]?.image, 'nginx:1');
  });
});
