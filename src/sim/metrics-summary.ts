// The summary record's `metrics`: every series of Ordinal's metrics read from the run's prom-client
// registry, keyed like Prometheus prints them (`name{label="value",...}`), histograms as _sum and _count.

import type { Registry } from 'prom-client';

const PREFIXES = ['statefulset_', 'workqueue_', 'ordinal_'];

interface JsonValue {
  value: number;
  labels?: Record<string, string | number>;
  metricName?: string;
}

function seriesKey(name: string, labels: Record<string, string | number> | undefined): string {
  const entries = Object.entries(labels ?? {})
    .filter(([k]) => k !== 'le')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (entries.length === 0) return name;
  return `${name}{${entries.map(([k, v]) => `${k}=${JSON.stringify(String(v))}`).join(',')}}`;
}

export async function metricsSummary(registry: Registry): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const metric of await registry.getMetricsAsJSON()) {
    if (!PREFIXES.some((p) => metric.name.startsWith(p))) continue;
    for (const v of metric.values as JsonValue[]) {
      const name = v.metricName ?? metric.name;
      if (name.endsWith('_bucket')) continue;
      out[seriesKey(name, v.labels)] = v.value;
    }
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
