// Fault injection per actor: failed writes do not happen, chances come from the
// seeded random, and watch faults delay, drop, break and expire streams.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isConflict, isGone, isNotFound } from '../../src/api/errors.js';
import { createRandom } from '../../src/sim/scenario-random.js';
import { CR, newEnv, recorder, revision } from './helpers.js';

const code = (e: unknown) => (e as { code?: number }).code;

describe('memory cluster fault injection', () => {
  it('apiErrors fails the chosen verbs with 500 and the write does not happen', async () => {
    const { cluster } = newEnv();
    const faulty = cluster.client('controller', { apiErrors: { rate: 1, verbs: ['create'] } });
    await assert.rejects(faulty.create(CR, revision('a')), (e) => code(e) === 500);
    await assert.rejects(cluster.get(CR, 'default', 'a'), isNotFound);
    await cluster.create(CR, revision('a'));
    await faulty.patch(CR, 'default', 'a', { metadata: { labels: { ok: 'yes' } } });
  });

  it('applies faults only to the actor they were given to', async () => {
    const { cluster } = newEnv();
    const faulty = cluster.client('controller', { apiErrors: { rate: 1 } });
    const kubelet = cluster.client('kubelet');
    await assert.rejects(faulty.create(CR, revision('a')), (e) => code(e) === 500);
    const created = await kubelet.create(CR, revision('a'));
    assert.equal((await cluster.get(CR, 'default', 'a')).metadata.uid, created.metadata.uid);
    await assert.rejects(faulty.delete(CR, 'default', 'a'), (e) => code(e) === 500);
    await kubelet.delete(CR, 'default', 'a');
    await assert.rejects(cluster.get(CR, 'default', 'a'), isNotFound);
  });

  it('defaults apiErrors to every write verb and leaves reads alone', async () => {
    const { cluster } = newEnv();
    await cluster.create(CR, revision('a'));
    const faulty = cluster.client('controller', { apiErrors: { rate: 1 } });
    await faulty.get(CR, 'default', 'a');
    await faulty.list(CR, 'default');
    for (const attempt of [
      () => faulty.create(CR, revision('b')),
      () => faulty.patch(CR, 'default', 'a', {}),
      () => faulty.delete(CR, 'default', 'a'),
    ]) {
      await assert.rejects(attempt(), (e) => code(e) === 500);
    }
    await assert.rejects(cluster.get(CR, 'default', 'b'), isNotFound);
  });

  it('fails a fraction of requests that depends only on the seed', async () => {
    const outcomes = async (seed: number) => {
      const { cluster } = newEnv({ random: createRandom(seed) });
      const faulty = cluster.client('controller', { apiErrors: { rate: 0.5, verbs: ['create'] } });
      const out: boolean[] = [];
      for (let i = 0; i < 40; i++) out.push(await faulty.create(CR, revision(`o-${i}`)).then(() => true, () => false));
      return out;
    };
    const first = await outcomes(7);
    assert.deepEqual(await outcomes(7), first);
    const failures = first.filter((ok) => !ok).length;
    assert.ok(failures > 5 && failures < 35, `failures: ${failures}`);
  });

  it('conflicts answers updates with 409 while creates pass', async () => {
    const { cluster } = newEnv();
    const faulty = cluster.client('controller', { conflicts: { rate: 1 } });
    const a = await faulty.create(CR, revision('a'));
    await assert.rejects(faulty.update(CR, { ...a, metadata: { ...a.metadata, labels: { x: 'y' } } }), isConflict);
    assert.equal((await cluster.get(CR, 'default', 'a')).metadata.labels, undefined);
  });

  it('watch delaySeconds delivers events that much later', async () => {
    const { clock, cluster } = newEnv();
    const r = recorder();
    cluster.client('controller', { watch: { delaySeconds: 0.5 } }).watch(CR, 'default', '0', r.handlers);
    await cluster.create(CR, revision('a'));
    await clock.advance(499);
    assert.deepEqual(r.events, []);
    await clock.advance(1);
    assert.deepEqual(r.summary(), ['ADDED a']);
  });

  it('watch breakEverySeconds ends the stream cleanly after that long', async () => {
    const { clock, cluster } = newEnv();
    const r = recorder();
    cluster.client('controller', { watch: { breakEverySeconds: 120 } }).watch(CR, 'default', '0', r.handlers);
    await clock.advance(119_999);
    assert.equal(r.state.closed, false);
    await clock.advance(1);
    assert.equal(r.state.closed, true);
    assert.equal(r.state.error, undefined);
  });

  it('watch goneRate answers a resume from a resourceVersion with 410 but not a watch from "0"', async () => {
    const { clock, cluster } = newEnv();
    const view = cluster.client('controller', { watch: { goneRate: 1 } });
    const resumed = recorder();
    view.watch(CR, 'default', '1', resumed.handlers);
    const fresh = recorder();
    view.watch(CR, 'default', '0', fresh.handlers);
    await clock.flush();
    assert.ok(isGone(resumed.state.error));
    assert.equal(fresh.state.closed, false);
  });

  it('watch dropRate loses events while the stream stays open', async () => {
    const { clock, cluster } = newEnv();
    const r = recorder();
    cluster.client('controller', { watch: { dropRate: 1 } }).watch(CR, 'default', '0', r.handlers);
    await cluster.create(CR, revision('a'));
    await clock.flush();
    assert.deepEqual(r.events, []);
    assert.equal(r.state.closed, false);
  });

  it('apiErrors on watch closes the stream with the error', async () => {
    const { clock, cluster } = newEnv();
    const r = recorder();
    cluster.client('controller', { apiErrors: { rate: 1, verbs: ['watch'] } }).watch(CR, 'default', '0', r.handlers);
    await clock.flush();
    assert.equal(code(r.state.error), 500);
  });
});
