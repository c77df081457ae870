// What the simulated network answers to the controller's checks — a staged rollout's analyses and preUpdate
// hooks: an HTTP check by the scenario's `cluster.analysisEndpoints` (URL → status code), changed by `endpoint`
// steps, its URL looked up as it is, then without its `revision` parameter, then without its query (a hook's GET
// carries `?pod=NAME&revision=REV`: one entry may answer every pod, another one pod), a URL not listed refusing
// the connection; a Prometheus check by the simulated Prometheus (simulated-prometheus.ts) over
// `cluster.metrics`, which scrapes the pods that run. Checks are answered at once, at virtual time, with the
// same words and the same judgement (prometheus-verdict.ts) as the real ports.

import type { Instant, Pod } from '../api/types.js';
import { drawSeconds, type Seconds } from '../cluster/kubelet/config.js';
import type { AnalysisProbe, PrometheusProbe } from '../controller/model/plan-types.js';
import type { ProbeOutcome, ProbePort } from '../runtime/analysis-prober.js';
import { statusOutcome } from '../runtime/http-probe.js';
import { ConditionCache, judge, queryValue, type QueryValue } from '../runtime/prometheus-verdict.js';
import type { WriteRecord } from '../cluster/memory/memory-types.js';
import { QueryError, SimulatedPrometheus, type ScrapedPod } from './simulated-prometheus.js';
import type { MetricSeriesSpec } from './scenario-types.js';

/** host:port of a URL as Node names it in "connect ECONNREFUSED host:port". */
function hostPort(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || (u.protocol === 'https:' ? '443' : '80')}`;
  } catch {
    return url;
  }
}

/** The URL as it is, without its `revision` parameter, and without its query. */
function lookupKeys(url: string): string[] {
  if (!URL.canParse(url)) return [url];
  const u = new URL(url);
  if (u.search === '') return [url];
  const keys = [url];
  if (u.searchParams.has('revision')) {
    const v = new URL(url);
    v.searchParams.delete('revision');
    keys.push(v.toString());
  }
  keys.push(`${u.origin}${u.pathname}`);
  return keys;
}

/** cluster.preUpdateHookSeconds: how long a hook no listed URL answers takes, drawn per pod and revision. */
export interface HookTiming {
  seconds: Seconds;
  seed: number;
  now: () => Instant;
}

export class AnalysisEndpoints {
  private readonly answers: Map<string, number>;
  /** Running pods by namespace/name, kept from the cluster's writes (see `sawWrite`). */
  private readonly running = new Map<string, ScrapedPod>();
  private readonly prometheus: SimulatedPrometheus;
  private readonly conditions = new ConditionCache();
  /** A hook's first GET, by probe key (pod and revision): it passes `seconds` after it. */
  private readonly firstCalls = new Map<string, Instant>();

  constructor(
    initial: Readonly<Record<string, number>> = {},
    metrics: readonly MetricSeriesSpec[] = [],
    private readonly now: () => number = () => 0,
    private readonly hooks?: HookTiming,
  ) {
    this.answers = new Map(Object.entries(initial));
    this.prometheus = new SimulatedPrometheus(metrics, () => [...this.running.values()]);
  }

  /** From now on `url` answers `status`; null: it refuses the connection. */
  set(url: string, status: number | null): void {
    if (status === null) this.answers.delete(url);
    else this.answers.set(url, status);
  }

  /** A write to the cluster: a pod that runs is scraped from when it started running until it is gone. */
  sawWrite(w: WriteRecord): void {
    if (w.resource.kind !== 'Pod') return;
    const key = `${w.namespace ?? ''}/${w.name}`;
    const pod = w.object as Pod;
    if (w.change === 'DELETED' || pod.status?.phase !== 'Running') return void this.running.delete(key);
    if (this.running.has(key)) return;
    const images = (pod.spec?.containers ?? []).map((c) => c.image ?? '');
    this.running.set(key, { namespace: w.namespace ?? '', name: w.name, images, runningSince: w.at });
  }

  answer(probe: AnalysisProbe): ProbeOutcome {
    if (probe.kind === 'prometheus') return this.judgeQuery(probe);
    const status = lookupKeys(probe.url).map((k) => this.answers.get(k)).find((s) => s !== undefined) ?? this.hookAnswer(probe);
    return status === undefined ? { ok: false, message: `connect ECONNREFUSED ${hostPort(probe.url)}` } : statusOutcome(status, probe.expectedStatus);
  }

  private ask(query: string, what: string): QueryValue {
    try {
      return queryValue(this.prometheus.query(query, this.now()), what);
    } catch (err) {
      if (!(err instanceof QueryError)) throw err;
      return { inconclusive: 'error', message: `${what}: Prometheus answered bad_data: ${err.message}` };
    }
  }

  private judgeQuery(probe: PrometheusProbe): ProbeOutcome {
    if (probe.known !== undefined) return { ok: false, inconclusive: probe.known.inconclusive, message: probe.known.message };
    const baseline = probe.baselineQuery === undefined ? undefined : this.ask(probe.baselineQuery, 'baselineQuery');
    return judge(probe, this.ask(probe.query, 'query'), baseline, this.conditions);
  }

  /** A hook's GET no URL answers, under cluster.preUpdateHookSeconds: 503 until its drawn time has passed since its first GET. */
  private hookAnswer(probe: Extract<AnalysisProbe, { kind: 'http' }>): number | undefined {
    if (this.hooks === undefined || probe.pod === undefined) return undefined;
    const now = this.hooks.now();
    const first = this.firstCalls.get(probe.key) ?? now;
    this.firstCalls.set(probe.key, first);
    return now >= first + drawSeconds(this.hooks.seconds, this.hooks.seed, `${probe.key}/hook`) * 1000 ? probe.expectedStatus : 503;
  }

  readonly port: ProbePort = (probe) => Promise.resolve(this.answer(probe));
}
