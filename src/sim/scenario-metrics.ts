// `cluster.metrics`: the series the simulator's Prometheus holds for a Prometheus analysis
// (simulated-prometheus.ts). Each entry is one metric that every running pod exports, with the labels
// `namespace`, `pod` and its own `labels`: a counter whose `value` is its rate per second (what rate() returns),
// or a gauge whose `value` it reads; `images` gives other values to pods running an image (exact, or a glob).

import { at, enumField, noUnknownKeys, numberField, objectField, optional, stringField, type Issues } from './scenario-fields.js';
import type { MetricSeriesSpec } from './scenario-types.js';

export const METRIC_KEYS = ['name', 'type', 'labels', 'value', 'images'] as const;
export const METRIC_TYPES = ['counter', 'gauge'] as const;
const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
/** Labels the simulated Prometheus sets itself. */
const OWN_LABELS = ['namespace', 'pod', '__name__'];

function parseLabels(v: unknown, path: string, issues: Issues): Record<string, string> | undefined {
  const obj = objectField(v, path, issues);
  if (!obj) return undefined;
  const out: Record<string, string> = {};
  for (const [k, value] of Object.entries(obj)) {
    const p = at(path, k);
    if (!LABEL_NAME.test(k)) issues.add(p, 'must be a Prometheus label name');
    else if (OWN_LABELS.includes(k)) issues.add(p, `is set by the simulated Prometheus (${OWN_LABELS.slice(0, 2).join(' and ')} name the pod)`);
    const text = stringField(value, p, issues);
    if (text !== undefined) out[k] = text;
  }
  return out;
}

function parseImages(v: unknown, path: string, issues: Issues): Record<string, number> | undefined {
  const obj = objectField(v, path, issues);
  if (!obj) return undefined;
  const out: Record<string, number> = {};
  for (const [image, value] of Object.entries(obj)) {
    const n = numberField(value, at(path, image), issues);
    if (n !== undefined) out[image] = n;
  }
  return out;
}

function parseSeries(v: unknown, path: string, issues: Issues): MetricSeriesSpec | undefined {
  const obj = objectField(v, path, issues);
  if (!obj) return undefined;
  noUnknownKeys(obj, METRIC_KEYS, path, issues);
  const name = stringField(obj['name'], at(path, 'name'), issues);
  if (name === undefined) return undefined;
  if (!METRIC_NAME.test(name)) return issues.add(at(path, 'name'), `must be a Prometheus metric name, got ${JSON.stringify(name)}`);
  const value = numberField(obj['value'], at(path, 'value'), issues);
  if (value === undefined) return undefined;
  const type = optional(obj, 'type', path, issues, (x, p, i) => enumField(x, p, i, METRIC_TYPES)) ?? 'counter';
  const labels = optional(obj, 'labels', path, issues, parseLabels);
  const images = optional(obj, 'images', path, issues, parseImages);
  return { name, type, value, ...(labels ? { labels } : {}), ...(images ? { images } : {}) };
}

/** `cluster.metrics`: a list of series. */
export function parseMetrics(v: unknown, path: string, issues: Issues): MetricSeriesSpec[] | undefined {
  if (!Array.isArray(v)) return issues.add(path, 'must be a list of series');
  const out = v.map((x, i) => parseSeries(x, `${path}[${i}]`, issues));
  return out.every((x): x is MetricSeriesSpec => x !== undefined) ? out : undefined;
}
