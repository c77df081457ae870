// The simulator's Prometheus (simulated-prometheus.ts): per-pod series from `cluster.metrics`, queries parsed by
// Prometheus' own grammar and evaluated over the subset it documents; what it cannot evaluate is an error, as a
// real server answers a bad query.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { QueryError, SimulatedPrometheus, type ScrapedPod } from '../../src/sim/simulated-prometheus.js';
import type { MetricSeriesSpec } from '../../src/sim/scenario-types.js';

const SERIES: MetricSeriesSpec[] = [
  { name: 'http_requests_total', type: 'counter', labels: { code: '200' }, value: 9 },
  { name: 'http_requests_total', type: 'counter', labels: { code: '500' }, value: 1, images: { 'app:v2': 3, 'app:v9*': 5 } },
  { name: 'queue_depth', type: 'gauge', value: 4, images: { 'app:v2': 10 } },
];
const pod = (name: string, image: string, runningSince = 0): ScrapedPod => ({ namespace: 'default', name, images: [image], runningSince });
const PODS = [pod('web-0', 'app:v1'), pod('web-1', 'app:v1'), pod('web-2', 'app:v2'), { ...pod('web-3', 'app:v1'), namespace: 'other' }];
const prom = new SimulatedPrometheus(SERIES, () => PODS);
const NOW = 60_000;

/** The values of an answer, by its series' pod label (or '' for one without). */
function values(query: string): Record<string, number> | number {
  const data = prom.query(query, NOW);
  if (data.resultType === 'scalar') return Number((data.result as [number, string])[1]);
  return Object.fromEntries((data.result as { metric: Record<string, string>; value: [number, string] }[]).map((s) => [s.metric.pod ?? JSON.stringify(s.metric), Number(s.value[1])]));
}

describe('SimulatedPrometheus', () => {
  it('rate() of a counter is its per-second value, per pod, with label matchers (=, =~, !=)', () => {
    assert.deepEqual(values('rate(http_requests_total{namespace="default",code="500",pod=~"web-1|web-2"}[1m])'), { 'web-1': 1, 'web-2': 3 });
    assert.deepEqual(values('rate(http_requests_total{namespace!="default",code=~"5.."}[5m])'), { 'web-3': 1 });
  });

  it('an error ratio: sum over the matching pods, divided', () => {
    const ratio = (pods: string) => `sum(rate(http_requests_total{code="500",pod=~"${pods}"}[1m])) / sum(rate(http_requests_total{pod=~"${pods}"}[1m]))`;
    assert.deepEqual(values(ratio('web-2')), { '{}': 0.25 });
    assert.deepEqual(values(ratio('web-0|web-1')), { '{}': 0.1 });
  });

  it('aggregates by and without labels; increase() over the range; a gauge read and over time', () => {
    assert.deepEqual(values('sum by (code) (rate(http_requests_total{namespace="default"}[1m]))'), { '{"code":"200"}': 27, '{"code":"500"}': 5 });
    assert.deepEqual(values('max without (pod, namespace) (queue_depth)'), { '{}': 10 });
    assert.deepEqual(values('increase(http_requests_total{code="500",pod="web-0"}[2m])'), { 'web-0': 120 });
    assert.deepEqual(values('avg_over_time(queue_depth{pod="web-2"}[5m]) * 2 - 1'), { 'web-2': 19 });
    assert.deepEqual(values('count(queue_depth)'), { '{}': 4 });
    assert.equal(values('(1 + 2) * 3'), 9);
  });

  it('a plain counter has grown since its pod started running; no series is an empty vector', () => {
    const late = new SimulatedPrometheus(SERIES, () => [pod('web-0', 'app:v1', 30_000)]);
    assert.deepEqual(late.query('http_requests_total{code="500"}', NOW).result, [{ metric: { __name__: 'http_requests_total', namespace: 'default', pod: 'web-0', code: '500' }, value: [60, '30'] }]);
    assert.deepEqual(prom.query('sum(rate(nothing_total[1m]))', NOW).result, []);
  });

  it('refuses what it does not evaluate, and a query that does not parse', () => {
    assert.throws(() => prom.query('histogram_quantile(0.99, rate(x_bucket[1m]))', NOW), (e: unknown) => e instanceof QueryError && /does not evaluate/.test(e.message));
    assert.throws(() => prom.query('topk(2, queue_depth)', NOW), QueryError);
    assert.throws(() => prom.query('queue_depth > 3', NOW), QueryError);
    assert.throws(() => prom.query('sum(rate(x[1m])', NOW), (e: unknown) => e instanceof QueryError && e.message === 'parse error at character 16');
  });
});
