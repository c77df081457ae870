// Simulator-only deletion behaviour: graceful pod deletion details, finalizers, and the garbage
// collector's timing and policies.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import { isInvalid, isNotFound } from '../../src/api/errors.js';
import type { Pod } from '../../src/api/types.js';
import type { WriteRecord } from '../../src/cluster/memory/index.js';
import { CR, newEnv, pod, revision } from './helpers.js';

const exists = async (get: () => Promise<unknown>) =>
  get().then(
    () => true,
    (e: unknown) => (isNotFound(e) ? false : Promise.reject(e)),
  );

describe('memory cluster deletion', () => {
  it('sets deletionTimestamp to now plus the grace period, in whole seconds', async () => {
    const { clock, cluster } = newEnv();
    await clock.advance(2_700);
    await cluster.create(Resources.pods, pod('p', { nodeName: 'n1' }));
    await cluster.delete(Resources.pods, 'default', 'p');
    const p = await cluster.get<Pod>(Resources.pods, 'default', 'p');
    assert.equal(p.metadata.deletionGracePeriodSeconds, 30);
    assert.equal(p.metadata.deletionTimestamp, '2026-01-01T00:00:32Z');
  });

  it('a second delete may only shorten the grace period, moving deletionTimestamp back', async () => {
    const { cluster } = newEnv();
    await cluster.create(Resources.pods, pod('p', { nodeName: 'n1', grace: 60 }));
    await cluster.delete(Resources.pods, 'default', 'p');
    await cluster.delete(Resources.pods, 'default', 'p', { gracePeriodSeconds: 90 });
    let p = await cluster.get<Pod>(Resources.pods, 'default', 'p');
    assert.equal(p.metadata.deletionGracePeriodSeconds, 60);
    await cluster.delete(Resources.pods, 'default', 'p', { gracePeriodSeconds: 10 });
    p = await cluster.get<Pod>(Resources.pods, 'default', 'p');
    assert.equal(p.metadata.deletionGracePeriodSeconds, 10);
    assert.equal(p.metadata.deletionTimestamp, '2026-01-01T00:00:10Z');
  });

  it('removes a Failed pod at once even when it is bound', async () => {
    const { cluster } = newEnv();
    const p = await cluster.create<Pod>(Resources.pods, pod('p', { nodeName: 'n1' }));
    await cluster.updateStatus(Resources.pods, { ...p, status: { phase: 'Failed' } });
    await cluster.delete(Resources.pods, 'default', 'p');
    assert.equal(await exists(() => cluster.get(Resources.pods, 'default', 'p')), false);
  });

  it('keeps a pod with finalizers after gracePeriodSeconds 0 until the finalizers go', async () => {
    const { cluster } = newEnv();
    await cluster.create(Resources.pods, { ...pod('p', { nodeName: 'n1' }), metadata: { name: 'p', namespace: 'default', finalizers: ['x/y'] } });
    await cluster.delete(Resources.pods, 'default', 'p');
    const p = await cluster.get<Pod>(Resources.pods, 'default', 'p');
    await cluster.delete(Resources.pods, 'default', 'p', { gracePeriodSeconds: 0, uid: p.metadata.uid });
    const held = await cluster.get<Pod>(Resources.pods, 'default', 'p');
    assert.equal(held.metadata.deletionGracePeriodSeconds, 0);
    await cluster.patch(Resources.pods, 'default', 'p', { metadata: { finalizers: null } });
    assert.equal(await exists(() => cluster.get(Resources.pods, 'default', 'p')), false);
  });

  it('a terminating pod whose grace period is pending stays when its finalizers are removed', async () => {
    const { cluster } = newEnv();
    await cluster.create(Resources.pods, { ...pod('p', { nodeName: 'n1' }), metadata: { name: 'p', namespace: 'default', finalizers: ['x/y'] } });
    await cluster.delete(Resources.pods, 'default', 'p');
    await cluster.patch(Resources.pods, 'default', 'p', { metadata: { finalizers: null } });
    assert.equal(await exists(() => cluster.get(Resources.pods, 'default', 'p')), true);
  });

  it('forbids adding a finalizer to an object that is being deleted', async () => {
    const { cluster } = newEnv();
    await cluster.create(CR, revision('a', { finalizers: ['x/one'] }));
    await cluster.delete(CR, 'default', 'a');
    await assert.rejects(cluster.patch(CR, 'default', 'a', { metadata: { finalizers: ['x/one', 'x/two'] } }), isInvalid);
  });

  it('collects dependents after the GC delay on the timers, not during the delete', async () => {
    const { clock, cluster } = newEnv({ gcDelayMs: 500 });
    const owner = await cluster.create(CR, revision('owner'));
    const ref = { apiVersion: 'apps/v1', kind: 'ControllerRevision', name: 'owner', uid: owner.metadata.uid! };
    await cluster.create(Resources.pods, { ...pod('dep'), metadata: { name: 'dep', namespace: 'default', ownerReferences: [ref] } });
    const records: WriteRecord[] = [];
    cluster.onWrite((r) => records.push(r));
    await cluster.delete(CR, 'default', 'owner');
    await clock.advance(499);
    assert.equal(await exists(() => cluster.get(Resources.pods, 'default', 'dep')), true);
    await clock.advance(1);
    assert.equal(await exists(() => cluster.get(Resources.pods, 'default', 'dep')), false);
    assert.deepEqual(records.map((r) => `${r.actor} ${r.verb} ${r.name}`), ['admin delete owner', 'garbage-collector delete dep']);
  });

  it('cascades through levels of ownership, one GC pass per level', async () => {
    const { clock, cluster } = newEnv({ gcDelayMs: 100 });
    const a = await cluster.create(CR, revision('a'));
    const b = await cluster.create(CR, revision('b', { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ControllerRevision', name: 'a', uid: a.metadata.uid! }] }));
    await cluster.create(CR, revision('c', { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ControllerRevision', name: 'b', uid: b.metadata.uid! }] }));
    await cluster.delete(CR, 'default', 'a');
    await clock.advance(100);
    assert.deepEqual((await cluster.list(CR, 'default')).items.map((o) => o.metadata.name), ['c']);
    await clock.advance(100);
    assert.deepEqual((await cluster.list(CR, 'default')).items, []);
  });

  it('removes only the dangling reference when another owner remains', async () => {
    const { clock, cluster } = newEnv();
    const a = await cluster.create(CR, revision('a'));
    const b = await cluster.create(CR, revision('b'));
    const refs = [a, b].map((o) => ({ apiVersion: 'apps/v1', kind: 'ControllerRevision', name: o.metadata.name!, uid: o.metadata.uid! }));
    await cluster.create(CR, revision('dep', { ownerReferences: refs }));
    await cluster.delete(CR, 'default', 'a');
    await clock.advance(1_000);
    const dep = await cluster.get(CR, 'default', 'dep');
    assert.deepEqual(dep.metadata.ownerReferences?.map((r) => r.name), ['b']);
  });

  it('propagationPolicy Orphan removes the owner reference instead of deleting the dependent', async () => {
    const { clock, cluster } = newEnv();
    const a = await cluster.create(CR, revision('a'));
    await cluster.create(CR, revision('dep', { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ControllerRevision', name: 'a', uid: a.metadata.uid! }] }));
    await cluster.delete(CR, 'default', 'a', { propagationPolicy: 'Orphan' });
    await clock.advance(1_000);
    const dep = await cluster.get(CR, 'default', 'dep');
    assert.equal(dep.metadata.ownerReferences, undefined);
  });

  it('collects an object created with an owner that never existed', async () => {
    const { clock, cluster } = newEnv();
    await cluster.create(CR, revision('dep', { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'x', uid: 'nope' }] }));
    await clock.advance(1_000);
    assert.deepEqual((await cluster.list(CR, 'default')).items, []);
  });
});
