// client-go's work-queue metrics (workqueue/metrics.go) in prom-client, measured on the injected clock
// so that virtual time gives virtual durations.

import { Counter, Gauge, Histogram, exponentialBuckets, type Registry } from 'prom-client';
import type { Clock } from './clock.js';
import type { WorkQueueMetrics } from './work-queue.js';

interface QueueMetricSet {
  depth: Gauge<'name'>;
  adds: Counter<'name'>;
  queueDuration: Histogram<'name'>;
  workDuration: Histogram<'name'>;
  retries: Counter<'name'>;
}

// client-go: prometheus.ExponentialBuckets(10e-9, 10, 10), i.e. 10 ns … 100 s.
const DURATION_BUCKETS = exponentialBuckets(10e-9, 10, 10);

const registered = new WeakMap<Registry, QueueMetricSet>();

function metricSet(registry: Registry): QueueMetricSet {
  const existing = registered.get(registry);
  if (existing !== undefined) return existing;
  const registers = [registry];
  const labelNames = ['name'] as const;
  const set: QueueMetricSet = {
    depth: new Gauge({ name: 'workqueue_depth', help: 'Current depth of workqueue', labelNames, registers }),
    adds: new Counter({ name: 'workqueue_adds_total', help: 'Total number of adds handled by workqueue', labelNames, registers }),
    queueDuration: new Histogram({
      name: 'workqueue_queue_duration_seconds',
      help: 'How long in seconds an item stays in workqueue before being requested.',
      labelNames,
      buckets: DURATION_BUCKETS,
      registers,
    }),
    workDuration: new Histogram({
      name: 'workqueue_work_duration_seconds',
      help: 'How long in seconds processing an item from workqueue takes.',
      labelNames,
      buckets: DURATION_BUCKETS,
      registers,
    }),
    retries: new Counter({ name: 'workqueue_retries_total', help: 'Total number of retries handled by workqueue', labelNames, registers }),
  };
  registered.set(registry, set);
  return set;
}

/** Metrics for the queue called `name` (e.g. "statefulset"); several queues may share one registry. */
// upstream: client-go/util/workqueue/metrics.go defaultQueueMetrics
export function createWorkQueueMetrics<K>(registry: Registry, name: string, clock: Clock): WorkQueueMetrics<K> {
  const m = metricSet(registry);
  const labels = { name };
  const addTimes = new Map<K, number>();
  const startTimes = new Map<K, number>();
  m.depth.set(labels, 0);
  return {
    add(key) {
      m.adds.inc(labels);
      m.depth.inc(labels);
      if (!addTimes.has(key)) addTimes.set(key, clock.now());
    },
    get(key) {
      m.depth.dec(labels);
      startTimes.set(key, clock.now());
      const added = addTimes.get(key);
      if (added !== undefined) {
        m.queueDuration.observe(labels, (clock.now() - added) / 1000);
        addTimes.delete(key);
      }
    },
    done(key) {
      const started = startTimes.get(key);
      if (started === undefined) return;
      m.workDuration.observe(labels, (clock.now() - started) / 1000);
      startTimes.delete(key);
    },
    retry() {
      m.retries.inc(labels);
    },
  };
}
