// JSON patch (RFC 6902) as the in-memory API server applies it: the RFC's operations in order, all or none.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyJsonPatch, JsonPatchError } from '../../src/cluster/memory/json-patch.js';

const doc = () => ({ a: { b: [1, 2, 3], 'x/y': 'slash', 't~': 'tilde' }, c: 'c' });

describe('applyJsonPatch', () => {
  it('adds, removes, replaces, moves and copies, on objects and by array index, without mutating the input', () => {
    const input = doc();
    const out = applyJsonPatch(input, [
      { op: 'add', path: '/a/b/1', value: 9 },
      { op: 'add', path: '/a/b/-', value: 4 },
      { op: 'remove', path: '/a/b/0' },
      { op: 'replace', path: '/c', value: 'C' },
      { op: 'move', from: '/a/x~1y', path: '/moved' },
      { op: 'copy', from: '/a/t~0', path: '/copied' },
      { op: 'test', path: '/a/b', value: [9, 2, 3, 4] },
    ]);
    assert.deepEqual(out, { a: { b: [9, 2, 3, 4], 't~': 'tilde' }, c: 'C', moved: 'slash', copied: 'tilde' });
    assert.deepEqual(input, doc());
  });

  it('rejects the whole patch when one operation cannot be applied', () => {
    const cases = [
      [{ op: 'test', path: '/c', value: 'not c' }],
      [{ op: 'replace', path: '/missing', value: 1 }],
      [{ op: 'remove', path: '/a/b/3' }],
      [{ op: 'add', path: '/a/b/01', value: 1 }],
      [{ op: 'add', path: '/no/such/parent', value: 1 }],
      [{ op: 'add', path: 'c', value: 1 }],
    ] as const;
    for (const ops of cases) assert.throws(() => applyJsonPatch(doc(), ops), JsonPatchError, JSON.stringify(ops));
  });
});
