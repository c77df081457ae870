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

const change = (source: ObservedSource, name: string) => ({ source, namespace: 'default', name });

describe('expectations: recheck only the waiting keys an event may have released (candidates)', () => {
  it('names no key that has never been checked or has nothing pending', () => {
    const src = new FakeSource();
    const e = new Expectations({ clock: createVirtualClock() });
    e.expectWrite('k', src, obj('web-0', '5'));
    assert.deepEqual([...e.candidates(change(src, 'web-0'))], []);
  });

  it('rules a key out while the watch has not reached its write, and names it once it has', () => {
    const src = new FakeSource();
    const e = new Expectations({ clock: createVirtualClock() });
    e.expectWrite('k', src, obj('web-0', '5'));
    src.rv = '3';
    assert.equal(e.satisfied('k'), false);
    assert.deepEqual([...e.candidates(change(src, 'web-9'))], []);
    src.rv = '4';
    assert.deepEqual([...e.candidates(change(src, 'web-9'))], []);
    src.rv = '5';
    assert.deepEqual([...e.candidates(change(src, 'web-9'))], ['k']);
    assert.equal(e.satisfied('k'), true);
    src.rv = '6';
    assert.deepEqual([...e.candidates(change(src, 'web-9'))], []);
  });

  it('names a key whose waited-for object changed, and no key waiting on another object or cache', () => {
    const src = new FakeSource();
    const other = new FakeSource();
    const e = new Expectations({ clock: createVirtualClock() });
    e.expectDeletion('k', src, { namespace: 'default', name: 'web-0', uid: 'u1' });
    e.expectDeletion('j', src, { namespace: 'default', name: 'web-1', uid: 'u1' });
    src.put('web-0', '7');
    src.put('web-1', '7');
    assert.equal(e.satisfied('k'), false);
    assert.equal(e.satisfied('j'), false);
    assert.deepEqual([...e.candidates(change(other, 'web-0'))], []);
    src.put('web-0', '8', { deletionTimestamp: '2026-01-01T00:00:00Z' });
    assert.deepEqual([...e.candidates(change(src, 'web-0'))], ['k']);
    assert.equal(e.satisfied('k'), true);
    assert.equal(e.satisfied('j'), false);
  });

  it('names a key once its blocking expectation expires', () => {
    const clock = createVirtualClock();
    const src = new FakeSource();
    const e = new Expectations({ clock, ttlMs: 1000 });
    e.expectWrite('k', src, obj('web-0', '5'));
    assert.equal(e.satisfied('k'), false);
    clock.advanceTo(999);
    assert.deepEqual([...e.candidates()], []);
    clock.advanceTo(1000);
    assert.deepEqual([...e.candidates()], ['k']);
    assert.equal(e.satisfied('k'), true);
  });

  it('names a key forgotten while it was blocked, once', () => {
    const src = new FakeSource();
    const e = new Expectations({ clock: createVirtualClock() });
    e.expectWrite('k', src, obj('web-0', '5'));
    assert.equal(e.satisfied('k'), false);
    e.forget('k');
    assert.deepEqual([...e.candidates()], ['k']);
    assert.deepEqual([...e.candidates()], []);
  });

  it('agrees with satisfied() on random histories: every key that satisfied() would release is named', () => {
    const src = new FakeSource();
    const clock = createVirtualClock();
    const e = new Expectations({ clock, ttlMs: 50 });
    const keys = ['a', 'b', 'c'];
    let rng = 7;
    const next = (n: number) => ((rng = (rng * 1103515245 + 12345) % 2147483648), rng % n);
    let rv = 10;
    for (let step = 0; step < 400; step++) {
      const key = keys[next(3)]!;
      const name = `web-${next(4)}`;
      const choice = next(4);
      if (choice === 0) e.expectWrite(key, src, obj(name, String(rv + next(5))));
      else if (choice === 1) e.expectDeletion(key, src, { namespace: 'default', name, uid: 'u1' });
      else if (choice === 2) src.put(name, String(++rv), next(3) === 0 ? { deletionTimestamp: 'x' } : {});
      else src.rv = String(rv);
      clock.advanceTo(clock.now() + next(3));
      const named = e.candidates(change(src, name));
      for (const k of keys) {
        const blocked = e.pending(k).length > 0;
        if (!blocked) continue;
        // a key not named must still fail its check
        if (!named.has(k)) assert.equal(e.satisfied(k), false, `step ${step}: ${k} released but not named`);
        else e.satisfied(k);
      }
    }
  });
});
