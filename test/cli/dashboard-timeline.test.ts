// The dashboard's live timeline: the simulator's records made from what the informers deliver (pods first
// seen get their history from their timestamps, later changes when seen), drawn by the report's chart over a
// window that ends now.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import type { StatefulSet } from '../../src/api/types.js';
import { ClusterView } from '../../src/cli/dashboard/cluster-view.js';
import { liveChart, WINDOW_MS } from '../../src/cli/dashboard/live-chart.js';
import { LiveTimelines } from '../../src/cli/dashboard/live-timeline.js';
import { podRecord, statusRecord, type PodRecord, type TimelineRecord } from '../../src/sim/timeline.js';
import { advance, converge, driveWithTurns, SECOND, setYaml, startWorld } from './world.js';

const podsOf = (records: readonly TimelineRecord[]): PodRecord[] => records.filter((r): r is PodRecord => r.type === 'pod');

describe('the live timeline', () => {
  it('gives pods already there their history from their timestamps, and records a rollout as it is seen', async () => {
    const w = await startWorld(setYaml({ replicas: 2 }), 'cluster: {podStartSeconds: 5}\n');
    assert.ok(await converge(w));
    await advance(w, 60);
    const view = new ClusterView({ client: w.deps.client, timers: w.sim.world.clock, namespaces: ['default'], random: () => 0.5 });
    const timelines = new LiveTimelines(view, w.sim.world.clock);
    timelines.start();
    view.start();
    await driveWithTurns(w, view.waitForSync());
    const set = view.list()[0]?.set as StatefulSet;
    const created = Date.parse(set.metadata.creationTimestamp ?? '');
    const first = podsOf(timelines.records(set));
    assert.deepEqual(first.map((r) => `${r.name} ${r.event}`), ['web-0 Created', 'web-0 Scheduled', 'web-0 Running', 'web-0 Ready', 'web-1 Created', 'web-1 Scheduled', 'web-1 Running', 'web-1 Ready']);
    // the history is the pods' own (whole seconds, as the API server stores times): web-0 was Ready 5 s after its creation
    assert.equal(first[0]?.t, created);
    assert.equal(first[3]?.t, created + 5 * SECOND);
    assert.ok(first.every((r) => r.t < w.sim.now() - 50 * SECOND), 'nothing dated at the time it was first seen');

    await w.sim.world.user.patch(Resources.statefulSets, 'default', 'web', { spec: { template: { spec: { containers: [{ name: 'app', image: 'app:2' }] } } } });
    assert.ok(await converge(w));
    await driveWithTurns(w, Promise.resolve());
    const seen = podsOf(timelines.records(set)).slice(first.length);
    const revisions = new Set(seen.map((r) => r.revision));
    assert.equal(revisions.size, 2, 'the old revision going and the new one coming');
    for (const pod of ['web-0', 'web-1']) {
      const events = seen.filter((r) => r.name === pod).map((r) => r.event);
      assert.deepEqual(events.slice(0, 3), ['Terminating', 'Deleted', 'Created'], pod);
      assert.equal(events.at(-1), 'Ready', pod);
    }
    assert.ok(timelines.records(set).some((r) => r.type === 'status' && r.status.updatedReplicas === 2), 'status writes are recorded');
    assert.ok(timelines.records(set).some((r) => r.type === 'event' && r.reason === 'SuccessfulDelete'), 'Events are recorded');
    const chart = liveChart(timelines.records(set), w.sim.now());
    assert.equal((chart.timeline.match(/<g class="row"/g) ?? []).length, 2, 'one row per ordinal');
    assert.equal(new Set([...chart.timeline.matchAll(/data-revision="([^"]+)"/g)].map((m) => m[1])).size, 2);
    view.stop();
  });

  it('draws at most the last WINDOW_MS, each pod entering it in the state it had, up to now', () => {
    const now = Date.parse('2026-01-01T12:00:00Z');
    const who = { namespace: 'default', name: 'web-0', set: 'web', ordinal: 0, revision: 'web-1' };
    const records = [
      podRecord(now - 3 * 3_600_000, { ...who, event: 'Created' }),
      podRecord(now - 2 * 3_600_000, { ...who, event: 'Ready' }),
      statusRecord(now - 60_000, 'default', 'web', 1, { replicas: 1, readyReplicas: 1 }),
    ];
    const chart = liveChart(records, now);
    assert.equal(chart.origin, now - WINDOW_MS);
    const states = [...chart.timeline.matchAll(/data-state="(\w+)"/g)].map((m) => m[1]);
    assert.deepEqual(states, ['Ready'], 'Ready the whole window; its Pending hours before are not drawn');
    assert.match(chart.timeline, /data-end="1800"/, 'the axis ends now, 30 minutes after its start');
    assert.match(chart.counters, /class="counters"/);
    assert.equal(liveChart(records.slice(2), now).origin, now - 60_000, 'a shorter history starts where it starts');
  });
});
