// Ordinal against vectors printed by Go itself (test/revision/go-vectors, see its README) and against
// revisions written by a real kube-controller-manager (upstream's compatibility fixtures).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fnv1_32, utf8Bytes } from '../../src/api/revision/fnv.js';
import { goJsonEncode } from '../../src/api/revision/go-json.js';
import {
  hashControllerRevision,
  newRevision,
  revisionData,
  revisionName,
  revisionRaw,
  safeEncodeString,
} from '../../src/api/revision/hash.js';
import type { ControllerRevision, StatefulSet } from '../../src/api/types.js';
import { readFixture } from './helpers.js';

interface Pair {
  input: string;
  output: string;
}
interface SetVector {
  name: string;
  input: string;
  data: string;
  hashes: { collisionCount: number | null; hash: string; name: string }[];
}
interface Vectors {
  generatedWith: string;
  sets: SetVector[];
  values: Pair[];
  fnv: Pair[];
  safeEncode: Pair[];
}

const vectors = readFixture<Vectors>('go-vectors.json');

describe('goJsonEncode agrees byte for byte with Go encoding/json', () => {
  it('has vectors to check', () => {
    assert.ok(vectors.values.length >= 30 && vectors.sets.length >= 9, vectors.generatedWith);
  });
  for (const v of vectors.values) {
    it(`encodes ${v.input} as Go does`, () => {
      assert.equal(goJsonEncode(JSON.parse(v.input)), v.output);
    });
  }
});

describe('revision data, hash and name agree with Go for each template', () => {
  for (const v of vectors.sets) {
    const set = JSON.parse(v.input) as StatefulSet;
    it(`${v.name}: revisionData is getPatch's bytes`, () => {
      assert.equal(revisionData(set), v.data);
    });
    for (const h of v.hashes) {
      const cc = h.collisionCount ?? undefined;
      it(`${v.name}: collisionCount ${String(h.collisionCount)} hashes to ${h.hash}`, () => {
        assert.equal(hashControllerRevision(v.data, cc), h.hash);
        assert.equal(revisionName(set.metadata.name ?? '', h.hash), h.name);
        if (h.collisionCount !== null) assert.equal(newRevision(set, 1, h.collisionCount).metadata.name, h.name);
      });
    }
    it(`${v.name}: the stored data re-encodes to the same bytes`, () => {
      assert.equal(revisionRaw(newRevision(set, 1, 0)), v.data);
    });
  }
});

describe('FNV-1 and SafeEncodeString agree with Go', () => {
  for (const v of vectors.fnv) {
    it(`fnv32 of ${JSON.stringify(v.input)} is ${v.output}`, () => {
      assert.equal(String(fnv1_32(utf8Bytes(v.input))), v.output);
    });
  }
  for (const v of vectors.safeEncode) {
    it(`SafeEncodeString(${JSON.stringify(v.input)}) is ${JSON.stringify(v.output)}`, () => {
      assert.equal(safeEncodeString(v.input), v.output);
    });
  }
  it('hashes incrementally: fnv over two pieces equals fnv over the whole', () => {
    assert.equal(fnv1_32(utf8Bytes('bar'), fnv1_32(utf8Bytes('foo'))), fnv1_32(utf8Bytes('foobar')));
  });
});

describe('revisions written by kube-controller-manager', () => {
  it('are reproduced by the Go vector program, so its replication of upstream is faithful', () => {
    const at0 = (prefix: string): string | undefined =>
      vectors.sets.find((s) => s.name.startsWith(prefix))?.hashes.find((h) => h.collisionCount === 0)?.name;
    assert.equal(at0('upstream 1.33 set'), readFixture<ControllerRevision>('compatibility_revision_1.33.0.json').metadata.name);
    assert.equal(at0('upstream 1.34 set'), readFixture<ControllerRevision>('compatibility_revision_1.34.0.json').metadata.name);
  });

  for (const version of ['1.33.0', '1.34.0']) {
    it(`names the ${version} set's revision exactly as the ${version} controller did`, () => {
      const set = readFixture<StatefulSet>(`compatibility_set_${version}.json`);
      const stored = readFixture<ControllerRevision>(`compatibility_revision_${version}.json`);
      const rev = newRevision(set, stored.revision, set.status?.collisionCount ?? 0);
      assert.equal(rev.metadata.name, stored.metadata.name);
      assert.equal(rev.metadata.name, set.status?.updateRevision);
      assert.deepEqual(rev.metadata.labels, stored.metadata.labels);
      assert.deepEqual(rev.metadata.ownerReferences, stored.metadata.ownerReferences);
      assert.equal(revisionRaw(rev), revisionRaw(stored));
    });
  }
});
