import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/api/types.js';
import { Expectations } from '../../src/runtime/expectations.js';
import type { ObservedSource } from '../../src/runtime/informer.js';
import { createVirtualClock } from '../../src/sim/virtual-clock.js';

class FakeSource implements ObservedSource {
  objects = new Map<string, KubeObject>();
  rv = '0';
  get(ns: string | undefined, name: string) {
    return this.objects.get(`${ns}/${name}`);
  }
  lastSyncResourceVersion() {
    return this.rv;
  }
  put(name: string, rv: string, extra: Partial<KubeObject['metadata']> = {}) {
    this.objects.set(`default/${name}`, { metadata: { namespace: 'default', name, resourceVersion: rv, uid: 'u1', ...extra } });
  }
}

const obj = (name: string, rv: string): KubeObject => ({ metadata: { namespace: 'default', name, resourceVersion: rv, uid: 'u1' } });

describe('expectations: cheap recheck of waiting keys (maybeSatisfied)', () => {
  it('says a key with nothing pending, or never checked, may be satisfied', () => {
    const src = new FakeSource();
    const e = new Expectations({ clock: createVirtualClock() });
    assert.equal(e.maybeSatisfied('k'), true);
    e.expectWrite('k', src, obj('web-0', '5'));
    assert.equal(e.maybeSatisfied('k'), true);
  });

  it('rules a key out while the blocking cache has not moved, and lets it in once it has', () => {
    const src = new FakeSource();
    const e = new Expectations({ clock: createVirtualClock() });
    e.expectWrite('k', src, obj('web-0', '5'));
    src.rv = '3';
    assert.equal(e.satisfied('k'), false);
    assert.equal(e.maybeSatisfied('k'), false);
    src.rv = '4';
    assert.equal(e.maybeSatisfied('k'), true);
    assert.equal(e.satisfied('k'), false);
    assert.equal(e.maybeSatisfied('k'), false);
    src.rv = '5';
    assert.equal(e.maybeSatisfied('k'), true);
    assert.equal(e.satisfied('k'), true);
  });

  it('notices a changed cached object even when the watch position is unchanged', () => {
    const src = new FakeSource();
    const e = new Expectations({ clock: createVirtualClock() });
    e.expectDeletion('k', src, { namespace: 'default', name: 'web-0', uid: 'u1' });
    src.put('web-0', '7');
    assert.equal(e.satisfied('k'), false);
    assert.equal(e.maybeSatisfied('k'), false);
    src.put('web-0', '8', { deletionTimestamp: '2026-01-01T00:00:00Z' });
    assert.equal(e.maybeSatisfied('k'), true);
    assert.equal(e.satisfied('k'), true);
  });

  it('lets a key in once its blocking expectation expires', () => {
    const clock = createVirtualClock();
    const src = new FakeSource();
    const e = new Expectations({ clock, ttlMs: 1000 });
    e.expectWrite('k', src, obj('web-0', '5'));
    assert.equal(e.satisfied('k'), false);
    clock.advanceTo(999);
    assert.equal(e.maybeSatisfied('k'), false);
    clock.advanceTo(1000);
    assert.equal(e.maybeSatisfied('k'), true);
    assert.equal(e.satisfied('k'), true);
  });

  it('forgets the fingerprint with the key', () => {
    const src = new FakeSource();
    const e = new Expectations({ clock: createVirtualClock() });
    e.expectWrite('k', src, obj('web-0', '5'));
    assert.equal(e.satisfied('k'), false);
    e.forget('k');
    assert.equal(e.maybeSatisfied('k'), true);
  });
});
