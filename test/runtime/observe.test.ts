import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ControllerRevision, KubeObject, PersistentVolumeClaim, Pod, StatefulSet } from '../../src/api/types.js';
import type { Informer } from '../../src/runtime/informer.js';
import { ObjectCache } from '../../src/runtime/object-cache.js';
import { observe, SetDefaults } from '../../src/runtime/observe.js';
import { defaultStatefulSet } from '../../src/api/defaults.js';
import { defaultFeatures } from '../../src/api/features.js';

/** The part of an Informer that observe reads, over a plain cache. */
function cacheOf<T extends KubeObject>(objects: T[]): Informer<T> {
  const cache = new ObjectCache<T>();
  for (const o of objects) cache.upsert(o);
  return cache as unknown as Informer<T>;
}

const owned = (uid: string) => ({ ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid, controller: true }] });
const pod = (namespace: string, name: string, extra: object = {}): Pod => ({ metadata: { namespace, name, labels: { app: 'web' }, ...extra }, spec: { containers: [] } });
const revision = (name: string, labels: Record<string, string>, extra: object = {}): ControllerRevision =>
  ({ metadata: { namespace: 'ns', name, labels, ...extra }, revision: 1 }) as ControllerRevision;

describe('observe reads the set\'s objects from the controller index', () => {
  it('returns the pods it controls and the orphans of its namespace, by name; revisions: its own and matching orphans', () => {
    const set = {
      metadata: { namespace: 'ns', name: 'web', uid: 'u1' },
      spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
    } as unknown as StatefulSet;
    const pods = cacheOf([
      pod('ns', 'web-2', owned('u1')),
      pod('ns', 'web-10'),
      pod('ns', 'web-1', owned('u1')),
      pod('ns', 'web-0', owned('other')),
      pod('other-ns', 'web-3', owned('u1')),
      pod('other-ns', 'web-4'),
    ]);
    const revisions = cacheOf([revision('web-b', { app: 'web' }, owned('u1')), revision('web-a', { app: 'web' }), revision('web-c', { app: 'db' }), revision('web-d', { app: 'db' }, owned('u1'))]);
    const observed = observe(set, { pods, revisions, claims: cacheOf<PersistentVolumeClaim>([]) });
    assert.deepEqual(observed.pods.map((p) => p.metadata.name), ['web-1', 'web-10', 'web-2']);
    assert.deepEqual(observed.revisions.map((r) => r.metadata.name), ['web-a', 'web-b', 'web-d']);
  });

  it('reuses the defaulted spec across status writes (same UID and spec), and defaults a changed spec afresh', () => {
    const base = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { namespace: 'ns', name: 'web', uid: 'reuse-1', generation: 1, resourceVersion: '5' },
      spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
    } as unknown as StatefulSet;
    const caches = { pods: cacheOf<Pod>([]), revisions: cacheOf<ControllerRevision>([]), claims: cacheOf<PersistentVolumeClaim>([]) };
    const features = defaultFeatures();
    const memo = { defaults: new SetDefaults() };
    const first = observe(base, caches, features, memo).set;
    const statusWritten = structuredClone({ ...base, metadata: { ...base.metadata, resourceVersion: '6' }, status: { replicas: 3 } }) as StatefulSet;
    const second = observe(statusWritten, caches, features, memo).set;
    assert.equal(second.spec, first.spec, 'the same defaulted spec object');
    assert.deepEqual(second, defaultStatefulSet(statusWritten, features));
    assert.deepEqual(Object.keys(second), Object.keys(defaultStatefulSet(statusWritten, features)));
    const scaled = structuredClone({ ...statusWritten, spec: { ...statusWritten.spec, replicas: 4 } }) as StatefulSet;
    const third = observe(scaled, caches, features, memo).set;
    assert.notEqual(third.spec, first.spec);
    assert.equal(third.spec.replicas, 4);
    assert.deepEqual(third, defaultStatefulSet(scaled, features));
  });
});
