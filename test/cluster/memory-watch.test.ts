// Simulator-only watch behaviour: asynchronous delivery on the injected timers, synthetic ADDED for a
// watch from "now", bounded history with 410 Gone, forced closes and namespace filtering.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import { GoneError, isGone } from '../../src/api/errors.js';
import { CR, newEnv, recorder, revision } from './helpers.js';

describe('memory cluster watch', () => {
  it('delivers events on the timers, never during the write', async () => {
    const { clock, cluster } = newEnv();
    const r = recorder();
    cluster.watch(CR, 'default', '0', r.handlers);
    await cluster.create(CR, revision('a'));
    assert.deepEqual(r.events, []);
    await clock.flush();
    assert.deepEqual(r.summary(), ['ADDED a']);
  });

  it('starts a watch from "" or "0" with ADDED for every current object, sorted, then live changes', async () => {
    const { clock, cluster } = newEnv();
    await cluster.create(CR, revision('b'));
    await cluster.create(CR, revision('a'));
    const r = recorder();
    cluster.watch(CR, 'default', '', r.handlers);
    await cluster.delete(CR, 'default', 'b');
    await clock.flush();
    assert.deepEqual(r.summary(), ['ADDED a', 'ADDED b', 'DELETED b']);
  });

  it('replays the history after a resourceVersion, in resourceVersion order', async () => {
    const { clock, cluster } = newEnv();
    const a = await cluster.create(CR, revision('a'));
    await cluster.create(CR, revision('b'));
    await cluster.patch(CR, 'default', 'a', { metadata: { labels: { v: '2' } } });
    const r = recorder();
    cluster.watch(CR, 'default', a.metadata.resourceVersion ?? '', r.handlers);
    await clock.flush();
    assert.deepEqual(r.summary(), ['ADDED b', 'MODIFIED a']);
    assert.deepEqual(r.events.map((e) => e.object.metadata.resourceVersion), ['2', '3']);
  });

  it('shares one stored object with every watcher and write listener instead of copying it for each', async () => {
    const { clock, cluster } = newEnv();
    const one = recorder();
    const two = recorder();
    const written: unknown[] = [];
    cluster.onWrite((w) => written.push(w.object));
    cluster.watch(CR, 'default', '0', one.handlers);
    cluster.watch(CR, 'default', '0', two.handlers);
    const returned = await cluster.create(CR, revision('a'));
    await clock.flush();
    assert.equal(one.events[0]?.object, two.events[0]?.object);
    assert.equal(written[0], one.events[0]?.object);
    assert.notEqual(returned, one.events[0]?.object, 'the writer gets its own copy');
  });

  it('DELETED carries the last state with the deletion resourceVersion', async () => {
    const { clock, cluster } = newEnv();
    const a = await cluster.create(CR, revision('a', { labels: { k: 'v' } }));
    const r = recorder();
    cluster.watch(CR, 'default', a.metadata.resourceVersion ?? '', r.handlers);
    await cluster.delete(CR, 'default', 'a');
    await clock.flush();
    assert.equal(r.events[0]?.type, 'DELETED');
    assert.equal(r.events[0]?.object.metadata.labels?.['k'], 'v');
    assert.equal(r.events[0]?.object.metadata.resourceVersion, '2');
  });

  it('answers 410 Gone for a resourceVersion older than watchHistory events, and serves a newer one', async () => {
    const { clock, cluster } = newEnv({ watchHistory: 2 });
    for (const n of ['a', 'b', 'c', 'd']) await cluster.create(CR, revision(n));
    const old = recorder();
    cluster.watch(CR, 'default', '1', old.handlers);
    const recent = recorder();
    cluster.watch(CR, 'default', '2', recent.handlers);
    await clock.flush();
    assert.ok(isGone(old.state.error), String(old.state.error));
    assert.match(old.state.error?.message ?? '', /too old resource version: 1/);
    assert.deepEqual(recent.summary(), ['ADDED c', 'ADDED d']);
    assert.equal(recent.state.closed, false);
  });

  it('compact() makes every earlier resourceVersion Gone, even for a resource with no history yet', async () => {
    const { clock, cluster } = newEnv();
    await cluster.create(CR, revision('a'));
    await cluster.create(CR, revision('b'));
    cluster.compact();
    const resumed = recorder();
    cluster.watch(CR, 'default', '1', resumed.handlers);
    const otherResource = recorder();
    cluster.watch(Resources.leases, 'default', '1', otherResource.handlers);
    const fresh = recorder();
    cluster.watch(CR, 'default', '0', fresh.handlers);
    await clock.flush();
    assert.ok(isGone(resumed.state.error));
    assert.ok(isGone(otherResource.state.error));
    assert.deepEqual(fresh.summary(), ['ADDED a', 'ADDED b']);
    assert.equal(fresh.state.closed, false);
    const current = recorder();
    cluster.watch(CR, 'default', '2', current.handlers);
    await clock.flush();
    assert.equal(current.state.closed, false);
  });

  it('closeWatches ends only the given actor\'s streams, passing the error to onClose', async () => {
    const { clock, cluster } = newEnv();
    const mine = recorder();
    cluster.client('controller').watch(CR, undefined, '0', mine.handlers);
    const theirs = recorder();
    cluster.client('kubelet').watch(CR, undefined, '0', theirs.handlers);
    cluster.closeWatches({ identity: 'controller', error: new GoneError('forced') });
    await cluster.create(CR, revision('a'));
    await clock.flush();
    assert.ok(isGone(mine.state.error));
    assert.deepEqual(mine.events, []);
    assert.equal(theirs.state.closed, false);
    assert.deepEqual(theirs.summary(), ['ADDED a']);
  });

  it('stop() delivers nothing more and does not call onClose', async () => {
    const { clock, cluster } = newEnv();
    const r = recorder();
    const w = cluster.watch(CR, 'default', '0', r.handlers);
    await cluster.create(CR, revision('a'));
    w.stop();
    await cluster.create(CR, revision('b'));
    await clock.flush();
    assert.deepEqual(r.events, []);
    assert.equal(r.state.closed, false);
    assert.equal(clock.pending(), 0);
  });

  it('filters by namespace; undefined watches all namespaces', async () => {
    const { clock, cluster } = newEnv();
    const one = recorder();
    cluster.watch(CR, 'a', '0', one.handlers);
    const all = recorder();
    cluster.watch(CR, undefined, '0', all.handlers);
    await cluster.create(CR, revision('x', { namespace: 'a' }));
    await cluster.create(CR, revision('y', { namespace: 'b' }));
    await clock.flush();
    assert.deepEqual(one.summary(), ['ADDED x']);
    assert.deepEqual(all.summary(), ['ADDED x', 'ADDED y']);
  });

  it('closes a watch from a malformed resourceVersion with 400', async () => {
    const { clock, cluster } = newEnv();
    const r = recorder();
    cluster.watch(CR, 'default', 'abc', r.handlers);
    await clock.flush();
    assert.equal((r.state.error as { code?: number } | undefined)?.code, 400);
  });
});
