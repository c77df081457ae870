import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import type { KubeEvent, KubeObject, StatefulSet } from '../../src/api/types.js';
import { createEventRecorder, objectReference, type RecordedEvent } from '../../src/runtime/event-recorder.js';
import { createControllerMetrics } from '../../src/runtime/metrics.js';
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
  it('drops what comes beyond 1,000 events waiting to be written, and counts each drop by type', async () => {
    const clock = createVirtualClock({ start: T0 });
    // An API server that never answers a create: every Event written stays pending.
    const stalled = new (class extends FakeCluster {
      override create<T extends KubeObject>(): Promise<T> {
        return new Promise<T>(() => {});
      }
    })();
    const metrics = createControllerMetrics();
    const recorded: string[] = [];
    const recorder = createEventRecorder({ client: stalled, clock, onDropped: (type) => metrics.eventDropped(type) });
    recorder.onRecord((e) => recorded.push(e.message));
    for (let i = 0; i < 1000; i++) void recorder.event({ ...ref, name: `web-${i}` }, 'Normal', 'SuccessfulCreate', `create Pod web-${i} in StatefulSet web successful`);
    void recorder.event(ref, 'Warning', 'FailedCreate', 'create Pod web-0 in StatefulSet web failed error: quota');
    void recorder.event(ref, 'Normal', 'SuccessfulDelete', 'delete Pod web-1 in StatefulSet web successful');
    assert.equal(recorded.length, 1000, 'the ones beyond were not recorded');
    const dropped = (await metrics.registry.getSingleMetric('ordinal_events_dropped_total')?.get())?.values.map((v) => [v.labels['type'], v.value]);
    assert.deepEqual(dropped, [['Warning', 1], ['Normal', 1]]);
  });


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

describe('event recorder: client-go correlation (aggregation, spam filter)', () => {
  const create = (i: number) => `create Pod web-${i} in StatefulSet web successful`;
  const writes = (cluster: FakeCluster) => cluster.writes().filter((w) => w.resource === Resources.events.plural);

  it('writes 25 events about one object and type, then drops them until the bucket refills (one per 5 minutes)', async () => {
    const { recorder, cluster, clock, events } = setup();
    const written: RecordedEvent[] = [];
    recorder.onRecord((e) => written.push(e));
    for (let i = 0; i < 30; i++) await recorder.event(ref, 'Warning', `Reason${i}`, 'distinct reasons, so nothing is combined');
    assert.equal(written.length, 25, 'the spam filter stops the 26th');
    assert.equal(writes(cluster).length, 25);
    await recorder.event(ref, 'Normal', 'Other', 'another type has a bucket of its own');
    assert.equal(written.length, 26);
    clock.advanceBy(299_000);
    await recorder.event(ref, 'Warning', 'Late', 'not yet refilled');
    assert.equal(written.length, 26);
    clock.advanceBy(1_000);
    await recorder.event(ref, 'Warning', 'Late', 'refilled');
    assert.equal(written.length, 27);
    assert.equal((await events()).length, 27);
  });

  it('keeps counting a repeat the spam filter dropped, so the next written occurrence carries the true count', async () => {
    const { recorder, clock, events } = setup();
    for (let i = 0; i < 24; i++) await recorder.event(ref, 'Warning', `Fill${i}`, 'x');
    await recorder.event(ref, 'Warning', 'FailedCreate', 'quota');
    await recorder.event(ref, 'Warning', 'FailedCreate', 'quota'); // dropped, still counted
    clock.advanceBy(300_000);
    await recorder.event(ref, 'Warning', 'FailedCreate', 'quota');
    const e = (await events()).find((x) => x.reason === 'FailedCreate');
    assert.equal(e?.count, 3);
  });

  it('combines similar events from the 10th distinct message within 10 minutes into one Event', async () => {
    const { recorder, cluster, events } = setup();
    const written: RecordedEvent[] = [];
    recorder.onRecord((e) => written.push(e));
    for (let i = 0; i < 12; i++) await recorder.event(ref, 'Normal', 'SuccessfulCreate', create(i));
    const list = await events();
    assert.equal(list.length, 10, '9 single events and one combined');
    const combined = list.find((e) => e.message?.startsWith('(combined from similar events): '));
    assert.equal(combined?.message, `(combined from similar events): ${create(11)}`);
    assert.equal(combined?.count, 3);
    assert.deepEqual(
      writes(cluster).map((w) => w.verb),
      [...Array<string>(10).fill('create'), 'patch', 'patch'],
    );
    assert.equal(written.at(-1)?.count, 3);
  });

  it('starts over when similar events are more than 10 minutes apart', async () => {
    const { recorder, clock, events } = setup();
    for (let i = 0; i < 9; i++) await recorder.event(ref, 'Normal', 'SuccessfulDelete', `delete ${i}`);
    clock.advanceBy(600_001);
    await recorder.event(ref, 'Normal', 'SuccessfulDelete', 'delete 9');
    assert.ok((await events()).every((e) => !e.message?.startsWith('(combined')));
  });
});
