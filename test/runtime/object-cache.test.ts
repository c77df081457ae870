import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { KubeObject } from '../../src/api/types.js';
import { ObjectCache } from '../../src/runtime/object-cache.js';
import { checkProperty } from '../property-seed.js';

const byOwner = (o: KubeObject): readonly string[] => [o.metadata.ownerReferences?.[0]?.uid ?? `orphan/${o.metadata.namespace ?? ''}`];

const obj = (namespace: string, name: string, owner: string | undefined, rv: number): KubeObject => ({
  metadata: { namespace, name, resourceVersion: String(rv), ...(owner ? { ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: 'x', uid: owner, controller: true }] } : {}) },
});

describe('ObjectCache indexes (client-go Indexers)', () => {
  it('lists a bucket sorted by namespace/name, and follows objects that move between buckets', () => {
    const cache = new ObjectCache<KubeObject>();
    cache.upsert(obj('b', 'web-1', 'u1', 1));
    cache.addIndex('owner', byOwner); // indexes what is cached already
    cache.upsert(obj('a-b', 'web-0', 'u1', 2));
    cache.upsert(obj('a', 'web-2', 'u1', 3));
    cache.upsert(obj('a', 'web-10', undefined, 4));
    const names = (v: string) => cache.byIndex('owner', v).map((o) => `${o.metadata.namespace}/${o.metadata.name}`);
    assert.deepEqual(names('u1'), ['a/web-2', 'a-b/web-0', 'b/web-1']);
    assert.deepEqual(names('orphan/a'), ['a/web-10']);
    cache.upsert(obj('a', 'web-10', 'u1', 5)); // adopted
    assert.deepEqual(names('u1'), ['a/web-10', 'a/web-2', 'a-b/web-0', 'b/web-1']);
    assert.deepEqual(names('orphan/a'), []);
    const updated = obj('a', 'web-2', 'u1', 6);
    cache.upsert(updated); // same bucket: the newest object is returned
    assert.equal(cache.byIndex('owner', 'u1')[1], updated);
    cache.remove(obj('b', 'web-1', 'u1', 7));
    assert.deepEqual(names('u1'), ['a/web-10', 'a/web-2', 'a-b/web-0']);
    assert.deepEqual(cache.byIndex('nope', 'u1'), []);
  });

  it('agrees with filtering list() after any sequence of writes, relists included', () => {
    const write = fc.record({
      op: fc.constantFrom('upsert', 'upsert', 'remove', 'replace'),
      namespace: fc.constantFrom('a', 'a-b', 'b'),
      name: fc.constantFrom('p-0', 'p-1', 'p-10', 'p-2'),
      owner: fc.constantFrom(undefined, 'u1', 'u2'),
    });
    checkProperty(
      fc.property(fc.array(write, { maxLength: 40 }), (writes) => {
        const cache = new ObjectCache<KubeObject>();
        cache.addIndex('owner', byOwner);
        writes.forEach((w, rv) => {
          const o = obj(w.namespace, w.name, w.owner, rv);
          if (w.op === 'upsert') cache.upsert(o);
          else if (w.op === 'remove') cache.remove(o);
          else cache.replace(w.namespace, [o]);
        });
        for (const value of ['u1', 'u2', 'orphan/a', 'orphan/a-b', 'orphan/b']) {
          assert.deepEqual(cache.byIndex('owner', value), cache.list().filter((o) => byOwner(o).includes(value)));
        }
      }),
      { numRuns: 300 },
    );
  });
});
