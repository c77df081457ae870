// Series recorded from a simulated run, for `promtool test rules`: the controller's own registry (the one its
// /metrics serves) read every `interval` of virtual time, as a Prometheus scraping it would see it, with the
// target labels a scrape adds and the ordinal_build_info series every real controller serves (the simulated
// one is built without a version). And promtool itself: found on PATH or at $ORDINAL_PROMTOOL; without it a
// test is skipped locally and fails in CI, which installs Debian's prometheus package.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import type { Registry } from 'prom-client';
import { stringify } from 'yaml';
import { loadScenario } from '../../src/sim/scenario.js';
import type { Scenario } from '../../src/sim/scenario-types.js';
import { Simulation } from '../../src/sim/simulation.js';
import type { TimelineRecord } from '../../src/sim/timeline.js';

export const TARGET = { job: 'ordinal-controller-metrics', instance: '10.0.0.7:8080' };
const BUILD_INFO = `ordinal_build_info{${selector({ ...TARGET, version: '0.1.0', node_version: process.version })}}`;

export interface Recording {
  /** Seconds between two points. */
  interval: number;
  /** promtool input series: a selector, and its values (`_` before it existed, `stale` once it went). */
  series: Array<{ series: string; values: string }>;
  records: TimelineRecord[];
}

function selector(labels: Record<string, string | number>): string {
  return Object.entries(labels)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${JSON.stringify(String(v))}`)
    .join(',');
}

/** Every series of the registry (histogram buckets left out), keyed by its selector with the target labels. */
async function scrape(registry: Registry): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const metric of await registry.getMetricsAsJSON()) {
    for (const v of metric.values as Array<{ value: number; labels: Record<string, string | number>; metricName?: string }>) {
      const name = v.metricName ?? metric.name;
      if (!name.endsWith('_bucket')) out.set(`${name}{${selector({ ...v.labels, ...TARGET })}}`, v.value);
    }
  }
  return out;
}

/** Runs the scenario (or scenario file), scraping the controller's registry at least every `interval` seconds of virtual time. */
export async function recordScenario(scenario: string | Scenario, interval = 15): Promise<Recording> {
  const scrapes: Array<{ t: number; values: Map<string, number> }> = [];
  const sim = new Simulation(typeof scenario === 'string' ? loadScenario(scenario) : scenario, {
    progressEveryMs: interval * 1000,
    onProgress: async (s) => void scrapes.push({ t: s.t(), values: await scrape(s.world.metrics.registry) }),
  });
  await sim.start();
  await sim.runSteps();
  await sim.finish();
  scrapes.push({ t: sim.t(), values: await scrape(sim.world.metrics.registry) });
  const points = Math.floor(scrapes[scrapes.length - 1]!.t / interval) + 1;
  const keys = [...new Set(scrapes.flatMap((s) => [...s.values.keys()]))].sort();
  const series = keys.map((key) => {
    const values: string[] = [];
    let seen = false;
    for (let i = 0, at = 0; i < points; i++) {
      // the last scrape at or before this point, as Prometheus keeps the last sample of each scrape
      while (at + 1 < scrapes.length && scrapes[at + 1]!.t <= i * interval) at++;
      const scraped = scrapes[at]!.t <= i * interval ? scrapes[at]!.values.get(key) : undefined;
      values.push(scraped !== undefined ? String(scraped) : seen ? 'stale' : '_');
      seen ||= scraped !== undefined;
    }
    return { series: key, values: values.join(' ') };
  });
  series.push({ series: BUILD_INFO, values: Array.from({ length: points }, () => '1').join(' ') });
  return { interval, series, records: sim.records };
}

/** `{{ $labels.x }}` of an annotation filled in from the alert's labels (what Prometheus renders). */
export const expand = (template: string, labels: Record<string, string>): string =>
  template.replace(/\{\{ \$labels\.(\w+) \}\}/g, (_m, name: string) => labels[name] ?? '');

const PROMTOOL = process.env.ORDINAL_PROMTOOL ?? 'promtool';

/** Runs promtool with ARGS in a directory holding FILES; returns its output, or undefined when skipped. */
export function promtool(t: TestContext, files: Record<string, unknown>, ...args: string[]): string | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'ordinal-promtool-'));
  try {
    for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), typeof content === 'string' ? content : stringify(content, { lineWidth: 0 }));
    const res = spawnSync(PROMTOOL, args, { cwd: dir, encoding: 'utf8', timeout: 120_000 });
    if (res.error) {
      const why = `no promtool (${PROMTOOL}): ${res.error.message}; install Debian's prometheus package (.ci/run does)`;
      if (process.env.CI) throw new Error(why);
      t.skip(why);
      return undefined;
    }
    assert.equal(res.status, 0, `promtool ${args.join(' ')}\n${res.stdout}\n${res.stderr}`);
    return res.stdout + res.stderr;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
