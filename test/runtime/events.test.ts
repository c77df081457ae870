import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import type { KubeEvent, StatefulSet } from '../../src/api/types.js';
import { createEventRecorder, objectReference, type RecordedEvent } from '../../src/runtime/events.js';
import { createVirtualClock } from '../../src/sim/virtual-clock.js';
import { FakeCluster } from './fake-cluster.js';

const set: StatefulSet = { metadata: { name: 'web', namespace: 'prod', uid: 'u-web', resourceVersion: '7' }, spec: { template: { spec: { containers: [] } } } };
const ref = objectReference(set, Resources.statefulSets);
const T0 = Date.UTC(2026, 0, 1);

function setup(component?: string) {
  const clock = createVirtualClock({ start: T0 });
  const cluster = new FakeCluster();
  const recorder = createEventRecorder({ client: cluster, clock, ...(component ? { component } : {}) });
  const events = async () => (await cluster.list<KubeEvent>(Resources.events, 'prod')).items;
  return { clock, cluster, recorder, events };
}

describe('event recorder', () => {
  it('references the involved object with the apiVersion and kind of its resource', () => {
    assert.deepEqual(ref, { apiVersion: 'apps/v1', kind: 'StatefulSet', namespace: 'prod', name: 'web', uid: 'u-web', resourceVersion: '7' });
    assert.equal(objectReference(set, Resources.ordinalStatefulSets).apiVersion, 'apps.ordinal.dev/v1');
  });

  it('creates an Event named after the object, timed by the injected clock, from ordinal-controller', async () => {
    const { recorder, events } = setup();
    await recorder.event(ref, 'Normal', 'SuccessfulCreate', 'create Pod web-0 in StatefulSet web successful');
    const [e] = await events();
    assert.match(e!.metadata.name!, /^web\.[0-9a-f]+$/);
    assert.equal(e!.count, 1);
    assert.equal(e!.firstTimestamp, '2026-01-01T00:00:00Z');
    assert.equal(e!.lastTimestamp, '2026-01-01T00:00:00Z');
    assert.deepEqual(e!.source, { component: 'ordinal-controller' });
    assert.equal(e!.type, 'Normal');
    assert.equal(e!.involvedObject.uid, 'u-web');
  });

  it('aggregates a repeated event: bumps count and lastTimestamp on the same object', async () => {
    const { recorder, events, clock, cluster } = setup();
    await recorder.event(ref, 'Warning', 'FailedCreate', 'boom');
    clock.advanceBy(65_000);
    await recorder.event(ref, 'Warning', 'FailedCreate', 'boom');
    const list = await events();
    assert.equal(list.length, 1);
    assert.equal(list[0]!.count, 2);
    assert.equal(list[0]!.firstTimestamp, '2026-01-01T00:00:00Z');
    assert.equal(list[0]!.lastTimestamp, '2026-01-01T00:01:05Z');
    assert.deepEqual(cluster.writes().map((c) => c.verb), ['create', 'patch']);
  });

  it('keeps events with a different message or reason apart', async () => {
    const { recorder, events } = setup();
    await recorder.event(ref, 'Normal', 'SuccessfulDelete', 'delete Pod web-1 in StatefulSet web successful');
    await recorder.event(ref, 'Normal', 'SuccessfulDelete', 'delete Pod web-2 in StatefulSet web successful');
    await recorder.event(ref, 'Normal', 'SuccessfulCreate', 'delete Pod web-2 in StatefulSet web successful');
    assert.equal((await events()).length, 3);
  });

  it('serialises concurrent repeats so the count never goes back', async () => {
    const { recorder, events } = setup();
    await Promise.all([1, 2, 3].map(() => recorder.event(ref, 'Normal', 'R', 'same')));
    const list = await events();
    assert.equal(list.length, 1);
    assert.equal(list[0]!.count, 3);
  });

  it('uses the configured source component', async () => {
    const { recorder, events } = setup('statefulset-controller');
    await recorder.event(ref, 'Normal', 'R', 'm');
    assert.equal((await events())[0]!.source?.component, 'statefulset-controller');
  });

  it('tells onRecord listeners about every occurrence, synchronously', () => {
    const { recorder } = setup();
    const seen: RecordedEvent[] = [];
    const off = recorder.onRecord((e) => seen.push(e));
    void recorder.event(ref, 'Normal', 'R', 'm');
    void recorder.event(ref, 'Normal', 'R', 'm');
    off();
    void recorder.event(ref, 'Normal', 'R', 'm');
    assert.deepEqual(
      seen.map((e) => [e.namespace, e.reason, e.count, e.at]),
      [
        ['prod', 'R', 1, T0],
        ['prod', 'R', 2, T0],
      ],
    );
  });

  it('recreates the Event if it disappeared before the count bump', async () => {
    const { recorder, events, cluster } = setup();
    await recorder.event(ref, 'Normal', 'R', 'm');
    const [first] = await events();
    await cluster.delete(Resources.events, 'prod', first!.metadata.name!);
    await recorder.event(ref, 'Normal', 'R', 'm');
    const list = await events();
    assert.equal(list.length, 1);
    assert.equal(list[0]!.count, 2);
  });

  it('never rejects when the API refuses the write', async () => {
    const { recorder, cluster, events } = setup();
    cluster.failNext('create', new ApiError('unavailable', 503, 'ServiceUnavailable'));
    await recorder.event(ref, 'Normal', 'R', 'm');
    await recorder.flush();
    assert.equal((await events()).length, 0);
  });

  it('gives the same names on every run with the same clock', async () => {
    const names = async () => {
      const { recorder, events } = setup();
      await recorder.event(ref, 'Normal', 'A', 'a');
      await recorder.event(ref, 'Normal', 'B', 'b');
      return (await events()).map((e) => e.metadata.name).sort();
    };
    assert.deepEqual(await names(), await names());
  });
});
