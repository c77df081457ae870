import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/api/types.js';
import { compareResourceVersions, Expectations } from '../../src/runtime/expectations.js';
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
  put(name: string, rv: string, uid = 'u1', extra: Partial<KubeObject['metadata']> = {}) {
    this.objects.set(`default/${name}`, { metadata: { namespace: 'default', name, resourceVersion: rv, uid, ...extra } });
  }
}

const obj = (name: string, rv: string, uid = 'u1'): KubeObject => ({ metadata: { namespace: 'default', name, resourceVersion: rv, uid } });

describe('expectations: read your own writes', () => {
  it('is satisfied when nothing was written', () => {
    const e = new Expectations({ clock: createVirtualClock() });
    assert.equal(e.satisfied('default/web'), true);
  });

  it('waits until the informer watch has passed the written resourceVersion', () => {
    const src = new FakeSource();
    const e = new Expectations({ clock: createVirtualClock() });
    e.expectWrite('default/web', src, obj('web-0', '42'));
    src.rv = '41';
    assert.equal(e.satisfied('default/web'), false);
    src.rv = '42';
    assert.equal(e.satisfied('default/web'), true);
    assert.deepEqual(e.keys(), []);
  });

  it('accepts a cached object at or after the written resourceVersion', () => {
    const src = new FakeSource();
    const e = new Expectations({ clock: createVirtualClock() });
    e.expectWrite('k', src, obj('web-0', '10'));
    src.put('web-0', '9');
    assert.equal(e.satisfied('k'), false);
    src.put('web-0', '12');
    assert.equal(e.satisfied('k'), true);
  });

  it('falls back to exact resourceVersion equality when versions are opaque', () => {
    const src = new FakeSource();
    src.rv = 'opaque-a';
    const e = new Expectations({ clock: createVirtualClock() });
    e.expectWrite('k', src, obj('web-0', 'opaque-b'));
    src.put('web-0', 'opaque-a');
    assert.equal(e.satisfied('k'), false);
    src.put('web-0', 'opaque-b');
    assert.equal(e.satisfied('k'), true);
  });

  it('counts a deletion as observed once the object is gone, replaced or terminating', () => {
    const src = new FakeSource();
    const e = new Expectations({ clock: createVirtualClock() });
    src.put('a', '1', 'ua');
    src.put('b', '1', 'ub');
    src.put('c', '1', 'uc');
    for (const [name, uid] of [['a', 'ua'], ['b', 'ub'], ['c', 'uc']] as const) e.expectDeletion('k', src, { namespace: 'default', name, uid });
    assert.equal(e.satisfied('k'), false);
    src.objects.delete('default/a');
    src.put('b', '2', 'ub-new');
    src.put('c', '2', 'uc', { deletionTimestamp: '2026-01-01T00:00:00Z' });
    assert.equal(e.satisfied('k'), true);
  });

  it('gives up waiting after the TTL on the injected clock', () => {
    const clock = createVirtualClock();
    const src = new FakeSource();
    const e = new Expectations({ clock, ttlMs: 300_000 });
    e.expectWrite('k', src, obj('web-0', '99'));
    assert.equal(e.expiresAt('k'), 300_000);
    clock.advanceTo(299_999);
    assert.equal(e.satisfied('k'), false);
    clock.advanceTo(300_000);
    assert.equal(e.satisfied('k'), true);
  });

  it('keeps keys independent and forgets a deleted set', () => {
    const src = new FakeSource();
    const e = new Expectations({ clock: createVirtualClock() });
    e.expectWrite('a', src, obj('x', '5'));
    e.expectWrite('b', src, obj('y', '6'));
    src.rv = '5';
    assert.equal(e.satisfied('a'), true);
    assert.equal(e.satisfied('b'), false);
    e.forget('b');
    assert.equal(e.satisfied('b'), true);
  });
});

describe('compareResourceVersions', () => {
  it('orders decimal versions numerically and refuses opaque ones', () => {
    assert.equal(Math.sign(compareResourceVersions('9', '10')!), -1);
    assert.equal(compareResourceVersions('0010', '10'), 0);
    assert.equal(Math.sign(compareResourceVersions('123456789012345678901', '123456789012345678900')!), 1);
    assert.equal(compareResourceVersions('abc', '1'), undefined);
    assert.equal(compareResourceVersions('', '1'), undefined);
  });
});
