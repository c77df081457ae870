import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Registry, Counter, Gauge, Histogram } from 'prom-client';
import { metricsSummary } from '../../src/sim/metrics-summary.js';
import { createRandom, deriveSeed } from '../../src/sim/scenario-random.js';
import { formatRecordText } from '../../src/sim/timeline-text.js';
import * as tl from '../../src/sim/timeline.js';

describe('timeline records', () => {
  it('have t and type first and a fixed field order', () => {
    const pod = tl.podRecord(1.5, { event: 'Ready', revision: 'web-1', ordinal: 0, set: 'web', name: 'web-0', namespace: 'default' });
    assert.deepEqual(Object.keys(pod), ['t', 'type', 'namespace', 'name', 'set', 'ordinal', 'revision', 'event']);
    const ev = tl.eventRecord(2, { message: 'm', reason: 'r', eventType: 'Normal', involvedObject: { name: 'web', kind: 'StatefulSet' }, namespace: 'default' });
    assert.equal(tl.toJsonLine(ev), '{"t":2,"type":"event","namespace":"default","involvedObject":{"kind":"StatefulSet","name":"web"},"eventType":"Normal","reason":"r","message":"m"}');
    const action = tl.actionRecord(0, { name: 'web-0', resource: 'pods', verb: 'create', set: 'web', namespace: 'default' });
    assert.deepEqual(Object.keys(action), ['t', 'type', 'namespace', 'set', 'verb', 'resource', 'name']);
    const summary = tl.summaryRecord({ rollouts: [], violations: [], metrics: {}, sets: {}, endedAt: 9, convergedAt: null, converged: false });
    assert.deepEqual(Object.keys(summary), ['t', 'type', 'converged', 'convergedAt', 'endedAt', 'sets', 'metrics', 'violations', 'rollouts']);
  });

  it('round-trip through jsonl', () => {
    const records = [tl.stepRecord(0, 0, { advance: 1 }), tl.expectRecord(1, 1, true, 'ok')];
    assert.deepEqual(tl.fromJsonl(tl.toJsonl(records)), records);
    assert.equal(tl.secondsSince(1000, 3500), 2.5);
  });

  it('format as aligned text lines', () => {
    assert.equal(formatRecordText(tl.expectRecord(12, 3, false, 'pod web-0 does not exist')), '    12.000s  expect    #3 FAILED: pod web-0 does not exist');
  });
});

describe('seeded randomness', () => {
  it('gives the same sequence for the same seed and different ones for different labels', () => {
    const a = createRandom(1);
    const b = createRandom(1);
    const xs = [a(), a(), a()];
    assert.deepEqual([b(), b(), b()], xs);
    assert.ok(xs.every((x) => x >= 0 && x < 1));
    assert.notEqual(deriveSeed(1, 'cluster'), deriveSeed(1, 'controller'));
    assert.notEqual(createRandom(2)(), xs[0]);
  });
});

describe('metricsSummary', () => {
  it('keys series like Prometheus, keeps only the product metrics, and drops histogram buckets', async () => {
    const registers = [new Registry()];
    const registry = registers[0]!;
    new Gauge({ name: 'statefulset_max_unavailable', help: 'h', labelNames: ['statefulset', 'namespace'], registers }).set({ statefulset: 'web', namespace: 'default' }, 2);
    new Counter({ name: 'something_else_total', help: 'h', registers }).inc();
    new Histogram({ name: 'workqueue_work_duration_seconds', help: 'h', buckets: [1], registers }).observe(0.5);
    assert.deepEqual(await metricsSummary(registry), {
      'statefulset_max_unavailable{namespace="default",statefulset="web"}': 2,
      workqueue_work_duration_seconds_count: 1,
      workqueue_work_duration_seconds_sum: 0.5,
    });
  });
});
